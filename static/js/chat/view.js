// One chat message as a list item, for the live panel and the replay. Every
// text a player wrote goes in with textContent, never as HTML.

import { el } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";
import { messageText } from "./phrases.js";

export function timeText(at) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function messageItem(message, { markSpectators = false } = {}) {
  const item = el("li", "chat-line");
  item.dataset.id = String(message.id);
  item.dataset.author = String(message.author.id);
  if (message.phrase) item.classList.add("chat-phrase");
  const time = el("time", "chat-time", timeText(message.at));
  time.dateTime = message.at;
  item.append(time, " ");
  if (markSpectators && message.room === "spectators") {
    item.classList.add("chat-spectator");
    item.append(el("span", "chat-tag", gettext("spectator")), " ");
  }
  item.append(el("strong", "chat-author", message.author.name), " ");
  item.append(el("span", "chat-text", messageText(message)));
  return item;
}

// The sentence for a refused chat message (docs/protocol.md, Error codes).
export function chatErrorText(error) {
  const texts = {
    chat_empty: gettext("Write something first."),
    chat_too_long: gettext("That message is too long."),
    chat_flood: gettext("You are writing too fast: wait a few seconds."),
    blocked: gettext("A player at this table does not take your messages."),
    not_allowed: gettext("Sign in to chat."),
    not_found: gettext("That message or player is not there any more."),
  };
  if (error.code === "you_blocked") {
    return fmt(gettext("You blocked %s. Unblock them to write here."), (error.names || []).join(", "));
  }
  if (error.code === "muted") {
    const until = error.until ? new Date(error.until).toLocaleString() : "";
    return fmt(gettext("You cannot chat until %s."), until);
  }
  return texts[error.code] || gettext("The message was not sent.");
}
