"""Friends in Chromium, in two and three browsers at once: an invitation
reaches a friend on another page, live, and seats them at the table; a
blocked player cannot invite; the friends page fits a phone; browser
notifications are asked for on a click only and shown when the tab is
hidden.

Chromium keeps a headless page visible, so a test hides a tab by the
page's own ``document.hidden`` (an init script: the browser's property,
not our code) and watches ``new Notification`` by wrapping the browser's
constructor around the real one.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.test_table_on_a_phone import SCROLL_WIDTH, WIDER_THAN_THE_SCREEN
from tests.browser.test_table_page import log_in

# A display name that would run script if it were ever written as HTML.
PAYLOAD = "<img src=x onerror=pwned=1>"

# Hides the tab on demand (window.hideTab = true) and records each
# notification made, through the real constructor.
WATCH_NOTIFICATIONS = """(() => {
  window.hideTab = false;
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true, get: () => window.hideTab,
  });
  window.notified = [];
  window.permissionAsked = 0;
  const Real = window.Notification;
  if (!Real) return;
  function Recorded(title, options) {
    window.notified.push({ title, body: options && options.body });
    return new Real(title, options);
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args) => {
    window.permissionAsked += 1;
    return Real.requestPermission(...args);
  };
  window.Notification = Recorded;
})();"""


def players(read_db, *names, friends=(), blocks=(), display=None):
    """New players called ``names``; ``friends`` and ``blocks`` pairs of
    indices; ``display``: index -> display name."""

    def create():
        from django.contrib.auth import get_user_model

        from accounts.models import Profile
        from social import services
        from tests.factories import DEFAULT_PASSWORD
        from tests.social.helpers import befriend

        users = [
            get_user_model().objects.create_user(username=n, password=DEFAULT_PASSWORD)
            for n in names
        ]
        for one, other in friends:
            befriend(users[one], users[other])
        for blocker, blocked in blocks:
            services.block_create(
                blocker_id=users[blocker].pk, blocked_id=users[blocked].pk
            )
        for index, name in (display or {}).items():
            Profile.objects.update_or_create(
                user=users[index], defaults={"display_name": name}
            )
        return [user.pk for user in users]

    return read_db(create)


def open_table_of(read_db, user_id: int, **options) -> int:
    def create():
        from django.contrib.auth import get_user_model

        from games.services import tables

        user = get_user_model().objects.get(pk=user_id)
        return tables.table_create(user=user, profile="georgian-club", **options).pk

    return read_db(create)


def wait_online(read_db, user_id: int, timeout: float = 15) -> None:
    """Until the player's /ws/me/ socket has been heard."""
    from social import presence

    deadline = time.monotonic() + timeout
    while user_id not in presence.online_ids([user_id], now=time.time()):
        assert time.monotonic() < deadline, "never online"
        time.sleep(0.1)


def signed_in(browser, server, username, **context_options):
    context = browser.new_context(base_url=server, locale="en-US", **context_options)
    context.set_default_timeout(30_000)
    context.add_init_script(WATCH_NOTIFICATIONS)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    log_in(page, username)
    return context, page


def ask_giorgi(read_db, username: str) -> None:
    def ask():
        from django.contrib.auth import get_user_model

        from social import services

        users = get_user_model().objects
        services.friend_request_create(
            sender_id=users.get(username=username).pk,
            receiver_id=users.get(username="giorgi").pk,
        )

    read_db(ask)


