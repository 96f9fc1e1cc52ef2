// The turn clock: seconds left from the server's deadline, and how they are
// written. Pure: time is passed in.

// The server's clock minus ours, from the page's server_now.
export function clockOffset(serverNowMs, localNowMs) {
  return serverNowMs - localNowMs;
}

// Seconds left to move, clamped to [0, turnSeconds]: the offset is only as
// good as the page's latency, so a little skew never shows more than a
// whole turn.
export function secondsLeft(deadline, nowMs, turnSeconds) {
  if (!deadline) return null;
  const at = typeof deadline === "number" ? deadline : Date.parse(deadline);
  if (Number.isNaN(at)) return null;
  return Math.min(turnSeconds, Math.max(0, (at - nowMs) / 1000));
}

// "0:07", "1:30": whole seconds, rounded up so that 0:00 means time is up.
export function formatClock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes + ":" + (rest < 10 ? "0" : "") + rest;
}

// The share of the turn left, for the bar under a seat (0..1).
export function shareLeft(seconds, turnSeconds) {
  if (seconds === null || !turnSeconds) return 0;
  return Math.min(1, Math.max(0, seconds / turnSeconds));
}

export const LOW_SECONDS = 5;
