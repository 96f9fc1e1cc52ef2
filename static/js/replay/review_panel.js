// The replay page's review panel: asks the API for the game's review until
// it is made (a progress line meanwhile), then shows one seat's decisions
// for the deal on screen, the decision at the replay's position with its
// ranked choices, the hindsight view apart, the summaries and a jump to the
// next mistake. Built with textContent only.

import { el } from "../lib/dom.js";
import { fmt, gettext } from "../lib/i18n.js";
import {
  alternativeRows,
  bestText,
  canBeRemade,
  dealDecisions,
  decisionAt,
  decisionPosition,
  hindsightRows,
  moveText,
  nextMistake,
  pending,
  POLL_MS,
  seatReview,
  statusText,
  summaryLines,
  verdictText,
} from "./review.js";

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return cookie ? cookie.slice("csrftoken=".length) : "";
}

const REFUSALS = {
  review_current: () => gettext("The review is up to date, or already being made."),
  not_a_player: () => gettext("Only the game's players can have its review made again."),
  throttled: () => gettext("Asked too often: try again later."),
};

export class ReviewPanel {
  // config: the page's review config (games/views/review_config.py);
  // goTo({d, k}) moves the replay to a position.
  constructor(root, config, goTo) {
    this.root = root;
    this.config = config;
    this.goTo = goTo;
    this.seat = config.seat;
    this.answer = null;
    this.position = { d: 0, k: 0 };
    this.timer = null;
  }

  async load() {
    clearTimeout(this.timer);
    let answer;
    try {
      const response = await fetch(this.config.url, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      answer = response.ok ? await response.json() : { status: "unavailable" };
    } catch {
      answer = { status: "unavailable" };
    }
    this.answer = answer;
    // Asked again while it is being made, and after a failed request (the
    // network or the server may be back).
    if (pending(answer) || answer.status === "unavailable") {
      this.timer = setTimeout(() => this.load(), POLL_MS);
    }
    this.render();
  }

  // The replay moved: the panel follows it.
  show(position) {
    this.position = position;
    if (this.answer && this.answer.status === "done") this.render();
  }

  async requestAgain(button, error) {
    button.disabled = true;
    const response = await fetch(this.config.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    });
    if (response.ok) {
      this.load();
      return;
    }
    const body = await response.json().catch(() => ({}));
    const text = REFUSALS[body.code];
    error.textContent = text ? text() : body.detail || gettext("That did not work.");
    error.hidden = false;
    button.disabled = false;
  }

  render() {
    const answer = this.answer;
    const nodes = [];
    if (answer.status === "unavailable") {
      nodes.push(el("p", "review-status", gettext("The review cannot be reached just now; trying again.")));
    } else if (answer.status !== "done") {
      nodes.push(el("p", "review-status review-" + answer.status, statusText(answer)));
    }
    // Only the progress is read out as it changes, not every step's list.
    for (const node of nodes) node.setAttribute("role", "status");
    if (this.config.can_request && canBeRemade(answer, this.config.version)) {
      nodes.push(this.requestBlock(answer));
    }
    if (answer.status === "done") nodes.push(...this.reviewNodes(answer.review));
    this.root.replaceChildren(...nodes);
  }

  requestBlock(answer) {
    const box = el("div", "review-request");
    if (answer.status === "done") {
      box.append(el("p", "review-outdated", gettext("This review was made by an earlier version of the bot.")));
    }
    const button = el("button", "button small", gettext("Review again"));
    button.type = "button";
    button.id = "review-again";
    const error = el("p", "review-error");
    error.hidden = true;
    button.addEventListener("click", () => this.requestAgain(button, error));
    box.append(button, error);
    return box;
  }

