// The replay's chat: what the players said (and the spectators, marked), in
// the order it was said, from the messages the page embeds. An entry module
// of its own, beside main.js.

import { byId } from "../lib/dom.js";
import { messageItem } from "../chat/view.js";

const data = byId("replay-chat-data");
const list = byId("replay-chat");
if (data && list) {
  const messages = JSON.parse(data.textContent);
  for (const message of messages) list.append(messageItem(message, { markSpectators: true }));
  byId("replay-chat-box").hidden = messages.length === 0;
}
