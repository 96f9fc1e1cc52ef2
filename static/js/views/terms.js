// The game's words made tappable: a term ("pulka", "shetenva", "trump")
// shown on the table or the replay is a button that opens its explanation
// in a small popover, by a tap, a click, the keyboard or (with a mouse) on
// hover, with a link to its entry in the rules page's glossary. The words
// and explanations are the page's (games/glossary.py, in the page's
// language, in the "glossary" JSON script); without them (a unit test) a
// term is plain text.

import { el } from "../lib/dom.js";

let glossary;

function terms() {
  if (glossary === undefined) {
    const node = globalThis.document && document.getElementById("glossary");
    const data = node ? JSON.parse(node.textContent) : null;
    glossary = data ? { url: data.url, bySlug: new Map(data.terms.map((term) => [term.slug, term])) } : null;
  }
  return glossary;
}

function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Where a term's word (any of its forms in the page's language, whole
// words, any case) or sign (★) first is in `text`: {index, length}, or null.
// Pure.
export function findTerm(text, term) {
  const words = (term.forms || []).map(escaped);
  const marks = (term.marks || []).map(escaped);
  const patterns = [];
  if (words.length) patterns.push(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])`);
  if (marks.length) patterns.push(`(?:${marks.join("|")})\\d*`);
  if (!patterns.length) return null;
  const found = new RegExp(patterns.join("|"), "iu").exec(text);
  return found ? { index: found.index, length: found[0].length } : null;
}

// The term `slug` as a button showing `text` (by default the term's name).
export function termEl(slug, text) {
  const term = terms() && terms().bySlug.get(slug);
  const shown = text ?? (term ? term.name : slug);
  if (!term) return document.createTextNode(shown);
  installTip();
  const button = el("button", "term", shown);
  button.type = "button";
  button.dataset.term = slug;
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "term-tip");
  return button;
}

// `text` with the first word of each of the terms `slugs` made a term
// button; the words not found stay text.
export function annotated(text, slugs = []) {
  const fragment = document.createDocumentFragment();
  const found = [];
  const known = terms();
  for (const slug of slugs) {
    const term = known && known.bySlug.get(slug);
    const where = term ? findTerm(text, term) : null;
    if (where) found.push({ slug, ...where });
  }
  found.sort((a, b) => a.index - b.index);
  let at = 0;
  for (const part of found) {
    if (part.index < at) continue; // overlaps a word already made a term
    if (part.index > at) fragment.append(text.slice(at, part.index));
    fragment.append(termEl(part.slug, text.slice(part.index, part.index + part.length)));
    at = part.index + part.length;
  }
  if (at < text.length) fragment.append(text.slice(at));
  return fragment;
}

// One popover for the page, filled with the term asked for.
let tip = null;
let shownFor = null; // the button whose term is shown
let byHover = false;

function installTip() {
  if (tip) return;
  tip = el("div", "term-tip");
  tip.id = "term-tip";
  tip.setAttribute("popover", "auto");
  tip.setAttribute("role", "dialog");
  tip.setAttribute("aria-labelledby", "term-tip-name");
  document.body.append(tip);
  // Closed however (a tap elsewhere, Escape, the same word again).
  tip.addEventListener("beforetoggle", (event) => {
    if (event.newState === "closed" && shownFor) {
      shownFor.setAttribute("aria-expanded", "false");
      shownFor = null;
    }
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.term");
    if (!button) return;
    if (shownFor === button && !byHover) hide();
    else show(button, false);
  });
  const hover = globalThis.matchMedia && matchMedia("(hover: hover) and (pointer: fine)").matches;
  if (hover) {
    document.addEventListener("pointerover", (event) => {
      const button = event.target.closest && event.target.closest("button.term");
      if (button && event.pointerType === "mouse" && shownFor !== button) show(button, true);
    });
    document.addEventListener("pointerout", (event) => {
      const button = event.target.closest && event.target.closest("button.term");
      const into = event.relatedTarget;
      if (button && byHover && shownFor === button && !(into && tip.contains(into))) hide();
    });
    tip.addEventListener("pointerleave", () => {
      if (byHover) hide();
    });
  }
}

function show(button, hovered) {
  const term = terms().bySlug.get(button.dataset.term);
  const name = el("dfn", "term-tip-name", term.name);
  name.id = "term-tip-name";
  const more = el("a", "term-tip-more", "→ " + term.name);
  more.href = terms().url + "#" + term.anchor;
  more.target = "_blank";
  more.rel = "noopener";
  tip.replaceChildren(name, el("p", "term-tip-text", term.text), more);
  if (shownFor && shownFor !== button) shownFor.setAttribute("aria-expanded", "false");
  shownFor = button;
  byHover = hovered;
  button.setAttribute("aria-expanded", "true");
  // The word is the popover's source: a tap on it again closes it rather
  // than counting as a tap outside, and Tab goes from it into the popover.
  if (!tip.matches(":popover-open")) tip.showPopover({ source: button });
  place(button);
}

function hide() {
  if (tip.matches(":popover-open")) tip.hidePopover();
}

// Under the word (over it when there is no room below), kept inside the
// screen's width: a phone never scrolls sideways for it.
function place(button) {
  const margin = 8;
  const word = button.getBoundingClientRect();
  const width = Math.min(tip.offsetWidth, window.innerWidth - 2 * margin);
  const left = Math.max(margin, Math.min(word.left, window.innerWidth - width - margin));
  const below = word.bottom + 4;
  const top =
    below + tip.offsetHeight > window.innerHeight - margin
      ? Math.max(margin, word.top - tip.offsetHeight - 4)
      : below;
  tip.style.left = left + "px";
  tip.style.top = top + "px";
}
