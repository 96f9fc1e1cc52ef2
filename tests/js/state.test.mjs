// The table's client state, driven message by message as docs/protocol.md
// describes them: snapshots, acks before and after their update, errors.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PENDING_GIVE_UP_MS, RESYNC_AFTER_MS, TableState } from "../../static/js/game/state.js";

function snapshot(version, view = {}, type = "sync") {
  return {
    type,
    version,
    status: "playing",
    you: 0,
    seats: [0, 1, 2, 3].map((n) => ({ number: n, name: "p" + n, bot: "", left: false, connected: true })),
    events: [],
    view: {
      profile: "georgian-club",
      players: 4,
      phase: "card",
      turn: 0,
      deal: 0,
      cards: 1,
      trick: [],
      trick_number: 0,
      bids: [0, 1, 0, 1],
      tricks: [0, 0, 0, 0],
      hand: ["AS"],
      legal: [{ card: "AS" }],
      deals: [],
      pulkas: [],
      ...view,
    },
  };
}

// An update: the steps after the snapshot's version (one card each by
// default) and the position after them.
function update(version, position = {}, steps = null) {
  const from = version - 1;
  return {
    type: "update",
    version,
    status: "playing",
    deadline: null,
    events: steps || [{ version, events: [{ type: "card", seat: from % 4, card: "9H" }] }],
    position: {
      phase: "card",
      turn: 1,
      hand: ["AS"],
      hand_sizes: [1, 1, 1, 1],
      columns: [],
      totals: [0, 0, 0, 0],
      left: [],
      ...position,
    },
  };
}

const theirTurn = { turn: 1 };

test("a move is sent as the legal action itself, on the snapshot's version", () => {
  const state = new TableState(snapshot(10));
  const message = state.act({ card: "AS" }, 1000);
  assert.equal(message.type, "action");
  assert.equal(message.version, 10);
  assert.deepEqual(message.action, { card: "AS" });
  assert.equal(state.act({ card: "AS" }, 1001), null, "one move at a time");
});

test("the update before its ack clears the move; the ack changes nothing", () => {
  const state = new TableState(snapshot(10));
  const { id } = state.act({ card: "AS" }, 0);
  state.receive(update(11, theirTurn), 10);
  assert.equal(state.pending, null);
  const out = state.receive({ type: "ack", id, version: 11 }, 20);
  assert.equal(state.awaiting, null);
  assert.deepEqual(out.send, []);
  assert.deepEqual(state.tick(20 + RESYNC_AFTER_MS * 2), []);
});

test("protocol 2: the update that carries our move's id answers it, with no ack", () => {
  const state = new TableState(snapshot(10));
  const { id } = state.act({ card: "AS" }, 0);
  const out = state.receive({ ...update(11, theirTurn), ack: id }, 10);
  assert.equal(state.pending, null);
  assert.equal(state.awaiting, null);
  assert.ok(out.redraw);
  assert.deepEqual(state.tick(10 + PENDING_GIVE_UP_MS * 2), [], "nothing is waited for");
});

test("an ack before its update waits for it, and asks after two seconds", () => {
  const state = new TableState(snapshot(10));
  const { id } = state.act({ card: "AS" }, 0);
  state.receive({ type: "ack", id, version: 11 }, 100);
  assert.equal(state.pending, null);
  assert.equal(state.canAct(), false, "the legal moves shown are stale");
  assert.deepEqual(state.tick(100 + RESYNC_AFTER_MS - 1), []);
  assert.deepEqual(state.tick(100 + RESYNC_AFTER_MS), [{ type: "sync", version: 10 }]);
  state.receive(snapshot(11, theirTurn), 2500);
  assert.equal(state.awaiting, null);
  assert.deepEqual(state.tick(10_000), []);
});

test("an ack whose update comes in time needs no sync", () => {
  const state = new TableState(snapshot(10));
  const { id } = state.act({ card: "AS" }, 0);
  state.receive({ type: "ack", id, version: 11 }, 100);
  state.receive(update(11, theirTurn), 300);
  assert.deepEqual(state.tick(100 + RESYNC_AFTER_MS), []);
});

