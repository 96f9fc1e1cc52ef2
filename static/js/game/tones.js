// What the table's sounds are, and whether this browser wants them. The
// notes are played by static/js/table/sounds.js with the Web Audio API.

// Where the mute switch is remembered, per browser.
export const SOUND_KEY = "pulka.sound";

// Each sound as its notes: [frequency in Hz, start and length in seconds].
export const TONES = {
  // The move is the player's: two notes, rising.
  turn: [
    [660, 0, 0.12],
    [880, 0.12, 0.16],
  ],
  // A trick was taken: one short, low note.
  trick: [[440, 0, 0.09]],
  // The game is over: a major chord, broken.
  end: [
    [523, 0, 0.16],
    [659, 0.16, 0.16],
    [784, 0.32, 0.4],
  ],
};

// Whether the sounds are on: unless the player switched them off here. A
// storage that cannot be read (a private window may refuse) counts as on.
export function soundOn(storage) {
  try {
    return storage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

export function rememberSound(storage, on) {
  try {
    storage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // Not remembered: the switch still holds for this page.
  }
}
