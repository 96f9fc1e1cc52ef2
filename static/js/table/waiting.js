// A table waiting for players: the seats are drawn by the server (with
// their buttons), so when someone takes or leaves a seat, or the game
// starts, the page is loaded again. The table's waiting socket says when to
// look, and carries the table's chat meanwhile (docs/chat.md): the same
// rooms as at the game, so the talk goes on when it begins.

import { openSocket } from "../lib/socket.js";
import { tableChat } from "./chat.js";

const POLL_MS = 4000;
// No such table, or a private one (the seat was given up meanwhile), or
// the session ended: trying again cannot help.
const FINAL_CODES = [4401, 4403, 4404];

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

  const chatRoot = document.getElementById("chat");
  let chat = null;
  const socket = openSocket(
    config.ws_path,
    {
      message: (message) => {
        if (chat && chat.receive(message)) return;
        if (message.type === "lobby") check();
      },
      open: (reopened) => {
        if (reopened) check();
      },
      // Shown on the panel, so that what waits for a connection can tell.
      status: (state) => {
        if (chatRoot) chatRoot.dataset.socket = state;
      },
    },
    { finalCodes: FINAL_CODES },
  );
  chat = tableChat(config.you, (message) => socket.send(message));
  check();
  setInterval(check, POLL_MS);
}
