"""Failed logins are limited per account-and-address pair, with a higher
ceiling per address, on every login page; operators lift a lockout in the
admin, audited; and checking a password never holds the thread that
synchronous views share."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from axes.models import AccessAttempt
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import Permission
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

LOGIN_PAGES = ["/accounts/login/", "/admin/login/", "/api/v1/auth/login/"]


def log_in(client: Client, path: str, username: str, password: str, ip="10.0.0.1"):
    return client.post(
        path, {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def assert_locked(response, path: str, minutes: int = 15) -> None:
    """The lockout answer: 429 with Retry-After; JSON under /api/, else the
    page saying when to try again."""
    assert response.status_code == 429
    assert response["Retry-After"] == str(minutes * 60)
    if path.startswith("/api/"):
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "locked_out"
        assert f"try again in {minutes * 60} seconds" in response.json()["detail"]
    else:
        page = response.content.decode()
        assert "Too many failed logins" in page
        assert f"Try again in {minutes} minutes" in page


@pytest.mark.parametrize("path", LOGIN_PAGES)
def test_five_wrong_passwords_lock_the_account_from_that_address_only(path):
    user = StaffUserFactory()
    client = Client()
    for attempt in range(4):
        response = log_in(client, path, user.username, f"wrong-{attempt}")
        assert response.status_code == 200  # the form again, with its error
    # The fifth wrong one locks the account from this address ...
    assert_locked(log_in(client, path, user.username, "wrong-4"), path)
    # ... where the right password no longer gets in.
    response = log_in(client, path, user.username, DEFAULT_PASSWORD)
    assert_locked(response, path)
    assert not logged_in(client)
    # From another address the owner logs in as usual.
    elsewhere = Client()
    response = log_in(elsewhere, path, user.username, DEFAULT_PASSWORD, "10.0.0.2")
    assert response.status_code == 302 and logged_in(elsewhere)


def test_a_guesser_at_one_account_locks_nobody_else_out_of_the_same_address():
    attacked, untouched = UserFactory(), UserFactory()
    guesser = Client()
    for attempt in range(30):
        log_in(guesser, LOGIN_PAGES[0], attacked.username, f"guess-{attempt}")

    neighbour = Client()
    response = log_in(neighbour, LOGIN_PAGES[0], untouched.username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(neighbour)
    # The attacked account is locked from there, with a page that says when
    # to try again and that it is this account from this address only.
    owner = Client()
    response = log_in(owner, LOGIN_PAGES[0], attacked.username, DEFAULT_PASSWORD)
    assert_locked(response, LOGIN_PAGES[0])
    page = response.content.decode()
    assert "logging in to this account from this address is paused" in page
    assert "Other accounts log in from here as usual" in page
    assert not logged_in(owner)


def test_the_ceiling_per_address_locks_a_guesser_trying_many_accounts(settings):
    # A ceiling of 20 here (100 by default): 4 guesses at each of 5 accounts.
    settings.PULKA_LOGIN_ADDRESS_FAILURES = 20
    users = UserFactory.create_batch(6)
    guesser = Client()
    answers = [
        log_in(guesser, LOGIN_PAGES[0], user.username, f"g{attempt}").status_code
        for user in users[:5]
        for attempt in range(4)
    ]
    # No account's pair reaches its limit; the twentieth failure, the ceiling.
    assert answers == [200] * 19 + [429]
    # The address is locked as a whole: an account nobody guessed at too.
    response = log_in(Client(), LOGIN_PAGES[0], users[5].username, DEFAULT_PASSWORD)
    assert_locked(response, LOGIN_PAGES[0])
    assert "from this address, logging in from it is paused" in (
        response.content.decode()
    )
    response = log_in(Client(), LOGIN_PAGES[2], users[5].username, DEFAULT_PASSWORD)
    assert_locked(response, LOGIN_PAGES[2])
    assert "too many failed logins to this address" in response.json()["detail"]
    # Another address logs in to that account as usual.
    other = Client()
    response = log_in(
        other, LOGIN_PAGES[0], users[5].username, DEFAULT_PASSWORD, "10.9.9.9"
    )
    assert response.status_code == 302 and logged_in(other)


def test_hammering_one_account_counts_towards_the_ceiling_only_up_to_its_lock(
    settings,
):
    settings.PULKA_LOGIN_ADDRESS_FAILURES = 20
    attacked, other, untouched = UserFactory.create_batch(3)
    guesser = Client()
    for attempt in range(40):
        log_in(guesser, LOGIN_PAGES[0], attacked.username, f"guess-{attempt}")
    for attempt in range(4):
        log_in(guesser, LOGIN_PAGES[0], other.username, f"guess-{attempt}")
    # 44 failures, counted 5 + 4: far below the ceiling.
    client = Client()
    response = log_in(client, LOGIN_PAGES[0], untouched.username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(client)


def test_the_lock_lifts_after_the_cool_off():
    user = UserFactory()
    client = Client()
    for _ in range(5):
        log_in(client, LOGIN_PAGES[0], user.username, "wrong")
    assert (
        log_in(client, LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD).status_code
        == 429
    )
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))

    response = log_in(client, LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(client)


def lift(operator: Client, action: str, attempts) -> None:
    response = operator.post(
        "/admin/axes/accessattempt/",
        {"action": action, "_selected_action": [a.pk for a in attempts]},
    )
    assert response.status_code == 302


def test_an_operator_lifts_a_lockout_in_the_admin_and_the_log_keeps_it():
    locked, bystander = UserFactory(), UserFactory()
    for _ in range(5):
        log_in(Client(), LOGIN_PAGES[0], locked.username, "wrong")
    for _ in range(2):
        log_in(Client(), LOGIN_PAGES[0], bystander.username, "wrong")
    staff = StaffUserFactory(is_superuser=True)
    operator = Client()
    operator.force_login(staff)

    lift(operator, "lift_pairs", AccessAttempt.objects.filter(username=locked.username))

    client = Client()
    response = log_in(client, LOGIN_PAGES[0], locked.username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(client)
    # The other account's failures are still counted.
    assert AccessAttempt.objects.filter(username=bystander.username).exists()
    entry = LogEntry.objects.get()
    assert (entry.user, entry.action_flag) == (staff, DELETION)
    assert entry.change_message == (
        f"Lifted the lockout of {locked.username} from 10.0.0.1"
    )
    history = operator.get("/admin/").content.decode()
    assert "Recent actions" in history


def test_lifting_every_lockout_of_an_address_lifts_its_ceiling_too(settings):
    settings.PULKA_LOGIN_ADDRESS_FAILURES = 8
    users = UserFactory.create_batch(3)
    for user in users[:2]:
        for _ in range(4):
            log_in(Client(), LOGIN_PAGES[0], user.username, "wrong")
    response = log_in(Client(), LOGIN_PAGES[0], users[2].username, DEFAULT_PASSWORD)
    assert response.status_code == 429
    staff = StaffUserFactory(is_superuser=True)
    operator = Client()
    operator.force_login(staff)

    lift(operator, "lift_addresses", AccessAttempt.objects.all()[:1])

    assert not AccessAttempt.objects.exists()
    client = Client()
    response = log_in(client, LOGIN_PAGES[0], users[2].username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(client)
    changes = set(LogEntry.objects.values_list("user", "change_message"))
    assert changes == {(staff.pk, "Lifted every lockout from 10.0.0.1")}
    # One row for each account's attempts, the refused right password's too.
    assert LogEntry.objects.count() == 3


def test_a_staff_member_without_the_permission_cannot_lift_a_lockout():
    user = UserFactory()
    for _ in range(5):
        log_in(Client(), LOGIN_PAGES[0], user.username, "wrong")
    reader = StaffUserFactory(is_superuser=False)
    reader.user_permissions.add(Permission.objects.get(codename="view_accessattempt"))
    operator = Client()
    operator.force_login(reader)
    page = operator.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and "lift_pairs" not in page.content.decode()

    operator.post(
        "/admin/axes/accessattempt/",
        {
            "action": "lift_pairs",
            "_selected_action": list(
                AccessAttempt.objects.values_list("pk", flat=True)
            ),
        },
    )

    assert AccessAttempt.objects.exists() and not LogEntry.objects.exists()
    response = log_in(Client(), LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD)
    assert response.status_code == 429


def test_a_right_password_clears_the_failures_before_it():
    user = UserFactory()
    client = Client()
    for _ in range(4):
        log_in(client, LOGIN_PAGES[0], user.username, "wrong")
    assert (
        log_in(client, LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD).status_code
        == 302
    )
    client.logout()
    for _ in range(4):
        log_in(client, LOGIN_PAGES[0], user.username, "wrong")
    assert (
        log_in(client, LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD).status_code
        == 302
    )


def test_the_admin_login_refuses_a_player_who_is_not_staff():
    user = UserFactory()
    client = Client()
    response = log_in(client, "/admin/login/", user.username, DEFAULT_PASSWORD)
    assert response.status_code == 200
    assert "staff account" in response.content.decode()
    assert not logged_in(client)


def test_a_login_redirects_to_a_safe_next_page_only():
    user = UserFactory()
    client = Client()
    response = client.post(
        "/accounts/login/?next=/tournaments/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
    )
    assert response["Location"] == "/tournaments/"
    client.logout()
    response = client.post(
        "/accounts/login/?next=https://elsewhere.example/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
    )
    assert response["Location"] == reverse("games:lobby")


class HeldHasher(MD5PasswordHasher):
    """A password check that takes as long as the test wants."""

    started = threading.Event()
    release = threading.Event()

    @classmethod
    def hold(cls):
        cls.started.set()
        cls.release.wait(30)

    def verify(self, password, encoded):
        self.hold()
        return super().verify(password, encoded)

    def encode(self, password, salt):
        self.hold()
        return super().encode(password, salt)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", [*LOGIN_PAGES, "/accounts/signup/"])
async def test_other_pages_are_served_while_a_password_is_being_hashed(path, settings):
    user = await sync_to_async(StaffUserFactory)()
    settings.PASSWORD_HASHERS = [f"{HeldHasher.__module__}.HeldHasher"]
    HeldHasher.started.clear()
    HeldHasher.release.clear()
    if path == "/accounts/signup/":
        password = "a-long-new-password-9"
        form = {"username": "newcomer", "password1": password, "password2": password}
    else:
        form = {"username": user.username, "password": DEFAULT_PASSWORD}
    try:
        login = asyncio.create_task(AsyncClient().post(path, form))
        await asyncio.to_thread(HeldHasher.started.wait, 30)
        # A synchronous page, while the login's password check is held: it
        # is served, so the login holds no thread other pages need. (Were
        # it holding the shared thread, this would wait until the release.)
        page = await asyncio.wait_for(AsyncClient().get("/tournaments/"), 20)
        assert page.status_code == 200
        assert not login.done()
        HeldHasher.release.set()
        response = await login
    finally:
        HeldHasher.release.set()
        # The views' queries ran on the shared thread: close its connection
        # there, or the test database cannot be dropped at the end.
        await sync_to_async(connections.close_all)()

    assert response.status_code == 302


@pytest.fixture
def pooled():
    """The pool the site's processes use, for this test's connections (the
    test process has none: tests/conftest.py)."""
    database = connections["default"]
    database.close()
    options = database.settings_dict["OPTIONS"]
    options["pool"] = {"min_size": 1, "max_size": 4, "timeout": 10}
    try:
        yield database.pool
    finally:
        database.close_pool()
        options.pop("pool")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_sign_in_gives_its_database_connection_back_while_it_hashes(
    settings, pooled
):
    """A burst of sign-ins must not hold the pool's few connections for the
    seconds their hashes take on a busy machine, or every other page waits
    for one and fails (seen as 503s in benchmarks/players.py's ramps)."""
    user = await sync_to_async(UserFactory)()
    settings.PASSWORD_HASHERS = [f"{HeldHasher.__module__}.HeldHasher"]
    HeldHasher.started.clear()
    HeldHasher.release.clear()
    pool = pooled

    def in_use() -> int:
        stats = pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]

    # The user's creation gives its connection back, as a request does.
    await sync_to_async(connections.close_all)()
    before = in_use()
    form = {"username": user.username, "password": DEFAULT_PASSWORD}
    try:
        login = asyncio.create_task(AsyncClient().post("/accounts/login/", form))
        await asyncio.to_thread(HeldHasher.started.wait, 30)
        during = in_use()
        HeldHasher.release.set()
        response = await login
    finally:
        HeldHasher.release.set()
        await sync_to_async(connections.close_all)()

    assert response.status_code == 302
    assert during == before
