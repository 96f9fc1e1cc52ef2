// The bar over the felt: which deal of how many, the pulka, the dealer, the
// table's bid total, the deal's commitment and the connection.

import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { pulkaPosition } from "../game/premium.js";
import { annotated, termEl } from "../views/terms.js";

export class Bar {
  constructor({ deal, dealer, table, commitment, conn }, { rules, names }) {
    this.nodes = { deal, dealer, table, commitment, conn };
    this.rules = rules;
    this.names = names;
  }

  render(snap) {
    const { deal, dealer, table, commitment } = this.nodes;
    const view = snap.view;
    const rules = this.rules;
    const over = snap.status !== "playing";
    if (over) {
      deal.textContent = {
        aborted: gettext("Called off"),
        annulled: gettext("Annulled"),
      }[snap.status] || gettext("Game over");
    } else if (rules.japanese) {
      deal.replaceChildren(annotated(fmt(gettext("Deal %s"), view.deal + 1), ["deal"]));
    } else {
      const where = pulkaPosition(view.deal, rules.pulka_sizes);
      // The pulka in a part of its own: a phone leaves it out to keep the
      // bar on one line (the scoresheet shows it).
      const pulka = el("span", "bar-pulka");
      pulka.append(annotated(" · " + fmt(gettext("pulka %s"), where.pulka), ["pulka"]));
      deal.replaceChildren(
        annotated(fmt(gettext("Deal %s of %s"), view.deal + 1, rules.schedule.length), ["deal"]),
        pulka,
        view.cards ? " · " + fmt(ngettext("%s card", "%s cards", view.cards), view.cards) : "",
      );
    }
    dealer.replaceChildren(
      view.dealer === null || over
        ? ""
        : annotated(
            fmt(rules.japanese ? gettext("Declarer: %s") : gettext("Dealer: %s"), this.names(view.dealer)),
            [rules.japanese ? "declarer" : "dealer"],
          ),
    );
    table.textContent = "";
    table.className = "";
    const bids = view.bids || [];
    if (!rules.japanese && !over && bids.length === rules.players && bids.every((b) => b !== null)) {
      const sum = bids.reduce((a, b) => a + b, 0);
      const under = sum < view.cards;
      table.replaceChildren(
        termEl(under ? "shetenva" : "tsaglejva", under ? gettext("Shetenva") : gettext("Tsaglejva")),
        ": " + fmt(gettext("%s bid for %s tricks"), sum, view.cards),
      );
      table.className = under ? "under" : "over";
    }
    const hash = (snap.commitments || [])[view.deal];
    commitment.textContent = "";
    if (hash && !over) {
      commitment.replaceChildren(annotated(fmt(gettext("Deal hash %s…"), hash.slice(0, 10)), ["commitment"]));
      commitment.title = fmt(gettext("SHA-256 commitment to this deal's cards, published before play: %s"), hash);
    }
  }

  connection(state) {
    const labels = {
      connecting: gettext("Connecting…"),
      online: gettext("Connected"),
      offline: gettext("Reconnecting…"),
      closed: gettext("Disconnected"),
    };
    this.nodes.conn.dataset.state = state;
    this.nodes.conn.textContent = labels[state];
  }
}
