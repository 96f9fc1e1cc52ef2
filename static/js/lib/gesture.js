// Whether the person has tapped, clicked or pressed a key on the page yet:
// only then may a page vibrate or start sound (the HTML standard's sticky
// activation; Chromium logs an error for a call made before). A browser
// without navigator.userActivation is taken as not having seen one: it
// stays silent rather than be refused.

export function userGestureSeen(nav = globalThis.navigator) {
  return Boolean(nav && nav.userActivation && nav.userActivation.hasBeenActive);
}
