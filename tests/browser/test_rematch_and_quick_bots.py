"""A rematch between two browsers, and quick play's table of four that
starts with bots after the wait, on a phone, in Chromium."""

from __future__ import annotations

import re
import threading
import time

from django.db import connections

from accounts.services import profile_update
from games import services
from games.models import Game, Seat
from matchmaking import grouping
from matchmaking.services import match_tick

from .test_other_pages_in_browser import new_player
from .test_table_on_a_phone import SCROLL_WIDTH, open_table_page, phone_context
from .test_table_page import log_in

PHONE = {"width": 360, "height": 740}
PAYLOAD = "<img src=x onerror=pwned=1>"
TABLE_URL = re.compile(r"/tables/(\d+)/$")


def table_of(url: str) -> int | None:
    found = TABLE_URL.search(url)
    return int(found.group(1)) if found else None


def seated(table_id: int) -> list[tuple]:
    return list(
        Seat.objects.filter(table_id=table_id)
        .order_by("number")
        .values_list("number", "user__username", "bot")
    )


def test_both_players_click_rematch_and_land_seated_at_the_new_table(
    transactional_db, browser, server, read_db
):
    def japanese_match():
        first, second = new_player(), new_player()
        # A name that would run as markup, were it ever written as HTML.
        profile_update(user=second, display_name=PAYLOAD, language="")
        table = services.table_create(
            user=first, profile="japanese", options={"target": 11}, turn_seconds=60
        )
        services.seat_take(table_id=table.pk, user=second, number=1)
        return first.username, second.username, table.pk

    first, second, table_id = read_db(japanese_match)
    desktop = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, locale="en-US"
    )
    desktop.set_default_timeout(30_000)
    phone = phone_context(browser, server, PHONE)
    try:
        page_one, errors_one = open_table_page(desktop, first, table_id)
        page_two, errors_two = open_table_page(phone, second, table_id)

        # The quickest end through the page: the first player resigns.
        page_one.on("dialog", lambda dialog: dialog.accept())
        page_one.locator("#resign-btn").click()
        for page in (page_one, page_two):
            page.locator("#result:not([hidden])").wait_for()
            page.locator("#rematch-btn:not([hidden])").wait_for()

        page_two.locator("#rematch-btn").tap()
        # Both pages show who agreed and whom the offer waits for.
        for page in (page_one, page_two):
            page.get_by_text(
                re.compile(f"Agreed: {re.escape(PAYLOAD)}. Waiting for: {first}")
            ).wait_for()
            assert page.evaluate("() => globalThis.pwned") is None
        assert page_two.locator("#rematch-btn").is_disabled()
        assert page_two.evaluate(SCROLL_WIDTH) <= PHONE["width"]

        page_one.locator("#rematch-btn").click()
        for page in (page_one, page_two):
            page.wait_for_url(lambda url: table_of(url) not in (None, table_id))
            page.locator("#conn[data-state='online']").wait_for()
        new_id = int(TABLE_URL.search(page_one.url).group(1))
        assert new_id != table_id
        assert int(TABLE_URL.search(page_two.url).group(1)) == new_id

        assert read_db(lambda: seated(new_id)) == [(0, first, ""), (1, second, "")]
        status = read_db(lambda: Game.objects.get(table_id=new_id).status)
        assert status == Game.Status.PLAYING
        # Each is at their own seat of the new game: its hand is dealt to them.
        for page in (page_one, page_two):
            page.locator("#hand button.card").first.wait_for()
        assert errors_one == [] and errors_two == []
    finally:
        desktop.close()
        phone.close()


class Beat:
    """Celery beat's quick-play tick, every 2 seconds, in a thread of its
    own (the browser tests' worker runs no beat)."""

    def __init__(self):
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        try:
            while not self.stop.is_set():
                match_tick()
                self.stop.wait(2)
        finally:
            connections.close_all()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)


def test_a_quick_play_table_of_four_starts_with_bots_after_the_wait_on_a_phone(
    transactional_db, browser, server, read_db
):
    username = read_db(lambda: new_player().username)
    context = phone_context(browser, server, PHONE)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, username)
        page.goto("/play/")
        assert page.evaluate(SCROLL_WIDTH) <= PHONE["width"]
        form = page.locator("#quickplay-form")
        form.get_by_label(re.compile(r"^Game:?$")).select_option("joker")
        assert form.get_by_label(re.compile("Practice bots fill")).is_checked()
        assert not form.get_by_label(re.compile("Count a game with bots")).is_checked()
        with Beat():
            form.get_by_role("button", name="Join").tap()
            joined = time.monotonic()
            countdown = page.locator("#quickplay-bots-in")
            countdown.wait_for()
            assert (
                "Practice bots join in" in page.locator("#quickplay-bots").inner_text()
            )
            first = int(countdown.inner_text())
            assert 0 < first <= grouping.BOT_WAIT_SECONDS
            page.wait_for_function(
                "n => Number(document.querySelector('#quickplay-bots-in')"
                ".textContent) < n",
                arg=first,
            )
            assert page.evaluate(SCROLL_WIDTH) <= PHONE["width"]
            # The promised wait, a tick, and a moment for the page.
            page.wait_for_url(TABLE_URL, timeout=(grouping.BOT_WAIT_SECONDS + 8) * 1000)
            landed = time.monotonic() - joined
        assert landed <= grouping.BOT_WAIT_SECONDS + 2 + 3, landed
        table_id = int(TABLE_URL.search(page.url).group(1))
        page.locator("#conn[data-state='online']").wait_for()
        page.locator("#hand button.card").first.wait_for()
        assert page.evaluate(SCROLL_WIDTH) <= PHONE["width"]

        seats = read_db(lambda: seated(table_id))
        assert [name for _, name, _ in seats if name] == [username]
        assert sorted(bot for _, name, bot in seats if not name) == ["practice"] * 3
        assert errors == []
    finally:
        context.close()