  reviewNodes(review) {
    const seat = seatReview(review, this.seat);
    const nodes = [];
    if (this.config.seats.length > 1) nodes.push(this.seatPicker());
    if (!seat) return nodes;
    const unit = seat.unit;
    const { d } = this.position;

    const game = el("div", "review-summary review-game");
    game.append(el("h3", null, gettext("The whole game")));
    for (const line of summaryLines(seat.summary, unit)) game.append(el("p", null, line));
    const jump = el("button", "button small", gettext("Next mistake"));
    jump.type = "button";
    jump.id = "review-next-mistake";
    const next = nextMistake(seat, this.position);
    jump.disabled = next === null;
    jump.addEventListener("click", () => {
      const target = nextMistake(seat, this.position);
      if (target) this.goTo(decisionPosition(target));
    });
    game.append(jump);
    nodes.push(game);

    const deal = el("div", "review-summary review-deal");
    deal.append(el("h3", null, fmt(gettext("Deal %s"), d + 1)));
    const summary = seat.per_deal.find((one) => one.deal === d);
    if (summary) for (const line of summaryLines(summary, unit)) deal.append(el("p", null, line));
    deal.append(this.decisionList(seat, d));
    nodes.push(deal);

    const decision = decisionAt(seat, this.position);
    nodes.push(decision ? this.decisionDetail(decision, unit) : el("p", "review-hint", gettext("Choose a decision above, or step to one.")));
    return nodes;
  }

  seatPicker() {
    const label = el("label", "review-seat");
    label.append(el("span", null, gettext("Decisions of") + " "));
    const select = el("select");
    select.id = "review-seat";
    for (const { seat, name } of this.config.seats) {
      const option = el("option", null, name);
      option.value = String(seat);
      option.selected = seat === this.seat;
      select.append(option);
    }
    select.addEventListener("change", () => {
      this.seat = Number(select.value);
      this.render();
    });
    label.append(select);
    return label;
  }

  decisionList(seat, d) {
    const list = el("ol", "review-decisions");
    const shown = decisionAt(seat, this.position);
    for (const decision of dealDecisions(seat, d)) {
      const item = el("li");
      const button = el("button", "review-decision" + (decision.grade ? " grade-" + decision.grade : decision.forced ? " forced" : ""));
      button.type = "button";
      button.append(el("span", "review-move", moveText(decision.move)), el("span", "review-verdict", verdictText(decision)));
      if (decision === shown) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => this.goTo(decisionPosition(decision)));
      item.append(button);
      list.append(item);
    }
    return list;
  }

  decisionDetail(decision, unit) {
    const box = el("div", "review-detail" + (decision.grade ? " grade-" + decision.grade : ""));
    box.id = "review-detail";
    box.append(el("h3", null, fmt(gettext("%s: %s"), moveText(decision.move), verdictText(decision))));
    const best = bestText(decision, unit);
    if (best) box.append(el("p", "review-best", best));
    box.append(this.choicesTable(alternativeRows(decision, unit), gettext("Expected"), true));
    const hindsight = hindsightRows(decision, unit);
    if (hindsight) {
      const apart = el("div", "review-hindsight");
      apart.append(
        el("h4", null, gettext("Hindsight")),
        el("p", "muted", gettext("With every card face up, which no player could see: not part of the grade.")),
        this.choicesTable(hindsight, gettext("On the real deal"), false),
      );
      box.append(apart);
    }
    return box;
  }

  choicesTable(rows, valueHeading, withLoss) {
    const table = el("table", "review-choices");
    const head = el("tr");
    head.append(el("th", null, gettext("Choice")), el("th", "num", valueHeading));
    if (withLoss) head.append(el("th", "num", gettext("Lost")));
    for (const cell of head.children) cell.scope = "col";
    const thead = el("thead");
    thead.append(head);
    const body = el("tbody");
    for (const row of rows) {
      const line = el("tr", row.made ? "made" : row.best ? "best" : null);
      const move = el("td", null, row.move);
      if (row.made) move.append(el("span", "review-made", " · " + gettext("played")));
      line.append(move, el("td", "num", row.value));
      if (withLoss) line.append(el("td", "num", row.loss));
      body.append(line);
    }
    table.append(thead, body);
    return table;
  }
}
