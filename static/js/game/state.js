// The table's client state: the latest snapshot, the move in flight, the
// last trick, and what the page must do when a message arrives. A `sync`
// replaces the snapshot; an `update` carries a step's events and this
// seat's position after them, which `follow` applies to the view (a gap in
// the versions asks for a sync instead). Pure: time
// is passed in, and every method returns what to send and what to tell the
// player instead of doing it, so that node --test drives it message by
// message, as docs/protocol.md describes them.
//
// The server decides everything (what this seat sees, what is legal, whose
// turn it is); the client draws the snapshot and sends one of `view.legal`.

import { follow } from "./follow.js";

// An ack that names a version newer than the snapshot means its update was
// lost or is still on its way: after this long without it, ask.
export const RESYNC_AFTER_MS = 2000;
// A move with no answer at all is given up after this long, and the table
// asked for again.
export const PENDING_GIVE_UP_MS = 8000;
// The game socket's protocol this page speaks (docs/protocol.md, Protocol versions):
// from 2 the answer to our move rides on our update (its `ack`), one frame
// instead of two. A separate `ack` is still understood (a resend's answer,
// or a server that speaks 1).
export const PROTOCOL = 2;

export class TableState {
  constructor(snapshot) {
    this.snap = snapshot;
    this.pending = null; // {id, version, at}
    this.awaiting = null; // {version, since}: a newer version we know of
    // The last trick completed, kept until the next one (across the end of
    // a deal too: it is the trick a player most wants to look back at).
    this.lastTrick = null; // {cards, winner, version}
    this.seenEvents = snapshot.version;
    this.choosing = null; // the joker whose modes are offered
    this.count = 0;
  }

  get view() {
    return this.snap.view;
  }

  // Is it this seat's move, with something to choose from?
  myTurn() {
    const snap = this.snap;
    if (snap.status !== "playing" || snap.you === null || snap.you === undefined) {
      return false;
    }
    const mine = snap.seats[snap.you];
    // A seat whose player left is played by a bot, even on its turn.
    if (mine && mine.left) return false;
    const legal = snap.view.legal;
    return snap.view.turn === snap.you && Array.isArray(legal) && legal.length > 0;
  }

  canAct() {
    return this.myTurn() && !this.pending && !this.awaiting;
  }

  // The legal actions that play `card` (a joker has one per mode and suit).
  legalFor(card) {
    if (!this.myTurn() || this.view.phase !== "card") return [];
    return this.view.legal.filter((choice) => choice.card === card);
  }

  nextId(now) {
    this.count += 1;
    return "c" + now.toString(36) + "-" + this.count;
  }

  // The message that sends `action` (one of view.legal, as it is), or null
  // when a move is already on its way or it is not ours to make.
  act(action, now) {
    if (!this.canAct()) return null;
    const id = this.nextId(now);
    this.pending = { id, version: this.snap.version, at: now };
    this.choosing = null;
    return { type: "action", id, version: this.snap.version, action };
  }

  // A card clicked or Enter pressed on it: a move to send, or a joker's
  // modes to offer first ({offer: card}). Null when the card is not legal.
  chooseCard(card, now) {
    const choices = this.legalFor(card);
    if (!choices.length || !this.canAct()) return null;
    if (choices.length > 1) {
      this.choosing = this.choosing === card ? null : card;
      return { offer: this.choosing };
    }
    return { send: this.act(choices[0], now) };
  }

  // After a reconnection: the move sent on the old socket was applied or
  // lost, and the sync answer tells which.
  reopened() {
    this.pending = null;
    this.choosing = null;
    return { type: "sync", version: this.snap.version };
  }

  // Handle one server message: {redraw, send: [messages], notices: [...],
  // trick: a trick was just completed}.
  receive(message, now) {
    const out = { redraw: false, send: [], notices: [], trick: false };
    switch (message.type) {
      case "sync":
        this.onSnapshot(message, out);
        break;
      case "update":
        this.onUpdate(message, now, out);
        break;
      case "ack":
        this.onAck(message, now, out);
        break;
      case "error":
        this.onError(message, now, out);
        break;
      case "presence":
        if (message.version >= this.snap.version) {
          this.snap = { ...this.snap, seats: message.seats };
          out.redraw = true;
        }
        break;
      default:
        break; // pong, and types this page does not know
    }
    return out;
  }

