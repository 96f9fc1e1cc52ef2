// Card codes as the engine writes them ("AS", "TD", "X1") and how a person
// reads them: on a card face, to a screen reader, in a scoresheet. Pure: no
// DOM, so that node --test checks every name.

import { fmt, gettext } from "../lib/i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const NO_TRUMP = "none";
// In live-games rules a joker may be played as its own card.
export const NOMINAL = { X1: "6S", X2: "6C" };

export function isJoker(code) {
  return typeof code === "string" && code[0] === "X";
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function suitName(suit) {
  return {
    S: gettext("spades"),
    H: gettext("hearts"),
    D: gettext("diamonds"),
    C: gettext("clubs"),
  }[suit];
}

function rankName(rank) {
  return {
    T: "10",
    J: gettext("jack"),
    Q: gettext("queen"),
    K: gettext("king"),
    A: gettext("ace"),
  }[rank] || rank;
}

// What a screen reader says: "ace of spades", "joker". Both jokers play
// alike, so they share the one name.
export function cardName(code) {
  if (!code || code === "hidden") return gettext("face-down card");
  if (isJoker(code)) return gettext("joker");
  return fmt(gettext("%s of %s"), rankName(code[0]), suitName(code[1]));
}

// Short text for running prose: "K♥", "10♠", "joker".
export function cardText(code) {
  if (!code) return "";
  if (isJoker(code)) return gettext("joker");
  return rankText(code[0]) + SYMBOL[code[1]];
}

function sortKey(code) {
  if (isJoker(code)) return [SUITS.length, Number(code[1])];
  return [SUITS.indexOf(code[1]), -RANKS.indexOf(code[0])];
}

// By suit (♠ ♥ ♦ ♣), high cards first, jokers last: as the server sorts.
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = sortKey(a);
    const y = sortKey(b);
    return x[0] - y[0] || x[1] - y[1];
  });
}

// How a joker was played: "take ♥", "give ♠", "high", "low", "as 6♠".
export function modeText(play) {
  switch (play.mode) {
    case "take":
      return fmt(gettext("take %s"), SYMBOL[play.suit]);
    case "give":
      return fmt(gettext("give %s"), SYMBOL[play.suit]);
    case "high":
      return gettext("high");
    case "low":
      return gettext("low");
    case "nominal":
      return fmt(gettext("as %s"), cardText(NOMINAL[play.card]));
    default:
      return "";
  }
}

// Trump in words. "No trump" and "not named yet" are different things and
// never share a sign.
export function trumpName(trump) {
  if (trump === null || trump === undefined) return gettext("not named yet");
  if (trump === NO_TRUMP) return gettext("no trump");
  return suitName(trump);
}

// Trump in a scoresheet cell: the suit's sign, or the words "no trump";
// empty while it is not named.
export function trumpMark(trump) {
  if (trump === NO_TRUMP) return gettext("no trump");
  return SYMBOL[trump] || "";
}
