// The turn clock: seconds left from the server's deadline.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockOffset, formatClock, secondsLeft, shareLeft } from "../../static/js/game/clock.js";

const deadline = "2026-11-30T01:02:30+00:00";
const at = (text) => Date.parse(text);

test("seconds left count down to the deadline and stop at zero", () => {
  assert.equal(secondsLeft(deadline, at("2026-11-30T01:02:05Z"), 30), 25);
  assert.equal(secondsLeft(deadline, at("2026-11-30T01:02:31Z"), 30), 0);
  assert.equal(secondsLeft(null, 0, 30), null);
});

test("a skewed clock never shows more than a whole turn", () => {
  assert.equal(secondsLeft(deadline, at("2026-11-30T01:00:00Z"), 30), 30);
});

test("the clock is written in minutes and seconds, rounded up", () => {
  assert.equal(formatClock(7.2), "0:08");
  assert.equal(formatClock(90), "1:30");
  assert.equal(formatClock(0), "0:00");
  assert.equal(formatClock(-3), "0:00");
});

test("the bar's share and the server's offset", () => {
  assert.equal(shareLeft(15, 30), 0.5);
  assert.equal(shareLeft(null, 30), 0);
  assert.equal(clockOffset(10_500, 10_000), 500);
});
