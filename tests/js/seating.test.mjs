// Where the seats sit on the felt, partners, pulkas, and seat names.
import assert from "node:assert/strict";
import { test } from "node:test";

import { seatName } from "../../static/js/game/names.js";
import { partnerOf, positionOf, pulkaDeals, pulkaOf } from "../../static/js/game/seating.js";

test("the player sits at the bottom, the next seat on the left", () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => positionOf(s, 2, 4)), ["top", "right", "bottom", "left"]);
  assert.deepEqual([0, 1].map((s) => positionOf(s, 1, 2)), ["top", "bottom"]);
  // A spectator sees the table from seat 1's chair.
  assert.equal(positionOf(0, null, 4), "bottom");
});

test("partners sit across the table", () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => partnerOf(s, 4)), [2, 3, 0, 1]);
  assert.equal(partnerOf(0, 2), null);
});

test("deals belong to their pulka", () => {
  const classic = [8, 4, 8, 4];
  assert.deepEqual([0, 7, 8, 11, 12, 23].map((d) => pulkaOf(d, classic)), [0, 0, 1, 1, 2, 3]);
  assert.deepEqual(pulkaDeals(2, classic), { start: 12, end: 20 });
});

test("bots are named by the page, people by the server", () => {
  const seats = [
    { name: "nino", bot: "" },
    { name: "Practice bot 2", bot: "practice" },
    { name: "Autopilot 3", bot: "autopilot" },
    { name: "", bot: "" },
  ];
  globalThis.gettext = (text) => ({ "Practice bot %s": "სავარჯიშო ბოტი %s" })[text] || text;
  try {
    assert.deepEqual([0, 1, 2, 3].map((s) => seatName(seats, s)), [
      "nino",
      "სავარჯიშო ბოტი 2",
      "Autopilot 3",
      "Seat 4",
    ]);
  } finally {
    delete globalThis.gettext;
  }
});
