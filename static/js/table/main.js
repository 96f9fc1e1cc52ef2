// The live table page: wires the socket, the client state and the views.
// Like lichess's round ctrl: messages change the state, the state is drawn,
// and the player's choices go back over the socket.

import { byId } from "../lib/dom.js";
import { userGestureSeen } from "../lib/gesture.js";
import { fmt, gettext } from "../lib/i18n.js";
import { openSocket } from "../lib/socket.js";
import { clockOffset, formatClock } from "../game/clock.js";
import { errorText, eventTerms, eventText } from "../game/messages.js";
import { seatName } from "../game/names.js";
import { premiumTracker } from "../game/premium.js";
import { georgianSheet, japaneseSheet } from "../game/scoresheet.js";
import { PROTOCOL, TableState } from "../game/state.js";
import { renderSheet } from "../views/scoresheet.js";
import { AwayNote } from "./away.js";
import { Bar } from "./bar.js";
import { tableChat } from "./chat.js";
import { Felt } from "./felt.js";
import { Hand } from "./hand.js";
import { NextGame } from "./next_game.js";
import { Notices } from "./notices.js";
import { Prompt } from "./prompt.js";
import { Rematch } from "./rematch.js";
import { CommitmentStore, Result } from "./result.js";
import { Sounds } from "./sounds.js";
import { notifyTurn } from "./turn_notice.js";

// How long a finished trick stays in the middle before it is cleared.
const TRICK_SHOWN_MS = 2500;
// The refusals of a rematch message: its button is offered again.
const REMATCH_REFUSALS = [
  "game_not_finished",
  "not_a_player",
  "tournament_game",
  "rematch_agreed",
  "rematch_made",
  "no_offer",
  "rematch_refused",
];
// Closes after which reconnecting cannot help.
const FINAL_CODES = [4401, 4403, 4404];

