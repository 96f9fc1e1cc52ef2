// The bar over the replay's felt: the deal, its pulka, cards and dealer (or
// declarer), trump with the turned card, and the table's bid total.

import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { SYMBOL, isRed, trumpName } from "../game/cards.js";
import { pulkaOf } from "../game/seating.js";
import { cardEl } from "../views/card.js";
import { dealerOf } from "./steps.js";

export class ReplayBar {
  constructor(root, { replay, name }) {
    this.root = root;
    this.replay = replay;
    this.name = name; // name(seat) -> text
  }

  render(state) {
    const { rules, japanese } = this.replay;
    const root = this.root;
    root.replaceChildren();
    const { d, deal } = state;
    const info = [];
    if (!japanese) {
      info.push(fmt(gettext("Deal %s"), d + 1));
      info.push(fmt(gettext("pulka %s"), pulkaOf(d, rules.pulka_sizes) + 1));
      info.push(fmt(ngettext("%s card", "%s cards", deal.hands[0].length), deal.hands[0].length));
      info.push(fmt(gettext("Dealer: %s"), this.name(dealerOf(this.replay, d))));
    } else {
      info.push(fmt(gettext("Deal %s"), d + 1));
      info.push(fmt(gettext("Declarer: %s"), this.name(dealerOf(this.replay, d))));
    }
    for (const text of info) root.append(el("span", "", text));
    const trump = el("span", "");
    trump.append(gettext("Trump:") + " ");
    const suit = state.trump && state.trump !== "none" ? SYMBOL[state.trump] + " " : "";
    trump.append(el("strong", "trump" + (isRed(state.trump) ? " red" : ""), suit + trumpName(state.trump)));
    if (deal.turned) {
      trump.append(" ", el("span", "muted", gettext("turned")), " ", cardEl(deal.turned, { small: true }));
    }
    root.append(trump);
    if (!japanese && state.bids.every((b) => b !== null)) {
      const sum = state.bids.reduce((a, b) => a + b, 0);
      const cards = deal.hands[0].length;
      const under = sum < cards;
      root.append(
        el(
          "span",
          under ? "under" : "over",
          (under ? gettext("Shetenva") : gettext("Tsaglejva")) + ": " + fmt(gettext("%s bid for %s tricks"), sum, cards),
        ),
      );
    }
  }
}
