// The replay page's stepping, checked on the engine's example records
// (tests/joker/examples: NAME.record.json and, as "output" in
// NAME.expected.json, the result the server's replay gives, which is what the
// page embeds beside the record).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { describeStep, positionText } from "../../static/js/replay/describe.js";
import { clampIndex, dealStepIndex, indexOfHash, positionHash } from "../../static/js/replay/navigation.js";
import { sheetAt } from "../../static/js/replay/sheet.js";
import { dealerOf, openReplay, stateAt, totalsThrough } from "../../static/js/replay/steps.js";

const EXAMPLES = new URL("../joker/examples/", import.meta.url);

// The rules as the page's config gives them (games/views/table.py
// _rules_json), for the profiles of the records used here.
const NINES = { players: 4, japanese: false, pulka_sizes: [4, 4, 4, 4] };
const CLASSIC = { players: 4, japanese: false, pulka_sizes: [8, 4, 8, 4] };
const JAPANESE = { players: 2, japanese: true, pulka_sizes: [] };

function example(name, rules) {
  const read = (suffix) => JSON.parse(readFileSync(new URL(name + suffix, EXAMPLES), "utf8"));
  return openReplay(rules, read(".record.json"), read(".expected.json").output);
}

const clubNines = example("club-nines-complete-game-01", NINES);
const tvaladze = example("tvaladze-complete-game-01", CLASSIC);
const japanese = example("japanese-complete-resign-01", JAPANESE);

const name = (seat) => "Seat " + (seat + 1);
const lastAction = (replay, d) => replay.deals[d].actions.length;
const endOfDeal = (replay, d) => stateAt(replay, d, lastAction(replay, d));
const atPosition = (replay, index) => stateAt(replay, replay.positions[index].d, replay.positions[index].k);
const sum = (values) => values.reduce((a, b) => a + b, 0);

test("every deal has a position before its first action and after each one", () => {
  const { positions, deals } = clubNines;
  assert.equal(deals.length, 16);
  assert.equal(positions.length, sum(deals.map((deal) => deal.actions.length + 1)));
  assert.deepEqual(positions[0], { d: 0, k: 0 });
  assert.deepEqual(positions[1], { d: 0, k: 1 });
  assert.deepEqual(positions[deals[0].actions.length + 1], { d: 1, k: 0 });
  assert.deepEqual(positions.at(-1), { d: 15, k: lastAction(clubNines, 15) });
});

test("the dealers and declarers go round from the record's first one", () => {
  for (const replay of [clubNines, tvaladze]) {
    replay.result.deals.forEach((outcome, d) => assert.equal(dealerOf(replay, d), outcome.dealer, `deal ${d}`));
  }
  assert.equal(dealerOf(japanese, 0), japanese.result.deals[0].declarer);
  assert.equal(dealerOf(japanese, 1), 0);
});

test("a deal starts with the dealt hands, no bids and the totals so far", () => {
  const state = stateAt(clubNines, 5, 0);
  assert.deepEqual(state.hands, clubNines.deals[5].hands);
  assert.deepEqual(state.bids, [null, null, null, null]);
  assert.deepEqual(state.tricks, [0, 0, 0, 0]);
  assert.deepEqual(state.trick, []);
  assert.equal(state.last, null);
  assert.equal(state.dealOver, false);
  assert.deepEqual(state.totals, endOfDeal(clubNines, 4).totals);
});

test("at each deal's end every card is played and bids, tricks and trump are the engine's", () => {
  for (const replay of [clubNines, tvaladze]) {
    replay.result.deals.forEach((outcome, d) => {
      const state = endOfDeal(replay, d);
      assert.equal(state.dealOver, true);
      assert.deepEqual(state.hands, [[], [], [], []], `deal ${d}`);
      assert.deepEqual(state.bids, outcome.bids, `deal ${d}`);
      assert.deepEqual(state.tricks, outcome.tricks, `deal ${d}`);
      assert.equal(state.trump, outcome.trump, `deal ${d}`);
    });
  }
});

test("the totals at the end are the engine's, premiums and deductions included", () => {
  for (const replay of [clubNines, tvaladze, japanese]) {
    assert.deepEqual(atPosition(replay, replay.positions.length - 1).totals, replay.result.totals);
  }
});

test("a pulka's premiums count only once its last deal is over", () => {
  // Nines: the first pulka is deals 0–3, and its premium changes the totals.
  const [first] = clubNines.result.pulkas;
  assert.notDeepEqual(first.bonus, first.deduction);
  const scoresThrough = (last) =>
    [0, 1, 2, 3].map((seat) => sum(clubNines.result.deals.slice(0, last + 1).map((deal) => deal.scores[seat])));
  assert.deepEqual(endOfDeal(clubNines, 2).totals, scoresThrough(2));
  assert.deepEqual(
    endOfDeal(clubNines, 3).totals,
    scoresThrough(3).map((score, seat) => score + first.bonus[seat] - first.deduction[seat]),
  );
  assert.deepEqual(totalsThrough(clubNines, -1), [0, 0, 0, 0]);
});

test("a trick stays on the table with its winner until the next card", () => {
  const winners = clubNines.result.deals[0].trick_winners;
  const firstCard = clubNines.deals[0].actions.findIndex((action) => "card" in action);
  const completed = stateAt(clubNines, 0, firstCard + 4);
  assert.deepEqual(
    completed.finished.cards.map((play) => play.seat),
    clubNines.deals[0].actions.slice(firstCard, firstCard + 4).map((action) => action.seat),
  );
  assert.equal(completed.finished.winner, winners[0]);
  assert.deepEqual(completed.trick, []);
  assert.equal(sum(completed.tricks), 1);
  assert.equal(completed.tricks[winners[0]], 1);
  const next = stateAt(clubNines, 0, firstCard + 5);
  assert.equal(next.finished, null);
  assert.equal(next.trick.length, 1);
  assert.equal(sum(next.hands.map((hand) => hand.length)), 4 * 9 - 5);
});

