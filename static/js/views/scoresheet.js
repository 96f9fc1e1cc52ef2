// Draws a scoresheet model (game/scoresheet.js) as a table.

import { el } from "../lib/dom.js";

function cellEl(tag, cell) {
  const node = el(tag, cell.className || "");
  if (cell.parts) {
    for (const part of cell.parts) node.append(el("span", part.className, part.text));
  } else {
    node.textContent = cell.text ?? "";
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
