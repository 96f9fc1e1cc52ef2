// The felt: the seats around it (name, partner, dealer, bid and tricks, the
// premium tracker, whose turn and the clock), trump in its corner, the trick
// with every card at its player's side, and the last trick on demand.

import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { SYMBOL, isRed, trumpName } from "../game/cards.js";
import { partnerOf, positionOf, teamOf } from "../game/seating.js";
import { LOW_SECONDS, formatClock, secondsLeft, shareLeft } from "../game/clock.js";
import { cardEl, playEl } from "../views/card.js";
import { annotated, termEl } from "../views/terms.js";

export class Felt {
  constructor(root, { rules, names, ratings }) {
    this.root = root;
    this.rules = rules;
    this.names = names; // names(seat) -> text
    this.ratings = ratings || [];
    this.seats = [];
    this.drawnTrick = new Set();
    this.trumpBox = el("div", "felt-trump");
    this.trumpBox.setAttribute("aria-live", "polite");
    this.trick = root.querySelector("#trick");
    this.lastButton = el("button", "last-trick-button", gettext("Last trick"));
    this.lastButton.type = "button";
    this.lastButton.id = "last-trick-button";
    this.lastButton.setAttribute("aria-expanded", "false");
    this.lastButton.setAttribute("aria-controls", "last-trick");
    this.lastPanel = el("div", "last-trick");
    this.lastPanel.id = "last-trick";
    this.lastPanel.hidden = true;
    this.lastButton.addEventListener("click", () => this.toggleLast());
    root.prepend(this.trumpBox);
    root.append(this.lastButton, this.lastPanel);
    for (let seat = 0; seat < rules.players; seat++) this.seats.push(this.buildSeat(seat));
  }

  buildSeat(seat) {
    const box = el("div", "seat");
    box.dataset.seat = seat;
    const parts = {
      box,
      name: el("div", "seat-name"),
      badges: el("div", "badges"),
      stats: el("div", "seat-stats"),
      premium: el("div", "seat-premium"),
      meta: el("div", "seat-meta"),
      timer: el("div", "timer"),
    };
    parts.timer.append(el("span", "timer-bar"), el("span", "timer-text"));
    box.append(parts.name, parts.badges, parts.stats, parts.premium, parts.meta, parts.timer);
    this.root.append(box);
    return parts;
  }

  toggleLast(force) {
    const open = force ?? this.lastPanel.hidden;
    this.lastPanel.hidden = !open || this.lastButton.disabled;
    this.lastButton.setAttribute("aria-expanded", String(!this.lastPanel.hidden));
  }

  // fresh: the trick just finished is still shown in the middle.
  render(state, premium, fresh) {
    this.renderTrump(state.snap);
    this.renderSeats(state.snap, premium);
    this.renderTrick(state, fresh);
    this.renderLast(state);
  }

  renderTrump(snap) {
    const view = snap.view;
    const box = this.trumpBox;
    box.replaceChildren();
    const playing = snap.status === "playing" && view.phase !== "deal";
    box.hidden = !playing;
    if (!playing) return;
    box.className = "felt-trump" + (isRed(view.trump) ? " red" : "");
    box.append(spanOf("felt-trump-label", termEl("trump", gettext("Trump"))));
    if (view.trump && view.trump !== "none") {
      box.append(el("span", "felt-trump-suit", SYMBOL[view.trump]));
      box.dataset.trump = view.trump;
    } else {
      box.dataset.trump = view.trump || "";
    }
    const words = view.trump === null && view.phase === "trump" ? gettext("being named") : trumpName(view.trump);
    box.append(spanOf("felt-trump-name", annotated(words, ["no-trump"])));
    if (view.turned) {
      const turned = el("span", "felt-turned");
      turned.append(cardEl(view.turned), spanOf("felt-turned-label", termEl("turned", gettext("turned"))));
      box.append(turned);
    }
  }

