// The premium tracker: during a pulka, which seats are still exact in every
// deal (and so on course for the premium). Pure: from the view alone.

import { pulkaDeals, pulkaOf } from "./seating.js";

// For each seat: "exact" (every deal of this pulka so far made exactly, and
// the deal being played can still be), or "missed" (a deal of this pulka
// was missed, or the deal being played can no longer be made exactly).
// Empty for games without pulkas (Japanese Joker).
export function premiumTracker(view, rules) {
  if (rules.japanese || !rules.pulka_sizes || !rules.pulka_sizes.length) return [];
  const sizes = rules.pulka_sizes;
  const pulka = pulkaOf(view.deal, sizes);
  const { start } = pulkaDeals(pulka, sizes);
  const finished = view.deals.slice(start, view.deal);
  const playing = view.phase === "bid" || view.phase === "card";
  const status = [];
  for (let seat = 0; seat < rules.players; seat++) {
    const missedBefore = finished.some((deal) => deal.bids[seat] !== deal.tricks[seat]);
    const now = playing ? stillPossible(view, seat) : true;
    status.push(missedBefore || !now ? "missed" : "exact");
  }
  return status;
}

// Can `seat` still take exactly its bid in the deal being played? Before it
// has bid, yes.
function stillPossible(view, seat) {
  const bid = (view.bids || [])[seat];
  if (bid === null || bid === undefined) return true;
  const took = (view.tricks || [])[seat] || 0;
  const left = view.cards - (view.trick_number || 0);
  return took <= bid && bid - took <= left;
}

// Which deal of its pulka the current deal is: {pulka: 1-based, index:
// 1-based, size}.
export function pulkaPosition(deal, sizes) {
  const pulka = pulkaOf(deal, sizes);
  const { start } = pulkaDeals(pulka, sizes);
  return { pulka: pulka + 1, index: deal - start + 1, size: sizes[pulka] };
}
