// Card names, texts and sorting, in the engine's card codes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, cardText, modeText, sortCards, trumpMark, trumpName } from "../../static/js/game/cards.js";

test("a screen reader hears every card by its name", () => {
  assert.equal(cardName("AS"), "ace of spades");
  assert.equal(cardName("TD"), "10 of diamonds");
  assert.equal(cardName("QH"), "queen of hearts");
  assert.equal(cardName("7C"), "7 of clubs");
  assert.equal(cardName("X1"), "joker");
  assert.equal(cardName("X2"), "joker");
  assert.equal(cardName("hidden"), "face-down card");
});

test("a joker never reads as a jack", () => {
  for (const code of ["X1", "X2"]) {
    assert.doesNotMatch(cardText(code), /J\d/);
    assert.equal(cardText(code), "joker");
  }
  assert.equal(cardText("JS"), "J♠");
  assert.equal(cardText("TH"), "10♥");
});

test("hands sort by suit, high cards first, jokers last", () => {
  assert.deepEqual(sortCards(["X1", "6S", "AH", "AS", "X2", "KS", "7C"]), [
    "AS", "KS", "6S", "AH", "7C", "X1", "X2",
  ]);
});

test("joker modes are said in words", () => {
  assert.equal(modeText({ card: "X1", mode: "take", suit: "C" }), "take ♣");
  assert.equal(modeText({ card: "X1", mode: "give", suit: "H" }), "give ♥");
  assert.equal(modeText({ card: "X2", mode: "high" }), "high");
  assert.equal(modeText({ card: "X1", mode: "nominal" }), "as 6♠");
});

test("no trump and trump not named yet never share a sign", () => {
  assert.equal(trumpName("none"), "no trump");
  assert.equal(trumpName(null), "not named yet");
  assert.equal(trumpName("H"), "hearts");
  assert.equal(trumpMark("none"), "no trump");
  assert.equal(trumpMark(null), "");
  assert.equal(trumpMark("S"), "♠");
});

test("names come from the translation catalogue when there is one", () => {
  globalThis.gettext = (text) => ({ "%s of %s": "%s de %s", ace: "as", spades: "picas" })[text] || text;
  try {
    assert.equal(cardName("AS"), "as de picas");
  } finally {
    delete globalThis.gettext;
  }
});
