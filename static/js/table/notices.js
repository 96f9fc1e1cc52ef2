// Messages to the player ("Deal 1 is over", a refused move). They are shown
// in a line of their own between the bar and the felt, whose height is kept
// for them, so a message never covers the hand or the scoresheet and never
// moves the table when it comes or goes.

const SHOW_MS = 6000;

export class Notices {
  constructor(root, timers = globalThis) {
    this.root = root;
    this.timers = timers;
    this.timer = null;
  }

  show(text, isError = false) {
    if (!text) return;
    this.root.textContent = text;
    this.root.classList.toggle("error", isError);
    this.root.classList.add("show");
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => this.root.classList.remove("show"), SHOW_MS);
  }
}
