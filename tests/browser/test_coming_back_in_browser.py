"""A phone that loses the table's socket (a call, an app switch) and comes
back, at 360x740: within the grace the player is told how much of it was
left while the other player saw "away · 0:07" count down at the seat; past
it, the player is told a bot played for them and, the table being casual,
takes the seat back at their next turn.

The table's socket is dropped by routing it through the test
(``page.route_web_socket``): the test closes both ends, and refuses the
page's attempts to reconnect until the phone is "back online"."""

from __future__ import annotations

import re
import uuid

from django.contrib.auth import get_user_model

from games import services
from games.models import GameEvent
from tests.browser.conftest import DISCONNECT_GRACE_SECONDS
from tests.browser.test_chat_in_browser import desktop
from tests.browser.test_table_on_a_phone import phone_context
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD

# The package's servers' grace (short, so that a test waits it out).
GRACE_SECONDS = DISCONNECT_GRACE_SECONDS
PHONE = {"width": 360, "height": 740}


class Line:
    """The page's line to the table's socket, which the test can cut."""

    def __init__(self, page):
        self.cut = False
        self.open = []
        page.route_web_socket(re.compile(r"/ws/games/\d+/(\?.*)?$"), self.route)

    def route(self, ws) -> None:
        if self.cut:
            ws.close()  # no network: the page tries again later
            return
        self.open.append((ws, ws.connect_to_server()))

    def drop(self) -> None:
        self.cut = True
        for ws, server in self.open:
            server.close()
            ws.close()
        self.open.clear()

    def restore(self) -> None:
        self.cut = False


def table_page(context, username: str, table_id: int):
    """The table's page, signed in, its socket on a ``Line``; its errors."""
    log_in(context.new_page(), username)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    line = Line(page)
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    return page, line, errors


def people(count: int) -> list[str]:
    return [
        get_user_model()
        .objects.create_user(
            username=f"phone-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
        )
        .username
        for _ in range(count)
    ]


def left_by_disconnect(table_id: int) -> bool:
    return GameEvent.objects.filter(
        game__table_id=table_id,
        action__has_key="resign",
        cause=GameEvent.Cause.DISCONNECT,
    ).exists()


def test_back_within_the_grace_the_player_is_told_what_was_left(
    transactional_db, read_db, browser, server
):
    def create():
        nino, giorgi = people(2)
        user = get_user_model().objects.get(username=nino)
        table = services.table_create(
            user=user, profile="georgian-club", options={"schedule": "nines"},
            turn_seconds=120,
        )  # fmt: skip
        other = get_user_model().objects.get(username=giorgi)
        services.seat_take(
            table_id=table.pk, user=other, number=1, invite_code=table.invite_code
        )
        for number in (2, 3):
            services.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return nino, giorgi, table.pk

    nino, giorgi, table_id = read_db(create)
    phone = phone_context(browser, server, PHONE)
    other = desktop(browser, server)
    try:
        page, line, errors = table_page(phone, nino, table_id)
        watcher, _, watcher_errors = table_page(other, giorgi, table_id)
        away = watcher.locator("#felt .seat .badge.away-until")
        assert away.count() == 0

        line.drop()
        # The other player sees until when the seat waits, counting down.
        away.wait_for()
        first = away.inner_text()
        assert re.fullmatch(r"away · 0:[0-2]\d", first), first
        watcher.wait_for_function(
            "(first) => document.querySelector('.badge.away-until')?.textContent"
            " !== first",
            arg=first,
        )

        line.restore()
        notice = page.locator("#notices", has_text="You were away.")
        notice.wait_for()
        text = notice.inner_text()
        assert re.search(rf"0:\d\d of the {GRACE_SECONDS} s grace was left", text), text
        # The seat was kept: no explanation of a bot, no countdown any more.
        assert page.locator("#away-note").is_hidden()
        away.wait_for(state="detached")
        assert not read_db(lambda: left_by_disconnect(table_id))
        assert errors == [] and watcher_errors == []
    finally:
        phone.close()
        other.close()


def test_past_the_grace_the_player_is_told_and_takes_the_seat_back(
    transactional_db, read_db, browser, server
):
    def create():
        (nino,) = people(1)
        user = get_user_model().objects.get(username=nino)
        table = services.table_create(
            user=user, profile="georgian-club", options={"schedule": "nines"},
            turn_seconds=120,
        )  # fmt: skip
        for number in (1, 2, 3):
            services.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return nino, table.pk

    nino, table_id = read_db(create)
    phone = phone_context(browser, server, PHONE)
    try:
        page, line, errors = table_page(phone, nino, table_id)
        line.drop()
        # Away longer than the grace: the server makes the seat the bot's.
        while not read_db(lambda: left_by_disconnect(table_id)):
            page.wait_for_timeout(250)
        line.restore()

        note = page.locator("#away-note")
        note.locator("#away-text", has_text="You were away longer than").wait_for()
        text = note.inner_text()
        assert (
            f"You were away longer than {GRACE_SECONDS} s, so a bot is playing for you."
            in text
        )
        assert "take your seat back" in text
        button = page.get_by_role("button", name="Take my seat back")
        box = button.bounding_box()
        assert box and box["y"] + box["height"] <= PHONE["height"], box
        assert box["height"] >= 44
        button.tap()

        # The bot plays on until the seat's next turn; then it is hers.
        page.locator("#away-note").wait_for(state="hidden", timeout=60_000)
        page.wait_for_function(
            "() => document.querySelector('#prompt.yours')"
            " || document.querySelector('#hand button.card.legal')",
            timeout=60_000,
        )
        rejoined = read_db(
            lambda: GameEvent.objects.filter(
                game__table_id=table_id, action__has_key="rejoin"
            ).count()
        )
        assert rejoined == 1
        assert errors == []
    finally:
        phone.close()


def test_back_online_the_page_reconnects_at_once(
    transactional_db, read_db, browser, server
):
    """A long drop has grown the socket's wait between attempts (up to
    19 s); the browser saying it is online again brings the page back at
    once, within the grace, instead of after the grace has run out."""

    def create():
        (nino,) = people(1)
        user = get_user_model().objects.get(username=nino)
        table = services.table_create(
            user=user, profile="georgian-club", options={"schedule": "nines"},
            turn_seconds=120,
        )  # fmt: skip
        for number in (1, 2, 3):
            services.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return nino, table.pk

    nino, table_id = read_db(create)
    phone = phone_context(browser, server, PHONE)
    try:
        page, line, errors = table_page(phone, nino, table_id)
        line.drop()
        # Five refused attempts (0.5 + 1 + 2 + 4 + 8 s): the next waits 15 s.
        page.wait_for_timeout((GRACE_SECONDS - 4) * 1000)
        line.restore()
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        page.locator("#conn[data-state='online']").wait_for(timeout=2000)
        page.locator("#notices", has_text="Your seat was kept").wait_for()
        assert not read_db(lambda: left_by_disconnect(table_id))
        assert errors == []
    finally:
        phone.close()
