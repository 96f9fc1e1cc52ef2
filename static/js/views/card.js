// Card faces as DOM: ranks and suits in the corners and the middle, jokers
// drawn as jokers (a jester's star and the word, never "J1" that reads as a
// jack), backs for the cards nobody may see.

import { el } from "../lib/dom.js";
import { gettext } from "../lib/i18n.js";
import { SYMBOL, cardName, isJoker, isRed, modeText, rankText } from "../game/cards.js";

// cardEl(code, {button, small}): a card face, or a back for "hidden"/null.
export function cardEl(code, { button = false, small = false } = {}) {
  const node = el(button ? "button" : "span", "card");
  if (button) node.type = "button";
  else node.setAttribute("role", "img");
  if (small) node.classList.add("small");
  node.setAttribute("aria-label", cardName(code));
  node.title = cardName(code);
  if (!code || code === "hidden") {
    node.classList.add("back");
    return node;
  }
  node.dataset.card = code;
  if (isJoker(code)) {
    node.classList.add("joker", code === "X1" ? "joker-black" : "joker-red");
    node.append(
      el("span", "joker-star", "★"),
      el("span", "joker-word", gettext("Joker")),
    );
    return node;
  }
  const suit = code[1];
  node.classList.add(isRed(suit) ? "red" : "black");
  const corner = el("span", "corner");
  corner.append(el("span", "rank", rankText(code[0])), el("span", "suit", SYMBOL[suit]));
  node.append(corner, el("span", "pip", SYMBOL[suit]));
  return node;
}

// A played card with the joker's mode under it.
export function playEl(play, options) {
  const wrap = el("span", "play");
  wrap.append(cardEl(play.card, options));
  if (play.mode) wrap.append(el("span", "mode", modeText(play)));
  return wrap;
}
