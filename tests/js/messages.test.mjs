// What the player is told about refused moves and game events.
import assert from "node:assert/strict";
import { test } from "node:test";

import { errorText, eventText } from "../../static/js/game/messages.js";

const names = (seat) => ["nino", "gio", "Practice bot 3", "Autopilot 4"][seat];

test("a late move is explained", () => {
  assert.match(errorText("late"), /time was up/);
  assert.match(errorText("stale_version"), /moved on/);
  assert.equal(errorText("something_new", "the server's words"), "the server's words");
  assert.equal(errorText("something_new"), "Refused.");
});

test("the end of a deal says everyone's score, signed", () => {
  const event = { type: "deal_over", deal: 0, result: { scores: [100, -200, 50, 0] } };
  assert.equal(eventText(event, names), "Deal 1 is over: nino +100, gio -200, Practice bot 3 +50, Autopilot 4 0");
  const japanese = { type: "deal_over", deal: 2, result: { points: [0, 3] } };
  assert.equal(eventText(japanese, names), "Deal 3 is over: nino 0, gio +3");
});

test("a pulka's end, a resignation and an abort are told; other events are not", () => {
  assert.equal(eventText({ type: "pulka_over", pulka: 2 }, names), "Pulka 2 is over.");
  assert.equal(eventText({ type: "resign", seat: 1 }, names), "gio left the game.");
  assert.equal(eventText({ type: "aborted" }, names), "The game was called off.");
  assert.equal(eventText({ type: "card", seat: 1, card: "AS" }, names), "");
});

test("a move the timer made says so, to its player and to the table", () => {
  const card = { type: "card", seat: 1, card: "9C", timeout: true };
  assert.equal(eventText(card, names, 1), "Time ran out: 9♣ was played for you.");
  assert.equal(eventText(card, names, 0), "Time ran out: 9♣ was played for gio.");
  assert.equal(eventText(card, names, null), "Time ran out: 9♣ was played for gio.");
  const bid = { type: "bid", seat: 0, bid: 0, timeout: true };
  assert.equal(eventText(bid, names, 0), "Time ran out: a bid of 0 was made for you.");
  assert.equal(eventText(bid, names, 2), "Time ran out: a bid of 0 was made for nino.");
  const trump = { type: "trump", seat: 3, trump: "H", timeout: true };
  assert.equal(eventText(trump, names, 3), "Time ran out: trump was named for you: hearts.");
  assert.equal(eventText(trump, names, 1), "Time ran out: trump was named for Autopilot 4: hearts.");
  const none = { ...trump, trump: "none" };
  assert.equal(eventText(none, names, 3), "Time ran out: trump was named for you: no trump.");
});
