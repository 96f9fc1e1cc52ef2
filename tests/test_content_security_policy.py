"""Every answer carries the site's Content-Security-Policy (django-csp,
config.content_security), production's included: the site's own files
only, no inline script or style, no plugins, forms and <base> to the site
alone, no framing, and connections to the site and its own WebSocket
origin. (tests/browser/test_content_security_policy.py loads the pages in
Chromium under it.)"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import path

from config import urls as config_urls
from tests.factories import StaffUserFactory
from tests.games.test_table_pages import japanese_game
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db

BASE_DIR = Path(settings.BASE_DIR)


def policy(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def assert_strict(header: str, socket_origin: str) -> dict[str, list[str]]:
    directives = policy(header)
    assert directives["default-src"] == ["'self'"]
    for fetch in ("script-src", "style-src", "img-src", "font-src"):
        assert directives[fetch][0] == "'self'", fetch
        assert "'unsafe-inline'" not in directives[fetch], fetch
        assert "'unsafe-eval'" not in directives[fetch], fetch
    assert directives["script-src"] == ["'self'"]
    assert directives["connect-src"] == ["'self'", socket_origin]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["form-action"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "script-src-attr" not in directives
    return directives


def representative_addresses() -> tuple[list[str], object]:
    staff = StaffUserFactory(is_superuser=True)
    game = japanese_game(staff)
    tournament = make_tournament()
    return [
        "/",
        "/lobby/",
        f"/tables/{game.table_id}/",
        "/play/",
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        f"/players/{staff.username}/",
        "/ratings/",
        "/accounts/profile/",
        "/admin/",
        "/admin/games/game/",
        f"/admin/auth/user/{staff.pk}/change/",
        "/api/v1/docs/",
        "/api/v1/docs/?script=",
        "/api/v1/players/",
        "/static/css/pulka.css",
        "/no/such/page/",
        "/api/v1/no-such-thing/",
    ], staff


@pytest.mark.parametrize("secure", [False, True], ids=["http", "https"])
def test_every_page_carries_the_policy(secure):
    addresses, staff = representative_addresses()
    client = Client()
    client.force_login(staff)
    socket_origin = "wss://testserver" if secure else "ws://testserver"
    for address in addresses:
        response = client.get(address, secure=secure)
        assert response.status_code in (200, 404), address
        assert_strict(response["Content-Security-Policy"], socket_origin)
    for address in ("/accounts/login/", "/accounts/signup/", "/admin/login/"):
        response = Client().get(address, secure=secure)
        assert response.status_code == 200, address
        assert_strict(response["Content-Security-Policy"], socket_origin)


def test_only_the_api_docs_allow_data_images():
    # Swagger UI's style sheet draws its icons as data: images.
    client = Client()
    docs = policy(client.get("/api/v1/docs/")["Content-Security-Policy"])
    assert docs["img-src"] == ["'self'", "data:"]
    home = policy(client.get("/")["Content-Security-Policy"])
    assert home["img-src"] == ["'self'"]


def test_the_browsable_api_alone_may_set_style_attributes():
    # DRF's templates set a few; nowhere else on the site does any.
    client = Client()
    browsable = client.get("/api/v1/players/", HTTP_ACCEPT="text/html")
    assert policy(browsable["Content-Security-Policy"])["style-src-attr"] == [
        "'unsafe-inline'"
    ]
    login = client.get("/api/v1/auth/login/")
    assert "style-src-attr 'unsafe-inline'" in login["Content-Security-Policy"]
    for address in ("/", "/accounts/login/", "/api/v1/players/"):
        assert "style-src-attr" not in client.get(address)["Content-Security-Policy"]


def test_a_host_the_site_does_not_serve_still_gets_the_policy():
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    directives = policy(response["Content-Security-Policy"])
    assert directives["connect-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]


def test_production_answers_carry_the_policy():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "pulka.example",
    }
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "response = Client().get('/api/v1/no-such-thing/', secure=True,"
        " HTTP_HOST='pulka.example')\n"
        "print(response.status_code)\n"
        "print(response['Content-Security-Policy'])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    status, header = proc.stdout.strip().splitlines()[-2:]
    assert status == "404"
    assert_strict(header, "wss://pulka.example")


def broken_view(request):
    raise RuntimeError("a page that breaks")


# The site's addresses and one that breaks, for the 500 below.
urlpatterns = [path("broken/", broken_view), *config_urls.urlpatterns]


@pytest.mark.urls(__name__)
def test_make_runs_debug_error_pages_carry_the_policy_too(settings):
    # django-csp leaves out the 404 and 500 of DEBUG (Django's debug pages
    # have inline styles); under `make run` they carry it like any other.
    settings.DEBUG = True
    client = Client(raise_request_exception=False)
    for address, status in (("/no/such/page/", 404), ("/broken/", 500)):
        response = client.get(address)
        assert response.status_code == status, address
        assert_strict(response["Content-Security-Policy"], "ws://testserver")
