// Every page of a signed-in player: the personal socket /ws/me/. It keeps
// the player online for their friends (its pings), shows invitations and
// friend news on whatever page is open, notifies when the tab is hidden
// (once the player allowed it), and passes each message on to the page as
// a "pulka:me" event (the friends page redraws itself from it).
// docs/protocol.md, "The personal socket".

import { fmt, gettext } from "./lib/i18n.js";
import { openSocket } from "./lib/socket.js";
import { notifyHidden, wireNotificationButtons } from "./social/notifications.js";
import { MePanel } from "./social/panel.js";

// Closes after which trying again cannot help: signed out, banned.
const FINAL = [4401, 4403];

function start() {
  const panel = new MePanel();
  wireNotificationButtons();

  function invited(invitation) {
    panel.invitation(invitation);
    notifyHidden(
      gettext("Invitation to a table"),
      fmt(gettext("%s invites you to table %s."), invitation.from.name, invitation.table),
      `invitation-${invitation.id}`,
    );
  }

  const handlers = {
    hello: (message) => message.invitations.forEach(invited),
    invitation: (message) => invited(message.invitation),
    invitation_over: (message) => panel.remove(message.invitation),
    invitation_answered: (message) => {
      const text = message.answer === "accepted"
        ? gettext("%s accepted your invitation to table %s.")
        : gettext("%s declined your invitation to table %s.");
      panel.say(fmt(text, message.by.name, message.table));
    },
    friend_request: (message) => {
      const text = fmt(gettext("%s asks to be your friend."), message.from.name);
      panel.say(text, { text: gettext("Answer"), href: "/friends/" });
      notifyHidden(gettext("Friend request"), text, `friend-${message.from.username}`);
    },
  };

  // Shown in the corner unless the page shows it itself (a finished
  // tournament game's table page does, and takes the player there).
  const pageFirst = {
    next_game: (message) => {
      if (message.table === null) return; // the tournament is over
      panel.say(gettext("Your next tournament game is on."), { text: gettext("Play"), href: message.url });
    },
  };

  const connect = () => openSocket("/ws/me/", {
    message: (message) => {
      const handle = handlers[message.type];
      if (handle) handle(message);
      const event = new CustomEvent("pulka:me", { detail: message, cancelable: true });
      document.dispatchEvent(event);
      const fallback = pageFirst[message.type];
      if (fallback && !event.defaultPrevented) fallback(message);
    },
    // The socket's state on the page's root element (data-me), for whoever
    // waits for it to be listening.
    status: (state) => {
      document.documentElement.dataset.me = state;
    },
  }, { finalCodes: FINAL, silence: 20000 });
  // After the page's own sockets (a table's, the lobby's): they carry what
  // the page is for, and are not kept waiting behind this one's handshake.
  if (document.readyState === "complete") connect();
  else window.addEventListener("load", connect, { once: true });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
