// The player's cards: the hand, and in Japanese Joker the face-up cards of
// the player's columns. Every card is a button that can be focused (arrow
// keys move between them, Home and End jump, Enter or Space plays); cards
// that may not be played now say so with aria-disabled and stay focusable,
// so that a keyboard player can still read the whole hand.

import { el } from "../lib/dom.js";
import { gettext } from "../lib/i18n.js";
import { sortCards } from "../game/cards.js";
import { arrowTarget } from "../game/keys.js";
import { positionOf } from "../game/seating.js";
import { cardEl } from "../views/card.js";

export class Hand {
  constructor({ hand, columnsTop, columnsBottom, rules, onPlay }) {
    this.hand = hand;
    this.columns = { top: columnsTop, bottom: columnsBottom };
    this.rules = rules;
    this.onPlay = onPlay;
    this.focusedCard = null;
    for (const area of [hand, columnsBottom]) {
      if (area) area.addEventListener("keydown", (event) => this.onKey(event));
    }
  }

  // Every card button the player may move between, in reading order.
  buttons() {
    const areas = [this.columns.bottom, this.hand].filter(Boolean);
    return areas.flatMap((area) => [...area.querySelectorAll("button.card")]);
  }

  onKey(event) {
    const buttons = this.buttons();
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const target = arrowTarget(event.key, index, buttons.length);
    if (target === null) return;
    event.preventDefault();
    this.focus(buttons[target]);
  }

  focus(button) {
    for (const other of this.buttons()) other.tabIndex = -1;
    button.tabIndex = 0;
    button.focus();
    this.focusedCard = button.dataset.card;
  }

  // Put the keyboard on the first card that may be played (when the turn
  // comes to the player and nothing else has the focus).
  focusFirstLegal() {
    const button = this.buttons().find((b) => b.classList.contains("legal"));
    if (button) this.focus(button);
  }

  render(state) {
    const snap = state.snap;
    const hadFocus = this.buttons().includes(document.activeElement);
    this.renderColumns(state);
    this.hand.replaceChildren();
    const seated = snap.you !== null && snap.you !== undefined;
    this.hand.hidden = !seated || snap.status !== "playing";
    if (!this.hand.hidden) {
      for (const code of sortCards(snap.view.hand)) {
        this.hand.append(this.cardButton(state, code));
      }
      if (snap.view.phase === "trump" && snap.view.hand.length) {
        this.hand.append(el("span", "hand-note", gettext("The rest of your cards come after trump is named.")));
      }
    }
    this.restoreFocus(hadFocus);
  }

  renderColumns(state) {
    if (!this.rules.japanese) return;
    const snap = state.snap;
    this.columns.top.replaceChildren();
    this.columns.bottom.replaceChildren();
    (snap.view.columns || []).forEach((own, seat) => {
      const row = this.columns[positionOf(seat, snap.you, this.rules.players)];
      const mine = seat === snap.you;
      for (const column of own) {
        const stack = el("div", "column");
        stack.append(cardEl(column.down, { small: true }));
        const up = mine ? this.cardButton(state, column.up, true) : cardEl(column.up, { small: true });
        up.classList.add("up");
        stack.append(up);
        row.append(stack);
      }
    });
  }

  cardButton(state, code, small = false) {
    const node = cardEl(code, { button: true, small });
    const playing = state.myTurn() && state.view.phase === "card";
    const legal = playing && state.legalFor(code).length > 0;
    if (playing) node.classList.add(legal ? "legal" : "illegal");
    const usable = legal && state.canAct();
    node.setAttribute("aria-disabled", String(!usable));
    if (!usable) node.classList.add("unusable");
    if (state.choosing === code) node.classList.add("chosen");
    node.tabIndex = -1;
    node.addEventListener("click", () => {
      this.focusedCard = code;
      if (usable) this.onPlay(code);
    });
    return node;
  }

  // Keep the keyboard where it was across redraws: the same card, or the
  // nearest one left after it was played.
  restoreFocus(hadFocus) {
    const buttons = this.buttons();
    if (!buttons.length) return;
    let target = buttons.find((b) => b.dataset.card === this.focusedCard);
    if (!target) target = buttons.find((b) => b.classList.contains("legal")) || buttons[0];
    for (const button of buttons) button.tabIndex = -1;
    target.tabIndex = 0;
    if (hadFocus) target.focus();
  }
}
