// Run by tests/joker/test_follow.py (not by node --test on its own): reads
// cases of {before, steps, position, after} written from the engine, and
// checks that following the steps from `before` gives `after`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { follow } from "../../static/js/game/follow.js";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
cases.forEach((one, index) => {
  const kept = follow(one.before, one.steps, one.position);
  assert.deepStrictEqual(kept, one.after, `case ${index}: ${JSON.stringify(one.steps)}`);
});
console.log(`${cases.length} followed`);
