// The quick phrases (chat/phrases.py has the same keys and English texts):
// a message carries the key, and each reader sees it in their own language.

import { gettext } from "../lib/i18n.js";

export const PHRASES = {
  hi: () => gettext("Hi!"),
  good_luck: () => gettext("Good luck!"),
  well_played: () => gettext("Well played!"),
  thanks: () => gettext("Thanks!"),
  sorry: () => gettext("Sorry!"),
  oops: () => gettext("Oops!"),
  nice_trick: () => gettext("Nice trick!"),
  bye: () => gettext("Bye!"),
};

export function phraseText(key) {
  return PHRASES[key] ? PHRASES[key]() : key;
}

// What a message says, in the reader's language.
export function messageText(message) {
  return message.text || phraseText(message.phrase);
}