test("Japanese Joker: a face-up card leaves its column and turns the card below into the hand", () => {
  // The first deal's sixth action: seat 0 plays JS, face up on 9D.
  const before = stateAt(japanese, 0, 5);
  const after = stateAt(japanese, 0, 6);
  assert.equal(before.columns[0].length, 5);
  assert.deepEqual(
    after.columns[0].map((column) => column.up),
    ["9H", "TS", "QC", "JH"],
  );
  assert.ok(after.hands[0].includes("9D"));
  assert.equal(after.hands[0].length, before.hands[0].length + 1);
  const end = endOfDeal(japanese, 0);
  assert.deepEqual(end.hands, [[], []]);
  assert.deepEqual(end.columns, [[], []]);
  assert.deepEqual(end.tricks, japanese.result.deals[0].tricks);
});

test("Japanese Joker: a resignation marks the seat as gone and leaves the deal unscored", () => {
  const resigned = lastAction(japanese, 1);
  assert.equal(stateAt(japanese, 1, resigned - 1).left.size, 0);
  const end = stateAt(japanese, 1, resigned);
  assert.deepEqual([...end.left], [1]);
  assert.equal(end.outcome, undefined);
  assert.equal(end.dealOver, false);
  assert.deepEqual(end.totals, [2, 0]);
});

test("a deal step goes to a deal's start, back to the current one's first, forward to the end", () => {
  const { positions } = clubNines;
  const dealCount = clubNines.deals.length;
  const startOf = (d) => positions.findIndex((p) => p.d === d);
  const inside = startOf(3) + 7;
  assert.equal(dealStepIndex(positions, dealCount, inside, 1), startOf(4));
  assert.equal(dealStepIndex(positions, dealCount, inside, -1), startOf(3));
  assert.equal(dealStepIndex(positions, dealCount, startOf(3), -1), startOf(2));
  assert.equal(dealStepIndex(positions, dealCount, 0, -1), 0);
  assert.equal(dealStepIndex(positions, dealCount, startOf(15) + 2, 1), positions.length - 1);
  assert.equal(clampIndex(positions, -3), 0);
  assert.equal(clampIndex(positions, positions.length + 3), positions.length - 1);
});

test("the address names a position and opens the replay there", () => {
  const { positions } = clubNines;
  assert.equal(positionHash({ d: 2, k: 10 }), "#deal-3-step-10");
  const index = indexOfHash(positions, "#deal-3-step-10");
  assert.deepEqual(positions[index], { d: 2, k: 10 });
  positions.forEach((position, i) => assert.equal(indexOfHash(positions, positionHash(position)), i));
  assert.equal(indexOfHash(positions, "#deal-17-step-0"), null);
  assert.equal(indexOfHash(positions, "#deal-1-step-999"), null);
  assert.equal(indexOfHash(positions, ""), null);
});

test("the words for the step shown", () => {
  const deal = clubNines.deals[0];
  assert.equal(describeStep(clubNines, stateAt(clubNines, 0, 0), name), "Deal 1: Seat 2 deals 9 cards each.");
  assert.equal(describeStep(clubNines, stateAt(clubNines, 0, 1), name), "Seat 3 names trump: no trump.");
  assert.equal(describeStep(clubNines, stateAt(clubNines, 0, 2), name), "Seat 3 bids 5.");
  assert.equal(positionText(clubNines, stateAt(clubNines, 0, 2)), `Deal 1 of 16 · step 2 of ${deal.actions.length}`);
  const trickDone = describeStep(clubNines, stateAt(clubNines, 0, 9), name);
  assert.equal(trickDone, "Seat 2 plays A♥. Seat 2 takes the trick.");
  const over = describeStep(clubNines, endOfDeal(clubNines, 0), name);
  assert.match(over, / Deal over: Seat 1 \+200, Seat 2 \+250, Seat 3 \+10, Seat 4 \+10\.$/);
  assert.match(describeStep(tvaladze, stateAt(tvaladze, 0, 0), name), /^Deal 1: Seat 2 deals 1 card each\. Turned card: .+\.$/);
  assert.equal(describeStep(japanese, stateAt(japanese, 0, 0), name), "Deal 1: Seat 2 declares.");
  assert.equal(describeStep(japanese, stateAt(japanese, 1, lastAction(japanese, 1)), name), "Seat 2 resigns.");
});

test("the scoresheet shows only the deals played up to the position, the places at the end", () => {
  const names = ["a", "b", "c", "d"];
  const rowsAt = (state, atEnd = false) => sheetAt(clubNines, state, { names, atEnd }).rows.map((row) => row.className);
  assert.deepEqual(rowsAt(stateAt(clubNines, 0, 0)), ["current-row here"]);
  assert.deepEqual(rowsAt(endOfDeal(clubNines, 0)), ["deal-row here"]);
  assert.equal(rowsAt(endOfDeal(clubNines, 2)).filter((row) => row === "pulka-row").length, 0);
  assert.equal(rowsAt(endOfDeal(clubNines, 3)).filter((row) => row === "pulka-row").length, 1);
  const lastIndex = clubNines.positions.length - 1;
  const end = sheetAt(clubNines, atPosition(clubNines, lastIndex), { names, atEnd: true });
  assert.equal(end.rows.filter((row) => row.className.startsWith("deal-row")).length, 16);
  assert.ok(end.foot.some((row) => row.className === "places-row"));
  const notYet = sheetAt(clubNines, endOfDeal(clubNines, 15), { names, atEnd: false });
  assert.ok(!notYet.foot.some((row) => row.className === "places-row"));
});
