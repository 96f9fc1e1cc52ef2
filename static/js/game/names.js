// Seat names as the page shows them. Bots are named here, in the page's own
// language, rather than taken from the server's text (which may have been
// made in another language).

import { fmt, gettext } from "../lib/i18n.js";

export function seatName(seats, seat) {
  const info = seats[seat];
  if (info && info.bot === "practice") return fmt(gettext("Practice bot %s"), seat + 1);
  if (info && info.bot === "easy") return fmt(gettext("Easy bot %s"), seat + 1);
  if (info && info.bot === "strong") return fmt(gettext("Strong bot %s"), seat + 1);
  if (info && info.bot === "autopilot") return fmt(gettext("Autopilot %s"), seat + 1);
  if (info && info.bot) return fmt(gettext("Bot %s"), seat + 1);
  return (info && info.name) || fmt(gettext("Seat %s"), seat + 1);
}
