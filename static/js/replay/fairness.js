// The replay page's check of the record's deals (static/js/fairness.js, the
// table page's check at the end of a game): each deal's cards, with the salt
// the record carries, must hash to its commitment, the hash every player
// received when the deal began. A record whose cards were changed afterwards
// fails it.

import { gettext } from "../lib/i18n.js";
import { showDealCheck } from "../game/deal_check.js";

export async function checkRecordDeals(box, record) {
  const fairness = globalThis.PulkaFairness;
  if (!box || !fairness) return;
  box.className = "fairness";
  box.textContent = gettext("Checking the deals…");
  const { reveal, commitments } = fairness.revealFromRecord(record);
  const check = await fairness.verifyDeals({ reveal, commitments, record });
  box.dataset.verified = check.ok ? "yes" : "no";
  showDealCheck(box, check);
}
