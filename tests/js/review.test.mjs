// The replay's review panel's pure part: which decision a position shows,
// the jump to the next mistake, and the words of moves, losses, summaries
// and progress (static/js/replay/review.js), on a made-up review in the
// API's shape (docs/review.md).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  alternativeRows,
  amountText,
  bestText,
  canBeRemade,
  decisionAt,
  decisionPosition,
  hindsightRows,
  moveText,
  nextMistake,
  pending,
  seatReview,
  summaryLines,
  verdictText,
} from "../../static/js/replay/review.js";

function decision(deal, number, extra = {}) {
  return {
    deal,
    number,
    kind: "card",
    move: { card: "AD" },
    best: { card: "AD" },
    forced: false,
    loss: 0,
    grade: null,
    alternatives: [{ move: { card: "AD" }, same: [], value: 10, loss: 0, hindsight: null }],
    hindsight_best: null,
    ...extra,
  };
}

const blunder = decision(1, 6, {
  move: { card: "AD" },
  best: { card: "QS" },
  loss: 64.2,
  grade: "blunder",
  alternatives: [
    { move: { card: "QS" }, same: [{ card: "JS" }], value: -160.3, loss: 0, hindsight: -212.9 },
    { move: { card: "AD" }, same: [], value: -224.5, loss: 64.2, hindsight: 79.3 },
  ],
  hindsight_best: { card: "AD" },
});
const mistake = decision(2, 3, { kind: "bid", move: { bid: 0 }, best: { bid: 2 }, loss: 30, grade: "mistake" });
const seat = {
  seat: 2,
  unit: "points",
  decisions: [decision(0, 1, { forced: true }), blunder, decision(1, 9), mistake],
  summary: { deal: null, decisions: 4, forced: 1, loss: 31.4, accuracy: 61.2, grades: { inaccuracy: 0, mistake: 1, blunder: 1 } },
};

test("a seat's review is found by its seat number", () => {
  assert.equal(seatReview({ seats: [{ seat: 0 }, seat] }, 2), seat);
  assert.equal(seatReview({ seats: [seat] }, 1), null);
  assert.equal(seatReview(null, 2), null);
});

test("a decision is shown just after its move, and found there", () => {
  assert.deepEqual(decisionPosition(blunder), { d: 1, k: 7 });
  assert.equal(decisionAt(seat, { d: 1, k: 7 }), blunder);
  assert.equal(decisionAt(seat, { d: 1, k: 6 }), null);
});

test("the next mistake is the first graded decision after the position, then from the start again", () => {
  assert.equal(nextMistake(seat, { d: 0, k: 0 }), blunder);
  assert.equal(nextMistake(seat, { d: 1, k: 7 }), mistake);
  assert.equal(nextMistake(seat, { d: 2, k: 4 }), blunder);
  assert.equal(nextMistake({ ...seat, decisions: [decision(0, 1)] }, { d: 0, k: 0 }), null);
});

test("moves read as the table writes them", () => {
  assert.equal(moveText({ card: "TH" }), "10♥");
  assert.equal(moveText({ card: "X1", mode: "take", suit: "S" }), "joker (take ♠)");
  assert.equal(moveText({ bid: 0 }), "pass");
  assert.equal(moveText({ bid: 3 }), "bid 3");
  assert.equal(moveText({ trump: "none" }), "trump: no trump");
});

test("amounts round to whole points or hundredths of a trick, with the plural they need", () => {
  assert.equal(amountText("points", 1.2), "1 point");
  assert.equal(amountText("points", 14.6), "15 points");
  assert.equal(amountText("points", -160.3), "\u2212160 points");
  assert.equal(amountText("tricks", 0.456), "0.46 tricks");
  assert.equal(amountText("tricks", 1), "1 trick");
});

test("the best move and the ranked choices say what the move cost", () => {
  assert.equal(bestText(blunder, "points"), "Best was Q♠ (+64 points).");
  assert.equal(bestText(seat.decisions[2], "points"), null);
  const rows = alternativeRows(blunder, "points");
  assert.deepEqual(
    rows.map((row) => [row.move, row.value, row.loss, row.made]),
    [
      ["Q♠", "\u2212160 points", "", false],
      ["A♦", "\u2212225 points", "\u221264 points", true],
    ],
  );
  assert.equal(verdictText(blunder), "blunder");
  assert.equal(verdictText(seat.decisions[0]), "forced");
  assert.equal(verdictText(seat.decisions[2]), "no mistake");
});

test("a move that does the same as the best is the choice made", () => {
  const same = { ...blunder, move: { card: "JS" }, loss: 0, grade: null };
  assert.deepEqual(
    alternativeRows(same, "points").map((row) => row.made),
    [true, false],
  );
});

test("hindsight lists the real deal's results, its best first, apart", () => {
  const rows = hindsightRows(blunder, "points");
  assert.deepEqual(
    rows.map((row) => [row.move, row.best]),
    [
      ["A♦", true],
      ["Q♠", false],
    ],
  );
  assert.equal(hindsightRows(mistake, "points"), null);
});

test("a summary counts decisions, loss, accuracy and grades", () => {
  assert.deepEqual(summaryLines(seat.summary, "points"), [
    "4 decisions · 1 forced",
    "Lost per decision: 31 points · accuracy 61%",
    "1 blunder, 1 mistake",
  ]);
  const clean = { decisions: 2, forced: 2, loss: null, accuracy: null, grades: {} };
  assert.deepEqual(summaryLines(clean, "points"), ["2 decisions · 2 forced", "No mistakes."]);
});

test("a review is asked for again while made, and remade when failed or out of date", () => {
  assert.ok(pending({ status: "queued" }));
  assert.ok(pending({ status: "running" }));
  assert.ok(!pending({ status: "done" }));
  assert.ok(canBeRemade({ status: "failed" }, "2-a"));
  assert.ok(canBeRemade({ status: "done", version: "1-a" }, "2-a"));
  assert.ok(!canBeRemade({ status: "done", version: "2-a" }, "2-a"));
  assert.ok(!canBeRemade({ status: "running", version: "" }, "2-a"));
});
