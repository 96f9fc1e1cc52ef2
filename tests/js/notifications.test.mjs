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
