// The replay's controls: the step and deal buttons, the keys (← → step, ↑ ↓
// and Page Up/Down deal, Home and End) and autoplay.

// How long autoplay shows each step.
const AUTOPLAY_STEP_MS = 900;

export class ReplayControls {
  // moves: step(delta), deal(delta), start(), end() and atEnd(), over the
  // position shown.
  constructor({ prevStep, nextStep, prevDeal, nextDeal, autoplay }, moves) {
    this.buttons = { prevStep, nextStep, prevDeal, nextDeal };
    this.autoplayButton = autoplay;
    this.moves = moves;
    this.autoplay = null; // the interval's id while autoplay runs
    prevStep.addEventListener("click", () => moves.step(-1));
    nextStep.addEventListener("click", () => moves.step(1));
    prevDeal.addEventListener("click", () => moves.deal(-1));
    nextDeal.addEventListener("click", () => moves.deal(1));
    autoplay.addEventListener("click", () => this.toggleAutoplay());
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  // Greys out the buttons that would not move.
  render({ atStart, atEnd }) {
    const { prevStep, nextStep, prevDeal, nextDeal } = this.buttons;
    prevStep.disabled = atStart;
    prevDeal.disabled = atStart;
    nextStep.disabled = atEnd;
    nextDeal.disabled = atEnd;
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // Typing in a field is not a move.
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    const moves = this.moves;
    const keys = {
      ArrowLeft: () => (event.shiftKey ? moves.deal(-1) : moves.step(-1)),
      ArrowRight: () => (event.shiftKey ? moves.deal(1) : moves.step(1)),
      ArrowUp: () => moves.deal(-1),
      ArrowDown: () => moves.deal(1),
      PageUp: () => moves.deal(-1),
      PageDown: () => moves.deal(1),
      Home: () => moves.start(),
      End: () => moves.end(),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // Starts stepping on its own (from the start again when at the end), or
  // stops; it stops by itself at the end.
  toggleAutoplay() {
    const moves = this.moves;
    if (this.autoplay) {
      clearInterval(this.autoplay);
      this.autoplay = null;
    } else {
      if (moves.atEnd()) moves.start();
      this.autoplay = setInterval(() => {
        if (moves.atEnd()) this.toggleAutoplay();
        else moves.step(1);
      }, AUTOPLAY_STEP_MS);
    }
    const button = this.autoplayButton;
    button.textContent = this.autoplay ? "⏸ " + button.dataset.pause : "▶ " + button.dataset.play;
  }
}
