// When the site may show a browser notification: only once allowed, and
// only while its tab is hidden.
import assert from "node:assert/strict";
import { test } from "node:test";

import { mayNotify } from "../../static/js/social/notifications.js";

test("a notification needs the permission and a hidden tab", () => {
  const granted = { permission: "granted" };
  assert.equal(mayNotify({ hidden: true }, granted), true);
  assert.equal(mayNotify({ hidden: false }, granted), false);
  assert.equal(mayNotify({ hidden: true }, { permission: "default" }), false);
  assert.equal(mayNotify({ hidden: true }, { permission: "denied" }), false);
  assert.equal(mayNotify({ hidden: true }, null), false);
});

test("the site's switch turns allowed notifications off and on again", () => {
  const granted = { permission: "granted" };
  const store = new Map();
  const storage = {
    getItem: (key) => store.get(key) ?? null,
    setItem: (key, value) => store.set(key, value),
    removeItem: (key) => store.delete(key),
  };
  assert.equal(mayNotify({ hidden: true }, granted, storage), true);
  storage.setItem("pulka.notifications", "off");
  assert.equal(mayNotify({ hidden: true }, granted, storage), false);
  storage.removeItem("pulka.notifications");
  assert.equal(mayNotify({ hidden: true }, granted, storage), true);
  // Without storage (refused by a privacy setting) the switch stays on.
  assert.equal(mayNotify({ hidden: true }, granted, null), true);
});
