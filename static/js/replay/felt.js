// The replay's felt: every seat with its badges, bid, tricks, total and
// cards face up (and its columns in Japanese Joker), and the trick in the
// middle with every card at its player's side.

import { el } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";
import { sortCards } from "../game/cards.js";
import { positionOf } from "../game/seating.js";
import { cardEl, playEl } from "../views/card.js";
import { dealerOf } from "./steps.js";

export class ReplayFelt {
  constructor({ felt, trick }, { replay, name }) {
    this.trick = trick;
    this.replay = replay;
    this.name = name; // name(seat) -> text
    // The seat boxes are built once; render fills them in.
    this.seats = [];
    for (let seat = 0; seat < replay.players; seat++) {
      const parts = this.buildSeat(seat);
      felt.append(parts.box);
      this.seats.push(parts);
    }
  }

  buildSeat(seat) {
    const { players, japanese } = this.replay;
    const box = el("div", "seat pos-" + positionOf(seat, 0, players));
    const parts = {
      box,
      name: el("div", "seat-name", this.name(seat)),
      badges: el("span", "badges"),
      stats: el("div", "seat-stats"),
      hand: el("div", "seat-hand"),
      columns: el("div", "columns-row"),
    };
    box.append(parts.name, parts.badges, parts.stats, parts.hand);
    if (japanese) box.append(parts.columns);
    return parts;
  }

  render(state) {
    this.renderSeats(state);
    this.renderTrick(state);
  }

  renderSeats(state) {
    const { japanese } = this.replay;
    const next = state.deal.actions[state.k];
    this.seats.forEach((parts, seat) => {
      parts.box.classList.toggle("turn", Boolean(next) && next.seat === seat);
      parts.badges.replaceChildren();
      if (dealerOf(this.replay, state.d) === seat) {
        parts.badges.append(el("span", "badge dealer", japanese ? gettext("declarer") : gettext("dealer")));
      }
      if (state.left.has(seat)) {
        parts.badges.append(el("span", "badge gone", japanese ? gettext("left") : gettext("left · bot plays")));
      }
      const stats = [];
      if (!japanese) {
        const bid = state.bids[seat];
        stats.push(bid === null ? gettext("no bid yet") : bid === 0 ? gettext("pass") : fmt(gettext("bid %s"), bid));
      }
      stats.push(fmt(gettext("took %s"), state.tricks[seat]));
      stats.push(fmt(gettext("total %s"), state.totals[seat]));
      parts.stats.textContent = stats.join(" · ");
      parts.hand.replaceChildren(...sortCards(state.hands[seat]).map((c) => cardEl(c, { small: true })));
      if (japanese) this.renderColumns(parts.columns, state.columns[seat] || []);
    });
  }

  renderColumns(row, columns) {
    row.replaceChildren();
    for (const column of columns) {
      const stack = el("div", "column");
      const down = cardEl(column.down, { small: true });
      down.classList.add("down");
      down.title = gettext("face down") + ": " + down.title;
      const up = cardEl(column.up, { small: true });
      up.classList.add("up");
      stack.append(down, up);
      row.append(stack);
    }
  }

  // The trick being played, or the one the last card completed, with its
  // winner marked.
  renderTrick(state) {
    const trick = this.trick;
    trick.replaceChildren();
    const shown = state.finished ? state.finished.cards : state.trick;
    trick.classList.toggle("finished", Boolean(state.finished));
    shown.forEach((play, i) => {
      const slot = el("div", "slot pos-" + positionOf(play.seat, 0, this.replay.players));
      const node = playEl(play);
      if (i === 0) node.classList.add("lead");
      if (state.finished && state.finished.winner === play.seat) node.classList.add("won");
      slot.append(node);
      trick.append(slot);
    });
    if (state.finished && state.finished.winner !== null) {
      trick.append(el("div", "trick-caption", fmt(gettext("%s takes the trick"), this.name(state.finished.winner))));
    }
  }
}
