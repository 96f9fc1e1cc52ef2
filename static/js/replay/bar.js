// The bar over the replay's felt: the deal, its pulka, cards and dealer (or
// declarer), trump with the turned card, and the table's bid total.

import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { SYMBOL, isRed, trumpName } from "../game/cards.js";
import { pulkaOf } from "../game/seating.js";
import { cardEl } from "../views/card.js";
import { annotated, termEl } from "../views/terms.js";
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
      info.push([fmt(gettext("Deal %s"), d + 1), ["deal"]]);
      info.push([fmt(gettext("pulka %s"), pulkaOf(d, rules.pulka_sizes) + 1), ["pulka"]]);
      info.push([fmt(ngettext("%s card", "%s cards", deal.hands[0].length), deal.hands[0].length), []]);
      info.push([fmt(gettext("Dealer: %s"), this.name(dealerOf(this.replay, d))), ["dealer"]]);
    } else {
      info.push([fmt(gettext("Deal %s"), d + 1), ["deal"]]);
      info.push([fmt(gettext("Declarer: %s"), this.name(dealerOf(this.replay, d))), ["declarer"]]);
    }
    for (const [text, terms] of info) {
      const node = el("span", "");
      node.append(annotated(text, terms));
      root.append(node);
    }
    const trump = el("span", "");
    trump.append(annotated(gettext("Trump:"), ["trump"]), " ");
    const suit = state.trump && state.trump !== "none" ? SYMBOL[state.trump] + " " : "";
    trump.append(el("strong", "trump" + (isRed(state.trump) ? " red" : ""), suit + trumpName(state.trump)));
    if (deal.turned) {
      const turned = el("span", "muted");
      turned.append(termEl("turned", gettext("turned")));
      trump.append(" ", turned, " ", cardEl(deal.turned, { small: true }));
    }
    root.append(trump);
    if (!japanese && state.bids.every((b) => b !== null)) {
      const sum = state.bids.reduce((a, b) => a + b, 0);
      const cards = deal.hands[0].length;
      const under = sum < cards;
      const table = el("span", under ? "under" : "over");
      table.append(
        termEl(under ? "shetenva" : "tsaglejva", under ? gettext("Shetenva") : gettext("Tsaglejva")),
        ": " + fmt(gettext("%s bid for %s tricks"), sum, cards),
      );
      root.append(table);
    }
  }
}
