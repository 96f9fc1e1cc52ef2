// The line that asks the player for a move (trump, bid, a joker's mode) or
// says whose move it is, with the player's own clock.

import { el } from "../lib/dom.js";
import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { NOMINAL, SYMBOL, cardText, isRed, suitName } from "../game/cards.js";
import { LOW_SECONDS, secondsLeft } from "../game/clock.js";
import { arrowTarget } from "../game/keys.js";
import { annotated } from "../views/terms.js";

export class Prompt {
  constructor(root, { names, send, cancelJoker }) {
    this.root = root;
    this.names = names;
    this.send = send; // send(action)
    this.cancelJoker = cancelJoker;
    this.timer = null;
    root.addEventListener("keydown", (event) => this.onKey(event));
  }

  // The arrow keys move between the choices (trump, bids, a joker's modes)
  // as they move between the cards.
  onKey(event) {
    const buttons = [...this.root.querySelectorAll("button.choice:not([disabled])")];
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const target = arrowTarget(event.key, index, buttons.length);
    if (target === null) return;
    event.preventDefault();
    buttons[target].focus();
  }

  render(state) {
    // Redrawn on every message: the keyboard stays on the same choice.
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    this.draw(state);
    if (focused) {
      const again = [...this.root.querySelectorAll("button")].find((b) => b.dataset.key === focused);
      if (again) again.focus();
    }
  }

  draw(state) {
    const snap = state.snap;
    const view = snap.view;
    const root = this.root;
    root.replaceChildren();
    root.className = "prompt";
    this.timer = null;
    if (snap.status !== "playing") return;
    if (state.pending || state.awaiting) {
      root.append(el("span", "waiting", gettext("Sending your move…")));
      return;
    }
    if (!state.myTurn()) {
      if (view.turn === null || view.turn === undefined) return;
      const who = this.names(view.turn);
      const text = {
        trump: fmt(gettext("%s is naming trump."), who),
        bid: fmt(gettext("%s is bidding."), who),
        card: fmt(gettext("%s is to play."), who),
      }[view.phase];
      root.append(el("span", "waiting", text || ""));
      if (snap.you === null) root.append(el("span", "muted", gettext("You are watching.")));
      return;
    }
    root.classList.add("yours");
    this.timer = el("span", "my-timer");
    const canAct = state.canAct();
    if (view.phase === "trump") {
      root.append(ask(gettext("Name trump:"), ["trump"]));
      const row = el("span", "choices");
      for (const action of view.legal) {
        const label =
          action.trump === "none" ? gettext("No trump") : SYMBOL[action.trump] + " " + suitName(action.trump);
        row.append(this.button(label, action, "choice trump-choice" + (isRed(action.trump) ? " red" : ""), canAct));
      }
      root.append(row);
    } else if (view.phase === "bid") {
      root.append(ask(gettext("Your bid:"), ["bid"]));
      const row = el("span", "choices bids");
      const bids = view.legal.map((action) => action.bid);
      for (const action of view.legal) {
        const node = this.button(String(action.bid), action, "choice bid", canAct);
        node.setAttribute("aria-label", action.bid === 0 ? gettext("bid 0 (pass)") : fmt(gettext("bid %s"), action.bid));
        row.append(node);
      }
      root.append(row);
      const forbidden = [];
      for (let n = 0; n <= view.cards; n++) if (!bids.includes(n)) forbidden.push(n);
      if (forbidden.length) {
        root.append(el("span", "muted", fmt(gettext("As the dealer you may not bid %s."), forbidden.join(", "))));
      }
    } else if (view.phase === "card" && state.choosing) {
      root.append(ask(fmt(gettext("Play %s as:"), cardText(state.choosing)), ["joker"]));
      root.append(this.jokerChoices(state, canAct));
      const cancel = el("button", "secondary", gettext("Cancel"));
      cancel.type = "button";
      cancel.dataset.key = "cancel";
      cancel.addEventListener("click", () => this.cancelJoker());
      root.append(cancel);
    } else if (view.phase === "card") {
      const text = view.trick.length ? gettext("Your turn: play a card.") : gettext("Your lead: play a card.");
      root.append(el("span", "ask", text));
    }
    root.append(this.timer);
  }

  button(label, action, className, enabled) {
    const node = el("button", className, label);
    node.type = "button";
    node.disabled = !enabled;
    node.dataset.key = JSON.stringify(action);
    node.addEventListener("click", () => this.send(action));
    return node;
  }

  jokerChoices(state, canAct) {
    const box = el("span", "joker-choices");
    const choices = state.legalFor(state.choosing);
    const labels = { take: gettext("Take (highest)"), give: gettext("Give (lowest)") };
    for (const mode of ["take", "give"]) {
      const withMode = choices.filter((choice) => choice.mode === mode);
      if (!withMode.length) continue;
      const row = el("span", "joker-row");
      const label = el("span", "joker-mode");
      label.append(annotated(labels[mode], [mode]));
      row.append(label);
      for (const choice of withMode) {
        const node = this.button(SYMBOL[choice.suit], choice, "choice suit" + (isRed(choice.suit) ? " red" : ""), canAct);
        node.setAttribute("aria-label", labels[mode] + ": " + suitName(choice.suit));
        row.append(node);
      }
      box.append(row);
    }
    const single = {
      high: gettext("High: take the trick"),
      low: gettext("Low: give the trick away"),
      nominal: fmt(gettext("As its own card, %s"), cardText(NOMINAL[state.choosing])),
    };
    for (const mode of ["high", "low", "nominal"]) {
      const choice = choices.find((c) => c.mode === mode);
      if (choice) box.append(this.button(single[mode], choice, "choice", canAct));
    }
    return box;
  }

  // Focus the first choice (trump, bid or joker mode) for keyboard play.
  focusFirstChoice() {
    const button = this.root.querySelector("button.choice:not([disabled])");
    if (button) button.focus();
    return Boolean(button);
  }

  tick(snap, now) {
    if (!this.timer) return;
    const left = secondsLeft(snap.deadline, now, snap.turn_seconds || 30);
    if (left === null) {
      this.timer.textContent = "";
      return;
    }
    const whole = Math.ceil(left);
    this.timer.textContent = fmt(ngettext("%s second left", "%s seconds left", whole), whole);
    this.timer.classList.toggle("low", left <= LOW_SECONDS);
  }
}

// The question of the prompt, its game's words (`terms`) tappable.
function ask(text, terms) {
  const node = el("span", "ask");
  node.append(annotated(text, terms));
  return node;
}
