// The friends page, kept live: who is online and at which table, from
// /api/v1/friends/, read again when /ws/me/ says something changed and
// every 20 s (a friend whose socket died without a word drops off by the
// silence limit alone). A new friend, a lost one or a new request loads
// the page again, with its forms.

import { fmt, gettext } from "./lib/i18n.js";

const EVERY_MS = 20000;

function rows() {
  return new Map(
    [...document.querySelectorAll("[data-friend]")].map((row) => [row.dataset.friend, row]),
  );
}

function tableText(table) {
  const text = table.playing ? gettext("playing at table %s") : gettext("waiting at table %s");
  return fmt(text, table.id);
}

function draw(row, friend) {
  const presence = row.querySelector("[data-presence]");
  presence.classList.toggle("online", friend.online);
  presence.textContent = friend.online ? gettext("online") : gettext("offline");
  const link = row.querySelector("[data-table]");
  if (friend.table) {
    link.href = friend.table.url;
    link.textContent = tableText(friend.table);
    link.hidden = false;
  } else {
    link.removeAttribute("href");
    link.textContent = "";
    link.hidden = true;
  }
}

async function refresh() {
  let friends;
  try {
    const response = await fetch("/api/v1/friends/", {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return;
    friends = await response.json();
  } catch {
    return; // offline for a moment: the next round tries again
  }
  const shown = rows();
  const same = friends.length === shown.size && friends.every((f) => shown.has(f.username));
  if (!same) {
    window.location.reload();
    return;
  }
  for (const friend of friends) draw(shown.get(friend.username), friend);
}

// A friend going from one page to the next closes one socket and opens
// another: offline and online again within a moment. One read a second
// after the news sees where they ended up.
let pending = null;
function refreshSoon() {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    refresh();
  }, 1000);
}

document.addEventListener("pulka:me", (event) => {
  const type = event.detail.type;
  if (type === "friends") refreshSoon();
  else if (type === "friend_request") window.location.reload();
});
setInterval(refresh, EVERY_MS);
