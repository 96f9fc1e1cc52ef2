// The replay page's check of the record's deals (static/js/fairness.js, the
// table page's check at the end of a game): each deal's cards, with the salt
// the record carries, must hash to its commitment, the hash every player
// received when the deal began. A record whose cards were changed afterwards
// fails it.

import { fmt, gettext, ngettext } from "../lib/i18n.js";

export async function checkRecordDeals(box, record) {
  const fairness = globalThis.PulkaFairness;
  if (!box || !fairness) return;
  box.className = "fairness";
  box.textContent = gettext("Checking the deals…");
  const { reveal, commitments } = fairness.revealFromRecord(record);
  const check = await fairness.verifyDeals({ reveal, commitments, record });
  box.dataset.verified = check.ok ? "yes" : "no";
  if (check.ok) {
    box.classList.add("ok");
    box.textContent =
      "✔ " +
      fmt(
        ngettext(
          "The deal is verified: its cards were fixed before play began.",
          "All %s deals verified: their cards were fixed before play began.",
          check.count,
        ),
        check.count,
      );
    return;
  }
  const reasons = {
    missing: gettext("no commitment or reveal"),
    hash: gettext("the cards do not hash to the commitment"),
    preimage: gettext("the revealed text is not readable"),
    cards: gettext("the cards differ from the game record"),
  };
  box.classList.add("failed");
  box.textContent =
    "✘ " + check.failures.map((f) => fmt(gettext("Deal %s: %s"), f.deal + 1, reasons[f.reason])).join("; ");
}
