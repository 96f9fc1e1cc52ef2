// The result once the game is over: places, points, coins and ratings, and
// the check that every deal's cards were fixed before play
// (static/js/fairness.js).

import { showDealCheck } from "../game/deal_check.js";
import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";

// Why a ranked game moved no rating, by the code the server sends
// (ratings.models.UnratedReason, the same words).
function unratedReason(code) {
  switch (code) {
    case "off_preset":
      return gettext("the table does not play a category's standard rules");
    case "bot_seat":
      return gettext("a seat was played by a bot");
    case "shared_address":
      return gettext("a player who left shares an address with another player of the game");
    case "provisional_left":
      return gettext("a new account, its rating still provisional, left the game, and a game such an account leaves moves nobody's rating");
    case "provisional_timed_out":
      return gettext("a new account, its rating still provisional, let its time run out on a quarter of its turns or more, which counts as leaving the game");
    case "annulled":
      return gettext("the operators annulled the game");
    default:
      return code;
  }
}

// +12, −30 (a minus sign) or 0.
function signed(number) {
  return number < 0 ? "\u2212" + -number : number > 0 ? "+" + number : "0";
}

export class Result {
  constructor({ root, summary, places, rating, fairness }, { rules, names, recordUrl, commitments }) {
    this.nodes = { root, summary, places, rating, fairness };
    this.rules = rules;
    this.names = names;
    this.recordUrl = recordUrl;
    this.commitments = commitments; // () -> the commitments first seen
    this.verifying = false;
  }

  render(snap) {
    const { root, summary, places, rating } = this.nodes;
    const view = snap.view;
    if (snap.status === "playing") {
      root.hidden = true;
      return;
    }
    root.hidden = false;
    places.replaceChildren();
    if (snap.status === "aborted") {
      summary.textContent = gettext("The game was called off before the first card. Nobody wins or loses.");
    } else if (snap.status === "annulled") {
      summary.textContent = gettext(
        "The game was annulled by the operators. It counts for nothing: ratings and stakes are as before it.",
      );
    } else {
      const seats = [...Array(this.rules.players).keys()];
      const winners = seats.filter((seat) => view.places[seat] === 1);
      summary.textContent =
        snap.you !== null && winners.includes(snap.you)
          ? gettext("You won!")
          : fmt(ngettext("Winner: %s", "Winners: %s", winners.length), winners.map(this.names).join(", "));
      const order = [...seats].sort((a, b) => view.places[a] - view.places[b] || a - b);
      for (const seat of order) places.append(this.placeItem(snap, seat));
    }
    const unrated = snap.rating && !snap.rating.rated;
    rating.hidden = !unrated;
    rating.textContent = unrated ? fmt(gettext("Not rated: %s."), unratedReason(snap.rating.reason)) : "";
    if (snap.reveal) this.verify(snap);
  }

  placeItem(snap, seat) {
    const view = snap.view;
    const item = el("li", view.places[seat] === 1 ? "winner" : "");
    item.append(
      el("span", "place", fmt(gettext("%s."), view.places[seat])),
      el("span", "name", this.names(seat)),
      el("span", "points", String(view.totals[seat])),
    );
    if ((view.left || []).includes(seat)) item.append(el("span", "badge gone", gettext("left")));
    if (snap.nets) {
      const net = snap.nets[seat];
      const shown = signed(net);
      const kind = net > 0 ? "net-won" : net < 0 ? "net-lost" : "net-even";
      item.append(el("span", "coins " + kind, fmt(gettext("%s Domino Coin"), shown)));
    }
    const change = snap.rating && snap.rating.rated ? snap.rating.changes[seat] : null;
    if (change) {
      const words = fmt(gettext("Rating %s → %s (%s)"), change.before, change.after, signed(change.delta));
      item.append(el("span", "rating-change", words));
    }
    return item;
  }

  async verify(snap) {
    const box = this.nodes.fairness;
    if (this.verifying || !globalThis.PulkaFairness) return;
    this.verifying = true;
    box.className = "fairness";
    box.textContent = gettext("Checking the deals…");
    try {
      const response = await fetch(this.recordUrl, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const record = await response.json();
      const first = this.commitments();
      const commitments = (snap.commitments || []).map((hash, i) => first[i] || hash);
      const check = await globalThis.PulkaFairness.verifyDeals({ reveal: snap.reveal, commitments, record });
      showDealCheck(box, check);
    } catch {
      this.verifying = false;
      box.textContent = gettext("The deals could not be checked right now.");
    }
  }
}

// Commitments as first received, kept across reloads: the fairness check
// compares the revealed deals with these, not with what the server says at
// the end.
export class CommitmentStore {
  constructor(game, storage = globalThis.localStorage) {
    this.key = "pulka:commitments:" + game;
    this.storage = storage;
    try {
      this.known = JSON.parse(storage.getItem(this.key)) || [];
    } catch {
      this.known = [];
    }
  }

  remember(list) {
    let changed = false;
    (list || []).forEach((hash, index) => {
      if (!this.known[index]) {
        this.known[index] = hash;
        changed = true;
      }
    });
    if (!changed) return;
    try {
      this.storage.setItem(this.key, JSON.stringify(this.known));
    } catch {
      // Private mode: the commitments of this page's lifetime still count.
    }
  }
}
