// The chat panel of the table and the lobby: the room's messages, a line to
// write, the quick phrases, a mute switch and a report button per author.
// On a phone the panel stays closed behind a button that counts what came
// in meanwhile, so that the hand keeps the screen.
//
// The page owns the socket: it hands every message to receive(), which
// says whether it was the chat's, and the panel sends through send().

import { el } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";
import { PHRASES, phraseText } from "./phrases.js";
import { chatErrorText, messageItem } from "./view.js";

const MAX_SHOWN = 200;
const CHAT_FRAMES = ["chat", "chat_history", "chat_muted", "chat_reported"];

export class ChatPanel {
  constructor(root, { send, me }) {
    this.root = root;
    this.send = send;
    this.me = me;
    this.canWrite = Boolean(me);
    this.node = (name) => root.querySelector(`[data-chat="${name}"]`);
    this.list = this.node("list");
    this.errorNode = this.node("error");
    this.toggle = document.querySelector(`[data-chat-toggle="${root.id}"]`);
    this.unreadNode = this.toggle && this.toggle.querySelector("[data-chat-unread]");
    this.mutedBox = this.node("muted-box");
    this.mutedList = this.node("muted");
    this.muted = new Map();
    this.unread = 0;
    this.sent = 0;
    root.hidden = false;
    if (this.toggle) {
      this.toggle.hidden = false;
      this.toggle.addEventListener("click", () => this.setOpen(!this.isOpen()));
    }
    this.node("close")?.addEventListener("click", () => this.setOpen(false));
    if (this.canWrite) this.setUpWriting();
  }

  setUpWriting() {
    const form = this.node("form");
    const input = this.node("input");
    form.hidden = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (this.say({ text })) input.value = "";
    });
    const phrases = this.node("phrases");
    phrases.hidden = false;
    for (const key of Object.keys(PHRASES)) {
      const button = el("button", "chat-phrase-btn", phraseText(key));
      button.type = "button";
      button.dataset.phrase = key;
      button.addEventListener("click", () => this.say({ phrase: key }));
      phrases.append(button);
    }
  }

  nextId() {
    this.sent += 1;
    return `chat-${Date.now().toString(36)}-${this.sent}`;
  }

  say(fields) {
    this.showError(null);
    const ok = this.send({ type: "chat", id: this.nextId(), ...fields });
    if (!ok) this.showError(gettext("Not connected. Your message was not sent."));
    return ok;
  }

  // Whether the panel is on the screen: always, but on a phone only when
  // opened with its button.
  isOpen() {
    return !this.toggle || this.toggle.offsetParent === null || this.root.classList.contains("open");
  }

  setOpen(open) {
    this.root.classList.toggle("open", open);
    if (this.toggle) this.toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      this.unread = 0;
      this.renderUnread();
      this.list.scrollTop = this.list.scrollHeight;
    }
  }

  receive(message) {
    if (message.type === "error") {
      if (typeof message.id !== "string" || !message.id.startsWith("chat-")) return false;
      this.showError(chatErrorText(message));
      return true;
    }
    if (!CHAT_FRAMES.includes(message.type)) return false;
    if (message.type === "chat_history") this.history(message);
    else if (message.type === "chat") this.add(message.message, true);
    else if (message.type === "chat_muted") this.mutedChanged(message);
    else if (message.type === "chat_reported") this.reported(message.message);
    return true;
  }

  history(message) {
    this.list.replaceChildren();
    this.muted = new Map(message.muted.map((m) => [m.id, m.name]));
    for (const shown of message.messages) this.add(shown, false);
    this.renderMuted();
  }

  add(message, fresh) {
    if (this.muted.has(message.author.id)) return;
    if (this.list.querySelector(`[data-id="${message.id}"]`)) return;
    const item = messageItem(message);
    if (message.author.id === this.me) item.classList.add("chat-mine");
    else if (this.canWrite) item.append(this.actions(message));
    const atEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.append(item);
    while (this.list.children.length > MAX_SHOWN) this.list.firstElementChild.remove();
    if (atEnd || !fresh) this.list.scrollTop = this.list.scrollHeight;
    if (fresh && message.author.id !== this.me && !this.isOpen()) {
      this.unread += 1;
      this.renderUnread();
    }
  }

  actions(message) {
    const box = el("span", "chat-actions");
    const mute = el("button", "chat-mute", "🔇");
    mute.type = "button";
    mute.title = fmt(gettext("Mute %s"), message.author.name);
    mute.setAttribute("aria-label", mute.title);
    mute.addEventListener("click", () =>
      this.send({ type: "chat_mute", id: this.nextId(), user: message.author.id, muted: true }),
    );
    const report = el("button", "chat-report", "⚑");
    report.type = "button";
    report.title = gettext("Report this message");
    report.setAttribute("aria-label", report.title);
    report.addEventListener("click", () => {
      if (!window.confirm(gettext("Report this message to the operators?"))) return;
      this.send({ type: "chat_report", id: this.nextId(), message: message.id });
    });
    this.names = this.names || new Map();
    this.names.set(message.author.id, message.author.name);
    box.append(mute, report);
    return box;
  }

  mutedChanged({ user, muted }) {
    if (muted) {
      this.muted.set(user, (this.names && this.names.get(user)) || String(user));
      for (const item of this.list.querySelectorAll(`[data-author="${user}"]`)) item.remove();
    } else {
      this.muted.delete(user);
    }
    this.renderMuted();
  }

  reported(id) {
    const item = this.list.querySelector(`[data-id="${id}"]`);
    if (!item) return;
    item.classList.add("chat-reported");
    const button = item.querySelector(".chat-report");
    if (button) button.replaceWith(el("span", "chat-note", gettext("reported")));
  }

  renderMuted() {
    if (!this.mutedBox) return;
    this.mutedBox.hidden = this.muted.size === 0;
    this.mutedList.replaceChildren();
    for (const [id, name] of this.muted) {
      const row = el("li", null, name);
      const unmute = el("button", "chat-unmute", gettext("Unmute"));
      unmute.type = "button";
      unmute.addEventListener("click", () =>
        this.send({ type: "chat_mute", id: this.nextId(), user: id, muted: false }),
      );
      row.append(" ", unmute);
      this.mutedList.append(row);
    }
  }

  renderUnread() {
    if (!this.unreadNode) return;
    this.unreadNode.hidden = this.unread === 0;
    this.unreadNode.textContent = String(this.unread);
  }

  showError(text) {
    this.errorNode.hidden = !text;
    this.errorNode.textContent = text || "";
  }
}
