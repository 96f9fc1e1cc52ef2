// Moving along a row of buttons with the keyboard, as the table's help line
// says: ← → (and ↑ ↓) step, Home and End jump; the row's ends stop the move.

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// The index the key moves to from `index` in a row of `count`, or null for
// a key that does not move.
export function arrowTarget(key, index, count) {
  if (count <= 0) return null;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (!(key in STEPS)) return null;
  return Math.max(0, Math.min(count - 1, index + STEPS[key]));
}
