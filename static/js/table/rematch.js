// The rematch under a finished game's result (docs/protocol.md, "Rematch"):
// a button for each seated person, who has agreed and who is awaited, and
// the way to the new table once everyone has.

import { fmt, gettext } from "../lib/i18n.js";

// Why an offer lapsed, by the `reason` of the server's `rematch` message;
// %s is the seat's name.
function lapsedText(reason, name) {
  const texts = {
    declined: gettext("%s said no to the rematch."),
    left: gettext("%s left the table: the rematch offer lapsed."),
    ranked_elsewhere: gettext("No rematch: %s has a seat at another ranked table."),
    few_coins: gettext("No rematch: %s has fewer Domino Coin than the stake."),
    rating_needed: gettext("No rematch: %s needs an established rating for this stake."),
    banned: gettext("No rematch: the account of %s is closed."),
  };
  if (reason === "expired") return gettext("The rematch offer ran out of time.");
  return fmt(texts[reason] || gettext("No rematch: %s cannot take the seat."), name);
}

export class Rematch {
  // `send(message)` sends over the table's socket (false when it cannot);
  // `serverNow()` is the server's clock; `go(url)` opens the new table.
  constructor({ root, button, decline, status }, { names, send, serverNow, go, managed }) {
    this.nodes = { root, button, decline, status };
    this.names = names;
    this.send = send;
    this.serverNow = serverNow;
    this.go = go;
    this.managed = managed;
    this.offer = null;
    // An offer seen open on this page: when it is made, the page follows.
    this.followed = false;
    button.addEventListener("click", () => this.ask("rematch"));
    decline.addEventListener("click", () => this.ask("rematch_decline"));
  }

  ask(type) {
    this.nodes.button.disabled = true;
    if (!this.send({ type })) {
      this.nodes.button.disabled = false;
      this.nodes.status.textContent = gettext("Not connected. Try again in a moment.");
    }
  }

  // A `rematch` message from the server.
  receive(message, snap) {
    this.offer = message;
    if (message.state === "open") this.followed = true;
    if (message.state === "made" && this.followed && message.url) {
      this.go(message.url);
      return;
    }
    this.render(snap);
  }

  // A refusal of a rematch message: the button is offered again.
  refused() {
    this.nodes.button.disabled = false;
  }

  render(snap) {
    const { root, button, decline, status } = this.nodes;
    const seated = snap.you !== null && snap.you !== undefined;
    root.hidden = !(seated && snap.status === "finished" && !this.managed);
    if (root.hidden) return;
    const offer = this.live();
    const agreed = offer && offer.state === "open" && offer.agreed.includes(snap.you);
    status.classList.toggle("refused", Boolean(offer && offer.state === "lapsed" && offer.seat !== null));
    if (offer && offer.state === "made") {
      button.hidden = true;
      decline.hidden = true;
      status.replaceChildren(gettext("The rematch is ready: "));
      const link = document.createElement("a");
      link.href = offer.url;
      link.textContent = fmt(gettext("table %s"), offer.table);
      status.append(link);
      return;
    }
    button.hidden = false;
    button.disabled = Boolean(agreed);
    button.textContent = agreed ? gettext("You agreed") : gettext("Rematch");
    decline.hidden = !(offer && offer.state === "open");
    if (!offer) {
      status.textContent = "";
    } else if (offer.state === "open") {
      const left = Math.max(0, Math.ceil((Date.parse(offer.expires) - this.serverNow()) / 1000));
      status.textContent = fmt(
        gettext("Agreed: %s. Waiting for: %s. %s s left."),
        offer.agreed.map(this.names).join(", "),
        offer.waiting.map(this.names).join(", "),
        left,
      );
    } else if (offer.state === "lapsed") {
      status.textContent = lapsedText(offer.reason, offer.seat === null ? "" : this.names(offer.seat));
    }
  }

  // Every quarter second: an open offer's seconds left.
  tick(snap) {
    if (this.offer && this.offer.state === "open") this.render(snap);
  }

  // The offer as it stands now: an open one past its time has lapsed.
  live() {
    const offer = this.offer;
    if (!offer || offer.state !== "open") return offer;
    if (Date.parse(offer.expires) > this.serverNow()) return offer;
    return { ...offer, state: "lapsed", reason: "expired", seat: null };
  }
}
