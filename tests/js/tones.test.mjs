// The table's sounds: their notes, and the mute switch remembered per browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SOUND_KEY, TONES, rememberSound, soundOn } from "../../static/js/game/tones.js";

// localStorage's interface over a Map.
class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

// A private window's storage: every use refused.
const refusing = {
  getItem() {
    throw new Error("SecurityError");
  },
  setItem() {
    throw new Error("QuotaExceededError");
  },
};

test("sounds are on until the player switches them off", () => {
  const storage = new MemoryStorage();
  assert.equal(soundOn(storage), true);
  rememberSound(storage, false);
  assert.equal(storage.getItem(SOUND_KEY), "off");
  assert.equal(soundOn(storage), false);
  rememberSound(storage, true);
  assert.equal(soundOn(storage), true);
});

test("a storage that refuses leaves the sounds on and throws nothing", () => {
  assert.equal(soundOn(refusing), true);
  assert.equal(soundOn(null), true);
  rememberSound(refusing, false);
  rememberSound(null, false);
});

test("the turn, a trick and the game's end each have audible notes", () => {
  for (const name of ["turn", "trick", "end"]) {
    assert.ok(TONES[name].length > 0, name);
    for (const [frequency, start, length] of TONES[name]) {
      assert.ok(frequency >= 200 && frequency <= 2000, name);
      assert.ok(start >= 0 && length > 0 && start + length < 1, name);
    }
  }
});
