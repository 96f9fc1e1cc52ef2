/* The live table: a WebSocket client that draws every snapshot it receives.
 *
 * The server decides everything: what this seat may see (the `view` of each
 * `sync`/`update`), what is legal (`view.legal`), whose turn it is. The client
 * draws the latest snapshot, sends the chosen action with the snapshot's
 * version, and waits for the next update. docs/protocol.md describes the
 * messages.
 *
 * The card helpers at the top are shared with the replay page (window.Pulka).
 */
(function () {
  "use strict";

  const gettext = window.gettext || ((text) => text);
  const ngettext =
    window.ngettext || ((one, many, count) => (count === 1 ? one : many));
  const interpolate =
    window.interpolate ||
    ((text, args) => text.replace(/%s/g, () => String(args.shift())));
  const fmt = (text, ...args) => interpolate(text, args);

  // Cards ------------------------------------------------------------------

  const SUITS = ["S", "H", "D", "C"];
  const RANKS = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
  const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const NOMINAL = { X1: "6S", X2: "6C" };

  function suitName(suit) {
    return {
      S: gettext("spades"),
      H: gettext("hearts"),
      D: gettext("diamonds"),
      C: gettext("clubs"),
    }[suit];
  }

  function isJoker(code) {
    return code && code[0] === "X";
  }

  function rankText(rank) {
    return rank === "T" ? "10" : rank;
  }

  // "K♥", "10♠", "🃏 J1"
  function cardText(code) {
    if (!code) return "";
    if (isJoker(code)) return "🃏 J" + code[1];
    return rankText(code[0]) + SYMBOL[code[1]];
  }

  function cardName(code) {
    if (isJoker(code)) return fmt(gettext("Joker %s"), code[1]);
    const ranks = {
      T: "10",
      J: gettext("jack"),
      Q: gettext("queen"),
      K: gettext("king"),
      A: gettext("ace"),
    };
    return fmt(gettext("%s of %s"), ranks[code[0]] || code[0], suitName(code[1]));
  }

  function sortKey(code) {
    if (isJoker(code)) return [SUITS.length, Number(code[1])];
    return [SUITS.indexOf(code[1]), -RANKS.indexOf(code[0])];
  }

  // By suit (♠ ♥ ♦ ♣), high cards first, jokers last: as the server sorts.
  function sortCards(cards) {
    return [...cards].sort((a, b) => {
      const x = sortKey(a);
      const y = sortKey(b);
      return x[0] - y[0] || x[1] - y[1];
    });
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // A card face (or, for "hidden" / null, a card back).
  function cardEl(code, { button = false, small = false } = {}) {
    const node = el(button ? "button" : "span", "card");
    if (button) node.type = "button";
    if (small) node.classList.add("small");
    if (!code || code === "hidden") {
      node.classList.add("back");
      node.setAttribute("aria-label", gettext("face-down card"));
      node.title = gettext("face-down card");
      return node;
    }
    node.dataset.card = code;
    node.setAttribute("aria-label", cardName(code));
    node.title = cardName(code);
    if (isJoker(code)) {
      node.classList.add("joker");
      node.append(el("span", "rank", "🃏"), el("span", "suit", "J" + code[1]));
    } else {
      const suit = code[1];
      node.classList.add(suit === "H" || suit === "D" ? "red" : "black");
      node.append(el("span", "rank", rankText(code[0])), el("span", "suit", SYMBOL[suit]));
    }
    return node;
  }

  // How a joker was played: "take ♥", "give ♠", "high", "low", "as 6♠".
  function modeText(play) {
    switch (play.mode) {
      case "take":
        return fmt(gettext("take %s"), SYMBOL[play.suit]);
      case "give":
        return fmt(gettext("give %s"), SYMBOL[play.suit]);
      case "high":
        return gettext("high");
      case "low":
        return gettext("low");
      case "nominal":
        return fmt(gettext("as %s"), cardText(NOMINAL[play.card]));
      default:
        return "";
    }
  }

  // A played card with its joker mode underneath.
  function playEl(play, options) {
    const wrap = el("span", "play");
    wrap.append(cardEl(play.card, options));
    if (play.mode) wrap.append(el("span", "mode", modeText(play)));
    return wrap;
  }

  function trumpText(trump) {
    if (trump === null || trump === undefined) return "—";
    if (trump === "none") return gettext("no trump");
    return SYMBOL[trump] + " " + suitName(trump);
  }

  function trumpSymbol(trump) {
    if (trump === "none") return "∅";
    return SYMBOL[trump] || "—";
  }

  function trumpClass(trump) {
    return trump === "H" || trump === "D" ? "red" : "";
  }

  // Seat positions around the table, seen from `me` (the bottom seat);
  // seats are numbered clockwise, so the next seat sits on the left.
  function positionOf(seat, me, players) {
    const relative = (seat - (me || 0) + players) % players;
    return players === 2
      ? ["bottom", "top"][relative]
      : ["bottom", "left", "top", "right"][relative];
  }

  // The pulka (0-based) a deal belongs to.
  function pulkaOf(deal, sizes) {
    let end = 0;
    for (let p = 0; p < sizes.length; p++) {
      end += sizes[p];
      if (deal < end) return p;
    }
    return sizes.length - 1;
  }

  function signed(value) {
    return value > 0 ? "+" + value : String(value);
  }

  window.Pulka = {
    gettext,
    ngettext,
    fmt,
    SYMBOL,
    el,
    cardEl,
    cardText,
    playEl,
    modeText,
    sortCards,
    trumpText,
    trumpSymbol,
    trumpClass,
    positionOf,
    pulkaOf,
    signed,
  };

  const configNode = document.getElementById("table-config");
  if (!configNode) return;
  const config = JSON.parse(configNode.textContent);
  if (config.game) {
    liveTable(config);
  } else if (config.state_url) {
    waitForStart(config);
  }

  // Waiting for players --------------------------------------------------

  function waitForStart(config) {
    let socket = null;
    let polling = false;

    async function check() {
      if (polling) return;
      polling = true;
      try {
        const response = await fetch(config.state_url, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        });
        if (!response.ok) return;
        const data = await response.json();
        if (data.game || data.status !== config.status) {
          window.location.reload();
          return;
        }
        drawSeats(data.seats);
      } catch (error) {
        // Offline for a moment: the next poll tries again.
      } finally {
        polling = false;
      }
    }

    // The seats are drawn by the server (with their buttons): when someone
    // takes or leaves a seat, load the page again.
    let seen = null;
    function drawSeats(seats) {
      const now = JSON.stringify(seats);
      if (seen !== null && now !== seen) window.location.reload();
      seen = now;
    }

    function listen(delay) {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(scheme + "//" + window.location.host + config.lobby_ws);
      socket.onmessage = (event) => {
        try {
          if (JSON.parse(event.data).type === "lobby") check();
        } catch (error) {
          // Not for us.
        }
      };
      socket.onopen = () => {
        delay = 1000;
      };
      socket.onclose = () => {
        setTimeout(() => listen(Math.min(delay * 2, 30000)), delay);
      };
    }

    if (config.status === "open") {
      listen(1000);
      setInterval(check, 4000);
    }
  }

  // The live game ------------------------------------------------------------

  function liveTable(config) {
    const rules = config.rules;
    const players = rules.players;
    const japanese = rules.japanese;
    const byId = (id) => document.getElementById(id);
    const dom = {
      felt: byId("felt"),
      trick: byId("trick"),
      lastTrick: byId("last-trick"),
      prompt: byId("prompt"),
      hand: byId("hand"),
      columnsTop: byId("columns-top"),
      columnsBottom: byId("columns-bottom"),
      abort: byId("abort-btn"),
      resign: byId("resign-btn"),
      toast: byId("toast"),
      result: byId("result"),
      resultSummary: byId("result-summary"),
      places: byId("places"),
      fairness: byId("fairness"),
      scoresheet: byId("scoresheet"),
      conn: byId("conn"),
      barDeal: byId("bar-deal"),
      barDealer: byId("bar-dealer"),
      barTrump: byId("bar-trump"),
      barTable: byId("bar-table"),
      barCommitment: byId("bar-commitment"),
    };

    let snap = JSON.parse(byId("table-snapshot").textContent);
    // Server clock minus ours, from the time the page was made.
    const clockOffset = config.server_now - Date.now();
    let socket = null;
    let everConnected = false;
    let retries = 0;
    let pingTimer = null;
    let pending = null; // {id, version, at}
    let jokerChoice = null; // the joker whose modes are shown
    let lastTrick = null; // {cards, winner, at}
    let seenEvents = snap.version;
    let actionCount = 0;
    let verifying = false;
    const baseTitle = document.title;
    const seatBoxes = [];

    const commitmentKey = "pulka:commitments:" + config.game;
    let knownCommitments = loadCommitments();
    rememberCommitments(snap.commitments || []);

    buildSeats();
    render();
    connect();
    setInterval(tick, 250);
    dom.resign.addEventListener("click", resign);
    dom.abort.addEventListener("click", abort);

    // Commitments as first received, kept across reloads: the fairness check
    // compares the revealed deals with these, not with what the server says
    // at the end.
    function loadCommitments() {
      try {
        return JSON.parse(window.localStorage.getItem(commitmentKey)) || [];
      } catch (error) {
        return [];
      }
    }

    function rememberCommitments(list) {
      let changed = false;
      list.forEach((hash, index) => {
        if (!knownCommitments[index]) {
          knownCommitments[index] = hash;
          changed = true;
        }
      });
      if (!changed) return;
      try {
        window.localStorage.setItem(commitmentKey, JSON.stringify(knownCommitments));
      } catch (error) {
        // Private mode: the commitments of this page's lifetime still count.
      }
    }

    // Connection ---------------------------------------------------------

    function connect() {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(scheme + "//" + window.location.host + config.ws_path);
      setConnection("connecting");
      socket.onopen = () => {
        setConnection("online");
        if (everConnected) send({ type: "sync", version: snap.version });
        everConnected = true;
        clearInterval(pingTimer);
        pingTimer = setInterval(() => send({ type: "ping" }), 25000);
      };
      socket.onmessage = (event) => {
        retries = 0;
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        receive(message);
      };
      socket.onclose = (event) => {
        clearInterval(pingTimer);
        if ([4401, 4403, 4404].includes(event.code)) {
          setConnection("closed");
          const reasons = {
            4401: gettext("Sign in to join the table."),
            4403: gettext("This table is private."),
            4404: gettext("There is no such game."),
          };
          const banned = event.code === 4403 && event.reason === "banned";
          showToast(banned ? gettext("Your account has been closed.") : reasons[event.code], true);
          return;
        }
        setConnection("offline");
        // Back off: 0.5 s, 1 s, 2 s ... up to 15 s, with some jitter.
        const delay = Math.min(15000, 500 * 2 ** retries) * (0.75 + Math.random() / 2);
        retries += 1;
        setTimeout(connect, delay);
      };
    }

    function send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    }

    function setConnection(state) {
      const labels = {
        connecting: gettext("Connecting…"),
        online: gettext("Connected"),
        offline: gettext("Reconnecting…"),
        closed: gettext("Disconnected"),
      };
      dom.conn.dataset.state = state;
      dom.conn.textContent = labels[state];
      if (state !== "online") render();
    }

    function newId() {
      actionCount += 1;
      const random = Math.random().toString(36).slice(2, 8);
      return "c" + Date.now().toString(36) + random + actionCount;
    }

    // Messages -------------------------------------------------------------

    function receive(message) {
      switch (message.type) {
        case "sync":
        case "update":
          onSnapshot(message);
          break;
        case "ack":
          if (pending && pending.id === message.id) {
            if (snap.version >= message.version) {
              pending = null;
              render();
            } else {
              // Its update was lost on the way: catch up (the sync's
              // snapshot then clears the pending move).
              send({ type: "sync", version: snap.version });
            }
          }
          break;
        case "error":
          onError(message);
          break;
        case "presence":
          if (message.version >= snap.version) {
            snap.seats = message.seats;
            render();
          }
          break;
        default:
          break;
      }
    }

    function onSnapshot(message) {
      // An update older than what is drawn was overtaken; a sync is the
      // server's answer to our question and always counts.
      if (message.type === "update" && message.version < snap.version) return;
      processEvents(message.events || []);
      const wasMyTurn = myTurn();
      snap = message;
      rememberCommitments(snap.commitments || []);
      if (pending && snap.version > pending.version) pending = null;
      if (jokerChoice && !legalFor(jokerChoice).length) jokerChoice = null;
      render();
      if (!wasMyTurn && myTurn() && navigator.vibrate) {
        try {
          navigator.vibrate(80);
        } catch (error) {
          // Not allowed without a gesture: fine.
        }
      }
    }

    function processEvents(steps) {
      for (const step of steps) {
        if (step.version <= seenEvents) continue;
        seenEvents = step.version;
        for (const event of step.events || []) onEvent(event);
      }
    }

    function onEvent(event) {
      const name = (seat) => seatName(seat);
      switch (event.type) {
        case "trick":
          lastTrick = { cards: event.cards, winner: event.winner, at: Date.now() };
          // Redraw when the finished trick should leave the centre.
          setTimeout(render, 2600);
          break;
        case "deal_over": {
          const result = event.result;
          const scores = (result.scores || result.points || []).map(
            (score, seat) => name(seat) + " " + signed(score),
          );
          showToast(fmt(gettext("Deal %s is over: %s"), event.deal + 1, scores.join(", ")));
          break;
        }
        case "pulka_over":
          showToast(fmt(gettext("Pulka %s is over."), event.pulka));
          break;
        case "resign":
          showToast(fmt(gettext("%s left the game."), name(event.seat)));
          break;
        case "aborted":
          showToast(gettext("The game was called off."));
          break;
        default:
          break;
      }
    }

    function onError(message) {
      const texts = {
        stale_version: gettext("The game moved on before your move arrived. Here is the table now."),
        wrong_seat: gettext("It is not your turn."),
        wrong_action: gettext("Another kind of move is due."),
        illegal: gettext("That move is against the rules."),
        not_allowed: gettext("You cannot do that now."),
        not_playing: gettext("The game is over."),
        bad_record: gettext("That move is not complete."),
      };
      showToast(texts[message.code] || message.message || gettext("Refused."), true);
      if (!pending || message.id === pending.id || message.id === null) {
        pending = null;
      }
      jokerChoice = null;
      if (message.code === "stale_version" || message.code === "wrong_seat") {
        send({ type: "sync", version: snap.version });
      }
      render();
    }

    // Actions ------------------------------------------------------------

    function sendAction(action) {
      if (pending) return;
      const id = newId();
      const sent = send({ type: "action", id, version: snap.version, action });
      if (!sent) {
        showToast(gettext("Not connected. Your move was not sent."), true);
        return;
      }
      pending = { id, version: snap.version, at: Date.now() };
      jokerChoice = null;
      render();
    }

    function resign() {
      const question = japanese
        ? gettext("Resign? Your opponent wins the match.")
        : gettext("Resign? A bot plays your seat and you are placed last.");
      if (!window.confirm(question)) return;
      send({ type: "resign", id: newId() });
    }

    function abort() {
      if (!window.confirm(gettext("Call the game off? Nobody wins or loses."))) return;
      send({ type: "abort", id: newId() });
    }

    function myTurn() {
      const view = snap.view;
      // A seat whose player left is played by a bot, even on its turn.
      const mine = snap.you === null ? null : snap.seats[snap.you];
      return (
        snap.status === "playing" &&
        mine !== null &&
        !(mine && mine.left) &&
        view.turn === snap.you &&
        Array.isArray(view.legal) &&
        view.legal.length > 0
      );
    }

    function canAct() {
      return myTurn() && !pending && socket && socket.readyState === WebSocket.OPEN;
    }

    function legalFor(card) {
      if (!myTurn() || snap.view.phase !== "card") return [];
      return snap.view.legal.filter((choice) => choice.card === card);
    }

    function playCard(card) {
      if (!canAct()) return;
      const choices = legalFor(card);
      if (!choices.length) return;
      // A joker with a choice of modes asks which; with one (answering in
      // Japanese Joker: high) it is played at once.
      if (choices.length > 1) {
        jokerChoice = jokerChoice === card ? null : card;
        render();
        return;
      }
      sendAction(choices[0]);
    }

    function seatName(seat) {
      const info = snap.seats[seat];
      return (info && info.name) || fmt(gettext("Seat %s"), seat + 1);
    }

    // Drawing --------------------------------------------------------------

    function buildSeats() {
      for (let seat = 0; seat < players; seat++) {
        const box = el("div", "seat");
        box.dataset.seat = seat;
        const name = el("div", "seat-name");
        const badges = el("span", "badges");
        const stats = el("div", "seat-stats");
        const meta = el("div", "seat-meta");
        const timer = el("div", "timer");
        timer.append(el("span", "timer-bar"), el("span", "timer-text"));
        box.append(name, badges, stats, meta, timer);
        dom.felt.append(box);
        seatBoxes.push({ box, name, badges, stats, meta, timer });
      }
    }

    function render() {
      renderBar();
      renderSeats();
      renderTrick();
      renderLastTrick();
      renderColumns();
      renderHand();
      renderPrompt();
      renderButtons();
      renderScoresheet();
      renderResult();
      byId("live").classList.toggle("over", snap.status !== "playing");
      document.title = (myTurn() ? "● " : "") + baseTitle;
      tick();
    }

    function renderBar() {
      const view = snap.view;
      const over = snap.status !== "playing";
      if (over) {
        dom.barDeal.textContent =
          snap.status === "aborted"
            ? gettext("Called off")
            : snap.status === "annulled"
              ? gettext("Annulled")
              : gettext("Game over");
      } else if (japanese) {
        dom.barDeal.textContent = fmt(gettext("Deal %s"), view.deal + 1);
      } else {
        const pulka = pulkaOf(view.deal, rules.pulka_sizes) + 1;
        dom.barDeal.textContent =
          fmt(gettext("Deal %s of %s"), view.deal + 1, rules.schedule.length) +
          " · " +
          fmt(gettext("pulka %s"), pulka) +
          (view.cards
            ? " · " + fmt(ngettext("%s card", "%s cards", view.cards), view.cards)
            : "");
      }
      dom.barDealer.textContent =
        view.dealer === null || over
          ? ""
          : fmt(japanese ? gettext("Declarer: %s") : gettext("Dealer: %s"), seatName(view.dealer));
      dom.barTrump.replaceChildren();
      if (!over && view.phase !== "deal") {
        const label = el("span", "", gettext("Trump:") + " ");
        const value = el("strong", "trump " + trumpClass(view.trump), trumpText(view.trump));
        if (view.trump === null) {
          value.textContent = view.phase === "trump" ? gettext("being named") : "—";
        }
        dom.barTrump.append(label, value);
        if (view.turned) {
          dom.barTrump.append(" ", el("span", "muted", gettext("turned")), " ");
          dom.barTrump.append(cardEl(view.turned, { small: true }));
        }
      }
      dom.barTable.textContent = "";
      dom.barTable.className = "";
      if (!japanese && !over) {
        const bids = view.bids || [];
        const complete = bids.length === players && bids.every((b) => b !== null);
        if (complete) {
          const sum = bids.reduce((a, b) => a + b, 0);
          const shetenva = sum < view.cards;
          dom.barTable.textContent =
            (shetenva ? gettext("Shetenva") : gettext("Tsaglejva")) +
            ": " +
            fmt(gettext("%s bid for %s tricks"), sum, view.cards);
          dom.barTable.className = shetenva ? "under" : "over";
        }
      }
      const commitment = (snap.commitments || [])[view.deal];
      dom.barCommitment.textContent = "";
      if (commitment && !over) {
        dom.barCommitment.textContent = fmt(gettext("Deal hash %s…"), commitment.slice(0, 10));
        dom.barCommitment.title = fmt(
          gettext("SHA-256 commitment to this deal's cards, published before play: %s"),
          commitment,
        );
      }
    }

    function renderSeats() {
      const view = snap.view;
      const me = snap.you;
      for (let seat = 0; seat < players; seat++) {
        const parts = seatBoxes[seat];
        const info = snap.seats[seat] || {};
        const position = positionOf(seat, me, players);
        parts.box.className = "seat pos-" + position;
        parts.box.classList.toggle("turn", view.turn === seat && snap.status === "playing");
        parts.box.classList.toggle("me", seat === me);
        parts.box.classList.toggle("away", !info.connected);
        parts.box.classList.toggle("gone", Boolean(info.left));
        parts.box.classList.toggle(
          "winner",
          snap.status === "finished" && (view.places || [])[seat] === 1,
        );
        parts.name.textContent = seatName(seat) + (seat === me ? " " + gettext("(you)") : "");
        const rating = (config.ratings || [])[seat];
        if (rating) {
          const text = String(rating.rating) + (rating.provisional ? "?" : "");
          const badge = el("span", "seat-rating", " " + text);
          badge.title = rating.provisional
            ? gettext("Rating in this category, provisional: fewer than 20 rated games")
            : gettext("Rating in this category");
          parts.name.append(badge);
        }
        parts.badges.replaceChildren();
        if (view.dealer === seat && snap.status === "playing") {
          const badge = el("span", "badge dealer", japanese ? gettext("declarer") : gettext("dealer"));
          parts.badges.append(badge);
        }
        if (info.left) {
          const botPlays = !japanese && snap.status === "playing";
          const text = botPlays ? gettext("left · bot plays") : gettext("left");
          parts.badges.append(el("span", "badge gone", text));
        }
        else if (!info.connected) parts.badges.append(el("span", "badge away", gettext("offline")));
        const stats = [];
        if (!japanese) {
          const bid = (view.bids || [])[seat];
          stats.push(
            bid === null || bid === undefined
              ? gettext("no bid yet")
              : bid === 0
                ? gettext("pass")
                : fmt(gettext("bid %s"), bid),
          );
        }
        if (view.tricks && view.tricks.length) {
          stats.push(fmt(gettext("took %s"), view.tricks[seat]));
        }
        if (snap.status !== "playing" || view.phase === "deal") {
          stats.length = 0;
          stats.push(fmt(gettext("total %s"), (view.totals || [])[seat]));
        }
        parts.stats.textContent = stats.join(" · ");
        const size = (view.hand_sizes || [])[seat];
        // While trump is named only the namer's first cards are shown.
        const hidden = view.phase === "trump" && !japanese && seat !== view.turn;
        parts.meta.textContent =
          size === undefined || hidden || snap.status !== "playing"
            ? ""
            : fmt(ngettext("%s card in hand", "%s cards in hand", size), size);
      }
    }

    function renderTrick() {
      const view = snap.view;
      dom.trick.replaceChildren();
      let cards = view.trick;
      let winner = null;
      const fresh = lastTrick && Date.now() - lastTrick.at < 2500;
      if (!cards.length && fresh) {
        cards = lastTrick.cards;
        winner = lastTrick.winner;
      }
      dom.trick.classList.toggle("finished", winner !== null);
      cards.forEach((play, index) => {
        const slot = el("div", "slot pos-" + positionOf(play.seat, snap.you, players));
        const node = playEl(play);
        if (index === 0) node.classList.add("lead");
        if (winner === play.seat) node.classList.add("won");
        slot.append(node);
        dom.trick.append(slot);
      });
      if (winner !== null) {
        dom.trick.append(el("div", "trick-caption", fmt(gettext("%s takes the trick"), seatName(winner))));
      } else if (!cards.length && snap.status === "playing" && view.phase === "card") {
        const leader = view.turn === snap.you ? gettext("Your lead") : fmt(gettext("%s leads"), seatName(view.turn));
        dom.trick.append(el("div", "trick-caption", leader));
      }
    }

    function renderLastTrick() {
      if (!lastTrick || snap.status !== "playing") {
        dom.lastTrick.hidden = true;
        return;
      }
      dom.lastTrick.hidden = false;
      dom.lastTrick.replaceChildren(
        el("span", "label", fmt(gettext("Last trick: %s"), seatName(lastTrick.winner))),
      );
      for (const play of lastTrick.cards) {
        const node = playEl(play, { small: true });
        if (play.seat === lastTrick.winner) node.classList.add("won");
        dom.lastTrick.append(node);
      }
    }

    function renderColumns() {
      if (!japanese) return;
      const view = snap.view;
      const me = snap.you === null ? 0 : snap.you;
      const rows = { top: dom.columnsTop, bottom: dom.columnsBottom };
      rows.top.replaceChildren();
      rows.bottom.replaceChildren();
      (view.columns || []).forEach((own, seat) => {
        const row = rows[positionOf(seat, me, players)];
        own.forEach((column) => {
          const stack = el("div", "column");
          stack.append(cardEl(column.down, { small: true }));
          const mine = seat === snap.you;
          const up = cardEl(column.up, { button: mine, small: true });
          up.classList.add("up");
          if (mine) decoratePlayable(up, column.up);
          stack.append(up);
          row.append(stack);
        });
      });
    }

    function decoratePlayable(node, code) {
      const playing = myTurn() && snap.view.phase === "card";
      if (!playing) {
        if (node.tagName === "BUTTON") node.disabled = true;
        return;
      }
      const legal = legalFor(code).length > 0;
      node.classList.add(legal ? "legal" : "illegal");
      if (node.tagName === "BUTTON") {
        node.disabled = !legal || !canAct();
        node.addEventListener("click", () => playCard(code));
      }
      if (jokerChoice === code) node.classList.add("chosen");
    }

    function renderHand() {
      const view = snap.view;
      dom.hand.replaceChildren();
      if (snap.you === null || snap.status !== "playing") {
        dom.hand.hidden = true;
        return;
      }
      dom.hand.hidden = false;
      const cards = sortCards(view.hand);
      for (const code of cards) {
        const node = cardEl(code, { button: true });
        decoratePlayable(node, code);
        dom.hand.append(node);
      }
      if (view.phase === "trump" && snap.status === "playing" && cards.length) {
        dom.hand.append(el("span", "hand-note", gettext("The rest of your cards come after trump is named.")));
      }
    }

    function button(label, onClick, className) {
      const node = el("button", className || "", label);
      node.type = "button";
      node.disabled = !canAct();
      node.addEventListener("click", onClick);
      return node;
    }

    function renderPrompt() {
      const view = snap.view;
      dom.prompt.replaceChildren();
      dom.prompt.className = "prompt";
      if (snap.status !== "playing") return;
      if (pending) {
        dom.prompt.append(el("span", "waiting", gettext("Sending your move…")));
        return;
      }
      if (!myTurn()) {
        if (view.turn === null || view.turn === undefined) return;
        const who = seatName(view.turn);
        const text = {
          trump: fmt(gettext("%s is naming trump."), who),
          bid: fmt(gettext("%s is bidding."), who),
          card: fmt(gettext("%s is to play."), who),
        }[view.phase];
        dom.prompt.append(el("span", "waiting", text || ""));
        if (snap.you === null) dom.prompt.append(el("span", "muted", " " + gettext("You are watching.")));
        return;
      }
      dom.prompt.classList.add("yours");
      const timer = el("span", "my-timer");
      if (view.phase === "trump") {
        dom.prompt.append(el("span", "ask", gettext("Name trump:")));
        const row = el("span", "choices");
        for (const { trump } of view.legal) {
          const label = trump === "none" ? gettext("No trump") : SYMBOL[trump] + " " + suitName(trump);
          row.append(button(label, () => sendAction({ trump }), "choice " + trumpClass(trump)));
        }
        dom.prompt.append(row, timer);
      } else if (view.phase === "bid") {
        dom.prompt.append(el("span", "ask", gettext("Your bid:")));
        const row = el("span", "choices bids");
        const bids = view.legal.map((choice) => choice.bid);
        for (const bid of bids) {
          row.append(button(String(bid), () => sendAction({ bid }), "choice bid"));
        }
        dom.prompt.append(row);
        const forbidden = [];
        for (let n = 0; n <= view.cards; n++) {
          if (!bids.includes(n)) forbidden.push(n);
        }
        if (forbidden.length) {
          dom.prompt.append(
            el("span", "muted", fmt(gettext("As the dealer you may not bid %s."), forbidden.join(", "))),
          );
        }
        dom.prompt.append(timer);
      } else if (view.phase === "card" && jokerChoice) {
        dom.prompt.append(el("span", "ask", fmt(gettext("Play %s as:"), cardText(jokerChoice))));
        dom.prompt.append(jokerChoices(jokerChoice));
        dom.prompt.append(button(gettext("Cancel"), () => {
          jokerChoice = null;
          render();
        }, "secondary"));
        dom.prompt.append(timer);
      } else if (view.phase === "card") {
        dom.prompt.append(
          el("span", "ask", view.trick.length ? gettext("Your turn: play a card.") : gettext("Your lead: play a card.")),
          timer,
        );
      }
    }

    function jokerChoices(card) {
      const box = el("span", "joker-choices");
      const choices = legalFor(card);
      const labels = {
        take: gettext("Take (highest)"),
        give: gettext("Give (lowest)"),
      };
      for (const mode of ["take", "give"]) {
        const withMode = choices.filter((choice) => choice.mode === mode);
        if (!withMode.length) continue;
        const row = el("span", "joker-row");
        row.append(el("span", "joker-mode", labels[mode]));
        for (const choice of withMode) {
          row.append(
            button(SYMBOL[choice.suit], () => sendAction(choice), "choice suit " + trumpClass(choice.suit)),
          );
        }
        box.append(row);
      }
      const single = {
        high: gettext("High: take the trick"),
        low: gettext("Low: give the trick away"),
        nominal: fmt(gettext("As its own card, %s"), cardText(NOMINAL[card])),
      };
      for (const mode of ["high", "low", "nominal"]) {
        const choice = choices.find((c) => c.mode === mode);
        if (choice) box.append(button(single[mode], () => sendAction(choice), "choice"));
      }
      return box;
    }

    function renderButtons() {
      const view = snap.view;
      const info = snap.you === null ? null : snap.seats[snap.you];
      const seated = info && !info.left && snap.status === "playing";
      dom.resign.hidden = !seated;
      // Only before the first card: nothing finished, nothing on the table.
      const noCardYet =
        view.deals.length === 0 &&
        view.trick.length === 0 &&
        view.trick_number === 0 &&
        ["trump", "bid", "card"].includes(view.phase);
      dom.abort.hidden = !(seated && noCardYet);
    }

    function renderScoresheet() {
      const view = snap.view;
      dom.scoresheet.replaceChildren(
        japanese ? japaneseSheet(view) : georgianSheet(view),
      );
    }

    function headerRow(cells) {
      const row = el("tr");
      for (const cell of cells) {
        const th = el("th", cell.className || "", cell.text);
        if (cell.title) th.title = cell.title;
        row.append(th);
      }
      return row;
    }

    function georgianSheet(view) {
      const table = el("table", "sheet");
      const head = el("thead");
      head.append(
        headerRow([
          { text: "#" },
          { text: gettext("Cards"), title: gettext("Cards each") },
          { text: gettext("Trump") },
          ...snap.seats.map((s) => ({ text: seatName(s.number), className: "player" })),
        ]),
      );
      table.append(head);
      const body = el("tbody");
      const running = new Array(players).fill(0);
      const sizes = rules.pulka_sizes;
      view.deals.forEach((deal, index) => {
        const row = el("tr", "deal-row");
        row.append(el("td", "num", String(index + 1)), el("td", "num", String(deal.cards)));
        row.append(el("td", "trump " + trumpClass(deal.trump), trumpSymbol(deal.trump)));
        for (let seat = 0; seat < players; seat++) {
          running[seat] += deal.scores[seat];
          const exact = deal.bids[seat] === deal.tricks[seat];
          const cell = el("td", "score" + (exact ? " exact" : "") + (deal.scores[seat] < 0 ? " minus" : ""));
          cell.append(
            el("span", "bt", deal.bids[seat] + "/" + deal.tricks[seat]),
            el("span", "pts", String(deal.scores[seat])),
          );
          cell.title = fmt(gettext("bid %s, took %s"), deal.bids[seat], deal.tricks[seat]);
          row.append(cell);
        }
        body.append(row);
        const pulka = pulkaOf(index, sizes);
        const lastOfPulka = sizes.slice(0, pulka + 1).reduce((a, b) => a + b, 0) - 1;
        const result = view.pulkas[pulka];
        if (index === lastOfPulka && result) {
          const prow = el("tr", "pulka-row");
          const label = el("td", "", fmt(gettext("Pulka %s"), result.pulka));
          label.colSpan = 3;
          prow.append(label);
          for (let seat = 0; seat < players; seat++) {
            running[seat] += result.bonus[seat] - result.deduction[seat];
            const cell = el("td", "score");
            const marks = [];
            if (result.premium[seat]) marks.push("★");
            if (result.bonus[seat]) marks.push("+" + result.bonus[seat]);
            if (result.deduction[seat]) marks.push("−" + result.deduction[seat]);
            cell.append(el("span", "bt", marks.join(" ")), el("span", "pts total", String(running[seat])));
            if (result.premium[seat]) cell.title = gettext("On premium: every bid of the pulka made");
            prow.append(cell);
          }
          body.append(prow);
        }
      });
      // The deal being played.
      if (snap.status === "playing" && view.cards && view.phase !== "deal") {
        const row = el("tr", "current-row");
        row.append(el("td", "num", String(view.deal + 1)), el("td", "num", String(view.cards)));
        row.append(el("td", "trump " + trumpClass(view.trump), trumpSymbol(view.trump)));
        for (let seat = 0; seat < players; seat++) {
          const bid = view.bids[seat];
          const took = (view.tricks || [])[seat];
          row.append(el("td", "score", (bid === null || bid === undefined ? "–" : bid) + "/" + (took ?? 0)));
        }
        body.append(row);
      }
      table.append(body);
      const foot = el("tfoot");
      const totals = el("tr", "totals-row");
      const label = el("td", "", gettext("Total"));
      label.colSpan = 3;
      totals.append(label);
      for (let seat = 0; seat < players; seat++) {
        totals.append(el("td", "score total", String(view.totals[seat])));
      }
      foot.append(totals);
      if (rules.pairs) {
        const teams = el("tr", "teams-row");
        const teamLabel = el("td", "", gettext("Teams"));
        teamLabel.colSpan = 3;
        teams.append(teamLabel);
        // Seats 1 and 3 against 2 and 4: each seat shows its team's total.
        for (let seat = 0; seat < players; seat++) {
          const team = view.totals[seat % 2] + view.totals[(seat % 2) + 2];
          const cell = el("td", "score total", String(team));
          cell.title = seat % 2 ? gettext("Seats 2 and 4") : gettext("Seats 1 and 3");
          teams.append(cell);
        }
        foot.append(teams);
      }
      table.append(foot);
      return table;
    }

    function japaneseSheet(view) {
      const wrap = el("div");
      const totals = view.totals;
      const score = el("p", "match-score");
      score.append(
        el("strong", "", seatName(0) + " " + totals[0] + " – " + totals[1] + " " + seatName(1)),
        " ",
        el("span", "muted", fmt(gettext("(the match goes to %s points)"), rules.target)),
      );
      wrap.append(score);
      if (!view.deals.length) return wrap;
      const table = el("table", "sheet");
      table.append(
        headerRow([
          { text: "#" },
          { text: gettext("Declarer") },
          { text: gettext("Trump") },
          ...snap.seats.map((s) => ({ text: seatName(s.number), className: "player" })),
        ]),
      );
      const body = el("tbody");
      view.deals.forEach((deal, index) => {
        const row = el("tr", "deal-row");
        row.append(el("td", "num", String(index + 1)), el("td", "", seatName(deal.declarer)));
        row.append(el("td", "trump " + trumpClass(deal.trump), trumpSymbol(deal.trump)));
        for (let seat = 0; seat < players; seat++) {
          const cell = el("td", "score");
          cell.append(
            el("span", "bt", fmt(ngettext("%s trick", "%s tricks", deal.tricks[seat]), deal.tricks[seat])),
            el("span", "pts", deal.points[seat] ? "+" + deal.points[seat] : "0"),
          );
          row.append(cell);
        }
        body.append(row);
      });
      table.append(body);
      wrap.append(table);
      return wrap;
    }

    function renderResult() {
      const view = snap.view;
      if (snap.status === "playing") {
        dom.result.hidden = true;
        return;
      }
      dom.result.hidden = false;
      dom.places.replaceChildren();
      if (snap.status === "aborted") {
        dom.resultSummary.textContent = gettext("The game was called off before the first card. Nobody wins or loses.");
      } else if (snap.status === "annulled") {
        dom.resultSummary.textContent = gettext("The game was annulled by the operators. It counts for nothing: ratings and stakes are as before it.");
      } else {
        const winners = (view.places || []).map((p, s) => (p === 1 ? s : null)).filter((s) => s !== null);
        const names = winners.map(seatName).join(", ");
        dom.resultSummary.textContent =
          snap.you !== null && winners.includes(snap.you)
            ? gettext("You won!")
            : fmt(ngettext("Winner: %s", "Winners: %s", winners.length), names);
        const order = [...Array(players).keys()].sort(
          (a, b) => view.places[a] - view.places[b] || a - b,
        );
        for (const seat of order) {
          const item = el("li", view.places[seat] === 1 ? "winner" : "");
          item.append(
            el("span", "place", fmt(gettext("%s."), view.places[seat])),
            el("span", "name", seatName(seat)),
            el("span", "points", String(view.totals[seat])),
          );
          if ((view.left || []).includes(seat)) item.append(el("span", "badge gone", gettext("left")));
          // The Domino Coin the player won or lost, as the ledger moved them.
          if (snap.nets) {
            const net = snap.nets[seat];
            item.append(
              el(
                "span",
                "coins " + (net > 0 ? "net-won" : net < 0 ? "net-lost" : "net-even"),
                fmt(gettext("%s Domino Coin"), net < 0 ? "\u2212" + -net : signed(net)),
              ),
            );
          }
          dom.places.append(item);
        }
      }
      if (snap.reveal) verifyDeals();
    }

    async function verifyDeals() {
      if (verifying) return;
      verifying = true;
      dom.fairness.className = "fairness";
      dom.fairness.textContent = gettext("Checking the deals…");
      try {
        const response = await fetch(config.record_url, { credentials: "same-origin" });
        if (!response.ok) throw new Error(String(response.status));
        const record = await response.json();
        const commitments = (snap.commitments || []).map(
          (hash, index) => knownCommitments[index] || hash,
        );
        const check = await window.PulkaFairness.verifyDeals({
          reveal: snap.reveal,
          commitments,
          record,
        });
        if (check.ok) {
          dom.fairness.classList.add("ok");
          dom.fairness.textContent =
            "✔ " +
            fmt(
              ngettext(
                "The deal is verified: its cards were fixed before play began.",
                "All %s deals verified: their cards were fixed before play began.",
                check.count,
              ),
              check.count,
            );
        } else {
          const reasons = {
            missing: gettext("no commitment or reveal"),
            hash: gettext("the cards do not hash to the commitment"),
            preimage: gettext("the revealed text is not readable"),
            cards: gettext("the cards differ from the game record"),
          };
          dom.fairness.classList.add("failed");
          dom.fairness.textContent =
            "✘ " +
            check.failures
              .map((f) => fmt(gettext("Deal %s: %s"), f.deal + 1, reasons[f.reason]))
              .join("; ");
        }
      } catch (error) {
        verifying = false;
        dom.fairness.textContent = gettext("The deals could not be checked right now.");
      }
    }

    // The turn timer.
    function tick() {
      const view = snap.view;
      const deadline = snap.deadline ? Date.parse(snap.deadline) : null;
      const now = Date.now() + clockOffset;
      for (let seat = 0; seat < players; seat++) {
        const parts = seatBoxes[seat];
        const info = snap.seats[seat] || {};
        const running =
          deadline &&
          snap.status === "playing" &&
          view.turn === seat &&
          !info.bot &&
          !info.left;
        parts.timer.hidden = !running;
        if (!running) continue;
        // Clamped: the clock offset is only as good as the page's latency.
        const left = Math.min(snap.turn_seconds || 30, Math.max(0, (deadline - now) / 1000));
        const share = Math.min(1, left / (snap.turn_seconds || 30));
        parts.timer.firstChild.style.width = (share * 100).toFixed(1) + "%";
        parts.timer.lastChild.textContent = Math.ceil(left) + " s";
        parts.timer.classList.toggle("low", left <= 5);
      }
      const mine = dom.prompt.querySelector(".my-timer");
      if (mine && deadline) {
        const left = Math.min(
          snap.turn_seconds || 30,
          Math.max(0, Math.ceil((deadline - now) / 1000)),
        );
        mine.textContent = fmt(ngettext("%s second left", "%s seconds left", left), left);
        mine.classList.toggle("low", left <= 5);
      }
    }

    let toastTimer = null;
    function showToast(text, isError) {
      if (!text) return;
      dom.toast.textContent = text;
      dom.toast.className = "toast show" + (isError ? " error" : "");
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => {
        dom.toast.className = "toast";
      }, isError ? 6000 : 4000);
    }

    // Keep a pending move from blocking the table forever if its answer is
    // lost: ask for the table again.
    setInterval(() => {
      if (pending && Date.now() - pending.at > 8000) {
        pending = null;
        send({ type: "sync", version: snap.version });
        render();
      }
    }, 1000);
  }
})();
