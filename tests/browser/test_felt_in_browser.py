"""What the felt shows around a trick, in Chromium: the caption of a trick
just taken stays whole and clear of the cards and the joker's mode under
them, on a phone and a wide screen, in every language."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game, Table
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD
from tests.games.helpers import move, play_until, snapshot

LANGUAGES = ("en", "ka", "ru", "tr")
JOKERS = ("X1", "X2")

# Notes, when a trick is shown taken, the caption's box and its text's box,
# whether its text fits, what is drawn at points along the text, and the
# boxes of the trick's cards and jokers' modes.
WATCH_THE_CAPTION = """() => {
  const trick = document.querySelector("#trick");
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  new MutationObserver(() => {
    const caption = trick.querySelector(".trick-caption");
    if (window.takenTrick || !trick.classList.contains("finished") || !caption) return;
    window.takenTrick = "measuring";
    // Wait for the last card to land: it flies in from its player's side.
    const moving = trick.getAnimations({ subtree: true });
    Promise.all(moving.map((a) => a.finished)).then(() => {
      const range = document.createRange();
      range.selectNodeContents(caption);
      const text = range.getBoundingClientRect();
      const hits = [0.05, 0.25, 0.5, 0.75, 0.95].map((share) => {
        const hit = document.elementFromPoint(
          text.x + text.width * share, text.y + text.height / 2);
        return hit === caption ? "caption" : hit ? hit.className : "nothing";
      });
      window.takenTrick = {
        text: caption.textContent,
        caption: box(caption),
        words: { x: text.x, y: text.y, width: text.width, height: text.height },
        fits: caption.scrollWidth <= caption.clientWidth + 1,
        hits,
        parts: [...trick.querySelectorAll(".play .card, .play .mode")].map((node) => ({
          what: node.className, text: node.textContent, ...box(node),
        })),
      };
    });
  }).observe(trick, { childList: true, subtree: true, attributes: true });
}"""


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.fixture
def joker_to_close_a_trick(transactional_db, read_db):
    """A Georgian table of four people, played on until the first of them
    holds a joker and is the last to play to a trick. Their name and the
    table."""

    def create():
        users = [
            get_user_model().objects.create_user(
                username=f"felt-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
            )
            for _ in range(4)
        ]
        table = services.table_create(
            user=users[0],
            profile="georgian-club",
            options={"schedule": "nines"},
            turn_seconds=120,
        )
        for number, user in enumerate(users[1:], start=1):
            services.seat_take(
                table_id=table.pk,
                user=user,
                number=number,
                invite_code=table.invite_code,
            )

        def last_to_play_with_a_joker(game) -> bool:
            state = game.engine_state()
            return (
                state.phase == "card"
                and state.turn == 0
                and len(state.trick) == 3
                and any(card in JOKERS for card in state.hands[0])
            )

        play_until(Game.objects.get(table=table), last_to_play_with_a_joker)
        return users[0].username, table.pk

    return read_db(create)


def open_in(browser, server, viewport, language, username, table_id):
    context = browser.new_context(base_url=server, viewport=viewport, locale="en-US")
    context.set_default_timeout(30_000)
    log_in(context.new_page(), username)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    assert page.evaluate("document.documentElement.lang") == language
    page.evaluate(WATCH_THE_CAPTION)
    return context, page


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    "viewport",
    [{"width": 360, "height": 740}, {"width": 1280, "height": 900}],
    ids=["phone", "desktop"],
)
def test_the_caption_of_a_taken_trick_is_clear_of_the_joker(
    joker_to_close_a_trick, browser, server, viewport
):
    username, table_id = joker_to_close_a_trick
    opened = [
        open_in(browser, server, viewport, language, username, table_id)
        for language in LANGUAGES
    ]
    try:
        # The same seat in four languages: one plays the joker, as high as
        # it goes, and every page shows the trick taken.
        player = opened[0][1]
        player.locator("#hand button.card.joker.legal").first.click()
        player.locator("#prompt button.choice:not([disabled])").first.click()
        for language, (_, page) in zip(LANGUAGES, opened, strict=True):
            page.wait_for_function("() => typeof window.takenTrick === 'object'")
            taken = page.evaluate("window.takenTrick")
            assert any("mode" in part["what"] for part in taken["parts"]), taken
            where = f"{language} at {viewport['width']}px: {taken}"
            assert taken["fits"], where
            assert taken["hits"] == ["caption"] * 5, where
            for part in taken["parts"]:
                assert not overlap(taken["words"], part), where
            assert page.js_errors == [], where
    finally:
        for context, _ in opened:
            context.close()


# The face-up cards of the player's own columns, as drawn: how opaque each
# is with everything around it, its filter, and whether any point of it is
# covered by something else.
COLUMN_CARDS = """() => [
  ...document.querySelectorAll("#columns-bottom .card.up"),
].map((card) => {
  let opacity = 1;
  for (let node = card; node; node = node.parentElement) {
    opacity *= Number(getComputedStyle(node).opacity);
  }
  const r = card.getBoundingClientRect();
  const points = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.5], [0.1, 0.9], [0.9, 0.9]];
  const covered = points.some(([x, y]) => {
    const hit = document.elementFromPoint(r.x + r.width * x, r.y + r.height * y);
    return !hit || !card.contains(hit);
  });
  return {
    card: card.dataset.card,
    playable: card.classList.contains("legal"),
    opacity,
    filter: getComputedStyle(card).filter,
    covered,
  };
})"""


@pytest.fixture
def column_card_not_to_be_played(transactional_db, read_db):
    """A Japanese Joker table of two people, played on until the first of
    them is to follow a lead with a face-up column card that may not be
    played. Their name and the table."""

    def create():
        users = [
            get_user_model().objects.create_user(
                username=f"cols-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
            )
            for _ in range(2)
        ]
        table = services.table_create(
            user=users[0], profile="japanese", turn_seconds=120
        )
        services.seat_take(
            table_id=table.pk,
            user=users[1],
            number=1,
            invite_code=table.invite_code,
        )

        def an_up_card_not_to_be_played(game) -> bool:
            state = game.engine_state()
            if state.phase != "card" or state.turn != 0 or len(state.trick) != 1:
                return False
            legal = {choice["card"] for choice in snapshot(game, 0)["view"]["legal"]}
            return any(up not in legal for _, up in state.columns[0])

        play_until(Game.objects.get(table=table), an_up_card_not_to_be_played)
        return users[0].username, table.pk

    return read_db(create)


@pytest.mark.parametrize(
    "viewport",
    [{"width": 360, "height": 740}, {"width": 1280, "height": 900}],
    ids=["phone", "desktop"],
)
def test_a_column_card_that_may_not_be_played_is_dimmed_not_see_through(
    column_card_not_to_be_played, browser, server, viewport
):
    username, table_id = column_card_not_to_be_played
    context, page = open_in(browser, server, viewport, "en", username, table_id)
    try:
        page.locator("#columns-bottom .card.up.illegal").first.wait_for()
        cards = page.evaluate(COLUMN_CARDS)
        unplayable = [card for card in cards if not card["playable"]]
        assert unplayable, cards
        for card in cards:
            # Whole and opaque: the face-down card under it never shows
            # through, so it does not look torn.
            assert card["opacity"] == 1, card
            assert not card["covered"], card
        for card in unplayable:
            # Dimmed, so it plainly may not be played.
            assert "grayscale" in card["filter"], card
            assert "brightness" in card["filter"], card
        assert page.js_errors == []
    finally:
        context.close()


@pytest.fixture
def trump_to_name(transactional_db, read_db, settings):
    """A Georgian table of four people, played on until the last card of a
    deal after which the first of them is to name trump. Their name, the
    table, and the move that starts their clock: the test plays that card
    once its pages are open, however long a busy machine takes to open them.
    The clock is long until then (else it plays that card itself while the
    pages open) and short from that card on."""
    settings.PULKA_ANY_TURN_SECONDS = True  # as the server has it here

    def create():
        users = [
            get_user_model().objects.create_user(
                username=f"namer-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
            )
            for _ in range(4)
        ]
        table = services.table_create(
            user=users[0],
            profile="georgian-club",
            options={"schedule": "nines"},
            turn_seconds=600,
        )
        for number, user in enumerate(users[1:], start=1):
            services.seat_take(
                table_id=table.pk,
                user=user,
                number=number,
                invite_code=table.invite_code,
            )

        def last_card_before_the_first_names_trump(game) -> bool:
            state = game.engine_state()
            # The next deal's dealer is the seat after this one's, and the
            # seat after the dealer names trump when the deal has it named.
            return (
                sum(map(len, state.hands)) == 1
                and state.rules.trump_is_named(state.deal_index + 1)
                and (state.dealer + 2) % 4 == 0
            )

        play_until(
            Game.objects.get(table=table), last_card_before_the_first_names_trump
        )
        return users[0].username, table.pk

    def start_the_clock(table_id: int) -> None:
        def play_the_last_card():
            # The owner reads the clock from the table for each move.
            Table.objects.filter(pk=table_id).update(turn_seconds=TRUMP_SECONDS)
            game = Game.objects.get(table_id=table_id)
            move(game)
            game.refresh_from_db()
            state = game.engine_state()
            assert (state.phase, state.turn) == ("trump", 0)

        read_db(play_the_last_card)

    return (*read_db(create), start_the_clock)


# Every text the notices line shows, kept: each stays only a few seconds.
KEEP_NOTICES = """() => {
  window.notices = [];
  const line = document.querySelector("#notices");
  new MutationObserver(() => window.notices.push(line.textContent)).observe(
    line, { childList: true, characterData: true, subtree: true });
}"""
# The clock to name trump: it starts once the pages are open.
TRUMP_SECONDS = 10
# "Time ran out: trump was named for you: <suit or no trump>." in each language.
TRUMP_FOR_YOU = {
    "en": ("Time ran out: trump was named for you: ", "."),
    "ka": ("დრო ამოიწურა: კოზირი თქვენს მაგივრად დასახელდა: ", "."),
    "ru": ("Время вышло: козырь назван за вас: ", "."),
    "tr": ("Süre doldu: koz sizin yerinize söylendi: ", "."),
}
SUIT_NAMES = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "ka": {"S": "ყვავი", "H": "გული", "D": "აგური", "C": "ჯვარი"},
    "ru": {"S": "пики", "H": "черви", "D": "бубны", "C": "трефы"},
    "tr": {"S": "maça", "H": "kupa", "D": "karo", "C": "sinek"},
}
NO_TRUMP = {"en": "no trump", "ka": "უკოზირო", "ru": "без козыря", "tr": "kozsuz"}


@pytest.mark.timeout(180)
def test_the_player_is_told_which_trump_the_clock_named(
    trump_to_name, browser, server, read_db
):
    username, table_id, start_the_clock = trump_to_name
    opened = [
        open_in(
            browser, server, {"width": 360, "height": 740}, lang, username, table_id
        )
        for lang in LANGUAGES
    ]
    try:
        for _, page in opened:
            page.evaluate(KEEP_NOTICES)
        start_the_clock(table_id)
        for language, (_, page) in zip(LANGUAGES, opened, strict=True):
            start, end = TRUMP_FOR_YOU[language]
            said = page.wait_for_function(
                "(start) => window.notices.find((text) => text.startsWith(start))",
                arg=start,
                timeout=(TRUMP_SECONDS + 20) * 1000,
            ).json_value()
            named = read_db(
                lambda: Game.objects.get(table_id=table_id).engine_state().trump
            )
            if named == "none":
                expected = NO_TRUMP[language]
            else:
                expected = SUIT_NAMES[language][named]
            assert said == f"{start}{expected}{end}", said
            assert page.js_errors == []
    finally:
        for context, _ in opened:
            context.close()
