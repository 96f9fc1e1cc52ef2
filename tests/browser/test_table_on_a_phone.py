"""The live table on a phone, in Chromium with a touch screen: a person plays
a whole nine-card deal (and a Japanese Joker deal, with its columns) by
tapping, and at every move the hand, the prompt, trump, the trick and every
seat are on the screen without scrolling; the page logs no console error (a
phone's buzz waits for a first gesture).

With PULKA_SCREENSHOT_DIR set (`make screenshots`), the bid at 360x740 and
the card play at 390x844 are saved there as table-phone-bid.png and
table-phone-play.png, and a Japanese card play at each size as
table-phone-japanese-<size>.png: the pictures in docs/images/ come from
this test.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from joker.cards import JOKERS
from tests.browser.test_table_page import log_in, open_table
from tests.factories import DEFAULT_PASSWORD
from tests.games.helpers import move, start_table

DEAL_TIMEOUT = 150
PHONES = [
    pytest.param({"width": 360, "height": 740}, "bid", id="360x740"),
    pytest.param({"width": 390, "height": 844}, "play", id="390x844"),
    pytest.param({"width": 844, "height": 390}, "landscape", id="844x390"),
]

# What the page asks of the person now: the deal is over (a row in the
# scoresheet), trump to name, a bid, a joker's mode, or a card.
NEXT_STEP = """() => {
  const PLAYABLE = "#hand button.card.legal:not(.unusable),"
    + " #columns-bottom button.card.legal:not(.unusable)";
  if (document.querySelector("#scoresheet tr.deal-row")) return "over";
  const prompt = document.querySelector("#prompt.yours");
  if (!prompt) return null;
  if (prompt.querySelector("button.bid:not([disabled])")) return "bid";
  if (prompt.querySelector("button.trump-choice:not([disabled])")) return "trump";
  if (prompt.querySelector("button.choice:not([disabled])")) return "joker";
  if (document.querySelector(PLAYABLE)) return "card";
  return null;
}"""

# The boxes of what a player must see at once, in the viewport's
# coordinates; a box that is missing or hidden is null.
BOXES = """() => {
  const box = (node) => {
    if (!node || node.hidden) return null;
    const r = node.getBoundingClientRect();
    if (!r.width && !r.height) return null;
    return { x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width };
  };
  // The player's cards: the hand, and in Japanese Joker the face-up cards
  // of the player's columns.
  const cards = [
    ...document.querySelectorAll("#hand button.card, #columns-bottom button.card"),
  ];
  // What a finger can tap of each card: the longest run of points, across
  // and down through the card's visible part, where the card is what is hit.
  const hits = (card, x, y) => {
    const node = document.elementFromPoint(x, y);
    return Boolean(node) && node.closest("button.card") === card;
  };
  const tappable = cards.map((card) => {
    const r = card.getBoundingClientRect();
    let best = { width: 0, height: 0 };
    for (let y = r.y + 2; y < r.bottom; y += 4) {
      let width = 0;
      let x0 = null;
      for (let x = r.x + 1; x < r.right; x += 2) {
        if (hits(card, x, y)) {
          width += 2;
          if (x0 === null) x0 = x;
        }
      }
      if (width <= best.width) continue;
      let height = 0;
      for (let yy = r.y + 1; yy < r.bottom; yy += 2) {
        if (hits(card, x0 + width / 2, yy)) height += 2;
      }
      best = { width, height };
    }
    return best;
  });
  return {
    viewport: { width: window.innerWidth, height: window.innerHeight },
    scrollY: window.scrollY,
    hand: box(document.querySelector("#hand")),
    cards: cards.map((c) => box(c)),
    tappable,
    prompt: box(document.querySelector("#prompt")),
    // A term in the prompt is a word that explains itself, not a choice.
    choices: [...document.querySelectorAll("#prompt button:not(.term)")]
      .map((b) => box(b)),
    trump: box(document.querySelector("#felt .felt-trump")),
    trick: box(document.querySelector("#trick")),
    seats: [...document.querySelectorAll("#felt .seat")].map((s) => box(s)),
    // Japanese Joker: the opponent's columns and the player's.
    columns: [...document.querySelectorAll("#felt .columns-row")].map(box),
    played: [...document.querySelectorAll("#trick .card")].map((c) => box(c)),
  };
}"""

# Counts the notes the page starts with the Web Audio API.
COUNT_TONES = """
window.tonesStarted = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.tonesStarted += 1;
  return start.apply(this, args);
};
"""

SCROLL_WIDTH = "() => document.documentElement.scrollWidth"

TRICK_STILL = """() => document.getAnimations().every((animation) => {
  const target = animation.effect && animation.effect.target;
  return !(target && target.closest && target.closest("#trick"))
    || animation.playState !== "running";
})"""

MIN_TAP = 44  # px: the smallest touch target WCAG 2.5.5 asks for


def inside(box: dict, viewport: dict) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["right"] <= viewport["width"] + 0.5
        and box["bottom"] <= viewport["height"] + 0.5
    )


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["right"] <= b["x"]
        or b["right"] <= a["x"]
        or a["bottom"] <= b["y"]
        or b["bottom"] <= a["y"]
    )


def check_one_screen(boxes: dict, step: str) -> None:
    """Everything a move needs is on the screen, unscrolled; each card can
    be tapped."""
    viewport = boxes["viewport"]
    assert boxes["scrollY"] == 0, (step, boxes["scrollY"])
    for name in ("hand", "prompt", "trick"):
        assert boxes[name] and inside(boxes[name], viewport), (step, name, boxes)
    for name in ("cards", "choices", "seats", "columns"):
        for box in boxes[name]:
            assert box and inside(box, viewport), (step, name, box, viewport)
    if step == "card":
        assert boxes["trump"] and inside(boxes["trump"], viewport), (step, boxes)
    for tap in boxes["tappable"]:
        assert tap["width"] >= MIN_TAP and tap["height"] >= MIN_TAP, (
            step,
            "a card too small to tap",
            boxes["tappable"],
        )
    # A card on the table covers no seat (a led card once sat over the
    # right-hand seat).
    for card in boxes["played"]:
        for seat in boxes["seats"]:
            assert not overlap(card, seat), (step, "a played card over a seat", card)
    for box in boxes["choices"]:
        assert box["width"] >= MIN_TAP, (step, "a choice too narrow to tap", box)


def phone_context(browser, server: str, viewport: dict):
    """A phone's browser: touch, a small screen, the notes counted."""
    context = browser.new_context(
        base_url=server,
        viewport=viewport,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.set_default_timeout(30_000)
    context.add_init_script(COUNT_TONES)
    return context


def server_of(page) -> str:
    return page.evaluate("location.origin")


def open_table_page(context, username: str, table_id: int, language: str = "en"):
    """The table's page, online, in ``language``, and the list its page
    errors and console errors go to. Signed in on a page of its own: the
    table's tab has seen no tap."""
    signed_in = context.new_page()
    log_in(signed_in, username)
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": server_of(signed_in)}]
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: message.type == "error" and errors.append(message.text),
    )
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    return page, errors


