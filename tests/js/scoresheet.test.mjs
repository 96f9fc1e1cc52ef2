// The scoresheet model: the rows of a paper pulka sheet.
import assert from "node:assert/strict";
import { test } from "node:test";

import { georgianSheet, japaneseSheet } from "../../static/js/game/scoresheet.js";

const rules = { players: 4, japanese: false, pairs: false, pulka_sizes: [2, 2] };
const names = ["nino", "gio", "Practice bot 3", "Practice bot 4"];

function deal(cards, trump, bids, tricks, scores) {
  return { cards, trump, bids, tricks, scores };
}

const deals = [
  deal(1, "H", [0, 1, 0, 1], [0, 1, 0, 0], [50, 100, 50, -200]),
  deal(2, "none", [1, 0, 0, 0], [1, 0, 1, 0], [100, 50, 10, 50]),
];
const pulkas = [{ pulka: 1, premium: [true, true, false, false], bonus: [100, 100, 0, 0], deduction: [0, 0, 0, 0] }];
const totals = [250, 250, 60, -150];

test("one row a deal, then the pulka row with premiums and running totals", () => {
  const sheet = georgianSheet({ rules, names, deals, pulkas, totals, current: null, places: null, here: null });
  assert.deepEqual(sheet.head.map((c) => c.text), ["#", "Cards", "Trump", ...names]);
  assert.deepEqual(sheet.rows.map((r) => r.className), ["deal-row", "deal-row", "pulka-row"]);
  const first = sheet.rows[0].cells;
  assert.equal(first[2].text, "♥");
  assert.deepEqual(first[4].parts.map((p) => p.text), ["1/1", "100"]);
  assert.match(first[4].className, /exact/);
  assert.match(first[6].className, /minus/);
  const pulka = sheet.rows[2].cells;
  assert.equal(pulka[0].text, "Pulka 1");
  assert.deepEqual(pulka[1].parts.map((p) => p.text), ["★ +100", "250"]);
  assert.deepEqual(pulka[3].parts.map((p) => p.text), ["", "60"]);
  assert.deepEqual(sheet.foot[0].cells.slice(1).map((c) => c.text), ["250", "250", "60", "-150"]);
});

test("no trump is written in words, not as a dash", () => {
  const sheet = georgianSheet({ rules, names, deals, pulkas, totals, current: null, places: null, here: null });
  const cell = sheet.rows[1].cells[2];
  assert.equal(cell.text, "no trump");
  assert.match(cell.className, /no-trump/);
  const current = { deal: 2, cards: 3, trump: null, bids: [null, 1, null, null], tricks: [0, 0, 0, 0] };
  const live = georgianSheet({ rules, names, deals, pulkas, totals, current, places: null, here: null });
  const row = live.rows.at(-1);
  assert.equal(row.className, "current-row");
  assert.equal(row.cells[2].text, "", "trump not named yet is blank");
  assert.equal(row.cells[2].title, "not named yet");
  assert.equal(row.cells[4].text, "1/0");
  assert.equal(row.cells[3].text, "–/0");
});

test("pairs show each seat its team's total; the end shows places", () => {
  const sheet = georgianSheet({
    rules: { ...rules, pairs: true },
    names,
    deals,
    pulkas,
    totals,
    current: null,
    places: [1, 1, 3, 3],
    here: 1,
  });
  assert.deepEqual(sheet.foot.map((r) => r.className), ["totals-row", "teams-row", "places-row"]);
  assert.deepEqual(sheet.foot[1].cells.slice(1).map((c) => c.text), ["310", "100", "310", "100"]);
  assert.equal(sheet.foot[2].cells[1].text, "🏆 1");
  assert.equal(sheet.rows[1].className, "deal-row here");
});

test("the Japanese sheet: the match score, tricks and points", () => {
  const sheet = japaneseSheet({
    rules: { players: 2, japanese: true, target: 21 },
    names: ["nino", "gio"],
    deals: [{ declarer: 1, trump: "none", tricks: [10, 8], points: [3, 0] }],
    totals: [3, 0],
    current: null,
    places: null,
    here: null,
  });
  assert.equal(sheet.score.text, "nino 3 – 0 gio");
  assert.equal(sheet.score.note, "(the match goes to 21 points)");
  const cells = sheet.rows[0].cells;
  assert.equal(cells[1].text, "gio");
  assert.equal(cells[2].text, "no trump");
  assert.deepEqual(cells[3].parts.map((p) => p.text), ["10 tricks", "+3"]);
});
