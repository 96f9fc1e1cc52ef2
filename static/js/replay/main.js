// The replay page's entry module: a finished game stepped through position
// by position, from the record and its result that the page embeds. The
// position shown is kept in the address (#deal-3-step-10) so that it can be
// linked to and survives a reload.

import { byId } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";
import { renderSheet } from "../views/scoresheet.js";
import { ReplayBar } from "./bar.js";
import { ReplayControls } from "./controls.js";
import { describeStep, positionText } from "./describe.js";
import { checkRecordDeals } from "./fairness.js";
import { ReplayFelt } from "./felt.js";
import { ReviewPanel } from "./review_panel.js";
import { clampIndex, dealStepIndex, indexOfHash, positionHash } from "./navigation.js";
import { sheetAt } from "./sheet.js";
import { openReplay, stateAt } from "./steps.js";

const config = JSON.parse(byId("replay-config").textContent);
const record = JSON.parse(byId("replay-record").textContent);
const result = JSON.parse(byId("replay-result").textContent);
const replay = openReplay(config.rules, record, result);
const positions = replay.positions;
const lastIndex = positions.length - 1;

const name = (seat) => config.names[seat] || fmt(gettext("Seat %s"), seat + 1);
const names = [...Array(replay.players).keys()].map(name);

const bar = new ReplayBar(byId("replay-bar"), { replay, name });
const felt = new ReplayFelt({ felt: byId("replay-felt"), trick: byId("replay-trick") }, { replay, name });
const stepNode = byId("replay-step");
const positionNode = byId("replay-position");
const sheetNode = byId("replay-sheet");

checkRecordDeals(byId("replay-fairness"), record);

// Open at the position in the address, else the start; "#review" (the
// game's result links there) opens at the start with the review in view.
const toReview = window.location.hash === "#review";
let index = indexOfHash(positions, window.location.hash) ?? 0;

function go(to) {
  index = clampIndex(positions, to);
  render();
}

// A finished game's review, when it has one (games/views/review_config.py).
const reviewNode = byId("review-body");
const review =
  config.review && reviewNode
    ? new ReviewPanel(reviewNode, config.review, ({ d, k }) => go(positions.findIndex((p) => p.d === d && p.k === k)))
    : null;

const controls = new ReplayControls(
  {
    prevStep: byId("prev-step"),
    nextStep: byId("next-step"),
    prevDeal: byId("prev-deal"),
    nextDeal: byId("next-deal"),
    autoplay: byId("autoplay"),
  },
  {
    step: (delta) => go(index + delta),
    deal: (delta) => go(dealStepIndex(positions, replay.deals.length, index, delta)),
    start: () => go(0),
    end: () => go(lastIndex),
    atEnd: () => index >= lastIndex,
  },
);

function render() {
  const position = positions[index];
  const state = stateAt(replay, position.d, position.k);
  const atEnd = index === lastIndex;
  bar.render(state);
  felt.render(state);
  stepNode.textContent = describeStep(replay, state, name);
  positionNode.textContent = positionText(replay, state);
  controls.render({ atStart: index === 0, atEnd });
  renderSheet(sheetNode, sheetAt(replay, state, { names, atEnd }));
  if (review) review.show(position);
  const hash = positionHash(position);
  if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
}

render();
if (review) {
  review.load().then(() => {
    if (toReview) byId("review").scrollIntoView();
  });
}