def seat_names(read_db, table_id: int) -> list:
    from games.models import Seat

    return read_db(
        lambda: list(
            Seat.objects.filter(table_id=table_id)
            .order_by("number")
            .values_list("user__username", flat=True)
        )
    )


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_a_friend_invited_on_another_page_accepts_and_sits_at_the_table(
    browser, server, read_db
):
    nino_id, giorgi_id, tamar_id = players(
        read_db,
        "nino",
        "giorgi",
        "tamar",
        friends=[(0, 1), (2, 1)],
        blocks=[(1, 2)],  # giorgi blocks tamar: no longer friends
        display={0: PAYLOAD},
    )
    table_id = open_table_of(read_db, nino_id)
    contexts = []
    try:
        nino_context, nino = signed_in(browser, server, "nino")
        giorgi_context, giorgi = signed_in(
            browser, server, "giorgi", viewport={"width": 360, "height": 740}
        )
        contexts += [nino_context, giorgi_context]
        giorgi.goto("/ratings/")
        wait_online(read_db, giorgi_id)
        nino.goto(f"/tables/{table_id}/")
        form = nino.locator("#invite-friend")
        assert form.get_by_role("option").all_inner_texts() == ["giorgi · online"]
        form.get_by_role("button", name="Invite").click()
        nino.get_by_text("giorgi is invited").wait_for()

        # giorgi, on the ratings page, hears of it at once.
        notice = giorgi.locator(".me-invitation")
        notice.wait_for()
        assert notice.locator(".me-text").inner_text() == (
            f"{PAYLOAD} invites you to table {table_id}."
        )
        notice.get_by_role("button", name="Accept").click()
        giorgi.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
        giorgi.locator(".tseat-you").wait_for()
        assert seat_names(read_db, table_id) == ["nino", "giorgi", None, None]

        # nino's page redraws with giorgi seated.
        nino.locator(f"#table-{table_id} .tseat").nth(1).filter(
            has_text="giorgi"
        ).wait_for()

        # tamar, blocked by giorgi, cannot invite him: refused, nothing made.
        tamar_context, tamar = signed_in(browser, server, "tamar")
        contexts.append(tamar_context)
        tamar_table = open_table_of(read_db, tamar_id)
        tamar.goto(f"/tables/{tamar_table}/")
        assert tamar.locator("#invite-friend select").count() == 0
        refused = tamar.evaluate(
            """async (table) => {
              const field = "input[name=csrfmiddlewaretoken]";
              const token = document.querySelector(field).value;
              const response = await fetch("/api/v1/invitations/", {
                method: "POST",
                headers: { "Content-Type": "application/json", "X-CSRFToken": token },
                body: JSON.stringify({ table, username: "giorgi" }),
              });
              return [response.status, (await response.json()).code];
            }""",
            tamar_table,
        )
        assert refused == [409, "blocked"]
        from social.models import Invitation

        assert (
            read_db(lambda: Invitation.objects.filter(inviter_id=tamar_id).count()) == 0
        )
        assert giorgi.locator(".me-invitation").count() == 0
        for page in (nino, giorgi, tamar):
            assert page.evaluate("window.pwned") is None
            assert page.js_errors == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_a_declined_invitation_is_told_to_the_inviter(browser, server, read_db):
    nino_id, giorgi_id = players(read_db, "nino", "giorgi", friends=[(0, 1)])
    table_id = open_table_of(read_db, nino_id)
    contexts = []
    try:
        nino_context, nino = signed_in(browser, server, "nino")
        giorgi_context, giorgi = signed_in(browser, server, "giorgi")
        contexts += [nino_context, giorgi_context]
        giorgi.goto("/accounts/profile/")
        wait_online(read_db, giorgi_id)
        nino.goto(f"/tables/{table_id}/")
        nino.locator("#invite-friend").get_by_role("button", name="Invite").click()
        notice = giorgi.locator(".me-invitation")
        notice.wait_for()
        # The page the invitation reloaded is listening again.
        nino.locator("html[data-me='online']").wait_for()
        notice.get_by_role("button", name="Decline").click()
        notice.wait_for(state="detached")
        nino.locator(".me-notice").filter(has_text="giorgi declined").wait_for()
        assert seat_names(read_db, table_id) == ["nino", None, None, None]
        assert giorgi.url.endswith("/accounts/profile/")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_the_friends_page_is_live_and_fits_a_phone(browser, server, read_db):
    long_name = "Anzor-" + "x" * 26  # the longest display name
    nino_id, giorgi_id, *_ = players(
        read_db,
        "nino",
        "giorgi",
        "tamar",
        "levan",
        "eka",
        friends=[(0, 1), (0, 4)],
        blocks=[(0, 3)],
        display={1: long_name, 4: PAYLOAD},
    )

    def asks():
        from django.contrib.auth import get_user_model

        from social import services

        users = get_user_model().objects
        services.friend_request_create(
            sender_id=users.get(username="tamar").pk, receiver_id=nino_id
        )

    read_db(asks)
    contexts = []
    try:
        nino_context, nino = signed_in(
            browser,
            server,
            "nino",
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
        )
        contexts.append(nino_context)
        nino.goto("/friends/")
        row = nino.locator("[data-friend='giorgi']")
        assert row.locator("[data-presence]").inner_text() == "offline"
        assert nino.get_by_text("asks to be your friend").count() == 1
        assert nino.get_by_role("button", name="Unblock").count() == 1
        assert nino.evaluate(SCROLL_WIDTH) <= 360, nino.evaluate(WIDER_THAN_THE_SCREEN)
        assert nino.locator("[data-friend='eka'] a").first.inner_text() == PAYLOAD

        # giorgi opens a page and sits at a table: nino's page shows both.
        giorgi_context, giorgi = signed_in(browser, server, "giorgi")
        contexts.append(giorgi_context)
        table_id = open_table_of(read_db, giorgi_id)
        giorgi.goto("/lobby/")
        row.locator("[data-presence].online").wait_for(timeout=30_000)
        link = row.locator("[data-table]")
        link.filter(has_text=f"waiting at table {table_id}").wait_for(timeout=30_000)
        assert link.get_attribute("href") == f"/tables/{table_id}/"

        # And offline again when his last page closes.
        giorgi_context.close()
        contexts.remove(giorgi_context)
        row.locator("[data-presence]:not(.online)").wait_for(timeout=30_000)
        assert nino.evaluate(SCROLL_WIDTH) <= 360
        assert nino.evaluate("window.pwned") is None
        assert nino.js_errors == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_notifications_are_asked_for_on_a_click_and_shown_when_hidden(
    browser, server, read_db
):
    nino_id, giorgi_id, *_ = players(
        read_db, "nino", "giorgi", "tamar", "levan", friends=[(0, 1)]
    )
    table_id = open_table_of(read_db, nino_id)
    contexts = []
    try:
        # Not yet allowed: the button asks, and only when clicked.
        asking_context, asking = signed_in(browser, server, "giorgi")
        contexts.append(asking_context)
        asking.goto("/friends/")
        button = asking.locator("button[data-notifications]")
        button.wait_for()
        assert asking.evaluate("window.permissionAsked") == 0
        button.click()
        asking.wait_for_function("() => window.permissionAsked === 1")
        asking_context.close()
        contexts.remove(asking_context)

        # Allowed: news comes as a notification while the tab is hidden.
        giorgi_context, giorgi = signed_in(browser, server, "giorgi")
        giorgi_context.grant_permissions(["notifications"], origin=server)
        nino_context, nino = signed_in(browser, server, "nino")
        contexts += [giorgi_context, nino_context]
        giorgi.goto("/friends/")
        switch = giorgi.locator("button[data-notifications]")
        assert switch.get_attribute("aria-pressed") == "true"
        assert switch.inner_text() == "Notifications are on"
        # A page that the news does not reload.
        giorgi.goto("/ratings/")
        wait_online(read_db, giorgi_id)
        giorgi.evaluate("window.hideTab = true")
        nino.goto(f"/tables/{table_id}/")
        nino.locator("#invite-friend").get_by_role("button", name="Invite").click()
        giorgi.wait_for_function("() => window.notified.length === 1")
        assert giorgi.evaluate("window.notified") == [
            {
                "title": "Invitation to a table",
                "body": f"nino invites you to table {table_id}.",
            }
        ]
        # In view, news is shown on the page only; hidden, it is notified.
        giorgi.evaluate("window.hideTab = false")
        ask_giorgi(read_db, "tamar")
        giorgi.locator(".me-notice").filter(has_text="tamar asks").wait_for()
        giorgi.evaluate("window.hideTab = true")
        ask_giorgi(read_db, "levan")
        giorgi.wait_for_function("() => window.notified.length === 2")
        assert giorgi.evaluate("window.notified[1]") == {
            "title": "Friend request",
            "body": "levan asks to be your friend.",
        }
    finally:
        for context in contexts:
            context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_allowed_notifications_are_turned_off_and_on_again_from_the_site(
    browser, server, read_db
):
    _, giorgi_id, *_ = players(read_db, "nino", "giorgi", "tamar", "levan", "eka")
    context, giorgi = signed_in(browser, server, "giorgi")
    try:
        context.grant_permissions(["notifications"], origin=server)
        giorgi.goto("/friends/")
        switch = giorgi.locator("button[data-notifications]")
        assert switch.inner_text() == "Notifications are on"
        switch.click()
        assert switch.inner_text() == "Notifications are off"
        assert switch.get_attribute("aria-pressed") == "false"

        # Off: the news is on the page, and no notification is shown.
        giorgi.goto("/ratings/")
        wait_online(read_db, giorgi_id)
        giorgi.evaluate("window.hideTab = true")
        ask_giorgi(read_db, "tamar")
        giorgi.locator(".me-notice").filter(has_text="tamar asks").wait_for()
        assert giorgi.evaluate("window.notified") == []

        # Remembered in this browser, and turned on again.
        giorgi.goto("/friends/")
        assert switch.inner_text() == "Notifications are off"
        switch.click()
        assert switch.get_attribute("aria-pressed") == "true"
        giorgi.goto("/ratings/")
        wait_online(read_db, giorgi_id)
        giorgi.evaluate("window.hideTab = true")
        ask_giorgi(read_db, "levan")
        giorgi.wait_for_function("() => window.notified.length === 1")
        assert giorgi.evaluate("window.notified") == [
            {"title": "Friend request", "body": "levan asks to be your friend."}
        ]
        assert giorgi.js_errors == []
    finally:
        context.close()


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_the_turn_is_notified_when_the_table_is_hidden(browser, server, read_db):
    (nino_id,) = players(read_db, "nino")

    def start():
        from django.contrib.auth import get_user_model

        from games.services import tables

        user = get_user_model().objects.get(pk=nino_id)
        table = tables.table_create(user=user, profile="georgian-club", turn_seconds=60)
        for number in range(1, 4):
            tables.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return table.pk

    table_id = read_db(start)
    context, page = signed_in(browser, server, "nino")
    try:
        context.grant_permissions(["notifications"], origin=server)
        page.add_init_script("window.hideTab = true")
        page.goto(f"/tables/{table_id}/")
        page.locator("#notify-btn").wait_for()
        assert page.locator("#notify-btn").get_attribute("aria-pressed") == "true"
        page.wait_for_function("() => window.notified.length > 0", timeout=60_000)
        assert page.evaluate("window.notified")[0] == {
            "title": "Your turn",
            "body": f"Table {table_id}: the move is yours.",
        }
        assert page.js_errors == []
    finally:
        context.close()