def tap_move(page, step: str) -> str:
    if step != "card":
        target = page.locator("#prompt button.choice:not([disabled])").first
    else:
        target = page.locator(
            "#hand button.card.legal:not(.unusable),"
            " #columns-bottom button.card.legal:not(.unusable)"
        ).first
    name = target.get_attribute("aria-label") or target.inner_text()
    if target.evaluate("(node) => Boolean(node.closest('#columns-bottom'))"):
        name = f"{name} (column)"
    target.tap()
    return name


def play_deal_by_tapping(page, shots: dict) -> list[str]:
    """Tap through the first deal, checking the screen before each move;
    ``shots`` maps a step to the path to save its first screenshot at."""
    moves = []
    # The move came to the player before any tap: no sound (nor buzz) while
    # the page has seen no gesture. (Chromium sometimes counts the page as
    # activated from the start; then sound is allowed, and may be made.)
    page.wait_for_function(NEXT_STEP)
    activated, tones = page.evaluate(
        "() => [navigator.userActivation.hasBeenActive, window.tonesStarted]"
    )
    assert activated or tones == 0, tones
    deadline = time.monotonic() + DEAL_TIMEOUT
    while time.monotonic() < deadline:
        left_ms = max(1000, (deadline - time.monotonic()) * 1000)
        step = page.wait_for_function(NEXT_STEP, timeout=left_ms).json_value()
        if step == "over":
            return moves
        # A card played flies in from its player's side, over the seat for
        # a moment: measure once it has landed.
        page.wait_for_function(TRICK_STILL)
        try:
            check_one_screen(page.evaluate(BOXES), step)
        except AssertionError:
            page.screenshot(path=str(shots["failure"]), full_page=True)
            print(f"screenshot (failure): {shots['failure']}")
            raise
        path = shots.pop(step, None)
        if path:
            page.screenshot(path=str(path))
        moves.append(f"{step}: {tap_move(page, step)}")
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')",
            timeout=30_000,
        )
    raise AssertionError(f"the deal did not end in {DEAL_TIMEOUT} s: {moves}")


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("viewport", "shot"), PHONES)
def test_a_nine_card_deal_by_tapping_on_a_phone(
    viewport, shot, browser, server, read_db, tmp_path
):
    username, table_id = open_table(read_db, "georgian-club", {"schedule": "nines"})
    context = phone_context(browser, server, viewport)
    try:
        page, errors = open_table_page(context, username, table_id)

        folder = Path(os.environ.get("PULKA_SCREENSHOT_DIR") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        step = "bid" if shot == "bid" else "card"
        path = folder / f"table-phone-{shot}.png"
        shots = {step: path, "failure": tmp_path / "failure.png"}
        moves = play_deal_by_tapping(page, shots)

        assert sum(move.startswith("card") for move in moves) == 9, moves
        assert path.exists()
        # The turns and the tricks after the first tap were heard.
        assert page.evaluate("() => window.tonesStarted") > 0

        # The mute switch holds across a reload: the next deal is silent.
        sound = page.locator("#sound-btn")
        assert sound.get_attribute("aria-pressed") == "true"
        sound.tap()
        assert sound.get_attribute("aria-pressed") == "false"
        page.reload()
        page.locator("#conn[data-state='online']").wait_for()
        assert sound.get_attribute("aria-pressed") == "false"
        step = page.wait_for_function(NEXT_STEP).json_value()
        tap_move(page, step)
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')"
        )
        page.wait_for_function(NEXT_STEP)
        assert page.evaluate("() => window.tonesStarted") == 0
        assert errors == []
    finally:
        context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("viewport", "shot"), PHONES)
