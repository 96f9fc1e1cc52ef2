// The table's chat: the panel of static/js/chat/panel.js in the players'
// room for a seat, the spectators' for anyone else (docs/chat.md). The same
// rooms on the waiting page and at the game: the chat goes on.

import { byId } from "../lib/dom.js";
import { gettext } from "../lib/i18n.js";
import { ChatPanel } from "../chat/panel.js";

// `seat`: the reader's seat, null for a spectator.
export function tableChat(seat, send) {
  const root = byId("chat");
  if (!root) return null;
  const me = Number(root.dataset.me) || null;
  const title = root.querySelector('[data-chat="title"]');
  title.textContent = seat === null ? gettext("Spectators' chat") : gettext("Players' chat");
  return new ChatPanel(root, { send, me });
}
