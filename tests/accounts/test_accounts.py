"""Signing up, in and out, the profile, and the language it activates."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import selectors, services
from accounts.models import Profile
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "queen-of-spades-77"


def is_signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_signup_creates_the_user_and_signs_them_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "nino", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response.headers["Location"] == reverse("games:lobby")
    user = get_user_model().objects.get(username="nino")
    assert user.check_password(NEW_PASSWORD)
    assert Profile.objects.filter(user=user).exists()
    assert is_signed_in(client)


def test_signup_follows_a_safe_next_and_ignores_another_site(client):
    data = {"username": "nino", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}

    response = client.post(reverse("accounts:signup") + "?next=/tables/join/abc/", data)
    assert response.headers["Location"] == "/tables/join/abc/"

    client.logout()
    data["username"] = "giorgi"
    response = client.post(
        reverse("accounts:signup"), {**data, "next": "https://evil.example/"}
    )
    assert response.headers["Location"] == reverse("games:lobby")


def test_signup_with_passwords_that_differ_creates_nobody(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "nino", "password1": NEW_PASSWORD, "password2": "other-pass-99"},
    )

    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.filter(username="nino").exists()
    assert not is_signed_in(client)


def test_signup_page_renders(client):
    response = client.get(reverse("accounts:signup"))

    assert response.status_code == 200
    assert b'name="password2"' in response.content


def test_login_redirects_to_the_lobby(client, user):
    response = client.post(
        reverse("accounts:login"),
        {"username": user.username, "password": DEFAULT_PASSWORD},
    )

    assert response.status_code == 302
    assert response.headers["Location"] == reverse("games:lobby")
    assert is_signed_in(client)


def test_login_with_a_wrong_password_fails(client, user):
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": "nope"}
    )

    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not is_signed_in(client)


def test_an_account_closed_without_a_ban_is_said_to_be_closed(client, user):
    user.is_active = False
    user.save(update_fields=["is_active"])

    right = client.post(
        reverse("accounts:login"),
        {"username": user.username, "password": DEFAULT_PASSWORD},
    )
    wrong = client.post(
        reverse("accounts:login"), {"username": user.username, "password": "nope"}
    )

    assert right.context["form"].non_field_errors() == ["This account is closed."]
    assert "closed" not in str(wrong.context["form"].non_field_errors())
    assert not is_signed_in(client)


def test_login_url_setting_points_at_the_login_page(client):
    response = client.get(reverse("accounts:profile"))

    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("accounts:login"))


def test_logout_is_a_post(client, user):
    client.force_login(user)

    assert client.get(reverse("accounts:logout")).status_code == 405
    assert is_signed_in(client)

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert not is_signed_in(client)


def test_navigation_links(client, user):
    content = client.get(reverse("home")).content.decode()
    assert reverse("games:lobby") in content
    assert reverse("accounts:login") in content
    assert reverse("accounts:signup") in content

    client.force_login(user)
    content = client.get(reverse("home")).content.decode()
    assert reverse("accounts:profile") in content
    assert f'action="{reverse("accounts:logout")}"' in content


def test_profile_sets_the_display_name_and_language(client, user):
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"), {"display_name": " Nino ", "language": "ka"}
    )

    assert response.status_code == 302
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.language) == ("Nino", "ka")
    assert response.cookies["django_language"].value == "ka"
    page = client.get(reverse("accounts:profile"))
    assert page.context["form"].initial == {
        "display_name": "Nino",
        "language": "ka",
        "time_zone": "",
    }


def test_profile_refuses_an_unknown_language(client, user):
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"), {"display_name": "", "language": "xx"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["language"]
    assert services.profile_get_or_create(user).language == ""


def test_a_display_name_cannot_be_another_players_name(client, user):
    UserFactory(username="giorgi")
    other = UserFactory()
    services.profile_update(user=other, display_name="Tamar", language="")
    client.force_login(user)

    for name in ("Giorgi", "tamar"):
        response = client.post(
            reverse("accounts:profile"), {"display_name": name, "language": ""}
        )
        assert response.context["form"].errors["display_name"]
    assert services.profile_get_or_create(user).display_name == ""


@pytest.mark.parametrize("language", ["ka", "ru", "tr", "en"])
def test_the_chosen_language_is_activated_on_every_request(client, user, language):
    services.profile_update(user=user, display_name="", language=language)
    client.force_login(user)
    # The profile wins over the cookie and the browser.
    client.cookies["django_language"] = "ru" if language != "ru" else "tr"

    response = client.get(reverse("home"), headers={"accept-language": "de"})

    assert response.headers["Content-Language"] == language
    assert f'<html lang="{language}">' in response.content.decode()


def test_without_a_chosen_language_the_cookie_decides(client, user):
    services.profile_get_or_create(user)
    client.force_login(user)
    client.cookies["django_language"] = "ru"

    response = client.get(reverse("home"))

    assert response.headers["Content-Language"] == "ru"


def test_signing_out_leaves_the_profile_language_behind(client, user):
    services.profile_update(user=user, display_name="", language="ka")
    client.force_login(user)
    client.post(reverse("accounts:logout"))

    response = client.get(reverse("home"))

    assert response.headers["Content-Language"] == "en"


def test_the_language_switch_is_kept_in_the_profile(client, user):
    services.profile_update(user=user, display_name="", language="ka")
    client.force_login(user)

    response = client.post(
        reverse("accounts:set_language"), {"language": "tr", "next": "/"}
    )

    assert response.status_code == 302
    assert Profile.objects.get(user=user).language == "tr"
    assert client.get(reverse("home")).headers["Content-Language"] == "tr"


def test_the_language_switch_works_signed_out(client):
    response = client.post(
        reverse("accounts:set_language"), {"language": "ka", "next": "/"}
    )

    assert response.status_code == 302
    assert client.get(reverse("home")).headers["Content-Language"] == "ka"


def test_display_name_selector(user, django_assert_num_queries):
    assert selectors.display_name(user) == user.username

    services.profile_update(user=user, display_name="Nino", language="")
    fresh = get_user_model().objects.get(pk=user.pk)
    assert selectors.display_name(fresh) == "Nino"
    # The profile is read once per user object, found or not.
    with django_assert_num_queries(0):
        assert selectors.display_name(fresh) == "Nino"
    nobody = UserFactory()
    selectors.display_name(nobody)
    with django_assert_num_queries(0):
        assert selectors.display_name(nobody) == nobody.username


def test_profile_get_or_create_is_idempotent(user):
    first = services.profile_get_or_create(user)
    second = services.profile_get_or_create(user)

    assert first.pk == second.pk
    assert Profile.objects.filter(user=user).count() == 1