def test_a_japanese_deal_by_tapping_on_a_phone(
    viewport, shot, browser, server, read_db, tmp_path
):
    """Two players, each with a hand and five columns: the hand, both rows
    of columns, the trick, trump, both seats and the prompt on one screen
    at every move, and every card the player may play (a face-up card of a
    column too) at least 44 px to tap."""
    username, table_id = open_table(read_db, "japanese", {})
    context = phone_context(browser, server, viewport)
    try:
        page, errors = open_table_page(context, username, table_id)

        folder = Path(os.environ.get("PULKA_SCREENSHOT_DIR") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        size = f"{viewport['width']}x{viewport['height']}"
        path = folder / f"table-phone-japanese-{size}.png"
        shots = {"card": path, "failure": tmp_path / "failure.png"}
        moves = play_deal_by_tapping(page, shots)
        assert path.exists()

        # 36 cards, 18 each: eight in the hand and two in each column.
        cards = [move for move in moves if move.startswith("card")]
        assert len(cards) == 18, moves
        # Face-up cards were tapped where they lie, in the columns.
        assert any(move.endswith("(column)") for move in cards), moves
        # The autopilot goes on into the next deal: wait for the move to come
        # back to the player, so that the server is still when the test's
        # database is emptied.
        page.wait_for_function(
            "() => document.querySelector('#bar-deal').textContent.includes('2')"
            " && document.querySelector('#prompt.yours')"
        )
        assert errors == []
    finally:
        context.close()


@pytest.fixture
def joker_to_lead(transactional_db, read_db):
    """A Georgian table of four people, played on until the first of them
    is to lead with a joker while the hand still fans in two rows and the
    dealer sits across: the joker's modes (take or give in each suit) are
    the tallest prompt a phone shows, beside the tallest top seat. Their
    name and the table."""

    def to_lead_with_a_joker(game) -> bool:
        state = game.engine_state()
        if state.phase != "card" or state.turn != 0 or state.trick:
            return False
        hand = state.hands[0]
        return (
            len(hand) > 5
            # The dealer across the felt: the top seat's badges ("dealer",
            # "offline") on two lines, its tallest.
            and state.dealer == 2
            and any(card in JOKERS for card in hand)
        )

    def create():
        # The deals are random: a game that ends without such a moment (one
        # in four or so) gives way to a new table.
        for _ in range(6):
            table, users = start_table(
                "georgian-club", {"schedule": "nines"}, people=4, turn_seconds=120
            )
            game = Game.objects.get(table=table)
            while game.status == Game.Status.PLAYING:
                if to_lead_with_a_joker(game):
                    return users[0].username, table.pk
                move(game)
                game.refresh_from_db()
        raise AssertionError("no game of six came to a joker to lead")

    return read_db(create)


@pytest.mark.timeout(400)
def test_a_led_jokers_modes_fit_a_phone_in_every_language(
    joker_to_lead, browser, server, tmp_path
):
    """Leading with a joker asks for its mode in two rows of suits under the
    question: with the hand in two rows too, all of it stays on a 360x740
    screen, unscrolled, in each language (a led joker once pushed the hand's
    last row past the bottom). Each language on a phone of its own, all
    online at once, so that none comes back to a notice of its absence."""
    username, table_id = joker_to_lead
    phones = []
    try:
        for language in ("en", "ka", "ru", "tr"):
            context = phone_context(browser, server, {"width": 360, "height": 740})
            phones.append(context)
            page, errors = open_table_page(context, username, table_id, language)
            assert page.evaluate("document.documentElement.lang") == language
            page.locator("#hand button.card.joker.legal").first.tap()
            page.locator("#prompt .joker-choices").wait_for()
            page.wait_for_function(TRICK_STILL)
            try:
                check_one_screen(page.evaluate(BOXES), "joker")
            except AssertionError:
                shot = tmp_path / f"joker-{language}.png"
                page.screenshot(path=str(shot), full_page=True)
                print(f"screenshot ({language}): {shot}")
                raise
            page.locator("#prompt button.secondary").tap()
            assert errors == [], language
    finally:
        for context in phones:
            context.close()


# What sticks out past the screen's edge, outside any box that scrolls it
# within: the first few, to say why a page is too wide.
WIDER_THAN_THE_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (node) => {
    let up = node.parentElement;
    for (; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const right = (node) => node.getBoundingClientRect().right;
  return [...document.querySelectorAll("body *")]
    .filter((node) => right(node) > width + 0.5 && !clipped(node))
    .slice(0, 5)
    .map((node) => `${node.tagName}.${node.className} ${right(node)}`);
}"""


FOCUSED_CHOICE = """() => {
  const node = document.activeElement;
  if (!node || !node.classList.contains("choice")) return null;
  const all = [...document.querySelectorAll("#prompt button.choice:not([disabled])")];
  return { index: all.indexOf(node), count: all.length, text: node.textContent };
}"""


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_the_arrow_keys_move_between_the_choices(page, read_db):
    """The help line's ← → move between the bids (and trump's suits) as they
    do between the cards; Enter makes the bid the keys came to."""
    username, table_id = open_table(read_db, "georgian-club", {"schedule": "nines"})
    log_in(page, username)
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    for _ in range(2):  # trump first, when it is the player's to name
        step = page.wait_for_function(NEXT_STEP).json_value()
        assert step in ("trump", "bid"), step
        # The turn's first choice has the focus.
        first = page.evaluate(FOCUSED_CHOICE)
        assert first and first["index"] == 0, first
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED_CHOICE)["index"] == 1
        page.keyboard.press("End")
        assert page.evaluate(FOCUSED_CHOICE)["index"] == first["count"] - 1
        page.keyboard.press("ArrowLeft")
        chosen = page.evaluate(FOCUSED_CHOICE)
        assert chosen["index"] == first["count"] - 2
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        chosen = page.evaluate(FOCUSED_CHOICE)
        assert chosen["index"] == 1
        page.keyboard.press("Enter")
        if step == "bid":
            bid = page.locator("#felt .seat.me .stat-bid .stat-value")
            page.wait_for_function(
                "(text) => document.querySelector("
                "'#felt .seat.me .stat-bid .stat-value').textContent === text",
                arg=chosen["text"],
            )
            assert bid.inner_text() == chosen["text"]
            break
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')"
        )
    assert page.js_errors == []


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_the_player_is_told_when_time_ran_out(page, read_db, settings):
    """A player who lets the clock run out is told what was played for them."""
    settings.PULKA_ANY_TURN_SECONDS = True  # as the server has it here

    def create():

        from games.services import tables

        user = get_user_model().objects.create_user(
            username="slow-player", password=DEFAULT_PASSWORD
        )
        table = tables.table_create(
            user=user,
            profile="georgian-club",
            options={"schedule": "nines"},
            turn_seconds=2,
        )
        for number in range(1, 4):
            tables.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return table.pk

    table_id = read_db(create)
    log_in(page, "slow-player")
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    notice = page.locator("#notices")
    notice.filter(has_text="for you.").wait_for(timeout=60_000)
    assert notice.inner_text().startswith("Time ran out: ")
    assert page.js_errors == []