  // An update: the events of the steps after our version, and our position
  // after them. One that crossed a sync answer may be older than what is
  // drawn (nothing to do); one that skips a version cannot be followed, and
  // a sync catches up.
  onUpdate(message, now, out) {
    if (message.version <= this.snap.version) return;
    const steps = message.events || [];
    if (!steps.length || steps[0].version !== this.snap.version + 1) {
      this.awaiting = { version: message.version, since: now };
      out.send.push({ type: "sync", version: this.snap.version });
      return;
    }
    const snap = this.snap;
    const seats = snap.seats.map((seat) => ({ ...seat }));
    const commitments = [...(snap.commitments || [])];
    for (const step of steps) {
      for (const event of step.events) {
        if (event.type === "resign" && seats[event.seat]) seats[event.seat].left = true;
        if (event.type === "rejoin" && seats[event.seat]) {
          Object.assign(seats[event.seat], { left: false, left_cause: "", rejoining: false });
        }
        if (event.type === "deal" && event.commitment) commitments.push(event.commitment);
      }
    }
    this.onSnapshot(
      {
        ...snap,
        type: "update",
        version: message.version,
        status: message.status,
        deadline: message.deadline,
        events: steps,
        seats,
        commitments,
        view: follow(snap.view, steps, message.position),
      },
      out,
    );
  }

  onSnapshot(message, out) {
    for (const step of message.events || []) {
      if (step.version <= this.seenEvents) continue;
      this.seenEvents = step.version;
      // The timer's move is told in words: its step's first event is the
      // move (docs/protocol.md).
      const first = (step.events || [])[0];
      if (step.cause === "timeout" && first && TIMED_MOVES.has(first.type)) {
        out.notices.push({ kind: "event", event: { ...first, timeout: true } });
      }
      for (const event of step.events || []) {
        if (event.type === "trick") {
          this.lastTrick = { cards: event.cards, winner: event.winner, version: step.version };
          out.trick = true;
        }
        if (NOTICED_EVENTS.has(event.type)) out.notices.push({ kind: "event", event });
      }
    }
    // A page loaded after a trick was taken learns it from the sync.
    const told = message.last_trick;
    if (told && (!this.lastTrick || this.lastTrick.version < told.version)) {
      this.lastTrick = { cards: told.cards, winner: told.winner, version: told.version };
    }
    this.seenEvents = Math.max(this.seenEvents, message.version);
    this.snap = message;
    const answered = this.pending && message.ack === this.pending.id;
    if (answered || (this.pending && message.version > this.pending.version)) {
      this.pending = null;
    }
    if (this.awaiting && message.version >= this.awaiting.version) this.awaiting = null;
    if (this.choosing && !this.legalFor(this.choosing).length) this.choosing = null;
    out.redraw = true;
  }

  onAck(message, now, out) {
    const ours = this.pending && this.pending.id === message.id;
    if (ours) this.pending = null;
    // The ack may come before its update: wait a little for it, then ask.
    if (message.version > this.snap.version) {
      this.awaiting = { version: message.version, since: now };
    }
    out.redraw = ours;
  }

  onError(message, now, out) {
    const ours = !this.pending || message.id === this.pending.id || message.id == null;
    if (ours) this.pending = null;
    this.choosing = null;
    out.notices.push({ kind: "error", code: message.code, message: message.message });
    if (message.code === "late") {
      // The timeout move was made for us; its update follows.
      this.awaiting = { version: this.snap.version + 1, since: now };
    } else if (message.code === "stale_version" || message.code === "wrong_seat") {
      out.send.push({ type: "sync", version: this.snap.version });
    }
    out.redraw = true;
  }

  // Called every second or so: the syncs that waiting calls for.
  tick(now) {
    const send = [];
    if (this.awaiting && now - this.awaiting.since >= RESYNC_AFTER_MS) {
      send.push({ type: "sync", version: this.snap.version });
      this.awaiting.since = now;
    }
    if (this.pending && now - this.pending.at >= PENDING_GIVE_UP_MS) {
      this.pending = null;
      send.push({ type: "sync", version: this.snap.version });
    }
    return send;
  }
}

// The events the player is told about in words.
const NOTICED_EVENTS = new Set(["deal_over", "pulka_over", "resign", "rejoin", "aborted"]);
// The moves the timer makes for a seat and the player is told of.
const TIMED_MOVES = new Set(["trump", "bid", "card"]);
