// The replay's words: what the step shown did, and which step of which deal
// it is. Pure (the catalog is read through lib/i18n.js), so node --test can
// read them.

import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { cardText, modeText, trumpName } from "../game/cards.js";
import { dealerOf } from "./steps.js";

// A sentence for the state's last action; at a deal's start, who deals (or
// declares) and how many cards. name(seat) gives a seat's name.
export function describeStep(replay, state, name) {
  const { japanese } = replay;
  const { d, k, deal, last } = state;
  if (k === 0) {
    const cards = japanese ? 18 : deal.hands[0].length;
    let text = japanese
      ? fmt(gettext("Deal %s: %s declares."), d + 1, name(dealerOf(replay, d)))
      : fmt(
          ngettext("Deal %s: %s deals %s card each.", "Deal %s: %s deals %s cards each.", cards),
          d + 1,
          name(dealerOf(replay, d)),
          cards,
        );
    if (!japanese && deal.turned) {
      text += " " + fmt(gettext("Turned card: %s."), cardText(deal.turned));
    }
    return text;
  }
  const who = name(last.seat);
  let text;
  if ("trump" in last) {
    text = fmt(gettext("%s names trump: %s."), who, trumpName(last.trump));
  } else if ("bid" in last) {
    text = last.bid === 0 ? fmt(gettext("%s passes."), who) : fmt(gettext("%s bids %s."), who, last.bid);
  } else if (last.resign) {
    text = fmt(gettext("%s resigns."), who);
  } else {
    const mode = last.mode ? " (" + modeText(last) + ")" : "";
    text = fmt(gettext("%s plays %s."), who, cardText(last.card) + mode);
    if (state.finished && state.finished.winner !== null) {
      text += " " + fmt(gettext("%s takes the trick."), name(state.finished.winner));
    }
  }
  if (state.dealOver) {
    const scores = japanese ? state.outcome.points : state.outcome.scores;
    text +=
      " " +
      fmt(
        gettext("Deal over: %s."),
        scores.map((score, seat) => name(seat) + " " + (score > 0 ? "+" + score : String(score))).join(", "),
      );
  }
  return text;
}

// "Deal 2 of 16 · step 5 of 40".
export function positionText(replay, { d, k }) {
  const total = replay.deals[d].actions.length;
  return fmt(gettext("Deal %s of %s"), d + 1, replay.deals.length) + " · " + fmt(gettext("step %s of %s"), k, total);
}
