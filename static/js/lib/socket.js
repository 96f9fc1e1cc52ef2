// The one reconnecting WebSocket of every live page (table, lobby, quick
// play, tournament): it pings while open, reconnects with backoff and says
// when it has reopened, so that the page can catch up on what it missed.
//
// Modelled on lichess's ui/round socket: the page owns what a message means,
// this module owns only the connection.

export const PING_EVERY_MS = 5000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;

// The wait before reconnection attempt `attempt` (0, 1, 2 ...): doubling
// from half a second up to 15 s, with jitter (x0.75 to x1.25) so that the
// clients of a restarted server do not all come back at once.
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
  return Math.round(base * (0.75 + random() / 2));
}

export function socketAddress(path, location = globalThis.location) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  return scheme + location.host + path;
}

/**
 * openSocket(path, handlers, options): connect and keep connected.
 *
 * handlers.message(message): every JSON object received;
 * handlers.open(reopened): connected (reopened: true after a reconnection);
 * handlers.status(state): "connecting", "online", "offline" or "closed";
 * handlers.closed(event): a close with one of options.finalCodes, after
 *   which trying again cannot help (no such game, signed out, banned).
 *
 * options.pingEvery: ms between pings (5 s: the table's server counts a
 *   socket not heard from for 15 s as gone);
 * options.silence: ms without any message (pongs included) after which the
 *   connection is taken for dead and replaced; 0 to trust the browser;
 * options.WebSocket, options.timers, options.random, options.window,
 *   options.document: for tests.
 *
 * A connection waiting for its next attempt tries at once when the browser
 * says it is online again or the page is shown again (a phone back from a
 * tunnel or from another app): after a long outage the backoff's wait is up
 * to 19 s, and a player back within the table's grace would lose the seat
 * while waiting for it.
 *
 * Returns {send(message) -> bool, close(), isOpen()}.
 */
export function openSocket(path, handlers, options = {}) {
  const WebSocketImpl = options.WebSocket || globalThis.WebSocket;
  const timers = options.timers || globalThis;
  const random = options.random || Math.random;
  const pingEvery = options.pingEvery ?? PING_EVERY_MS;
  const silence = options.silence ?? 0;
  const finalCodes = options.finalCodes || [];
  const address = options.address || socketAddress(path);
  const notify = (name, ...args) => handlers[name] && handlers[name](...args);
  const win = options.window || globalThis.window;
  const doc = options.document || globalThis.document;

  let socket = null;
  let attempt = 0;
  let opened = false;
  let stopped = false;
  let pingTimer = null;
  let heardAt = 0;
  let retryTimer = null;

  function connect() {
    notify("status", opened ? "offline" : "connecting");
    socket = new WebSocketImpl(address);
    const current = socket;
    current.onopen = () => {
      heardAt = Date.now();
      notify("status", "online");
      notify("open", opened);
      opened = true;
      pingTimer = timers.setInterval(() => heartbeat(current), pingEvery);
    };
    current.onmessage = (event) => {
      heardAt = Date.now();
      // The backoff starts again only once the server has said something:
      // a refusal is a socket accepted and closed at once with its code
      // (docs/protocol.md), so being opened proves nothing.
      attempt = 0;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // Not JSON: nothing this page can read.
      }
      if (message && typeof message === "object") notify("message", message);
    };
    current.onclose = (event) => {
      timers.clearInterval(pingTimer);
      pingTimer = null;
      if (current !== socket) return;
      if (stopped) return;
      if (finalCodes.includes(event.code)) {
        stopped = true;
        notify("status", "closed");
        notify("closed", event);
        return;
      }
      notify("status", "offline");
      retryTimer = timers.setTimeout(retry, backoffDelay(attempt, random));
      attempt += 1;
    };
  }

  function retry() {
    retryTimer = null;
    connect();
  }

  // Back online, or shown again: the attempt that was waiting is made now.
  function retryNow() {
    if (stopped || retryTimer === null) return;
    if (doc && doc.visibilityState === "hidden") return;
    timers.clearTimeout(retryTimer);
    retry();
  }

  function heartbeat(current) {
    if (current.readyState !== 1) return;
    if (silence && Date.now() - heardAt > silence) {
      // Open as far as the browser knows, yet silent: a dead connection
      // (a sleeping laptop, a dropped NAT entry). Replace it.
      current.close(4000, "silent");
      return;
    }
    current.send(JSON.stringify({ type: "ping" }));
  }

  if (win && win.addEventListener) win.addEventListener("online", retryNow);
  if (doc && doc.addEventListener) doc.addEventListener("visibilitychange", retryNow);
  connect();

  return {
    send(message) {
      if (!socket || socket.readyState !== 1) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    isOpen() {
      return Boolean(socket) && socket.readyState === 1;
    },
    close() {
      stopped = true;
      timers.clearInterval(pingTimer);
      timers.clearTimeout(retryTimer);
      if (win && win.removeEventListener) win.removeEventListener("online", retryNow);
      if (doc && doc.removeEventListener) doc.removeEventListener("visibilitychange", retryNow);
      if (socket) socket.close(1000);
    },
  };
}
