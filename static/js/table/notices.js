// Messages to the player ("Deal 1 is over", a refused move). They are shown
// in a line of their own between the bar and the felt, whose height is kept
// for them, so a message never covers the hand or the scoresheet and never
// moves the table when it comes or goes. The game's words in a message
// (`terms`, glossary slugs) can be tapped for their explanation; the message
// stays while one is being read.

import { annotated } from "../views/terms.js";

const SHOW_MS = 6000;

export class Notices {
  constructor(root, timers = globalThis) {
    this.root = root;
    this.timers = timers;
    this.timer = null;
    root.addEventListener("focusin", () => this.timers.clearTimeout(this.timer));
    root.addEventListener("focusout", () => this.hideLater());
  }

  show(text, isError = false, terms = []) {
    if (!text) return;
    this.root.replaceChildren(annotated(text, terms));
    this.root.classList.toggle("error", isError);
    this.root.classList.add("show");
    this.hideLater();
  }

  hideLater() {
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => this.root.classList.remove("show"), SHOW_MS);
  }
}