  renderSeats(snap, premium) {
    const view = snap.view;
    const rules = this.rules;
    const playing = snap.status === "playing";
    const inDeal = playing && view.phase !== "deal";
    this.seats.forEach((parts, seat) => {
      const info = snap.seats[seat] || {};
      const box = parts.box;
      const position = positionOf(seat, snap.you, rules.players);
      box.className = "seat pos-" + position;
      box.classList.toggle("turn", playing && view.turn === seat);
      box.classList.toggle("me", seat === snap.you);
      box.classList.toggle("away", !info.connected);
      box.classList.toggle("gone", Boolean(info.left));
      box.classList.toggle("winner", snap.status === "finished" && (view.places || [])[seat] === 1);
      if (rules.pairs) box.classList.add("team-" + "ab"[teamOf(seat)]);

      parts.name.replaceChildren(el("span", "seat-name-text", this.names(seat)));
      if (seat === snap.you) parts.name.append(el("span", "seat-you", gettext("(you)")));
      const rating = this.ratings[seat];
      if (rating) {
        const badge = el("span", "seat-rating", String(rating.rating) + (rating.provisional ? "?" : ""));
        badge.title = rating.provisional
          ? gettext("Rating in this category, provisional: fewer than 20 rated games")
          : gettext("Rating in this category");
        parts.name.append(badge);
      }

      parts.badges.replaceChildren();
      if (rules.pairs) {
        const partner = partnerOf(seat, rules.players);
        const mine = snap.you !== null && snap.you !== undefined;
        const text =
          mine && partner === snap.you
            ? gettext("your partner")
            : fmt(gettext("partner of %s"), this.names(partner));
        if (seat !== snap.you) parts.badges.append(el("span", "badge partner", text));
      }
      if (inDeal && view.dealer === seat) {
        const badge = rules.japanese ? termEl("declarer", gettext("declarer")) : termEl("dealer", gettext("dealer"));
        parts.badges.append(spanOf("badge dealer", badge));
      }
      if (info.left) {
        const botPlays = !rules.japanese && playing;
        parts.badges.append(el("span", "badge gone", botPlays ? gettext("left · bot plays") : gettext("left")));
      } else if (!info.connected && !info.bot && info.away_until && playing) {
        // Away within the grace: the seat waits until then (tick counts down).
        parts.awayBadge = el("span", "badge away away-until", "");
        parts.badges.append(parts.awayBadge);
      } else if (!info.connected && !info.bot) {
        parts.badges.append(el("span", "badge away", gettext("offline")));
      }
      if (!(info.away_until && !info.connected && playing)) parts.awayBadge = null;
      if (info.left && info.rejoining && playing) {
        parts.badges.append(el("span", "badge back", gettext("back at their next turn")));
      }

      parts.stats.replaceChildren();
      if (inDeal) {
        if (!rules.japanese) {
          const bid = (view.bids || [])[seat];
          const bidText = bid === null || bid === undefined ? "–" : String(bid);
          parts.stats.append(stat("bid", gettext("bid"), bidText));
        }
        parts.stats.append(stat("took", gettext("took"), String((view.tricks || [])[seat] ?? 0)));
      } else {
        parts.stats.append(stat("total", gettext("total"), String((view.totals || [])[seat] ?? 0)));
      }

      const mark = premium[seat];
      parts.premium.hidden = !mark || !inDeal;
      parts.premium.className = "seat-premium " + (mark || "");
      const premiumText = mark === "exact" ? gettext("on premium") : mark === "missed" ? gettext("premium lost") : "";
      parts.premium.replaceChildren(mark === "exact" ? "★ " : "", annotated(premiumText, ["premium"]));
      parts.premium.title =
        mark === "exact"
          ? gettext("Exact in every deal of this pulka so far")
          : gettext("Missed a bid in this pulka");

      const size = (view.hand_sizes || [])[seat];
      // While trump is named only the namer's first cards are shown.
      const hidden = view.phase === "trump" && !rules.japanese && seat !== view.turn;
      parts.meta.textContent =
        size === undefined || hidden || !inDeal
          ? ""
          : fmt(ngettext("%s card in hand", "%s cards in hand", size), size);
    });
  }

