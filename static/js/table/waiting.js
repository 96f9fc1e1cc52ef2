// A table waiting for players: the seats are drawn by the server (with
// their buttons), so when someone takes or leaves a seat, or the game
// starts, the page is loaded again. The lobby's socket says when to look.

import { openSocket } from "../lib/socket.js";

const POLL_MS = 4000;

export function waitForStart(config) {
  if (config.status !== "open") return;
  let seen = null;
  let polling = false;

  async function check() {
    if (polling) return;
    polling = true;
    try {
      const response = await fetch(config.state_url, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (!response.ok) return;
      const data = await response.json();
      const seats = JSON.stringify(data.seats);
      const changed = seen !== null && seats !== seen;
      seen = seats;
      if (data.game || data.status !== config.status || changed) window.location.reload();
    } catch {
      // Offline for a moment: the next poll tries again.
    } finally {
      polling = false;
    }
  }

  openSocket(config.lobby_ws, {
    message: (message) => {
      if (message.type === "lobby") check();
    },
    open: (reopened) => {
      if (reopened) check();
    },
  });
  check();
  setInterval(check, POLL_MS);
}
