"""Sign-ups per address: a few an hour, then a 429 that says when to come
back; the address itself is not kept, only a keyed digest of it."""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.addresses import address_digest
from accounts.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "queen-of-spades-77"
ADDRESS = "203.0.113.7"
User = get_user_model()


def sign_up(username: str, address: str = ADDRESS):
    return Client(REMOTE_ADDR=address).post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_the_limit_is_a_few_an_hour():
    assert settings.PULKA_SIGNUPS_PER_ADDRESS == 5


def test_sign_ups_past_the_limit_are_refused_with_when_to_come_back():
    limit = settings.PULKA_SIGNUPS_PER_ADDRESS
    for n in range(limit):
        assert sign_up(f"puppet{n}").status_code == 302

    refused = sign_up("one-too-many")

    assert refused.status_code == 429
    retry_after = int(refused["Retry-After"])
    assert 3500 < retry_after <= 3600
    page = refused.content.decode()
    assert "5 accounts have been made from your address in the last hour" in page
    assert "Try again in 60 minutes." in page
    assert not User.objects.filter(username="one-too-many").exists()
    assert User.objects.count() == limit
    # Another address signs up as usual.
    assert sign_up("neighbour", "198.51.100.20").status_code == 302


def test_the_pause_ends_an_hour_after_the_oldest_sign_up():
    for n in range(settings.PULKA_SIGNUPS_PER_ADDRESS):
        assert sign_up(f"puppet{n}").status_code == 302
    oldest = User.objects.get(username="puppet0")
    User.objects.filter(pk=oldest.pk).update(
        date_joined=timezone.now() - timedelta(minutes=59)
    )

    refused = sign_up("early")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Try again in 1 minute." in refused.content.decode()

    User.objects.filter(pk=oldest.pk).update(
        date_joined=timezone.now() - timedelta(minutes=61)
    )
    assert sign_up("on-time").status_code == 302


def test_the_addresses_of_one_ipv6_network_count_as_one():
    """An IPv6 host usually holds a whole /64 (RFC 4291's interface
    identifiers): one address each would be no limit at all."""
    for n in range(settings.PULKA_SIGNUPS_PER_ADDRESS):
        assert sign_up(f"puppet{n}", f"2001:db8:1:2::{n + 1:x}").status_code == 302

    assert sign_up("same-network", "2001:db8:1:2:ffff::1").status_code == 429
    assert sign_up("next-network", "2001:db8:1:3::1").status_code == 302


def test_a_refused_form_counts_for_nothing():
    client = Client(REMOTE_ADDR=ADDRESS)
    for _ in range(settings.PULKA_SIGNUPS_PER_ADDRESS + 2):
        answer = client.post(
            "/accounts/signup/",
            {"username": "nino", "password1": PASSWORD, "password2": "mismatch-9"},
        )
        assert answer.status_code == 200
    assert sign_up("nino").status_code == 302


def test_the_profile_keeps_a_keyed_digest_of_the_address_not_the_address():
    assert sign_up("nino").status_code == 302

    profile = Profile.objects.get(user__username="nino")
    assert profile.signed_up
    assert profile.signup_address == address_digest(ADDRESS)
    assert profile.login_address == address_digest(ADDRESS)
    assert ADDRESS not in profile.signup_address
    # Keyed: not the plain SHA-256 that anyone could compute for every
    # IPv4 address in minutes.
    assert profile.signup_address != hashlib.sha256(ADDRESS.encode()).hexdigest()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_sign_ups_at_once_from_one_address_stop_at_the_limit():
    attempts = 12
    barrier = threading.Barrier(attempts)

    def attempt(n):
        try:
            barrier.wait()
            return sign_up(f"rush{n}").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=attempts) as pool:
        statuses = list(pool.map(attempt, range(attempts)))

    limit = settings.PULKA_SIGNUPS_PER_ADDRESS
    assert sorted(statuses) == [302] * limit + [429] * (attempts - limit)
    assert User.objects.count() == limit
