// The scoresheet as data: rows and cells as a paper pulka sheet has them
// (each deal's bid/took and score, a pulka row with premiums and
// deductions, running totals), for the live table and the replay alike.
// Pure; views/scoresheet.js draws it.

import { fmt, gettext, ngettext } from "../lib/i18n.js";
import { isRed, trumpMark, trumpName } from "./cards.js";
import { pulkaDeals, pulkaOf } from "./seating.js";

function trumpCell(trump) {
  return {
    className: "trump" + (isRed(trump) ? " red" : "") + (trump === "none" ? " no-trump" : ""),
    text: trumpMark(trump),
    title: trumpName(trump),
  };
}

function bidText(bid) {
  return bid === null || bid === undefined ? "–" : String(bid);
}

/**
 * The Georgian sheet.
 * sheet: {rules, names, deals, pulkas, totals, current, places, here}
 *   deals: finished deals as the engine's to_json gives them;
 *   current: the deal being played ({deal, cards, trump, bids, tricks}) or null;
 *   here: the deal number to mark (the replay's position), or null.
 */
export function georgianSheet({ rules, names, deals, pulkas, totals, current, places, here }) {
  const players = rules.players;
  const seats = [...Array(players).keys()];
  const head = [
    { text: "#" },
    { text: gettext("Cards"), title: gettext("Cards each") },
    { text: gettext("Trump"), terms: ["trump"] },
    ...seats.map((seat) => ({ text: names[seat], className: "player" })),
  ];
  const rows = [];
  const running = new Array(players).fill(0);
  const sizes = rules.pulka_sizes;
  deals.forEach((deal, index) => {
    const cells = [
      { text: String(index + 1), className: "num" },
      { text: String(deal.cards), className: "num" },
      trumpCell(deal.trump),
    ];
    for (const seat of seats) {
      running[seat] += deal.scores[seat];
      const exact = deal.bids[seat] === deal.tricks[seat];
      // A bid of one or more with no trick taken: a hisht, explained on a tap.
      const hisht = deal.bids[seat] > 0 && deal.tricks[seat] === 0;
      cells.push({
        className: "score" + (exact ? " exact" : "") + (deal.scores[seat] < 0 ? " minus" : ""),
        parts: [
          { className: "bt", text: deal.bids[seat] + "/" + deal.tricks[seat], term: hisht ? "hisht" : null },
          { className: "pts", text: String(deal.scores[seat]) },
        ],
        title: fmt(gettext("bid %s, took %s"), deal.bids[seat], deal.tricks[seat]),
      });
    }
    rows.push({ className: "deal-row" + (index === here ? " here" : ""), cells });
    const pulka = pulkaOf(index, sizes);
    const result = pulkas[pulka];
    if (result && index === pulkaDeals(pulka, sizes).end - 1) {
      rows.push(pulkaRow(result, seats, running));
    }
  });
  if (current) {
    const cells = [
      { text: String(current.deal + 1), className: "num" },
      { text: String(current.cards), className: "num" },
      trumpCell(current.trump),
    ];
    for (const seat of seats) {
      const took = (current.tricks || [])[seat] ?? 0;
      cells.push({ className: "score", text: bidText((current.bids || [])[seat]) + "/" + took });
    }
    rows.push({ className: "current-row" + (current.deal === here ? " here" : ""), cells });
  }
  const foot = [footRow(gettext("Total"), seats.map((seat) => String(totals[seat])))];
  if (rules.pairs) {
    // Seats 1 and 3 against 2 and 4: each seat shows its team's total.
    foot.push(
      footRow(
        gettext("Teams"),
        seats.map((seat) => String(totals[seat % 2] + totals[(seat % 2) + 2])),
        seats.map((seat) => (seat % 2 ? gettext("Seats 2 and 4") : gettext("Seats 1 and 3"))),
        "teams-row",
      ),
    );
  }
  if (places) foot.push(placesRow(places));
  return { head, rows, foot, score: null };
}

function pulkaRow(result, seats, running) {
  const cells = [{ text: fmt(gettext("Pulka %s"), result.pulka), terms: ["pulka"], colSpan: 3 }];
  for (const seat of seats) {
    running[seat] += result.bonus[seat] - result.deduction[seat];
    const marks = [];
    if (result.premium[seat]) marks.push("★");
    if (result.bonus[seat]) marks.push("+" + result.bonus[seat]);
    if (result.deduction[seat]) marks.push("−" + result.deduction[seat]);
    cells.push({
      className: "score",
      parts: [
        { className: "bt", text: marks.join(" "), terms: ["premium", "deduction"] },
        { className: "pts total", text: String(running[seat]) },
      ],
      title: result.premium[seat] ? gettext("On premium: every bid of the pulka made") : "",
    });
  }
  return { className: "pulka-row", cells };
}

function footRow(label, values, titles = [], className = "totals-row") {
  return {
    className,
    cells: [
      { text: label, colSpan: 3 },
      ...values.map((text, i) => ({ className: "score total", text, title: titles[i] || "" })),
    ],
  };
}

function placesRow(places) {
  return {
    className: "places-row",
    cells: [
      { text: gettext("Place"), colSpan: 3 },
      ...places.map((place) => ({
        className: "score" + (place === 1 ? " total" : ""),
        text: place === 1 ? "🏆 1" : String(place),
      })),
    ],
  };
}

/**
 * The Japanese sheet: the match score, then one row per deal.
 * sheet: {rules, names, deals, totals, current, here}
 */
export function japaneseSheet({ rules, names, deals, totals, current, places, here }) {
  const seats = [0, 1];
  const score = {
    text: names[0] + " " + totals[0] + " – " + totals[1] + " " + names[1],
    note: fmt(gettext("(the match goes to %s points)"), rules.target),
  };
  const head = [
    { text: "#" },
    { text: gettext("Declarer"), terms: ["declarer"] },
    { text: gettext("Trump"), terms: ["trump"] },
    ...seats.map((seat) => ({ text: names[seat], className: "player" })),
  ];
  const rows = deals.map((deal, index) => ({
    className: "deal-row" + (index === here ? " here" : ""),
    cells: [
      { text: String(index + 1), className: "num" },
      { text: names[deal.declarer] },
      trumpCell(deal.trump),
      ...seats.map((seat) => ({
        className: "score",
        parts: [
          {
            className: "bt",
            text: fmt(ngettext("%s trick", "%s tricks", deal.tricks[seat]), deal.tricks[seat]),
          },
          { className: "pts", text: deal.points[seat] ? "+" + deal.points[seat] : "0" },
        ],
      })),
    ],
  }));
  if (current) {
    rows.push({
      className: "current-row" + (current.deal === here ? " here" : ""),
      cells: [
        { text: String(current.deal + 1), className: "num" },
        { text: names[current.declarer] ?? "" },
        trumpCell(current.trump),
        ...seats.map((seat) => ({
          className: "score",
          text: String((current.tricks || [])[seat] ?? 0),
        })),
      ],
    });
  }
  const foot = places ? [placesRow(places)] : [];
  return { head, rows, foot, score };
}
