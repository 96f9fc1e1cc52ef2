"""Names that would pass for another player's: refused on the profile page
and the sign-up page, one at a time and two at the same moment, while a
name wholly in another script is a name of its own."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.selectors import display_name
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "queen-of-spades-77"

LOOKALIKES = [
    "ni\u200bno",  # a zero-width space
    "ni\u200dno",  # a zero-width joiner
    "\u200enino",  # a left-to-right mark
    "nіno",  # a Cyrillic і
    "\u202eonin",  # a right-to-left override: shown as "nino"
    "ＮＩＮＯ",  # fullwidth capitals
    "NINO",
]


def profile_post(user, name: str):
    client = Client()
    client.force_login(user)
    return client.post(reverse("accounts:profile"), {"display_name": name})


def sign_up(name: str, client=None):
    return (client or Client()).post(
        reverse("accounts:signup"),
        {"username": name, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_display_name_that_looks_like_another_players_is_refused(name):
    UserFactory(username="nino")
    other = UserFactory()

    response = profile_post(other, name)

    assert response.status_code == 200  # the form again, with the reason
    assert response.context["form"].errors["display_name"]
    other.refresh_from_db()
    assert display_name(other) == other.username


def test_names_in_other_scripts_are_names_of_their_own():
    UserFactory(username="nino")
    for name, user in [("ნინო", UserFactory()), ("Нино", UserFactory())]:
        assert profile_post(user, name).status_code == 302
        assert display_name(user) == name
    # Another player's display name is taken in any spelling that looks so.
    assert profile_post(UserFactory(), "НИНО").status_code == 200


@pytest.mark.parametrize("name", ["nіno", "ni\u200bno", "nino\u3164"])
def test_a_username_that_looks_like_another_players_is_refused(name):
    UserFactory(username="nino")
    response = sign_up(name)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_two_lookalike_sign_ups_at_once_make_one_account():
    for round_ in range(4):
        names = [f"tamar{round_}", f"tаmar{round_}"]  # the second's "а" is Cyrillic
        barrier = threading.Barrier(2)
        statuses: list = []

        def post(name, barrier=barrier, statuses=statuses):
            client = Client(raise_request_exception=False)
            try:
                barrier.wait(timeout=30)
                statuses.append(sign_up(name, client).status_code)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=post, args=(n,)) for n in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

        assert sorted(statuses) == [200, 302]
        made = get_user_model().objects.filter(username__in=names).count()
        assert made == 1
