// Browser notifications (the Notification API), shown only when the tab is
// hidden: a player looking at the page sees the news on it. Permission is
// asked only on a click of a [data-notifications] button, never on load
// (browsers ignore or penalise a request no gesture asked for).

import { gettext } from "../lib/i18n.js";

// The site's own switch, kept in this browser: once the browser allows
// notifications, only the browser's settings could stop them; the switch
// lets a player turn them off (and on again) from the page.
const SWITCH_KEY = "pulka.notifications";

function api(win = globalThis) {
  return win.Notification || null;
}

function storage() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null; // storage refused (a privacy setting): the switch stays on
  }
}

export function switchedOff(store = storage()) {
  return Boolean(store) && store.getItem(SWITCH_KEY) === "off";
}

function setSwitchedOff(off, store = storage()) {
  if (!store) return;
  if (off) store.setItem(SWITCH_KEY, "off");
  else store.removeItem(SWITCH_KEY);
}

// Whether a notification would be shown now: allowed by the browser, not
// switched off on the site, and the tab hidden.
export function mayNotify(doc = globalThis.document, Notification = api(), store = storage()) {
  return (
    Boolean(Notification) && Notification.permission === "granted" && !switchedOff(store) && doc.hidden
  );
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
  const on = state === "granted" && !switchedOff();
  const compact = button.dataset.notifications === "compact";
  button.hidden = false;
  // Allowed, the button is the site's switch; blocked, only the browser's
  // settings can change it.
  button.disabled = state === "denied";
  button.setAttribute("aria-pressed", String(on));
  let text = null;
  if (state === "granted") text = on ? gettext("Notifications are on") : gettext("Notifications are off");
  else if (state === "denied") text = gettext("Notifications are blocked in this browser");
  if (!text) return;
  // A bell: its pressed state and its tooltip say it all.
  if (compact) button.title = text;
  else button.textContent = text;
}

// Wire every [data-notifications] button of the page: shown when the
// browser has the API; a click asks for permission the first time, and
// then turns notifications off and on again.
export function wireNotificationButtons(root = globalThis.document) {
  const Notification = api();
  if (!Notification) return;
  const buttons = [...root.querySelectorAll("[data-notifications]")];
  const redraw = () => buttons.forEach((button) => drawButton(button, Notification));
  for (const button of buttons) {
    button.addEventListener("click", async () => {
      if (Notification.permission === "default") {
        if ((await Notification.requestPermission()) === "granted") setSwitchedOff(false);
      } else if (Notification.permission === "granted") {
        setSwitchedOff(!switchedOff());
      }
      redraw();
    });
  }
  // Switched in another tab: every page shows the same.
  globalThis.addEventListener("storage", (event) => {
    if (event.key === SWITCH_KEY) redraw();
  });
  redraw();
}
