/* The replay of a finished game, stepped through from its record.
 *
 * The record (RECORD.md) gives every deal's cards and every action; the
 * result (the server's replay of the same record) gives what needs the rules:
 * trick winners and scores. This module only moves cards: out of the hands
 * (and Japanese columns) onto the table, trick by trick. The scoresheet is
 * the live table's (game/scoresheet.js).
 */
import { el } from "./lib/dom.js";
import { fmt, gettext, ngettext } from "./lib/i18n.js";
import { SYMBOL, cardText, isRed, modeText, sortCards, trumpName } from "./game/cards.js";
import { positionOf, pulkaDeals, pulkaOf } from "./game/seating.js";
import { georgianSheet, japaneseSheet } from "./game/scoresheet.js";
import { cardEl, playEl } from "./views/card.js";
import { renderSheet as drawSheet } from "./views/scoresheet.js";

{
  const byId = (id) => document.getElementById(id);

  const config = JSON.parse(byId("replay-config").textContent);
  const record = JSON.parse(byId("replay-record").textContent);
  const result = JSON.parse(byId("replay-result").textContent);
  const rules = config.rules;
  const players = rules.players;
  const japanese = rules.japanese;
  const first = japanese ? record.first_declarer : record.first_dealer;
  const deals = record.deals;

  // Every position: deal d after its first k actions.
  const positions = [];
  deals.forEach((deal, d) => {
    for (let k = 0; k <= deal.actions.length; k++) positions.push({ d, k });
  });
  let index = 0;
  let autoplay = null;

  const dom = {
    bar: byId("replay-bar"),
    felt: byId("replay-felt"),
    trick: byId("replay-trick"),
    step: byId("replay-step"),
    position: byId("replay-position"),
    sheet: byId("replay-sheet"),
    autoplay: byId("autoplay"),
  };

  const name = (seat) => config.names[seat] || fmt(gettext("Seat %s"), seat + 1);

  // The seat boxes, built once.
  const boxes = [];
  for (let seat = 0; seat < players; seat++) {
    const box = el("div", "seat pos-" + positionOf(seat, 0, players));
    const parts = {
      box,
      name: el("div", "seat-name", name(seat)),
      badges: el("span", "badges"),
      stats: el("div", "seat-stats"),
      hand: el("div", "seat-hand"),
      columns: el("div", "columns-row"),
    };
    box.append(parts.name, parts.badges, parts.stats, parts.hand);
    if (japanese) box.append(parts.columns);
    dom.felt.append(box);
    boxes.push(parts);
  }

  function dealerOf(d) {
    return (first + d) % players;
  }

  // Scores: the totals before deal d, and with deal d when it is finished.
  function totalsThrough(lastDeal) {
    const totals = new Array(players).fill(0);
    const sizes = rules.pulka_sizes;
    for (let d = 0; d <= lastDeal && d < result.deals.length; d++) {
      const deal = result.deals[d];
      const scores = japanese ? deal.points : deal.scores;
      scores.forEach((score, seat) => {
        totals[seat] += score;
      });
      if (!japanese) {
        const pulka = pulkaOf(d, sizes);
        const premium = (result.pulkas || [])[pulka];
        if (d === pulkaDeals(pulka, sizes).end - 1 && premium) {
          for (let seat = 0; seat < players; seat++) {
            totals[seat] += premium.bonus[seat] - premium.deduction[seat];
          }
        }
      }
    }
    return totals;
  }

  // Where the game stands at deal d after k actions.
  function stateAt(d, k) {
    const deal = deals[d];
    const outcome = result.deals[d];
    const winners = outcome ? outcome.trick_winners : [];
    const hands = deal.hands.map((hand) => [...hand]);
    const columns = (deal.columns || []).map((own) =>
      own.map(([down, up]) => ({ down, up })),
    );
    let trump = null;
    if (!japanese && deal.turned) {
      trump = deal.turned[0] === "X" ? "none" : deal.turned[1];
    }
    const bids = new Array(players).fill(null);
    const tricks = new Array(players).fill(0);
    const left = new Set();
    for (let e = 0; e < d; e++) {
      for (const action of deals[e].actions) if (action.resign) left.add(action.seat);
    }
    let trick = [];
    let finished = null; // the trick the last action completed
    let trickNumber = 0;
    let last = null;
    for (let i = 0; i < k; i++) {
      const action = deal.actions[i];
      last = action;
      finished = null;
      if ("trump" in action) {
        trump = action.trump;
      } else if ("bid" in action) {
        bids[action.seat] = action.bid;
      } else if (action.resign) {
        left.add(action.seat);
      } else if ("card" in action) {
        takeCard(hands, columns, action.seat, action.card);
        trick.push(action);
        if (trick.length === players) {
          const winner = winners[trickNumber];
          if (winner !== undefined) tricks[winner] += 1;
          finished = { cards: trick, winner: winner === undefined ? null : winner };
          trick = [];
          trickNumber += 1;
        }
      }
    }
    const dealOver = k === deal.actions.length && outcome !== undefined;
    return {
      d,
      k,
      deal,
      outcome,
      hands,
      columns,
      trump,
      bids,
      tricks,
      trick,
      finished,
      last,
      left,
      dealOver,
      totals: totalsThrough(dealOver ? d : d - 1),
    };
  }

  function takeCard(hands, columns, seat, card) {
    const hand = hands[seat];
    const at = hand.indexOf(card);
    if (at >= 0) {
      hand.splice(at, 1);
      return;
    }
    // Japanese Joker: a face-up card from a column; the card below goes to
    // the hand, and a last single column clears into the hand too.
    const own = columns[seat] || [];
    const col = own.findIndex((column) => column.up === card);
    if (col < 0) return;
    hand.push(own[col].down);
    own.splice(col, 1);
    if (own.length === 1) {
      hand.push(own[0].down, own[0].up);
      own.splice(0, 1);
    }
  }

  function describe(state) {
    const { d, k, deal, last } = state;
    if (k === 0) {
      const cards = japanese ? 18 : deal.hands[0].length;
      let text = japanese
        ? fmt(gettext("Deal %s: %s declares."), d + 1, name(dealerOf(d)))
        : fmt(
            ngettext("Deal %s: %s deals %s card each.", "Deal %s: %s deals %s cards each.", cards),
            d + 1,
            name(dealerOf(d)),
            cards,
          );
      if (!japanese && deal.turned) {
        text += " " + fmt(gettext("Turned card: %s."), cardText(deal.turned));
      }
      return text;
    }
    const who = name(last.seat);
    let text;
    if ("trump" in last) {
      text = fmt(gettext("%s names trump: %s."), who, trumpName(last.trump));
    } else if ("bid" in last) {
      text = last.bid === 0 ? fmt(gettext("%s passes."), who) : fmt(gettext("%s bids %s."), who, last.bid);
    } else if (last.resign) {
      text = fmt(gettext("%s resigns."), who);
    } else {
      const mode = last.mode ? " (" + modeText(last) + ")" : "";
      text = fmt(gettext("%s plays %s."), who, cardText(last.card) + mode);
      if (state.finished && state.finished.winner !== null) {
        text += " " + fmt(gettext("%s takes the trick."), name(state.finished.winner));
      }
    }
    if (state.dealOver) {
      const scores = japanese ? state.outcome.points : state.outcome.scores;
      text +=
        " " +
        fmt(
          gettext("Deal over: %s."),
          scores.map((score, seat) => name(seat) + " " + (score > 0 ? "+" + score : String(score))).join(", "),
        );
    }
    return text;
  }

  function render() {
    const { d, k } = positions[index];
    const state = stateAt(d, k);
    renderBar(state);
    renderSeats(state);
    renderTrick(state);
    dom.step.textContent = describe(state);
    const total = deals[d].actions.length;
    dom.position.textContent =
      fmt(gettext("Deal %s of %s"), d + 1, deals.length) +
      " · " +
      fmt(gettext("step %s of %s"), k, total);
    byId("prev-step").disabled = index === 0;
    byId("prev-deal").disabled = index === 0;
    byId("next-step").disabled = index === positions.length - 1;
    byId("next-deal").disabled = index === positions.length - 1;
    renderSheet(state);
    const hash = "#deal-" + (d + 1) + "-step-" + k;
    if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
  }

  function renderBar(state) {
    dom.bar.replaceChildren();
    const { d, deal } = state;
    const info = [];
    if (!japanese) {
      info.push(fmt(gettext("Deal %s"), d + 1));
      info.push(fmt(gettext("pulka %s"), pulkaOf(d, rules.pulka_sizes) + 1));
      info.push(fmt(ngettext("%s card", "%s cards", deal.hands[0].length), deal.hands[0].length));
      info.push(fmt(gettext("Dealer: %s"), name(dealerOf(d))));
    } else {
      info.push(fmt(gettext("Deal %s"), d + 1));
      info.push(fmt(gettext("Declarer: %s"), name(dealerOf(d))));
    }
    for (const text of info) dom.bar.append(el("span", "", text));
    const trump = el("span", "");
    trump.append(gettext("Trump:") + " ");
    const suit = state.trump && state.trump !== "none" ? SYMBOL[state.trump] + " " : "";
    trump.append(el("strong", "trump" + (isRed(state.trump) ? " red" : ""), suit + trumpName(state.trump)));
    if (deal.turned) {
      trump.append(" ", el("span", "muted", gettext("turned")), " ", cardEl(deal.turned, { small: true }));
    }
    dom.bar.append(trump);
    if (!japanese && state.bids.every((b) => b !== null)) {
      const sum = state.bids.reduce((a, b) => a + b, 0);
      const cards = deal.hands[0].length;
      const under = sum < cards;
      dom.bar.append(
        el(
          "span",
          under ? "under" : "over",
          (under ? gettext("Shetenva") : gettext("Tsaglejva")) + ": " + fmt(gettext("%s bid for %s tricks"), sum, cards),
        ),
      );
    }
  }

  function renderSeats(state) {
    const next = state.deal.actions[state.k];
    for (let seat = 0; seat < players; seat++) {
      const parts = boxes[seat];
      parts.box.classList.toggle("turn", Boolean(next) && next.seat === seat);
      parts.badges.replaceChildren();
      if (dealerOf(state.d) === seat) {
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
      if (japanese) {
        parts.columns.replaceChildren();
        for (const column of state.columns[seat] || []) {
          const stack = el("div", "column");
          const down = cardEl(column.down, { small: true });
          down.classList.add("down");
          down.title = gettext("face down") + ": " + down.title;
          const up = cardEl(column.up, { small: true });
          up.classList.add("up");
          stack.append(down, up);
          parts.columns.append(stack);
        }
      }
    }
  }

  function renderTrick(state) {
    dom.trick.replaceChildren();
    const shown = state.finished ? state.finished.cards : state.trick;
    dom.trick.classList.toggle("finished", Boolean(state.finished));
    shown.forEach((play, i) => {
      const slot = el("div", "slot pos-" + positionOf(play.seat, 0, players));
      const node = playEl(play);
      if (i === 0) node.classList.add("lead");
      if (state.finished && state.finished.winner === play.seat) node.classList.add("won");
      slot.append(node);
      dom.trick.append(slot);
    });
    if (state.finished && state.finished.winner !== null) {
      dom.trick.append(el("div", "trick-caption", fmt(gettext("%s takes the trick"), name(state.finished.winner))));
    }
  }

  // The scoresheet up to the position shown: no spoilers of later deals.
  function renderSheet(state) {
    const shownDeals = state.dealOver ? state.d + 1 : state.d;
    const names = [...Array(players).keys()].map(name);
    const atEnd = index === positions.length - 1;
    const common = {
      rules,
      names,
      deals: result.deals.slice(0, shownDeals),
      totals: state.totals,
      places: atEnd && result.places ? result.places : null,
      here: state.d,
    };
    const current = state.dealOver
      ? null
      : {
          deal: state.d,
          cards: deals[state.d].hands[0].length,
          declarer: dealerOf(state.d),
          trump: state.trump,
          bids: state.bids,
          tricks: state.tricks,
        };
    if (japanese) {
      drawSheet(dom.sheet, japaneseSheet({ ...common, current }));
    } else {
      // A pulka's premiums show once its last deal is shown.
      const pulkas = (result.pulkas || []).filter(
        (pulka, i) => pulkaDeals(i, rules.pulka_sizes).end <= shownDeals,
      );
      drawSheet(dom.sheet, georgianSheet({ ...common, pulkas, current }));
    }
  }

  // Navigation -----------------------------------------------------------

  function go(to) {
    index = Math.max(0, Math.min(positions.length - 1, to));
    render();
  }

  function step(delta) {
    go(index + delta);
  }

  function dealStep(delta) {
    const { d, k } = positions[index];
    let target = d + delta;
    // Back from inside a deal goes to its start first.
    if (delta < 0 && k > 0) target = d;
    target = Math.max(0, Math.min(deals.length - 1, target));
    if (delta > 0 && target === d) {
      go(positions.length - 1);
      return;
    }
    go(positions.findIndex((p) => p.d === target));
  }

  function toggleAutoplay() {
    if (autoplay) {
      clearInterval(autoplay);
      autoplay = null;
    } else {
      if (index === positions.length - 1) go(0);
      autoplay = setInterval(() => {
        if (index >= positions.length - 1) toggleAutoplay();
        else step(1);
      }, 900);
    }
    dom.autoplay.textContent = autoplay
      ? "⏸ " + dom.autoplay.dataset.pause
      : "▶ " + dom.autoplay.dataset.play;
  }

  byId("prev-step").addEventListener("click", () => step(-1));
  byId("next-step").addEventListener("click", () => step(1));
  byId("prev-deal").addEventListener("click", () => dealStep(-1));
  byId("next-deal").addEventListener("click", () => dealStep(1));
  dom.autoplay.addEventListener("click", toggleAutoplay);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    const keys = {
      ArrowLeft: () => (event.shiftKey ? dealStep(-1) : step(-1)),
      ArrowRight: () => (event.shiftKey ? dealStep(1) : step(1)),
      ArrowUp: () => dealStep(-1),
      ArrowDown: () => dealStep(1),
      PageUp: () => dealStep(-1),
      PageDown: () => dealStep(1),
      Home: () => go(0),
      End: () => go(positions.length - 1),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // Open at the position in the address (#deal-3-step-10), else the start.
  const match = /^#deal-(\d+)-step-(\d+)$/.exec(window.location.hash);
  if (match) {
    const found = positions.findIndex((p) => p.d === Number(match[1]) - 1 && p.k === Number(match[2]));
    if (found >= 0) index = found;
  }
  render();
}
