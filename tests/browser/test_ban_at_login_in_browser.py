"""A banned player who logs in with their own password is told they are
banned, since when and why; whoever gives a wrong password learns nothing
about the account (accounts.login)."""

from __future__ import annotations

import re
import uuid

from accounts.bans import user_ban
from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory

WRONG = "Please enter a correct username and password"


def try_logging_in(page, username: str, password: str) -> str:
    page.goto("/accounts/login/")
    page.get_by_label(re.compile(r"^Username:?$")).fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("load")
    return page.locator("main form").inner_text()


def test_a_banned_player_is_told_of_the_ban_and_nobody_else(page, read_db):
    def create() -> str:
        player = UserFactory(username=f"banned-{uuid.uuid4().hex[:6]}")
        user_ban(user=player, by=StaffUserFactory(), reason="Sharing an account")
        return player.username

    username = read_db(create)

    told = try_logging_in(page, username, DEFAULT_PASSWORD)

    assert "/accounts/login/" in page.url
    assert "This account is banned" in told
    assert "Sharing an account" in told
    assert "for good" in told
    assert WRONG not in told

    # A wrong password: the same words as for an account that does not exist.
    wrong = try_logging_in(page, username, "not-the-password")
    unknown = try_logging_in(page, f"nobody-{uuid.uuid4().hex[:6]}", "whatever")
    assert WRONG in wrong
    assert "banned" not in wrong
    assert "Sharing an account" not in wrong
    assert wrong.replace(username, "") == re.sub(r"nobody-\w+", "", unknown)
