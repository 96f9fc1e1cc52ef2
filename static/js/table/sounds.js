// The table's sounds: the move come to the player, a trick taken, the game's
// end. Made with the Web Audio API, no files. A browser lets a page start
// sound only after a tap, click or key on it (the autoplay policy), so none
// is made before; the switch in the bar mutes them, remembered per browser.

import { userGestureSeen } from "../lib/gesture.js";
import { TONES, rememberSound, soundOn } from "../game/tones.js";

const VOLUME = 0.15;

function browserStorage() {
  try {
    return globalThis.localStorage;
  } catch {
    return null; // storage refused: every read and write then fails quietly
  }
}

export class Sounds {
  constructor(button, storage = browserStorage()) {
    this.button = button;
    this.storage = storage;
    this.on = soundOn(storage);
    this.context = null;
    button.addEventListener("click", () => {
      this.on = !this.on;
      rememberSound(this.storage, this.on);
      this.draw();
      if (this.on) this.play("trick");
    });
    this.draw();
  }

  draw() {
    this.button.setAttribute("aria-pressed", String(this.on));
    // A note, struck through when muted (by CSS, from aria-pressed): a
    // glyph every font has, unlike the loudspeaker emoji.
    this.button.textContent = "♪";
  }

  play(name) {
    if (!this.on || !userGestureSeen()) return;
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return;
    if (!this.context) this.context = new Context();
    const context = this.context;
    if (context.state === "suspended") context.resume();
    const now = context.currentTime;
    for (const [frequency, start, length] of TONES[name]) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      // A quick rise and a fall, so that a note does not click.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(VOLUME, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }
}
