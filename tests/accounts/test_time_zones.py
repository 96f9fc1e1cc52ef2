"""Times shown in the player's zone: the profile's, else the browser's (the
cookie static/js/timezone.js writes), else UTC; always with the zone named."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from accounts import services
from accounts.models import Profile
from accounts.timezones import COOKIE_NAME
from tests.factories import UserFactory
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db

# 2027-03-05 14:00 UTC: 18:00 in Tbilisi (UTC+4), 17:00 in Istanbul (UTC+3).
STARTS = dt.datetime(2027, 3, 5, 14, 0, tzinfo=dt.UTC)


@pytest.fixture
def tournament():
    made = make_tournament()
    made.starts_at = STARTS
    made.save(update_fields=["starts_at"])
    return made


def detail(client, tournament) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return client.get(url, headers={"accept-language": "en"}).content.decode()


def test_without_a_zone_times_are_utc_and_say_so(client, tournament):
    page = detail(client, tournament)

    assert "14:00 (UTC)" in page


# static/js/timezone.js writes the name URL-encoded.
@pytest.mark.parametrize("cookie", ["Asia%2FTbilisi", "Asia/Tbilisi"])
def test_the_browsers_zone_from_its_cookie(client, tournament, cookie):
    client.cookies[COOKIE_NAME] = cookie

    page = detail(client, tournament)

    assert "18:00 (Asia/Tbilisi)" in page
    list_page = client.get(reverse("tournaments:list")).content.decode()
    assert "(Asia/Tbilisi)" in list_page


@pytest.mark.parametrize(
    "cookie",
    ["Mars/Olympus", "../../etc/passwd", "UTC; x", "A" * 200, "", "Asia%2FNowhere"],
)
def test_a_cookie_that_names_no_zone_is_ignored(client, tournament, cookie):
    client.cookies[COOKIE_NAME] = cookie

    assert "14:00 (UTC)" in detail(client, tournament)


def test_the_profiles_zone_wins_over_the_browsers(client, tournament):
    user = UserFactory()
    services.profile_update(
        user=user, display_name="", language="", time_zone="Europe/Istanbul"
    )
    client.force_login(user)
    client.cookies[COOKIE_NAME] = "Asia/Tbilisi"

    assert "17:00 (Europe/Istanbul)" in detail(client, tournament)


def test_the_profile_form_sets_and_clears_the_zone(client):
    user = UserFactory()
    client.force_login(user)
    url = reverse("accounts:profile")

    assert 'value="Asia/Tbilisi"' in client.get(url).content.decode()
    response = client.post(
        url, {"display_name": "", "language": "", "time_zone": "Asia/Tbilisi"}
    )
    assert response.status_code == 302
    assert Profile.objects.get(user=user).time_zone == "Asia/Tbilisi"

    client.post(url, {"display_name": "", "language": "", "time_zone": ""})
    assert Profile.objects.get(user=user).time_zone == ""


def test_an_unknown_zone_is_refused_and_changes_nothing(client):
    user = UserFactory()
    services.profile_update(
        user=user, display_name="Nino", language="", time_zone="Asia/Tbilisi"
    )
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Other", "language": "", "time_zone": "Mars/Olympus"},
    )

    assert response.status_code == 200
    assert "time_zone" in response.context["form"].errors
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.time_zone) == ("Nino", "Asia/Tbilisi")
    with pytest.raises(ValueError, match="unknown time zone"):
        services.profile_update(
            user=user, display_name="", language="", time_zone="Mars/Olympus"
        )


def test_every_page_asks_the_browser_for_its_zone(client):
    page = client.get(reverse("home")).content.decode()

    assert '<script src="/static/js/timezone.js" defer></script>' in page
    script = open(finders.find("js/timezone.js")).read()
    assert "resolvedOptions().timeZone" in script
    assert f'"{COOKIE_NAME}"' in script