export function startTable(config, snapshot) {
  const rules = config.rules;
  const state = new TableState(snapshot);
  const offset = clockOffset(config.server_now, Date.now());
  const serverNow = () => Date.now() + offset;
  const names = (seat) => seatName(state.snap.seats, seat);
  const commitments = new CommitmentStore(config.game);
  commitments.remember(snapshot.commitments);
  const baseTitle = document.title;
  let trickAt = 0;
  // Whether the move was the player's at the last redraw: a phone buzzes
  // when it becomes so.
  let wasMyTurn = false;
  // The game's status at the last redraw: its end has a sound.
  let lastStatus = state.snap.status;

  const notices = new Notices(byId("notices"));
  const sounds = new Sounds(byId("sound-btn"));
  const bar = new Bar(
    {
      deal: byId("bar-deal"),
      dealer: byId("bar-dealer"),
      table: byId("bar-table"),
      commitment: byId("bar-commitment"),
      conn: byId("conn"),
    },
    { rules, names },
  );
  const felt = new Felt(byId("felt"), { rules, names, ratings: config.ratings });
  const hand = new Hand({
    hand: byId("hand"),
    columnsTop: byId("columns-top"),
    columnsBottom: byId("columns-bottom"),
    rules,
    onPlay: playCard,
  });
  const prompt = new Prompt(byId("prompt"), {
    names,
    send: sendAction,
    cancelJoker: () => {
      state.choosing = null;
      render();
      hand.focusFirstLegal();
    },
  });
  const result = new Result(
    {
      root: byId("result"),
      summary: byId("result-summary"), places: byId("places"),
      rating: byId("result-rating"),
      fairness: byId("fairness"),
    },
    { rules, names, recordUrl: config.record_url, commitments: () => commitments.known },
  );
  const rematch = new Rematch(
    {
      root: byId("rematch"),
      button: byId("rematch-btn"),
      decline: byId("rematch-decline-btn"),
      status: byId("rematch-status"),
    },
    {
      names,
      send: (message) => socket.send({ ...message, id: state.nextId(Date.now()) }),
      serverNow,
      go: (url) => window.location.assign(url),
      managed: Boolean(config.managed),
    },
  );
  const awayNote = new AwayNote(
    { root: byId("away-note"), text: byId("away-text"), button: byId("rejoin-btn") },
    {
      japanese: rules.japanese,
      send: (message) => socket.send({ ...message, id: state.nextId(Date.now()) }),
    },
  );
  const nextGame = new NextGame(byId("result-next"), {
    table: config.table,
    go: (url) => window.location.assign(url),
  });
  // The personal socket's news of a new tournament game (static/js/me.js):
  // this page shows it under the result, instead of the corner notice.
  document.addEventListener("pulka:me", (event) => {
    if (event.detail.type === "next_game" && nextGame.seated(event.detail)) event.preventDefault();
  });
  const sheetBox = byId("scoresheet");
  const buttons = { resign: byId("resign-btn"), abort: byId("abort-btn") };

  // The chat takes its own frames before the game's state sees them.
  let chat = null;
  const socket = openSocket(
    `${config.ws_path}?protocol=${PROTOCOL}`,
    {
      status: (s) => {
        bar.connection(s);
        render();
      },
      open: (reopened) => {
        if (reopened) socket.send(state.reopened());
      },
      message: (message) => {
        if (chat && chat.receive(message)) return;
        if (message.type === "rematch") {
          rematch.receive(message, state.snap);
          return;
        }
        if (message.type === "back") {
          // Back within the grace: the seat was kept; say for how long more.
          const text = gettext("You were away. Your seat was kept: %s of the %s s grace was left.");
          notices.show(fmt(text, formatClock(message.grace_left), state.snap.grace_seconds));
          return;
        }
        if (message.type === "error" && REMATCH_REFUSALS.includes(message.code)) rematch.refused();
        const out = state.receive(message, Date.now());
        for (const reply of out.send) socket.send(reply);
        for (const notice of out.notices) {
          if (notice.kind === "error") notices.show(errorText(notice.code, notice.message), true);
          else notices.show(eventText(notice.event, names, state.snap.you), false, eventTerms(notice.event));
        }
        commitments.remember(state.snap.commitments);
        if (out.trick) {
          trickAt = Date.now();
          sounds.play("trick");
          // Redraw when the finished trick should leave the middle.
          setTimeout(render, TRICK_SHOWN_MS + 50);
        }
        if (out.redraw) render();
      },
      closed: (event) => {
        const banned = event.code === 4403 && event.reason === "banned";
        const reasons = {
          4401: gettext("Sign in to join the table."),
          4403: banned ? gettext("Your account has been closed.") : gettext("This table is private."),
          4404: gettext("There is no such game."),
        };
        notices.show(reasons[event.code], true);
      },
    },
    // The server takes a socket it has not heard from for 15 s for gone;
    // the client does the same the other way round.
    { finalCodes: FINAL_CODES, silence: 15000 },
  );
  chat = tableChat(snapshot.you, (message) => socket.send(message));

  function sendAction(action) {
    const message = state.act(action, Date.now());
    if (!message) return;
    if (!socket.send(message)) {
      state.pending = null;
      notices.show(gettext("Not connected. Your move was not sent."), true);
    }
    render();
  }

  function playCard(card) {
    const choice = state.chooseCard(card, Date.now());
    if (!choice) return;
    if (choice.send) {
      if (!socket.send(choice.send)) {
        state.pending = null;
        notices.show(gettext("Not connected. Your move was not sent."), true);
      }
      render();
      return;
    }
    render();
    if (choice.offer) prompt.focusFirstChoice();
  }

  function sheetModel() {
    const snap = state.snap;
    const view = snap.view;
    const seatNames = snap.seats.map((_, seat) => names(seat));
    const playing = snap.status === "playing" && view.phase !== "deal";
    if (rules.japanese) {
      return japaneseSheet({
        rules,
        names: seatNames,
        deals: view.deals,
        totals: view.totals,
        current: playing ? { deal: view.deal, declarer: view.dealer, trump: view.trump, tricks: view.tricks } : null,
      });
    }
    return georgianSheet({
      rules,
      names: seatNames,
      deals: view.deals,
      pulkas: view.pulkas,
      totals: view.totals,
      current:
        playing && view.cards
          ? { deal: view.deal, cards: view.cards, trump: view.trump, bids: view.bids, tricks: view.tricks }
          : null,
    });
  }

  function render() {
    const live = byId("live");
    const active = document.activeElement;
    // The keyboard is the table's unless the player is elsewhere on the page
    // (the language form, the scoresheet's summary).
    const keyboardHere = !active || active === document.body || live.contains(active);
    const snap = state.snap;
    const view = snap.view;
    const fresh = Date.now() - trickAt < TRICK_SHOWN_MS;
    bar.render(snap);
    felt.render(state, premiumTracker(view, rules), fresh);
    hand.render(state);
    prompt.render(state);
    renderSheet(sheetBox, sheetModel());
    result.render(snap);
    nextGame.render(snap);
    rematch.render(snap);
    awayNote.render(snap);
    renderButtons();
    live.classList.toggle("over", snap.status !== "playing");
    const mine = state.myTurn();
    document.title = (mine ? "● " : "") + baseTitle;
    // A move to make and the focus lost with what was redrawn (or never
    // given): it goes to the first choice, or the first card that may be
    // played, so that a keyboard player never has to look for it.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (mine && state.canAct() && keyboardHere && lost) {
      if (!prompt.focusFirstChoice()) hand.focusFirstLegal();
    }
    if (mine && !wasMyTurn) {
      buzz();
      sounds.play("turn");
      notifyTurn(config.table);
    }
    wasMyTurn = mine;
    if (lastStatus === "playing" && snap.status !== "playing") sounds.play("end");
    lastStatus = snap.status;
    tick();
  }

  // The turn has come to the player: a phone buzzes. Chromium refuses (and
  // logs an error) before the page's first tap or key, so it is not asked.
  function buzz() {
    if (!navigator.vibrate || !userGestureSeen()) return;
    navigator.vibrate(80);
  }

  function renderButtons() {
    const snap = state.snap;
    const view = snap.view;
    const info = snap.you === null ? null : snap.seats[snap.you];
    const seated = Boolean(info) && !info.left && snap.status === "playing";
    buttons.resign.hidden = !seated;
    const noCardYet =
      view.deals.length === 0 && view.trick.length === 0 && view.trick_number === 0 &&
      ["trump", "bid", "card"].includes(view.phase);
    // At a ranked or staked table a game everyone has seen can no longer
    // be called off (docs/security.md): the server refuses it, so the
    // button goes once every person has been at the table.
    const atStake = Boolean(config.ranked || config.stake);
    const everyoneCame = snap.seats.every((s) => s.bot || s.connected || s.left);
    buttons.abort.hidden = !(seated && noCardYet && !(atStake && everyoneCame));
  }

  function tick() {
    const now = serverNow();
    felt.tick(state.snap, now);
    prompt.tick(state.snap, now);
    rematch.tick(state.snap);
  }

  buttons.resign.addEventListener("click", () => {
    const question = rules.japanese
      ? gettext("Resign? Your opponent wins the match.")
      : gettext("Resign? A bot plays your seat and you are placed last.");
    if (window.confirm(question)) socket.send({ type: "resign", id: state.nextId(Date.now()) });
  });
  buttons.abort.addEventListener("click", () => {
    if (window.confirm(gettext("Call the game off? Nobody wins or loses."))) {
      socket.send({ type: "abort", id: state.nextId(Date.now()) });
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (event.key === "l" || event.key === "L") felt.toggleLast();
    if (event.key === "Escape" && state.choosing) {
      state.choosing = null;
      render();
      hand.focusFirstLegal();
    }
  });

  render();
  setInterval(tick, 250);
  setInterval(() => {
    const replies = state.tick(Date.now());
    for (const reply of replies) socket.send(reply);
    if (replies.length) render();
  }, 500);
  return { state, render };
}
