// The quick-play page while the player waits: count the time, keep the
// pool's size and the rating range fresh, and open the table as soon as the
// server says there is one. Without JavaScript the page still works: reload
// it to see the status; a matched player finds a link to the table.
import { openSocket } from "./lib/socket.js";

{

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function clock(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }

  function setUpWaiting(box) {
    var waitedEl = document.getElementById("quickplay-waited");
    var windowEl = document.getElementById("quickplay-window");
    var playersEl = document.getElementById("quickplay-players");
    var waitedAtLoad = Number(box.getAttribute("data-waited")) || 0;
    var loadedAt = Date.now();
    var pingEvery = (Number(box.getAttribute("data-ping-seconds")) || 10) * 1000;
    var removedUrl = box.getAttribute("data-removed-url");
    // The countdown to the practice bots, when they will come.
    var botsBox = document.getElementById("quickplay-bots");
    var botsEl = document.getElementById("quickplay-bots-in");
    var botsInAtLoad = botsBox ? Number(botsBox.getAttribute("data-bots-in")) || 0 : null;
    var leaving = false;
    let socket = null;

    // The time waited, counted from the server's figure at page load so a
    // wrong clock on this computer does not matter.
    function tick() {
      var since = (Date.now() - loadedAt) / 1000;
      waitedEl.textContent = clock(waitedAtLoad + since);
      if (botsEl) botsEl.textContent = String(Math.max(0, Math.ceil(botsInAtLoad - since)));
    }
    tick();
    setInterval(tick, 1000);

    function go(url) {
      if (leaving || !url) return;
      leaving = true;
      if (socket) socket.close();
      window.location.assign(url);
    }

    function onMessage(message) {
      if (!message || typeof message.type !== "string") return;
      if (message.type === "matched") {
        go(message.url);
      } else if (message.type === "removed") {
        go(removedUrl);
      } else if (message.type === "status") {
        if (message.waiting) {
          waitedAtLoad = message.waited;
          if (typeof message.bots_in === "number") botsInAtLoad = message.bots_in;
          loadedAt = Date.now();
          windowEl.textContent = message.window;
          playersEl.textContent = message.players;
        } else if (message.url) {
          // Matched while this page was not connected.
          go(message.url);
        } else {
          // Left the pool (cancelled in another tab, or removed).
          go(removedUrl);
        }
      }
    }

    if (!("WebSocket" in window)) return;
    socket = openSocket(
      box.getAttribute("data-socket"),
      {
        message: onMessage,
        // Asking for the status at once also catches a match made while
        // this page was reconnecting.
        open: () => socket && socket.send({ type: "ping" }),
      },
      { pingEvery },
    );
  }

  function start() {
    var box = document.getElementById("quickplay");
    if (box && box.hasAttribute("data-socket")) setUpWaiting(box);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
