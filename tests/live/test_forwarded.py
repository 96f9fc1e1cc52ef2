"""X-Forwarded-For is believed from the proxies PULKA_TRUSTED_PROXIES names
and from nobody else (config.forwarded), on real servers started as `make
run` starts them: a client that sends a new address in the header with
each request is still one client to the login lockout and the throttles."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache

from tests.factories import UserFactory

pytestmark = [pytest.mark.timeout(120), pytest.mark.django_db(transaction=True)]

LOGIN = "/api/v1/auth/login/"


def status_of(request: urllib.request.Request, opener=None) -> int:
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as error:
        return error.code


def players_list(base: str, forwarded_for: str) -> int:
    return status_of(
        urllib.request.Request(
            f"{base}/api/v1/players/", headers={"X-Forwarded-For": forwarded_for}
        )
    )


def wrong_password(base: str, username: str, forwarded_for: str) -> int:
    """A wrong password on the browsable API's login page, as a browser
    sends it (the CSRF cookie and token of the page first)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    headers = {"X-Forwarded-For": forwarded_for}
    with opener.open(urllib.request.Request(f"{base}{LOGIN}", headers=headers)) as r:
        page = r.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    form = {"username": username, "password": "wrong", "csrfmiddlewaretoken": token}
    request = urllib.request.Request(
        f"{base}{LOGIN}",
        data=urllib.parse.urlencode(form).encode(),
        headers=headers,
    )
    return status_of(request, opener)


@pytest.fixture(autouse=True)
def fresh_throttles():
    """The anonymous throttle started afresh for the clients here, before
    and after: the servers count in the test run's Redis, where another
    test (or an earlier run of this one) may count 127.0.0.1 within the
    minute."""
    keys = [
        f"throttle_anon_{client}" for client in ("127.0.0.1", "192.0.2.7", "192.0.2.8")
    ]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


def addresses_recorded(username: str) -> set[str]:
    return set(
        AccessAttempt.objects.filter(username=username).values_list(
            "ip_address", flat=True
        )
    )


def test_without_trusted_proxies_a_new_forwarded_address_is_no_new_client(
    own_servers,
):
    _, base = own_servers("no-proxies", env={"API_THROTTLE_ANON": "3/minute"})
    statuses = [players_list(base, f"198.51.100.{n}") for n in range(4)]
    assert statuses == [200, 200, 200, 429]

    user = UserFactory()
    statuses = [wrong_password(base, user.username, f"203.0.113.{n}") for n in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert addresses_recorded(user.username) == {"127.0.0.1"}


def test_behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_address(
    own_servers,
):
    _, base = own_servers(
        "behind-a-proxy",
        env={
            "API_THROTTLE_ANON": "3/minute",
            # The proxy reaching the server, and one in front of it.
            "PULKA_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8",
        },
    )
    # Whatever the client writes itself stands left of the address the
    # first trusted proxy appended: 192.0.2.7 each time.
    statuses = [players_list(base, f"198.51.100.{n}, 192.0.2.7") for n in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert players_list(base, "192.0.2.8, 10.1.2.3") == 200  # another client
    assert players_list(base, "198.51.100.9, 192.0.2.8, 10.1.2.3") == 200
    assert players_list(base, "192.0.2.8") == 200
    assert players_list(base, "192.0.2.8") == 429

    user = UserFactory()
    statuses = [
        wrong_password(base, user.username, f"203.0.113.{n}, 192.0.2.20")
        for n in range(5)
    ]
    assert statuses == [200, 200, 200, 200, 429]
    assert addresses_recorded(user.username) == {"192.0.2.20"}
    # The same account from another client is not locked.
    assert wrong_password(base, user.username, "192.0.2.21") == 200


def test_a_trusted_proxy_must_be_an_address_or_a_network():
    from django.core.exceptions import ImproperlyConfigured

    from config.forwarded import proxy_networks

    assert proxy_networks(["127.0.0.1", "::1", "10.0.0.0/8"])
    for value in ("*", "proxy.example", "10.0.0.1/8"):
        with pytest.raises(ImproperlyConfigured):
            proxy_networks([value])
