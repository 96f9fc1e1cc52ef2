// The words for a check of the deals' commitments (static/js/fairness.js),
// shared by the table's result and the replay page. Pure.

import { fmt, gettext, ngettext } from "../lib/i18n.js";

export function dealCheckText(check) {
  if (check.ok) {
    return (
      "✔ " +
      fmt(
        ngettext(
          "The deal is verified: its cards were fixed before play began.",
          "All %s deals verified: their cards were fixed before play began.",
          check.count,
        ),
        check.count,
      )
    );
  }
  const reasons = {
    missing: gettext("no commitment or reveal"),
    hash: gettext("the cards do not hash to the commitment"),
    preimage: gettext("the revealed text is not readable"),
    cards: gettext("the cards differ from the game record"),
  };
  return "✘ " + check.failures.map((f) => fmt(gettext("Deal %s: %s"), f.deal + 1, reasons[f.reason])).join("; ");
}

// Shows the check's outcome in ``box``.
export function showDealCheck(box, check) {
  box.classList.add(check.ok ? "ok" : "failed");
  box.textContent = dealCheckText(check);
}
