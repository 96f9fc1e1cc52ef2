// What a player whose seat was left to a bot is told, and their way back.
// The seat's `left_cause` says why it was left (docs/protocol.md); on a
// casual table (`rejoin_allowed`) the player may take the seat back, and it
// is theirs again from its next turn. Elsewhere the rule keeps its
// consequence, and the note says which.

import { fmt, gettext } from "../lib/i18n.js";

export function awayText(snap, japanese) {
  const info = snap.you === null || snap.you === undefined ? null : snap.seats[snap.you];
  if (!info || !info.left) return "";
  const away = info.left_cause === "disconnect";
  const grace = snap.grace_seconds;
  if (snap.status !== "playing") {
    if (japanese) {
      return away
        ? fmt(gettext("You were away longer than %s s, so the match is lost."), grace)
        : gettext("You left the game, so the match is lost.");
    }
    return away
      ? fmt(gettext("You were away longer than %s s: a bot played for you, and you were placed last."), grace)
      : gettext("You left the game: a bot played for you, and you were placed last.");
  }
  if (japanese) return "";
  const why = away
    ? fmt(gettext("You were away longer than %s s, so a bot is playing for you."), grace)
    : gettext("You left the game, so a bot is playing for you.");
  let then;
  if (info.rejoining) {
    then = gettext("Your seat is yours again from your next turn; the bot plays until then.");
  } else if (snap.rejoin_allowed) {
    then = gettext("This table is casual: you may take your seat back from your next turn.");
  } else {
    then = gettext("At a ranked, staked or tournament table you stay placed last for ratings and stakes.");
  }
  return why + " " + then;
}

export class AwayNote {
  constructor({ root, text, button }, { japanese, send }) {
    this.root = root;
    this.text = text;
    this.button = button;
    this.japanese = japanese;
    button.addEventListener("click", () => {
      button.disabled = true;
      send({ type: "rejoin" });
    });
  }

  render(snap) {
    const text = awayText(snap, this.japanese);
    this.root.hidden = !text;
    this.text.textContent = text;
    const info = snap.you === null || snap.you === undefined ? null : snap.seats[snap.you];
    const offered = Boolean(
      info && info.left && snap.rejoin_allowed && !info.rejoining && snap.status === "playing",
    );
    this.button.hidden = !offered;
    if (offered) this.button.disabled = false;
  }
}
