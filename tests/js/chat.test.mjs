// The chat's pure helpers: quick phrases shown from their keys, and the
// sentence for each refusal the server documents (docs/protocol.md).
import assert from "node:assert/strict";
import { test } from "node:test";

import { PHRASES, messageText, phraseText } from "../../static/js/chat/phrases.js";
import { chatErrorText } from "../../static/js/chat/view.js";

test("the quick phrases are the server's keys", () => {
  assert.deepEqual(Object.keys(PHRASES), [
    "hi", "good_luck", "well_played", "thanks", "sorry", "oops", "nice_trick", "bye",
  ]);
  assert.equal(phraseText("good_luck"), "Good luck!");
  assert.equal(phraseText("unknown"), "unknown");
});

test("a message shows its text, else its phrase", () => {
  assert.equal(messageText({ text: "<b>hi</b>", phrase: "" }), "<b>hi</b>");
  assert.equal(messageText({ text: "", phrase: "bye" }), "Bye!");
});

test("each refusal has its sentence, a mute its end", () => {
  assert.equal(chatErrorText({ code: "chat_flood" }), "You are writing too fast: wait a few seconds.");
  assert.match(chatErrorText({ code: "muted", until: "2026-12-04T12:00:00+00:00" }), /^You cannot chat until .+2026/);
  assert.equal(chatErrorText({ code: "something_new" }), "The message was not sent.");
  assert.equal(
    chatErrorText({ code: "you_blocked", names: ["Nino", "Giorgi"] }),
    "You blocked Nino, Giorgi. Unblock them to write here.",
  );
});
