// What the player is told, in words: refused moves by their error code
// (docs/protocol.md), and the events worth a line ("Deal 1 is over"). Pure.

import { fmt, gettext } from "../lib/i18n.js";
import { cardText, trumpName } from "./cards.js";

export function errorText(code, fallback) {
  const texts = {
    stale_version: gettext("The game moved on before your move arrived. Here is the table now."),
    late: gettext("Your move came after the time was up: the automatic move was made."),
    wrong_seat: gettext("It is not your turn."),
    wrong_action: gettext("Another kind of move is due."),
    illegal: gettext("That move is against the rules."),
    not_allowed: gettext("You cannot do that now."),
    not_playing: gettext("The game is over."),
    bad_record: gettext("That move is not complete."),
    rate_limited: gettext("Too many messages: wait a moment."),
    game_not_finished: gettext("The game is not over yet."),
    not_a_player: gettext("Only the game's players can ask for a rematch."),
    tournament_game: gettext("A tournament's games are not played again."),
    rematch_agreed: gettext("You have agreed to the rematch already."),
    rematch_made: gettext("The rematch was made already."),
    no_offer: gettext("There is no rematch offer."),
    rematch_refused: gettext("The rematch cannot be made."),
  };
  return texts[code] || fallback || gettext("Refused.");
}

// `you` is the reader's seat (null for a spectator): a timeout move of the
// reader's own is told as "for you".
export function eventText(event, names, you = null) {
  if (event.timeout) {
    const text = timeoutText(event, names, you);
    if (text) return text;
  }
  switch (event.type) {
    case "deal_over": {
      const result = event.result || {};
      const scores = (result.scores || result.points || []).map(
        (score, seat) => names(seat) + " " + (score > 0 ? "+" + score : String(score)),
      );
      return fmt(gettext("Deal %s is over: %s"), event.deal + 1, scores.join(", "));
    }
    case "pulka_over":
      return fmt(gettext("Pulka %s is over."), event.pulka);
    case "resign":
      return fmt(gettext("%s left the game."), names(event.seat));
    case "rejoin":
      return fmt(gettext("%s took their seat back."), names(event.seat));
    case "aborted":
      return gettext("The game was called off.");
    default:
      return "";
  }
}

// A move the timer made for its seat (the step's "cause": "timeout",
// docs/protocol.md).
function timeoutText(event, names, you) {
  const mine = you !== null && you !== undefined && event.seat === you;
  const who = names(event.seat);
  switch (event.type) {
    case "card":
      return mine
        ? fmt(gettext("Time ran out: %s was played for you."), cardText(event.card))
        : fmt(gettext("Time ran out: %s was played for %s."), cardText(event.card), who);
    case "bid":
      return mine
        ? fmt(gettext("Time ran out: a bid of %s was made for you."), event.bid)
        : fmt(gettext("Time ran out: a bid of %s was made for %s."), event.bid, who);
    case "trump":
      // The suit named (or "no trump"): the player has to know it to play.
      return mine
        ? fmt(gettext("Time ran out: trump was named for you: %s."), trumpName(event.trump))
        : fmt(gettext("Time ran out: trump was named for %s: %s."), who, trumpName(event.trump));
    default:
      return "";
  }
}

// The game's terms each kind of notice names (games/glossary.py): the table
// makes their words tappable. A timed-out move is "timeout_" and its type.
export const NOTICE_TERMS = {
  deal_over: ["deal"],
  pulka_over: ["pulka"],
  resign: [],
  rejoin: [],
  aborted: [],
  timeout_card: [],
  timeout_bid: ["bid"],
  timeout_trump: ["trump"],
};

export function eventTerms(event) {
  return NOTICE_TERMS[(event.timeout ? "timeout_" : "") + event.type] || [];
}
