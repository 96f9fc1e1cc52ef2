// The scoresheet up to the position shown, with no spoilers of later deals:
// the live table's sheet (game/scoresheet.js) built from the replay's
// result. Pure; views/scoresheet.js draws it.

import { pulkaDeals } from "../game/seating.js";
import { georgianSheet, japaneseSheet } from "../game/scoresheet.js";
import { dealerOf } from "./steps.js";

// names: every seat's name; atEnd: whether the game's last position is
// shown, when the places are given away.
export function sheetAt(replay, state, { names, atEnd }) {
  const { rules, result, deals, japanese } = replay;
  const shownDeals = state.dealOver ? state.d + 1 : state.d;
  const common = {
    rules,
    names,
    deals: result.deals.slice(0, shownDeals),
    totals: state.totals,
    places: atEnd && result.places ? result.places : null,
    here: state.d,
  };
  const current = state.dealOver
    ? null
    : {
        deal: state.d,
        cards: deals[state.d].hands[0].length,
        declarer: dealerOf(replay, state.d),
        trump: state.trump,
        bids: state.bids,
        tricks: state.tricks,
      };
  if (japanese) return japaneseSheet({ ...common, current });
  // A pulka's premiums show once its last deal is shown.
  const pulkas = (result.pulkas || []).filter((pulka, i) => pulkaDeals(i, rules.pulka_sizes).end <= shownDeals);
  return georgianSheet({ ...common, pulkas, current });
}
