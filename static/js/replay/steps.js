// Stepping through a finished game's record: every position the replay can
// show (a deal after its first k actions) and where the game stands there.
// Pure, so that node --test can check it against the engine's records.
//
// The record (RECORD.md) gives every deal's cards and every action; the
// result (the server's replay of the same record) gives what needs the rules:
// trick winners and scores. This module only moves cards: out of the hands
// (and Japanese columns) onto the table, trick by trick.

import { pulkaDeals, pulkaOf } from "../game/seating.js";

// The game to step through, from the rules, record and result the page
// embeds.
export function openReplay(rules, record, result) {
  const japanese = rules.japanese;
  const positions = [];
  record.deals.forEach((deal, d) => {
    for (let k = 0; k <= deal.actions.length; k++) positions.push({ d, k });
  });
  return {
    rules,
    result,
    players: rules.players,
    japanese,
    first: japanese ? record.first_declarer : record.first_dealer,
    deals: record.deals,
    positions,
  };
}

// The dealer of deal d (the declarer, in Japanese Joker).
export function dealerOf(replay, d) {
  return (replay.first + d) % replay.players;
}

// Each seat's total through deal lastDeal (-1: before the first), premiums
// and deductions included once their pulka is over.
export function totalsThrough(replay, lastDeal) {
  const { rules, result, players, japanese } = replay;
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

// Where the game stands at deal d after its first k actions.
export function stateAt(replay, d, k) {
  const { deals, result, players, japanese } = replay;
  const deal = deals[d];
  const outcome = result.deals[d];
  const winners = outcome ? outcome.trick_winners : [];
  const hands = deal.hands.map((hand) => [...hand]);
  const columns = (deal.columns || []).map((own) => own.map(([down, up]) => ({ down, up })));
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
    totals: totalsThrough(replay, dealOver ? d : d - 1),
  };
}

// Moves a played card out of its seat's hand or columns.
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
