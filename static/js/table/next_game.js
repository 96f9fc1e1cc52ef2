// A tournament game's result says what comes next: the next game's table
// (and, between rounds, when the round began), or why there is none yet.
// The line is the server's (tournaments/views/next_game.py), in the
// player's language and time zone, read again whenever the personal socket
// says the player was seated at a new game ("next_game", static/js/me.js).
// A player who saw this game end here is then taken to the new table after
// a short countdown, as the tournament page takes them to their first one.

import { fmt, ngettext } from "../lib/i18n.js";

// Seconds the next game is shown before the page goes there.
export const COUNTDOWN_SECONDS = 5;

export class NextGame {
  constructor(box, { table, go, fetchLine = fetchText, tick = (f) => setTimeout(f, 1000) }) {
    this.box = box;
    this.table = table;
    this.go = go;
    this.fetchLine = fetchLine;
    this.tick = tick;
    this.over = null; // whether this page has seen the game over
    this.follow = false; // whether this page saw the game end live
    this.counting = false;
    this.asked = 0;
  }

  // Called with every redraw: the line is read once the game is over.
  render(snap) {
    if (!this.box) return;
    const over = snap.status !== "playing";
    if (this.over === null && !over) this.follow = true;
    if (over && !this.over) this.read();
    this.over = over;
  }

  // A "next_game" message of the personal socket. True when this page
  // handles it (the game here is over and the new game is elsewhere, or
  // the tournament is over: no table).
  seated(message) {
    if (!this.box || !this.over || message.table === this.table) return false;
    if (message.table !== null) this.follow = true;
    this.read();
    return true;
  }

  async read() {
    const asked = ++this.asked;
    const html = await this.fetchLine(this.box.dataset.url);
    // An older answer that arrives after a newer one is dropped.
    if (asked !== this.asked || html === null) return;
    this.box.innerHTML = html;
    this.box.hidden = html === "";
    const line = this.box.querySelector("[data-table-url]");
    if (line && this.follow) this.countDown(line.dataset.tableUrl);
  }

  countDown(url) {
    if (this.counting) return;
    this.counting = true;
    let left = COUNTDOWN_SECONDS;
    const step = () => {
      const shown = this.box.querySelector(".next-countdown");
      if (shown) shown.textContent = fmt(ngettext("Taking you there in %s second.", "Taking you there in %s seconds.", left), left);
      if (left <= 0) {
        this.go(url);
        return;
      }
      left -= 1;
      this.tick(step);
    };
    step();
  }
}

async function fetchText(url) {
  try {
    const response = await fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "text/html" },
    });
    if (response.status === 204) return "";
    if (!response.ok) return null;
    return await response.text();
  } catch {
    return null; // the next message or redraw reads it again
  }
}