  // The clock at the seat to move: called often, so it only touches text.
  tick(snap, now) {
    const view = snap.view;
    const turnSeconds = snap.turn_seconds || 30;
    const left = secondsLeft(snap.deadline, now, turnSeconds);
    this.seats.forEach((parts, seat) => {
      const info = snap.seats[seat] || {};
      if (parts.awayBadge) {
        const grace = Math.max(0, (Date.parse(info.away_until) - now) / 1000);
        parts.awayBadge.textContent = fmt(gettext("away · %s"), formatClock(grace));
      }
      const running =
        left !== null && snap.status === "playing" && view.turn === seat && !info.bot && !info.left;
      parts.timer.hidden = !running;
      if (!running) return;
      parts.timer.firstChild.style.width = (shareLeft(left, turnSeconds) * 100).toFixed(1) + "%";
      parts.timer.lastChild.textContent = formatClock(left);
      parts.timer.classList.toggle("low", left <= LOW_SECONDS);
    });
    return left;
  }

  renderTrick(state, fresh) {
    const snap = state.snap;
    const view = snap.view;
    let cards = view.trick;
    let winner = null;
    // A finished trick stays in the middle for a moment before it goes.
    const last = state.lastTrick;
    if (!cards.length && last && fresh) {
      cards = last.cards;
      winner = last.winner;
    }
    const drawn = new Set();
    const nodes = cards.map((play, index) => {
      const position = positionOf(play.seat, snap.you, this.rules.players);
      const slot = el("div", "slot pos-" + position);
      slot.dataset.seat = play.seat;
      const node = playEl(play);
      node.setAttribute("aria-label", fmt(gettext("%s: %s"), this.names(play.seat), node.firstChild.getAttribute("aria-label")));
      if (index === 0) node.classList.add("lead");
      if (winner === play.seat) node.classList.add("won");
      const key = play.seat + ":" + play.card;
      drawn.add(key);
      // Only a card new on the felt flies in from its player's side.
      if (!this.drawnTrick.has(key)) slot.classList.add("arrive");
      slot.append(node);
      return slot;
    });
    this.drawnTrick = drawn;
    this.trick.classList.toggle("finished", winner !== null);
    if (winner !== null) {
      nodes.push(el("div", "trick-caption", fmt(gettext("%s takes the trick"), this.names(winner))));
    } else if (!cards.length && snap.status === "playing" && view.phase === "card") {
      const text = view.turn === snap.you ? gettext("Your lead") : fmt(gettext("%s leads"), this.names(view.turn));
      nodes.push(el("div", "trick-caption", text));
    }
    this.trick.replaceChildren(...nodes);
  }

  renderLast(state) {
    const last = state.lastTrick;
    const snap = state.snap;
    const available = Boolean(last) && snap.status === "playing";
    this.lastButton.hidden = snap.status !== "playing";
    this.lastButton.disabled = !available;
    if (!available) {
      this.toggleLast(false);
      this.lastPanel.replaceChildren();
      return;
    }
    const title = el("div", "last-trick-title", fmt(gettext("Last trick: %s took it"), this.names(last.winner)));
    const grid = el("div", "last-trick-grid players-" + this.rules.players);
    for (const play of last.cards) {
      const position = positionOf(play.seat, snap.you, this.rules.players);
      const cell = el("div", "last-play pos-" + position);
      cell.dataset.seat = play.seat;
      if (play.seat === last.winner) cell.classList.add("won");
      cell.append(playEl(play, { small: true }), el("span", "last-play-name", this.names(play.seat)));
      grid.append(cell);
    }
    this.lastPanel.replaceChildren(title, grid);
  }
}

function stat(kind, label, value) {
  const node = el("span", "stat stat-" + kind);
  node.append(el("span", "stat-label", label), el("span", "stat-value", value));
  return node;
}

// A span of the felt holding `child` (a term that can be tapped, or text).
function spanOf(className, child) {
  const node = el("span", className);
  node.append(child);
  return node;
}