test("an update no newer than the snapshot is ignored; a sync always counts", () => {
  const state = new TableState(snapshot(12));
  assert.equal(state.receive(update(12, theirTurn), 0).redraw, false);
  assert.equal(state.view.turn, 0);
  assert.equal(state.receive(snapshot(11, theirTurn, "sync"), 0).redraw, true);
  assert.equal(state.view.turn, 1);
});

test("a late move: the timeout move is made, and its update awaited", () => {
  const state = new TableState(snapshot(10));
  state.act({ card: "AS" }, 0);
  const out = state.receive({ type: "error", id: state.pending.id, code: "late", message: "" }, 50);
  assert.equal(state.pending, null);
  assert.deepEqual(out.notices.map((n) => n.code), ["late"]);
  assert.deepEqual(out.send, []);
  assert.deepEqual(state.tick(50 + RESYNC_AFTER_MS), [{ type: "sync", version: 10 }]);
});

test("a stale move asks for the table at once", () => {
  const state = new TableState(snapshot(10));
  state.act({ card: "AS" }, 0);
  const out = state.receive({ type: "error", id: state.pending.id, code: "stale_version" }, 5);
  assert.deepEqual(out.send, [{ type: "sync", version: 10 }]);
});

test("a move with no answer at all is given up and the table asked for", () => {
  const state = new TableState(snapshot(10));
  state.act({ card: "AS" }, 0);
  assert.deepEqual(state.tick(PENDING_GIVE_UP_MS), [{ type: "sync", version: 10 }]);
  assert.equal(state.pending, null);
});

test("after a reconnection the client asks for what happened since its version", () => {
  const state = new TableState(snapshot(10));
  state.act({ card: "AS" }, 0);
  assert.deepEqual(state.reopened(), { type: "sync", version: 10 });
  assert.equal(state.pending, null);
});

test("a finished trick is kept with its players; deal and pulka ends are told", () => {
  const state = new TableState(snapshot(10));
  const cards = [
    { seat: 0, card: "AS" },
    { seat: 1, card: "KS" },
    { seat: 2, card: "X1", mode: "high" },
    { seat: 3, card: "6S" },
  ];
  const steps = [
    { version: 11, events: [{ type: "card", seat: 1, card: "KS" }] },
    { version: 12, events: [{ type: "trick", winner: 2, cards }, { type: "pulka_over", pulka: 1 }] },
  ];
  const out = state.receive(update(12, { turn: 2 }, steps), 0);
  assert.equal(out.trick, true);
  assert.deepEqual(state.lastTrick, { cards, winner: 2, version: 12 });
  assert.deepEqual(out.notices.map((n) => n.event.type), ["pulka_over"]);
  assert.deepEqual(state.view.tricks, [0, 0, 1, 0]);
  assert.equal(state.view.trick_number, 1);
  // The same events again (a sync after a reconnection) are not told twice.
  const again = { ...snapshot(12), events: steps };
  assert.deepEqual(state.receive(again, 1).notices, []);
});

test("a joker with several modes offers them first", () => {
  const legal = [
    { card: "X1", mode: "take", suit: "C" },
    { card: "X1", mode: "give", suit: "C" },
    { card: "AS" },
  ];
  const state = new TableState(snapshot(10, { hand: ["AS", "X1"], legal }));
  assert.deepEqual(state.chooseCard("X1", 0), { offer: "X1" });
  assert.equal(state.legalFor("X1").length, 2);
  const plain = state.chooseCard("AS", 0);
  assert.deepEqual(plain.send.action, { card: "AS" });
  assert.equal(state.chooseCard("KH", 0), null);
});

test("presence updates the seats only", () => {
  const state = new TableState(snapshot(10));
  const seats = state.snap.seats.map((s) => ({ ...s, connected: s.number !== 2 }));
  state.receive({ type: "presence", version: 10, seats }, 0);
  assert.equal(state.snap.seats[2].connected, false);
  state.receive({ type: "presence", version: 9, seats: [] }, 0);
  assert.equal(state.snap.seats.length, 4);
});

