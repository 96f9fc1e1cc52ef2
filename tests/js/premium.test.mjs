// The premium tracker: who is still exact in every deal of the pulka.
import assert from "node:assert/strict";
import { test } from "node:test";

import { premiumTracker, pulkaPosition } from "../../static/js/game/premium.js";

const classic = {
  players: 4,
  japanese: false,
  pulka_sizes: [8, 4, 8, 4],
};

function deal(bids, tricks) {
  return { bids, tricks, scores: [0, 0, 0, 0] };
}

function view(fields) {
  return { deal: 0, deals: [], phase: "bid", bids: [null, null, null, null], tricks: [0, 0, 0, 0], cards: 1, trick_number: 0, ...fields };
}

test("before the first deal everyone is on course", () => {
  assert.deepEqual(premiumTracker(view({}), classic), ["exact", "exact", "exact", "exact"]);
});

test("after an exact and a missed bid", () => {
  // Deal 1 (one card): seats 0 and 2 made their bids, 1 and 3 did not.
  const deals = [deal([0, 1, 0, 0], [0, 0, 0, 1])];
  const status = premiumTracker(view({ deal: 1, deals, cards: 2 }), classic);
  assert.deepEqual(status, ["exact", "missed", "exact", "missed"]);
});

test("a deal being played is lost once the bid can no longer be made", () => {
  const status = premiumTracker(
    view({ phase: "card", cards: 3, bids: [0, 2, 1, 1], tricks: [1, 0, 0, 1], trick_number: 2 }),
    classic,
  );
  // Seat 0 took a trick over its pass; seat 1 needs 2 with 1 left.
  assert.deepEqual(status, ["missed", "missed", "exact", "exact"]);
});

test("a new pulka starts everyone afresh", () => {
  const deals = Array.from({ length: 8 }, () => deal([1, 0, 0, 0], [0, 1, 0, 0]));
  const status = premiumTracker(view({ deal: 8, deals, cards: 9 }), classic);
  assert.deepEqual(status, ["exact", "exact", "exact", "exact"]);
});

test("Japanese Joker has no pulkas and no tracker", () => {
  assert.deepEqual(premiumTracker(view({}), { players: 2, japanese: true, pulka_sizes: [] }), []);
});

test("where a deal stands in its pulka", () => {
  assert.deepEqual(pulkaPosition(0, classic.pulka_sizes), { pulka: 1, index: 1, size: 8 });
  assert.deepEqual(pulkaPosition(9, classic.pulka_sizes), { pulka: 2, index: 2, size: 4 });
});
