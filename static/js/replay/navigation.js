// Moving between the replay's positions (openReplay's list, in order): by a
// step, by a deal, or to the position the address names. Pure: each function
// takes the index of the position shown and gives the index to show.

// The index `to`, kept within the positions.
export function clampIndex(positions, to) {
  return Math.max(0, Math.min(positions.length - 1, to));
}

// Where a deal step from `index` lands: the start of the deal `delta` away.
export function dealStepIndex(positions, dealCount, index, delta) {
  const { d, k } = positions[index];
  let target = d + delta;
  // Back from inside a deal goes to its start first.
  if (delta < 0 && k > 0) target = d;
  target = Math.max(0, Math.min(dealCount - 1, target));
  // Forward from the last deal goes to the game's end.
  if (delta > 0 && target === d) return positions.length - 1;
  return positions.findIndex((p) => p.d === target);
}

// The address fragment of a position, so that a link can open the replay
// there: deals are counted from 1 as the page shows them, steps from 0.
export function positionHash({ d, k }) {
  return "#deal-" + (d + 1) + "-step-" + k;
}

// The index of the position a fragment such as #deal-3-step-10 names, or
// null when it names none.
export function indexOfHash(positions, hash) {
  const match = /^#deal-(\d+)-step-(\d+)$/.exec(hash);
  if (!match) return null;
  const found = positions.findIndex((p) => p.d === Number(match[1]) - 1 && p.k === Number(match[2]));
  return found >= 0 ? found : null;
}
