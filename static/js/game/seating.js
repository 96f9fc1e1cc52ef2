// Where each seat sits on the felt, and the pulka a deal belongs to. Pure.

// Seats around the table as seen from `me` (drawn at the bottom); seats are
// numbered clockwise, so the next seat sits on the left. A spectator sees
// the table from seat 0.
export function positionOf(seat, me, players) {
  const relative = (seat - (me ?? 0) + players) % players;
  return players === 2
    ? ["bottom", "top"][relative]
    : ["bottom", "left", "top", "right"][relative];
}

// In pairs, seats 1 and 3 play against 2 and 4 (0-based: 0+2, 1+3).
export function partnerOf(seat, players) {
  return players === 4 ? (seat + 2) % 4 : null;
}

export function teamOf(seat) {
  return seat % 2;
}

// The pulka (0-based) deal `deal` belongs to, for pulka sizes like [8, 4, 8, 4].
export function pulkaOf(deal, sizes) {
  let end = 0;
  for (let pulka = 0; pulka < sizes.length; pulka++) {
    end += sizes[pulka];
    if (deal < end) return pulka;
  }
  return sizes.length - 1;
}

// The deal numbers (0-based) of pulka `pulka`.
export function pulkaDeals(pulka, sizes) {
  const start = sizes.slice(0, pulka).reduce((a, b) => a + b, 0);
  return { start, end: start + sizes[pulka] };
}
