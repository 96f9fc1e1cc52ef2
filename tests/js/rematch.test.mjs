// The rematch panel under a finished game's result (static/js/table/rematch.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Rematch } from "../../static/js/table/rematch.js";

function node() {
  return {
    hidden: false,
    disabled: false,
    textContent: "",
    children: [],
    listeners: {},
    classes: new Set(),
    classList: {
      toggle(name, on) {
        this.owner.classes[on ? "add" : "delete"](name);
      },
    },
    addEventListener(kind, listener) {
      this.listeners[kind] = listener;
    },
    replaceChildren(...children) {
      this.children = children;
      this.textContent = children.join("");
    },
    append(child) {
      this.children.push(child);
    },
  };
}

function panel({ now = 0, managed = false } = {}) {
  const nodes = { root: node(), button: node(), decline: node(), status: node() };
  for (const n of Object.values(nodes)) n.classList.owner = n;
  const sent = [];
  const visited = [];
  const rematch = new Rematch(nodes, {
    names: (seat) => ["nino", "<b>gio</b>"][seat],
    send: (message) => sent.push(message) > 0,
    serverNow: () => now,
    go: (url) => visited.push(url),
    managed,
  });
  return { rematch, nodes, sent, visited };
}

const FINISHED = { you: 0, status: "finished" };
const OPEN = {
  type: "rematch", game: 7, state: "open", agreed: [1], waiting: [0],
  expires: new Date(60_000).toISOString(), reason: "", seat: null, table: null, url: null,
};

test("a seated player of a finished game is offered the rematch", () => {
  const { rematch, nodes, sent } = panel();
  rematch.render(FINISHED);
  assert.equal(nodes.root.hidden, false);
  assert.equal(nodes.button.textContent, "Rematch");
  assert.equal(nodes.decline.hidden, true);
  nodes.button.listeners.click();
  assert.deepEqual(sent, [{ type: "rematch" }]);
  assert.equal(nodes.button.disabled, true);
  rematch.refused();
  assert.equal(nodes.button.disabled, false);
});

test("spectators, games being played and tournament games get no button", () => {
  for (const [snap, options] of [
    [{ you: null, status: "finished" }, {}],
    [{ you: 0, status: "playing" }, {}],
    [{ you: 0, status: "aborted" }, {}],
    [FINISHED, { managed: true }],
  ]) {
    const { rematch, nodes } = panel(options);
    rematch.render(snap);
    assert.equal(nodes.root.hidden, true, JSON.stringify(snap));
  }
});

test("an open offer says who agreed, who is awaited and the time left, as text", () => {
  const { rematch, nodes } = panel({ now: 15_500 });
  rematch.receive(OPEN, FINISHED);
  assert.equal(nodes.status.textContent, "Agreed: <b>gio</b>. Waiting for: nino. 45 s left.");
  assert.equal(nodes.decline.hidden, false);
  assert.equal(nodes.button.disabled, false);
  rematch.receive({ ...OPEN, agreed: [0, 1], waiting: [] }, FINISHED);
  assert.equal(nodes.button.textContent, "You agreed");
  assert.equal(nodes.button.disabled, true);
});

test("an open offer past its time has lapsed", () => {
  const { rematch, nodes } = panel({ now: 61_000 });
  rematch.receive(OPEN, FINISHED);
  assert.equal(nodes.status.textContent, "The rematch offer ran out of time.");
  assert.equal(nodes.decline.hidden, true);
});

test("a refusal names the seat and why", () => {
  const { rematch, nodes } = panel();
  rematch.receive({ ...OPEN, state: "lapsed", reason: "few_coins", seat: 1 }, FINISHED);
  assert.equal(nodes.status.textContent, "No rematch: <b>gio</b> has fewer Domino Coin than the stake.");
  assert.ok(nodes.status.classes.has("refused"));
  rematch.receive({ ...OPEN, state: "lapsed", reason: "declined", seat: 1 }, FINISHED);
  assert.equal(nodes.status.textContent, "<b>gio</b> said no to the rematch.");
});

test("a page that saw the offer open follows it to the new table", () => {
  const { rematch, visited } = panel();
  rematch.receive(OPEN, FINISHED);
  rematch.receive({ ...OPEN, state: "made", table: 9, url: "/tables/9/" }, FINISHED);
  assert.deepEqual(visited, ["/tables/9/"]);
});

test("a page opened after the rematch was made links to it instead", () => {
  globalThis.document = { createElement: () => ({ href: "", textContent: "" }) };
  try {
    const { rematch, nodes, visited } = panel();
    rematch.receive({ ...OPEN, state: "made", table: 9, url: "/tables/9/" }, FINISHED);
    assert.deepEqual(visited, []);
    assert.equal(nodes.button.hidden, true);
    const link = nodes.status.children[1];
    assert.deepEqual([link.href, link.textContent], ["/tables/9/", "table 9"]);
  } finally {
    delete globalThis.document;
  }
});
