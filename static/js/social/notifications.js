// Browser notifications (the Notification API), shown only when the tab is
// hidden: a player looking at the page sees the news on it. Permission is
// asked only on a click of a [data-notifications] button, never on load
// (browsers ignore or penalise a request no gesture asked for).

import { gettext } from "../lib/i18n.js";

function api(win = globalThis) {
  return win.Notification || null;
}

// Whether a notification would be shown now: allowed, and the tab hidden.
export function mayNotify(doc = globalThis.document, Notification = api()) {
  return Boolean(Notification) && Notification.permission === "granted" && doc.hidden;
}

// Show one, if mayNotify; a click brings the tab forward. `tag` replaces an
// earlier notification of the same news rather than piling them up.
export function notifyHidden(title, body, tag) {
  if (!mayNotify()) return null;
  const Notification = api();
  const notice = new Notification(title, { body, tag });
  notice.onclick = () => {
    globalThis.focus();
    notice.close();
  };
  return notice;
}

function drawButton(button, Notification) {
  const state = Notification.permission;
  const compact = button.dataset.notifications === "compact";
  button.hidden = false;
  button.disabled = state !== "default";
  button.setAttribute("aria-pressed", String(state === "granted"));
  if (compact) return; // a bell: its pressed state says it all
  if (state === "granted") button.textContent = gettext("Notifications are on");
  else if (state === "denied") button.textContent = gettext("Notifications are blocked in this browser");
}

// Wire every [data-notifications] button of the page: shown when the
// browser has the API, asking for permission on a click.
export function wireNotificationButtons(root = globalThis.document) {
  const Notification = api();
  if (!Notification) return;
  for (const button of root.querySelectorAll("[data-notifications]")) {
    drawButton(button, Notification);
    button.addEventListener("click", async () => {
      if (Notification.permission === "default") await Notification.requestPermission();
      drawButton(button, Notification);
    });
  }
}
