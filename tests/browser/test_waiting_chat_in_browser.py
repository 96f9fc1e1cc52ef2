"""The chat of a table waiting for its last seats, in Chromium: two players
at a table of four, one at a desk and one on a 360 px phone, talk live on
the waiting page; when the last seats are filled both pages open the game
and the chat goes on, with what was said before. The waiting page and its
chat fit a 360 px phone in each of the four languages (docs/chat.md)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.browser.test_chat_in_browser import chat_lines, desktop, say, wait_for_line
from tests.browser.test_pages_at_phone_width import LANGUAGES, LAYOUT_FAULTS
from tests.browser.test_table_on_a_phone import phone_context
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD

PHONE = {"width": 360, "height": 740}
LONG_WORD = "x" * 300


@pytest.fixture
def waiting_table(transactional_db, read_db):
    """A Georgian club table of four: two people in seats 0 and 1, seats 2
    and 3 free. Their names and the table."""

    def create():
        users = [
            get_user_model().objects.create_user(
                username=f"{role}-{uuid.uuid4().hex[:6]}", password=DEFAULT_PASSWORD
            )
            for role in ("nino", "giorgi")
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
        return [user.username for user in users], table.pk

    return read_db(create)


def open_waiting_page(context, username: str, table_id: int, language=None):
    """The table's waiting page with its chat online, and the list its page
    errors and console errors go to."""
    log_in(context.new_page(), username)
    if language is not None:
        host = context.pages[0].url.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [
                {
                    "name": "django_language",
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: message.type == "error" and errors.append(message.text),
    )
    page.goto(f"/tables/{table_id}/")
    page.locator("#waiting #chat[data-socket='online']").wait_for()
    return page, errors


def fits(page) -> list[str]:
    """What sticks out of the phone's screen, or breaks a word: nothing but
    the long word of 300 letters, which must wrap inside the panel."""
    page.evaluate("() => new Promise(requestAnimationFrame)")
    faults = page.evaluate(LAYOUT_FAULTS, PHONE["width"])
    return [fault for fault in faults if not fault.startswith(f'"{LONG_WORD[:50]}')]


def test_two_players_talk_while_the_table_waits_and_go_on_at_the_game(
    waiting_table, browser, server, read_db
):
    (nino, giorgi), table_id = waiting_table
    desk = desktop(browser, server)
    phone = phone_context(browser, server, PHONE)
    try:
        first, first_errors = open_waiting_page(desk, nino, table_id)
        second, second_errors = open_waiting_page(phone, giorgi, table_id)
        for page in (first, second):
            title = page.locator("#waiting #chat .chat-title").inner_text()
            assert title == "Players' chat"

        say(first, "gamarjoba")
        wait_for_line(second, "gamarjoba")
        second.locator("#chat .chat-phrase-btn", has_text="Good luck!").tap()
        wait_for_line(first, "Good luck!")
        second.locator("#chat input").fill(LONG_WORD)
        second.locator("#chat button[type=submit]").tap()
        wait_for_line(first, LONG_WORD[:20])
        said = ["gamarjoba", "Good luck!", LONG_WORD]
        assert chat_lines(first) == chat_lines(second) == said
        assert fits(second) == []

        # The last two seats filled: both pages open the game by themselves.
        def fill_the_table():
            user = get_user_model().objects.get(username=nino)
            for number in (2, 3):
                services.seat_add_bot(
                    table_id=table_id, user=user, number=number, bot="autopilot"
                )

        read_db(fill_the_table)
        for page in (first, second):
            page.locator("#live #conn[data-state='online']").wait_for()
        # The chat goes on: what was said while waiting is there, and more.
        wait_for_line(first, LONG_WORD[:20])
        second.locator("[data-chat-toggle=chat]").tap()
        wait_for_line(second, LONG_WORD[:20])
        assert chat_lines(first) == chat_lines(second) == said
        say(first, "now we play")
        wait_for_line(second, "now we play")
        assert first_errors == second_errors == []
    finally:
        desk.close()
        phone.close()


ENGLISH_NOTE = "What is said here stays in the table's chat when the game begins."


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_waiting_chat_fits_a_phone_in_each_language(
    waiting_table, browser, server, language
):
    (_, giorgi), table_id = waiting_table
    phone = phone_context(browser, server, PHONE)
    try:
        page, errors = open_waiting_page(phone, giorgi, table_id, language)
        assert page.locator("html").get_attribute("lang") == language
        note = page.locator(".waiting-chat-note").inner_text()
        assert (note == ENGLISH_NOTE) == (language == "en")
        button = page.locator("#chat .chat-phrase-btn").first
        button.tap()
        page.locator("#chat .chat-line").first.wait_for()
        assert page.locator("#chat .chat-text").inner_text() == button.inner_text()
        page.locator("#chat input").fill(LONG_WORD)
        page.locator("#chat button[type=submit]").tap()
        wait_for_line(page, LONG_WORD[:20])
        assert fits(page) == []
        assert errors == []
    finally:
        phone.close()
