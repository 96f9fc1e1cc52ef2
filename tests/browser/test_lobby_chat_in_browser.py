"""The lobby's chat in Chromium with a long list of tables: on a wide screen
the "New table" form stays beside the tables, and nothing covers the chat,
whose messages and input can be seen and used; on a phone the chat is
there too (docs/chat.md)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from games.services import tables
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD

TABLES = 30

# Points near each corner (clear of rounded corners) and the middle of each
# of the chat's parts, scrolled into view: each must hit the part itself, so
# nothing is drawn over it. The parts that fail, with what covers them.
COVERED_CHAT_PARTS = """(selectors) => selectors.flatMap((selector) => {
  const element = document.querySelector(selector);
  element.scrollIntoView({ block: "center" });
  const r = element.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return [selector + " is not shown"];
  const points = [
    [r.left + 6, r.top + 6], [r.right - 6, r.top + 6],
    [r.left + 6, r.bottom - 6], [r.right - 6, r.bottom - 6],
    [r.left + r.width / 2, r.top + r.height / 2],
  ];
  return points.flatMap(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    if (hit !== null && element.contains(hit)) return [];
    return [selector + " under " + (hit ? hit.className || hit.tagName : "nothing")];
  });
})"""

CHAT_PARTS = ["#lobby-chat .chat-list", "#lobby-chat input", "#lobby-chat .chat-title"]


@pytest.fixture
def many_tables(transactional_db, read_db):
    """Thirty open tables of other hosts, and a person to read the lobby."""

    def create():
        users = get_user_model().objects
        for number in range(TABLES):
            host = users.create_user(
                username=f"host-{number}-{uuid.uuid4().hex[:6]}",
                password=DEFAULT_PASSWORD,
            )
            tables.table_create(user=host, profile="georgian-club")
        reader = users.create_user(
            username=f"reader-{uuid.uuid4().hex[:6]}", password=DEFAULT_PASSWORD
        )
        return reader.username

    return read_db(create)


def say_in_the_lobby(page, text: str) -> None:
    page.locator("#lobby-chat input").click()
    page.locator("#lobby-chat input").fill(text)
    page.locator("#lobby-chat button[type=submit]").click()
    page.locator("#lobby-chat .chat-text", has_text=text).wait_for()


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 900}, {"width": 360, "height": 740}],
    ids=["desktop", "phone"],
)
def test_nothing_covers_the_lobby_chat(many_tables, browser, server, viewport):
    context = browser.new_context(base_url=server, viewport=viewport, locale="en-US")
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, many_tables)
        page.goto("/lobby/")
        assert page.locator(".lobby-tables .tcard").count() >= TABLES
        page.locator("#lobby-chat input").wait_for()
        # The page is scrolled to the chat: a sticky form would be over it.
        say_in_the_lobby(page, "anyone for a game?")
        assert page.evaluate(COVERED_CHAT_PARTS, CHAT_PARTS) == []
        # Scrolled from the bottom of the page, too.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert page.evaluate(COVERED_CHAT_PARTS, CHAT_PARTS) == []
        assert page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"
        )
        assert errors == []
    finally:
        context.close()
