"""The chat in Chromium: two players at a table with bots talk both ways, a
spectator's messages stay out of the players' room, what anyone writes is
shown as text, and on a phone the chat waits behind a button with a count
while the hand keeps the screen (docs/chat.md)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from chat import services as chat_services
from chat.selectors import table_room
from games import services
from games.models import Game
from social.services import block_create
from tests.browser.test_table_on_a_phone import open_table_page, phone_context
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD
from tests.games.helpers import play_out

SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(1)>"


@pytest.fixture
def table(transactional_db, read_db):
    """A Georgian club table: two people in seats 0 and 1, autopilots in the
    others, and a third person who watches. Their names and the table."""

    def create():
        users = [
            get_user_model().objects.create_user(
                username=f"{role}-{uuid.uuid4().hex[:6]}", password=DEFAULT_PASSWORD
            )
            for role in ("nino", "giorgi", "tamar")
        ]
        table = services.table_create(
            user=users[0],
            profile="georgian-club",
            options={"schedule": "nines"},
            turn_seconds=120,
        )
        services.seat_take(
            table_id=table.pk, user=users[1], number=1, invite_code=table.invite_code
        )
        for number in (2, 3):
            services.seat_add_bot(
                table_id=table.pk, user=users[0], number=number, bot="autopilot"
            )
        return [user.username for user in users], table.pk

    return read_db(create)


def desktop(browser, server):
    context = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, locale="en-US"
    )
    context.set_default_timeout(30_000)
    return context


def chat_lines(page) -> list[str]:
    return page.locator("#chat .chat-text").all_inner_texts()


def say(page, text: str) -> None:
    page.locator("#chat input").fill(text)
    page.locator("#chat button[type=submit]").click()


def wait_for_line(page, text: str) -> None:
    page.locator("#chat .chat-text", has_text=text).first.wait_for()


def test_players_talk_and_a_spectator_stays_in_their_own_room(table, browser, server):
    (nino, giorgi, tamar), table_id = table
    contexts = [desktop(browser, server) for _ in range(3)]
    dialogs = []
    try:
        pages = []
        for context, name in zip(contexts, (nino, giorgi, tamar), strict=True):
            page, errors = open_table_page(context, name, table_id)
            page.on(
                "dialog",
                lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()),
            )
            pages.append((page, errors))
        (first, first_errors), (second, second_errors), (watcher, watcher_errors) = (
            pages
        )
        assert first.locator("#chat .chat-title").inner_text() == "Players' chat"
        assert watcher.locator("#chat .chat-title").inner_text() == "Spectators' chat"

        say(first, "gamarjoba")
        wait_for_line(second, "gamarjoba")
        second.locator("#chat .chat-phrase-btn", has_text="Good luck!").click()
        wait_for_line(first, "Good luck!")

        # The spectator's payloads reach the spectators' room, as text.
        say(watcher, SCRIPT)
        wait_for_line(watcher, SCRIPT)
        say(first, IMAGE)
        wait_for_line(second, IMAGE)
        say(first, "after the spectator")
        wait_for_line(second, "after the spectator")
        for page in (first, second):
            assert SCRIPT not in chat_lines(page)
            assert chat_lines(page) == [
                "gamarjoba",
                "Good luck!",
                IMAGE,
                "after the spectator",
            ]
        assert chat_lines(watcher) == [SCRIPT]
        for page in (first, second, watcher):
            assert page.locator("#chat img, #chat script").count() == 0

        # A reload brings the room's history back.
        second.reload()
        wait_for_line(second, "after the spectator")
        assert chat_lines(second)[0] == "gamarjoba"
        assert dialogs == []
        assert first_errors == second_errors == watcher_errors == []
    finally:
        for context in contexts:
            context.close()


NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"
HAND_ON_SCREEN = """() => {
  const cards = [...document.querySelectorAll("#hand button.card")];
  return cards.length > 0 && cards.every((card) => {
    const r = card.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0
      && r.right <= window.innerWidth
      && document.elementFromPoint(r.x + 4, r.y + 4)?.closest("button.card") === card;
  });
}"""


def test_on_a_phone_the_chat_waits_behind_a_button_with_a_count(
    table, browser, server, read_db
):
    (nino, giorgi, _), table_id = table
    # Before trump is named only its namer holds cards: if that is Giorgi
    # (seat 1), he holds the phone; otherwise Nino does.
    namer = read_db(lambda: Game.objects.get(table_id=table_id).engine_state().turn)
    holder, talker_name = (giorgi, nino) if namer == 1 else (nino, giorgi)
    phone = phone_context(browser, server, {"width": 360, "height": 740})
    other = desktop(browser, server)
    try:
        page, errors = open_table_page(phone, holder, table_id)
        page.locator("#hand button.card").first.wait_for()
        toggle = page.locator("[data-chat-toggle=chat]")
        assert toggle.is_visible() and not page.locator("#chat").is_visible()
        assert page.evaluate(NO_SIDEWAYS) and page.evaluate(HAND_ON_SCREEN)

        talker, _ = open_table_page(other, talker_name, table_id)
        for text in ("one", "x" * 300):
            say(talker, text)
            wait_for_line(talker, text[:20])
        unread = page.locator("[data-chat-unread]")
        unread.wait_for()
        page.wait_for_function(
            "() => document.querySelector('[data-chat-unread]').textContent === '2'"
        )
        assert page.evaluate(HAND_ON_SCREEN) and page.evaluate(NO_SIDEWAYS)

        toggle.tap()
        page.locator("#chat").wait_for()
        assert not unread.is_visible()
        assert chat_lines(page) == ["one", "x" * 300]
        assert page.evaluate(NO_SIDEWAYS)
        page.locator("#chat .chat-phrase-btn", has_text="Thanks!").tap()
        wait_for_line(talker, "Thanks!")
        page.locator("#chat [data-chat=close]").tap()
        page.locator("#chat").wait_for(state="hidden")
        assert page.evaluate(HAND_ON_SCREEN) and page.evaluate(NO_SIDEWAYS)
        assert errors == []
    finally:
        phone.close()
        other.close()


def test_the_lobby_chat_at_360(table, browser, server):
    (nino, _, _), _ = table
    phone = phone_context(browser, server, {"width": 360, "height": 740})
    try:
        page = phone.new_page()
        log_in(page, nino)
        page.goto("/lobby/")
        panel = page.locator("#lobby-chat")
        # A message written before the socket is up is refused as not sent.
        page.locator("#lobby-chat[data-socket='online']").wait_for()
        panel.locator("input").fill(SCRIPT)
        panel.locator("button[type=submit]").tap()
        panel.locator(".chat-text", has_text=SCRIPT).wait_for()
        assert panel.locator("script, img").count() == 0
        assert page.evaluate(NO_SIDEWAYS)
    finally:
        phone.close()


def test_the_replay_shows_the_chat_beside_the_moves(table, browser, server, read_db):
    (nino, giorgi, tamar), table_id = table

    def talk_and_finish():
        game = Game.objects.get(table_id=table_id)
        users = {u.username: u for u in get_user_model().objects.all()}
        for name, seat, text in [
            (nino, 0, "gl"),
            (tamar, None, SCRIPT),
            (giorgi, 1, IMAGE),
        ]:
            chat_services.message_post(
                author_id=users[name].pk,
                room=table_room(game.table_id, seat),
                text=text,
                now=timezone.now(),
            )
        play_out(game.pk)
        return game.pk

    game_id = read_db(talk_and_finish)
    context = desktop(browser, server)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/games/{game_id}/replay/")
        lines = page.locator("#replay-chat .chat-line")
        lines.first.wait_for()
        assert lines.locator(".chat-text").all_inner_texts() == ["gl", SCRIPT, IMAGE]
        assert lines.nth(1).get_attribute("class") == "chat-line chat-spectator"
        assert lines.nth(1).locator(".chat-tag").inner_text() == "spectator"
        assert page.locator("#replay-chat img, #replay-chat script").count() == 0
        assert errors == []
    finally:
        context.close()


def test_the_blocker_is_told_whom_they_blocked_the_blocked_only_that_someone_did(
    table, browser, server, read_db
):
    (nino, giorgi, _), table_id = table

    def block():
        users = {u.username: u for u in get_user_model().objects.all()}
        block_create(blocker_id=users[nino].pk, blocked_id=users[giorgi].pk)

    read_db(block)
    contexts = [desktop(browser, server) for _ in range(2)]
    try:
        (blocker, blocker_errors), (blocked, blocked_errors) = [
            open_table_page(context, name, table_id)
            for context, name in zip(contexts, (nino, giorgi), strict=True)
        ]
        error = "#chat [data-chat=error]"

        say(blocker, "hello?")
        blocker.locator(error).wait_for()
        assert blocker.locator(error).inner_text() == (
            f"You blocked {giorgi}. Unblock them to write here."
        )

        say(blocked, "hello?")
        blocked.locator(error).wait_for()
        assert blocked.locator(error).inner_text() == (
            "A player at this table does not take your messages."
        )
        assert chat_lines(blocker) == chat_lines(blocked) == []
        assert blocker_errors == blocked_errors == []
    finally:
        for context in contexts:
            context.close()
