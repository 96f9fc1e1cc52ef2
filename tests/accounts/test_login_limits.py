"""Failed logins are limited per account and per address on every login
page, and checking a password never holds the thread that synchronous views
share."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from axes.models import AccessAttempt
from django.contrib.auth.hashers import MD5PasswordHasher
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


@pytest.mark.parametrize("path", LOGIN_PAGES)
def test_after_five_wrong_passwords_the_account_is_locked_even_for_the_right_one(
    path,
):
    user = StaffUserFactory()
    client = Client()
    for attempt in range(4):
        response = log_in(client, path, user.username, f"wrong-{attempt}")
        assert response.status_code == 200  # the form again, with its error
    # The fifth wrong one locks the account ...
    assert log_in(client, path, user.username, "wrong-4").status_code == 429
    # ... and the right password no longer gets in.
    response = log_in(client, path, user.username, DEFAULT_PASSWORD)

    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "Try again in 15 minutes" in response.content.decode()
    assert not logged_in(client)
    # From another address too: the account itself is locked.
    response = log_in(Client(), path, user.username, DEFAULT_PASSWORD, ip="10.0.0.2")
    assert response.status_code == 429


def test_one_address_trying_many_accounts_is_locked_out():
    users = UserFactory.create_batch(6)
    client = Client()
    for user in users[:4]:
        assert log_in(client, LOGIN_PAGES[0], user.username, "wrong").status_code == 200
    assert log_in(client, LOGIN_PAGES[0], users[4].username, "wrong").status_code == 429
    response = log_in(client, LOGIN_PAGES[0], users[5].username, DEFAULT_PASSWORD)
    assert response.status_code == 429
    # Another address logs in to that account as usual.
    other = Client()
    response = log_in(
        other, LOGIN_PAGES[0], users[5].username, DEFAULT_PASSWORD, "10.9.9.9"
    )
    assert response.status_code == 302 and logged_in(other)


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


def test_an_operator_unlocks_an_account_in_the_admin():
    user = UserFactory()
    for _ in range(5):
        log_in(Client(), LOGIN_PAGES[0], user.username, "wrong")
    operator = Client()
    operator.force_login(StaffUserFactory(is_superuser=True))
    attempts = list(AccessAttempt.objects.values_list("pk", flat=True))
    assert attempts
    response = operator.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": attempts, "post": "yes"},
    )
    assert response.status_code == 302
    client = Client()
    response = log_in(client, LOGIN_PAGES[0], user.username, DEFAULT_PASSWORD)
    assert response.status_code == 302 and logged_in(client)


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
