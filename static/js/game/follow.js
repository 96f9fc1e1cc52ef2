// How the page keeps its seat's view from the updates it is sent: the
// public events of each step, then the seat's position after them (whose
// turn, the phase, the scores, its own hand and legal choices). The same
// rules as joker/follow.py, which the server's tests hold to the
// engine's view over whole games; tests/js/follow_check.mjs holds this
// module to the same cases. Pure: it returns a new view.

// The fields of a view that only mean something while a deal is played.
const DEAL_FIELDS = { dealer: null, cards: null, tricks: [] };

export function follow(view, steps, position) {
  const out = {
    ...view,
    bids: [...view.bids],
    tricks: [...view.tricks],
    trick: [...view.trick],
    deals: [...view.deals],
    pulkas: [...view.pulkas],
  };
  for (const step of steps) {
    for (const event of step.events) applyEvent(out, event);
  }
  delete out.legal;
  delete out.next_deal;
  Object.assign(out, position);
  if (position.phase === "deal" || position.phase === "over") {
    Object.assign(out, DEAL_FIELDS, { trick: [] });
  }
  return out;
}

function withoutType(event) {
  const rest = { ...event };
  delete rest.type;
  return rest;
}

function applyEvent(view, event) {
  switch (event.type) {
    case "deal": {
      const players = view.players;
      Object.assign(view, {
        deal: event.deal,
        dealer: event.dealer,
        cards: event.cards,
        turned: event.turned,
        trump: event.trump,
        bids: view.profile === "japanese" ? [] : new Array(players).fill(null),
        tricks: new Array(players).fill(0),
        trick: [],
        trick_number: 0,
      });
      break;
    }
    case "trump":
      view.trump = event.trump;
      break;
    case "bid":
      view.bids[event.seat] = event.bid;
      break;
    case "card":
      view.trick = [...view.trick, withoutType(event)];
      break;
    case "trick":
      view.trick = [];
      view.tricks[event.winner] += 1;
      view.trick_number += 1;
      break;
    case "deal_over":
      view.deals.push(event.result);
      Object.assign(view, {
        deal: event.deal + 1,
        trump: null,
        turned: null,
        bids: [],
        trick_number: 0,
      });
      break;
    case "pulka_over":
      view.pulkas.push(withoutType(event));
      break;
    case "game_over":
      view.places = event.places;
      break;
    default:
      break; // resign, aborted: the position says what changed
  }
}
