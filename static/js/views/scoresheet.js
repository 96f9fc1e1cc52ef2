// Draws a scoresheet model (game/scoresheet.js) as a table. The game's
// words in it can be tapped for their explanation: a text's `terms` (words
// found in it), or a part that is a `term` as a whole (a hisht's "2/0").

import { el } from "../lib/dom.js";
import { annotated, termEl } from "./terms.js";

function textOf(item) {
  const text = item.text ?? "";
  return item.term ? termEl(item.term, text) : annotated(text, item.terms);
}

function cellEl(tag, cell) {
  const node = el(tag, cell.className || "");
  if (cell.parts) {
    for (const part of cell.parts) {
      const span = el("span", part.className);
      span.append(textOf(part));
      node.append(span);
    }
  } else {
    node.append(textOf(cell));
  }
  if (cell.title) node.title = cell.title;
  if (cell.colSpan) node.colSpan = cell.colSpan;
  return node;
}

function rowEl(row, tag = "td") {
  const node = el("tr", row.className || "");
  for (const cell of row.cells) node.append(cellEl(tag, cell));
  return node;
}

export function renderSheet(container, sheet) {
  const nodes = [];
  if (sheet.score) {
    const score = el("p", "match-score");
    score.append(el("strong", "", sheet.score.text), " ", el("span", "muted", sheet.score.note));
    nodes.push(score);
  }
  if (sheet.rows.length || !sheet.score) {
    const table = el("table", "sheet");
    const head = el("thead");
    head.append(rowEl({ cells: sheet.head }, "th"));
    const body = el("tbody");
    for (const row of sheet.rows) body.append(rowEl(row));
    table.append(head, body);
    if (sheet.foot.length) {
      const foot = el("tfoot");
      for (const row of sheet.foot) foot.append(rowEl(row));
      table.append(foot);
    }
    nodes.push(table);
  }
  container.replaceChildren(...nodes);
}
