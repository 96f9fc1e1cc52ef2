// The reconnecting socket, against a fake WebSocket and fake timers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PING_EVERY_MS, backoffDelay, openSocket } from "../../static/js/lib/socket.js";

class FakeTimers {
  constructor() {
    this.now = 0;
    this.jobs = [];
    this.nextId = 1;
  }
  setTimeout(fn, ms) {
    const id = this.nextId++;
    this.jobs.push({ id, at: this.now + ms, fn });
    return id;
  }
  setInterval(fn, ms) {
    const id = this.nextId++;
    this.jobs.push({ id, at: this.now + ms, fn, every: ms });
    return id;
  }
  clearTimeout(id) {
    this.jobs = this.jobs.filter((job) => job.id !== id);
  }
  clearInterval(id) {
    this.clearTimeout(id);
  }
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = this.jobs.filter((job) => job.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.now = due.at;
      if (due.every) due.at += due.every;
      else this.jobs = this.jobs.filter((job) => job !== due);
      due.fn();
    }
    this.now = end;
  }
}

function fakeSockets() {
  const made = [];
  class FakeSocket {
    constructor(address) {
      this.address = address;
      this.readyState = 0;
      this.sent = [];
      made.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close(code = 1000) {
      this.readyState = 3;
      this.onclose({ code });
    }
    // The server's side.
    accept() {
      this.readyState = 1;
      this.onopen();
    }
    drop(code = 1006, reason = "") {
      this.readyState = 3;
      this.onclose({ code, reason });
    }
    deliver(message) {
      this.onmessage({ data: JSON.stringify(message) });
    }
  }
  return { made, FakeSocket };
}

function open(handlers = {}, options = {}) {
  const timers = new FakeTimers();
  const { made, FakeSocket } = fakeSockets();
  const events = [];
  const socket = openSocket(
    "/ws/games/7/",
    {
      status: (s) => events.push("status:" + s),
      open: (reopened) => events.push(reopened ? "reopened" : "opened"),
      message: (m) => events.push(m),
      closed: (e) => events.push("closed:" + e.code),
      ...handlers,
    },
    { WebSocket: FakeSocket, timers, random: () => 0.5, address: "ws://x/ws/games/7/", ...options },
  );
  return { socket, timers, made, events };
}

test("the backoff doubles from half a second up to fifteen, with jitter", () => {
  const middle = () => 0.5;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelay(n, middle)), [
    500, 1000, 2000, 4000, 8000, 15000, 15000, 15000,
  ]);
  assert.equal(backoffDelay(0, () => 0), 375);
  assert.equal(backoffDelay(0, () => 1), 625);
});

test("it pings every five seconds while open", () => {
  const { made, timers } = open();
  made[0].accept();
  timers.advance(PING_EVERY_MS * 3);
  assert.deepEqual(made[0].sent, [{ type: "ping" }, { type: "ping" }, { type: "ping" }]);
});

test("it reconnects after a drop and says it reopened", () => {
  const { made, timers, events } = open();
  made[0].accept();
  made[0].drop();
  assert.equal(made.length, 1, "not at once");
  timers.advance(500);
  assert.equal(made.length, 2);
  made[1].accept();
  assert.deepEqual(events, ["status:connecting", "status:online", "opened", "status:offline", "status:offline", "status:online", "reopened"]);
  // The old socket's ping timer is gone: only the new socket pings.
  timers.advance(PING_EVERY_MS);
  assert.deepEqual(made[0].sent, []);
  assert.deepEqual(made[1].sent, [{ type: "ping" }]);
});

test("attempts back off while the server stays away, and reset once back", () => {
  const { made, timers } = open();
  made[0].drop();
  timers.advance(500);
  made[1].drop();
  timers.advance(999);
  assert.equal(made.length, 2);
  timers.advance(1);
  assert.equal(made.length, 3);
  made[2].accept();
  made[2].deliver({ type: "pong" });
  made[2].drop();
  timers.advance(500);
  assert.equal(made.length, 4);
});

test("a socket closed as soon as it opens (a refusal) goes on backing off", () => {
  const { made, timers } = open();
  made[0].accept();
  made[0].drop(4429);
  timers.advance(500);
  made[1].accept();
  made[1].drop(4429);
  timers.advance(999);
  assert.equal(made.length, 2);
  timers.advance(1);
  assert.equal(made.length, 3);
});

test("a final close code stops it", () => {
  const { made, timers, events } = open({}, { finalCodes: [4404] });
  made[0].drop(4404);
  timers.advance(60_000);
  assert.equal(made.length, 1);
  assert.deepEqual(events.slice(-2), ["status:closed", "closed:4404"]);
});

test("a silent connection is replaced", () => {
  const { made, timers } = open({}, { silence: 15_000 });
  const realNow = Date.now;
  let now = 0;
  Date.now = () => now;
  try {
    made[0].accept();
    now = 20_000;
    timers.advance(PING_EVERY_MS);
    assert.equal(made[0].readyState, 3, "closed for its silence");
    timers.advance(500);
    assert.equal(made.length, 2);
  } finally {
    Date.now = realNow;
  }
});

test("messages are parsed; what is not JSON is dropped", () => {
  const { made, events } = open();
  made[0].accept();
  made[0].deliver({ type: "pong" });
  made[0].onmessage({ data: "not json" });
  assert.deepEqual(events.at(-1), { type: "pong" });
});

test("send says whether the message went", () => {
  const { socket, made } = open();
  assert.equal(socket.send({ type: "sync", version: 3 }), false);
  made[0].accept();
  assert.equal(socket.send({ type: "sync", version: 3 }), true);
  assert.deepEqual(made[0].sent, [{ type: "sync", version: 3 }]);
});

// A browser's window and document, as far as the socket listens to them.
function fakeBrowser() {
  const window = new EventTarget();
  const document = new EventTarget();
  document.visibilityState = "visible";
  return { window, document };
}

test("back online, the attempt that was waiting is made at once", () => {
  const { window, document } = fakeBrowser();
  const { made, timers } = open({}, { window, document });
  made[0].accept();
  // A long outage: the wait before the next attempt has grown to 15 s.
  made[0].drop();
  for (let n = 0; n < 6; n += 1) {
    timers.advance(15_000);
    made.at(-1).drop();
  }
  const before = made.length;
  timers.advance(1000);
  assert.equal(made.length, before, "still waiting for its turn");
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, before + 1);
  made.at(-1).accept();
  // The waiting attempt was replaced, not added to: no second socket later.
  timers.advance(20_000);
  assert.equal(made.length, before + 1);
});

test("a page shown again tries at once; a hidden one waits", () => {
  const { window, document } = fakeBrowser();
  const { made } = open({}, { window, document });
  made[0].accept();
  made[0].drop();
  document.visibilityState = "hidden";
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(made.length, 1);
  document.visibilityState = "visible";
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(made.length, 2);
});

test("being online while connected, or after a final close, changes nothing", () => {
  const { window, document } = fakeBrowser();
  const { socket, made } = open({}, { window, document, finalCodes: [4404] });
  made[0].accept();
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, 1);
  made[0].drop(4404);
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, 1);
  socket.close();
});