test("it is never a seat's move once its player has left", () => {
  const snap = snapshot(10);
  snap.seats[0].left = true;
  assert.equal(new TableState(snap).myTurn(), false);
});

test("a page loaded after a trick learns it from the sync, never an older one", () => {
  const state = new TableState(snapshot(20));
  const cards = [
    { seat: 0, card: "AS" },
    { seat: 1, card: "KS" },
    { seat: 2, card: "QS" },
    { seat: 3, card: "6S" },
  ];
  const sync = { ...snapshot(20), last_trick: { version: 18, cards, winner: 0 } };
  state.receive(sync, 0);
  assert.deepEqual(state.lastTrick, { cards, winner: 0, version: 18 });
  const stale = { ...snapshot(21), last_trick: { version: 9, cards: [], winner: 3 } };
  state.receive(stale, 1);
  assert.equal(state.lastTrick.version, 18);
  state.receive({ ...snapshot(22), last_trick: null }, 2);
  assert.equal(state.lastTrick.version, 18);
});

test("an update applies its events and takes the position; the turn moves on", () => {
  const state = new TableState(snapshot(10));
  const steps = [{ version: 11, events: [{ type: "card", seat: 0, card: "AS" }] }];
  const out = state.receive(update(11, { turn: 1, hand: [] }, steps), 0);
  assert.equal(out.redraw, true);
  assert.equal(state.snap.version, 11);
  assert.deepEqual(state.view.trick, [{ seat: 0, card: "AS" }]);
  assert.deepEqual(state.view.hand, []);
  assert.equal(state.view.legal, undefined, "legal choices are only ever the mover's");
  assert.equal(state.myTurn(), false);
});

test("an update that skips a version is not applied: a sync is asked for", () => {
  const state = new TableState(snapshot(10));
  const steps = [{ version: 12, events: [{ type: "card", seat: 1, card: "KS" }] }];
  const out = state.receive(update(12, theirTurn, steps), 0);
  assert.deepEqual(out.send, [{ type: "sync", version: 10 }]);
  assert.equal(state.snap.version, 10, "never a board built on a missing step");
  assert.equal(state.canAct(), false, "until the sync answers");
  state.receive(snapshot(12, theirTurn), 5);
  assert.equal(state.snap.version, 12);
  assert.deepEqual(state.tick(5 + RESYNC_AFTER_MS * 2), []);
});

test("a resignation marks the seat as left; a deal's commitment is kept", () => {
  const state = new TableState({ ...snapshot(10), commitments: ["c0"] });
  const steps = [
    { version: 11, events: [{ type: "resign", seat: 3 }] },
    { version: 12, events: [{ type: "deal", deal: 1, dealer: 1, cards: 2, turned: "AH", trump: "H", commitment: "c1" }] },
  ];
  state.receive(update(12, { phase: "bid", turn: 2, left: [3] }, steps), 0);
  assert.equal(state.snap.seats[3].left, true);
  assert.deepEqual(state.snap.commitments, ["c0", "c1"]);
  assert.deepEqual(state.view.bids, [null, null, null, null]);
  assert.equal(state.view.deal, 1);
});

test("a move the timer made is told; the same move by its player is not", () => {
  const state = new TableState(snapshot(10));
  const steps = [
    { version: 11, events: [{ type: "card", seat: 0, card: "AS" }], cause: "timeout" },
    { version: 12, events: [{ type: "card", seat: 1, card: "KS" }] },
  ];
  const out = state.receive(update(12, { turn: 2, hand: [] }, steps), 0);
  assert.deepEqual(
    out.notices.map((n) => n.event),
    [{ type: "card", seat: 0, card: "AS", timeout: true }],
  );
  assert.deepEqual(state.view.trick, [
    { seat: 0, card: "AS" },
    { seat: 1, card: "KS" },
  ]);
});
