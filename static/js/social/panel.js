// The personal notices every page of a signed-in player can show: an
// invitation to a table (Accept / Decline), a friend request, an answer to
// an invitation. They sit in a corner panel of their own, built with
// textContent only (names are players' own text).

import { el } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";

// What a refusal of the invitation API means, in the player's language.
const REFUSALS = {
  invitation_over: () => gettext("The invitation is over: answered, expired, or its seats are taken."),
  ranked_elsewhere: () => gettext("You already have a seat at another ranked table. Finish or leave that one first."),
  few_coins: () => gettext("The stake at this table is more Domino Coin than your wallet holds."),
  rating_needed: () => gettext("The stake at this table needs an established rating in its category."),
  not_found: () => gettext("There is no such invitation."),
};

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

async function post(url) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
  });
  const body = response.status === 204 ? {} : await response.json();
  return { ok: response.ok, body };
}

function refusalText(body) {
  const text = REFUSALS[body.code];
  return text ? text() : body.detail || gettext("That did not work.");
}

export class MePanel {
  constructor(doc = document) {
    this.root = el("div", "me-panel");
    this.root.id = "me-panel";
    this.root.setAttribute("role", "status");
    this.root.setAttribute("aria-live", "polite");
    doc.body.append(this.root);
    this.invitations = new Map();
  }

  // An invitation, until answered or expired; a second sight of the same
  // one (the socket reopened) changes nothing.
  invitation(invitation) {
    if (this.invitations.has(invitation.id)) return;
    const box = el("div", "me-notice me-invitation");
    box.dataset.invitation = String(invitation.id);
    box.append(el("p", "me-text", fmt(gettext("%s invites you to table %s."), invitation.from.name, invitation.table)));
    const error = el("p", "me-error");
    error.hidden = true;
    const actions = el("p", "me-actions");
    const accept = el("button", "button small primary", gettext("Accept"));
    const decline = el("button", "button small", gettext("Decline"));
    accept.type = decline.type = "button";
    actions.append(accept, decline);
    box.append(actions, error);
    const answer = async (what) => {
      accept.disabled = decline.disabled = true;
      try {
        const { ok, body } = await post(`/api/v1/invitations/${invitation.id}/${what}/`);
        if (ok && what === "accept") {
          window.location.assign(body.url);
          return;
        }
        if (ok) {
          this.remove(invitation.id);
          return;
        }
        error.textContent = refusalText(body);
      } catch {
        error.textContent = gettext("The site did not answer: try again.");
      }
      error.hidden = false;
      accept.disabled = decline.disabled = false;
    };
    accept.addEventListener("click", () => answer("accept"));
    decline.addEventListener("click", () => answer("decline"));
    this.root.append(box);
    const left = Date.parse(invitation.expires_at) - Date.now();
    const timer = setTimeout(() => this.remove(invitation.id), Math.max(left, 1000));
    this.invitations.set(invitation.id, { box, timer });
  }

  remove(id) {
    const shown = this.invitations.get(id);
    if (!shown) return;
    clearTimeout(shown.timer);
    shown.box.remove();
    this.invitations.delete(id);
  }

  // A passing word (a friend request, an answer), with a link or not; it
  // goes by itself or on its close button.
  say(text, link) {
    const box = el("div", "me-notice");
    const line = el("p", "me-text", text);
    if (link) {
      line.append(" ");
      const anchor = el("a", null, link.text);
      anchor.href = link.href;
      line.append(anchor);
    }
    const close = el("button", "me-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", gettext("Close"));
    close.addEventListener("click", () => box.remove());
    box.append(close, line);
    this.root.append(box);
    setTimeout(() => box.remove(), 15000);
  }
}
