// A finished game's deal review (docs/review.md) as the replay page shows
// it: which decision a replay position is, where the next mistake is, and
// the words and figures of grades, losses and summaries. Pure (the catalog
// is read through lib/i18n.js), so that node --test can read it.

import { cardText, modeText, trumpName } from "../game/cards.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";

// How often the page asks for a review still being made.
export const POLL_MS = 4000;

// A seat's review in the API's answer, or null.
export function seatReview(review, seat) {
  if (!review || !review.seats) return null;
  return review.seats.find((one) => one.seat === seat) || null;
}

// The replay position that shows a decision: its deal, just after its move
// (the step's sentence then names the move the review judges).
export function decisionPosition(decision) {
  return { d: decision.deal, k: decision.number + 1 };
}

function before(a, b) {
  return a.d < b.d || (a.d === b.d && a.k < b.k);
}

// The seat's decision shown at a replay position, or null.
export function decisionAt(seat, { d, k }) {
  return seat.decisions.find((one) => one.deal === d && one.number === k - 1) || null;
}

// The seat's decisions in deal d, in order.
export function dealDecisions(seat, d) {
  return seat.decisions.filter((one) => one.deal === d);
}

// The first graded decision after a position; from the game's start again
// when none is left after it; null when the seat made none.
export function nextMistake(seat, position) {
  const graded = seat.decisions.filter((one) => one.grade);
  if (graded.length === 0) return null;
  return graded.find((one) => before(position, decisionPosition(one))) || graded[0];
}

// A move as a live client sends it, in words: "trump hearts", "bid 2",
// "pass", "K♥", "joker (take ♥)".
export function moveText(move) {
  if ("trump" in move) return fmt(gettext("trump: %s"), trumpName(move.trump));
  if ("bid" in move) return move.bid === 0 ? gettext("pass") : fmt(gettext("bid %s"), move.bid);
  const mode = move.mode ? " (" + modeText(move) + ")" : "";
  return cardText(move.card) + mode;
}

function sameMove(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function language() {
  return (globalThis.document && globalThis.document.documentElement.lang) || "en";
}

function number(value, digits) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
}

// A figure in the review's unit: points rounded to whole points, tricks to
// hundredths. A fraction takes the form Russian gives after a fraction
// (the genitive singular, ngettext's second form), which is also the
// English plural; Georgian and Turkish do not inflect after a number.
export function amountText(unit, value) {
  const digits = unit === "tricks" ? 2 : 0;
  const shown = Number(value.toFixed(digits));
  const count = Number.isInteger(shown) ? Math.abs(shown) : 2;
  const text = number(Math.abs(shown), digits);
  const sign = shown < 0 ? "\u2212" : "";
  if (unit === "tricks") return sign + fmt(ngettext("%s trick", "%s tricks", count), text);
  return sign + fmt(ngettext("%s point", "%s points", count), text);
}

// "+14 points": what the best choice would have brought more.
export function gainText(unit, loss) {
  return "+" + amountText(unit, loss);
}

export function percentText(value) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(value / 100);
}

export function gradeText(grade) {
  return {
    inaccuracy: gettext("inaccuracy"),
    mistake: gettext("mistake"),
    blunder: gettext("blunder"),
  }[grade];
}

// The decision's verdict: its grade, "forced", or "good" (no loss beyond
// the noise).
export function verdictText(decision) {
  if (decision.forced) return gettext("forced");
  if (decision.grade) return gradeText(decision.grade);
  return gettext("no mistake");
}

// "Best was Q♠ (+14 points)", or null when the move made was the best.
export function bestText(decision, unit) {
  if (decision.forced || sameMove(decision.move, decision.best)) return null;
  return fmt(gettext("Best was %s (%s)."), moveText(decision.best), gainText(unit, decision.loss));
}

// The choices, best first, each with its expected result and what it
// would have lost; `made` marks the move chosen.
export function alternativeRows(decision, unit) {
  return decision.alternatives.map((choice) => ({
    move: moveText(choice.move),
    value: amountText(unit, choice.value),
    loss: choice.loss > 0 ? "\u2212" + amountText(unit, choice.loss) : "",
    made: [choice.move, ...(choice.same || [])].some((move) => sameMove(move, decision.move)),
  }));
}

// The hindsight view of a decision of the last tricks (every card face up,
// docs/review.md): each choice's result on the real deal, or null when the
// review offers none for it.
export function hindsightRows(decision, unit) {
  if (!decision.hindsight_best) return null;
  return decision.alternatives
    .filter((choice) => choice.hindsight !== null && choice.hindsight !== undefined)
    .map((choice) => ({
      move: moveText(choice.move),
      value: amountText(unit, choice.hindsight),
      best: sameMove(choice.move, decision.hindsight_best),
      made: [choice.move, ...(choice.same || [])].some((move) => sameMove(move, decision.move)),
    }))
    .sort((a, b) => Number(b.best) - Number(a.best));
}

// A summary (a deal's or the game's) in a few short lines.
export function summaryLines(summary, unit) {
  const lines = [
    fmt(ngettext("%s decision", "%s decisions", summary.decisions), summary.decisions) +
      (summary.forced ? " · " + fmt(ngettext("%s forced", "%s forced", summary.forced), summary.forced) : ""),
  ];
  if (summary.loss !== null) {
    lines.push(
      fmt(gettext("Lost per decision: %s"), amountText(unit, summary.loss)) +
        " · " +
        fmt(gettext("accuracy %s"), percentText(summary.accuracy)),
    );
  }
  const grades = summary.grades || {};
  const flagged = [
    [grades.blunder, (n) => ngettext("%s blunder", "%s blunders", n)],
    [grades.mistake, (n) => ngettext("%s mistake", "%s mistakes", n)],
    [grades.inaccuracy, (n) => ngettext("%s inaccuracy", "%s inaccuracies", n)],
  ]
    .filter(([count]) => count > 0)
    .map(([count, words]) => fmt(words(count), count));
  lines.push(flagged.length ? flagged.join(", ") : gettext("No mistakes."));
  return lines;
}

// The review's progress, in words, for an answer not done.
export function statusText(answer) {
  switch (answer.status) {
    case "queued":
      return gettext("The review is waiting its turn; this page updates by itself.");
    case "running":
      return gettext("The review is being made; this page updates by itself.");
    case "failed":
      return gettext("The review could not be made.");
    default:
      return "";
  }
}

// Whether an answer is still to be asked for again.
export function pending(answer) {
  return answer.status === "queued" || answer.status === "running";
}

// Whether the viewer may ask for it to be made again: it failed, or was
// made by another version of the review and its bot.
export function canBeRemade(answer, version) {
  return answer.status === "failed" || (answer.status === "done" && answer.version !== version);
}
