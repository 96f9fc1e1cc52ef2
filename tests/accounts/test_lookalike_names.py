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


def admin_client():
    from tests.factories import StaffUserFactory

    client = Client()
    client.force_login(StaffUserFactory())
    return client


def test_the_admin_refuses_a_new_user_named_like_another_player():
    UserFactory(username="nino")
    response = admin_client().post(
        "/admin/auth/user/add/",
        {"username": "nіno", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200  # the form again, with the reason
    assert response.context["adminform"].form.errors["username"]
    assert "Another player already goes by this name." in response.content.decode()
    assert not get_user_model().objects.filter(username="nіno").exists()


def test_the_admin_refuses_renaming_a_user_like_another_player():
    UserFactory(username="nino")
    other = UserFactory(username="tamar")
    client = admin_client()
    form = client.get(f"/admin/auth/user/{other.pk}/change/").context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("password", "groups", "user_permissions")
    }
    data.update(username="nіno", date_joined_0="2026-01-01", date_joined_1="10:00")
    data.pop("date_joined", None)
    data.pop("last_login", None)

    response = client.post(f"/admin/auth/user/{other.pk}/change/", data)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["username"]
    other.refresh_from_db()
    assert other.username == "tamar"


def test_the_admin_refuses_a_display_name_like_another_players():
    from accounts.models import NameKey
    from accounts.services import profile_get_or_create
    from common.lookalikes import skeleton

    UserFactory(username="nino")
    profile = profile_get_or_create(UserFactory(username="tamar"))
    client = admin_client()
    url = f"/admin/accounts/profile/{profile.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}

    refused = client.post(url, {**data, "display_name": "ＮＩＮＯ"})
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors["display_name"]
    profile.refresh_from_db()
    assert profile.display_name == ""

    # A name of its own is taken, and recorded as it looks.
    assert client.post(url, {**data, "display_name": "Tamuna"}).status_code == 302
    profile.refresh_from_db()
    assert profile.display_name == "Tamuna"
    assert NameKey.objects.filter(user=profile.user, key=skeleton("Tamuna")).exists()
