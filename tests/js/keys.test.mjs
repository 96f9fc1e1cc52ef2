// The arrow keys along a row of cards or of the prompt's choices.
import assert from "node:assert/strict";
import { test } from "node:test";

import { arrowTarget } from "../../static/js/game/keys.js";

test("the arrows step along the row and stop at its ends", () => {
  assert.equal(arrowTarget("ArrowRight", 0, 3), 1);
  assert.equal(arrowTarget("ArrowDown", 1, 3), 2);
  assert.equal(arrowTarget("ArrowRight", 2, 3), 2);
  assert.equal(arrowTarget("ArrowLeft", 1, 3), 0);
  assert.equal(arrowTarget("ArrowUp", 0, 3), 0);
});

test("Home and End jump to the ends", () => {
  assert.equal(arrowTarget("Home", 2, 3), 0);
  assert.equal(arrowTarget("End", 0, 3), 2);
});

test("other keys and an empty row do not move", () => {
  assert.equal(arrowTarget("Enter", 1, 3), null);
  assert.equal(arrowTarget("a", 1, 3), null);
  assert.equal(arrowTarget("ArrowRight", 0, 0), null);
});
