// Translation helpers over Django's JavaScript catalog (the classic script
// games:javascript-catalog, loaded before any module), read at call time so
// that a module imported in a test without the catalog still works.

export function gettext(text) {
  return globalThis.gettext ? globalThis.gettext(text) : text;
}

export function ngettext(one, many, count) {
  if (globalThis.ngettext) return globalThis.ngettext(one, many, count);
  return count === 1 ? one : many;
}

// fmt("%s of %s", "ace", "spades"): positional "%s" as Django's interpolate.
export function fmt(text, ...args) {
  let next = 0;
  return text.replace(/%s/g, () => String(args[next++]));
}
