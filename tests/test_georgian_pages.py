"""Every page as a Georgian reader gets it: no Mtavruli capitals, one date
format, bots named in Georgian, casual tables without rating badges.

Georgian has no capital letters in running text; Unicode's upper case of a
Mkhedruli letter is a Mtavruli one (U+1C90-U+1CBF), so anything that
capitalises a translated word (``capfirst``, ``title``, ``upper``) shows it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from coins import services as coins
from coins.models import Account
from common.text_filters import sentence_start
from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tests.games.test_table_pages import japanese_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

MTAVRULI = re.compile("[\u1c90-\u1cbf]+")


def mtavruli_in(text: str) -> list[str]:
    """The words with Mtavruli letters, with a little context."""
    return [
        text[max(0, m.start() - 20) : m.end() + 20] for m in MTAVRULI.finditer(text)
    ]


@pytest.fixture
def georgian(client: Client) -> Client:
    client.cookies["django_language"] = "ka"
    return client


@pytest.fixture
def world():
    """A player with a ledger (a refund, a tournament's pool), a casual table
    of bots waiting in the lobby, a finished game and a tournament."""
    player = UserFactory()
    coins.wallet_of(player)
    coins.escrow_stake(user=player, ref="t-1", amount=10, key="stake-1")
    coins.escrow_refund(ref="t-1", key_prefix="refund-1")
    coins.escrow_stake(
        user=player,
        ref="tournament-1",
        amount=5,
        key="fee-1",
        kind=Account.Kind.TOURNAMENT_POOL,
    )
    waiting = services.table_create(user=player, profile="georgian-club")
    services.seat_add_bot(table_id=waiting.pk, user=player, number=1)
    services.seat_add_bot(table_id=waiting.pk, user=player, number=2, bot="autopilot")
    finished = play_out(japanese_game(player).pk)
    return {"player": player, "waiting": waiting, "finished": finished}


def pages(world) -> list[str]:
    finished: Game = world["finished"]
    urls = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:table", args=[world["waiting"].pk]),
        reverse("games:table", args=[finished.table_id]),
        reverse("games:replay", args=[finished.pk]),
        reverse("accounts:profile"),
        reverse("coins:wallet"),
        reverse("ratings:leaderboard"),
        reverse("matchmaking:play"),
        reverse("tournaments:list"),
        reverse("games:rules-index"),
        reverse("games:rules", args=["japanese"]),
    ]
    urls += [
        reverse("tournaments:detail", args=[pk])
        for pk in Tournament.objects.values_list("pk", flat=True)[:1]
    ]
    return urls


def test_no_page_shows_mtavruli_capitals(georgian, world):
    georgian.force_login(world["player"])
    found = {}
    for url in pages(world):
        response = georgian.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Language"] == "ka"
        words = mtavruli_in(response.content.decode())
        if words:
            found[url] = words
    assert found == {}


def test_the_forms_of_a_visitor_show_no_mtavruli(georgian):
    for url in [reverse("accounts:login"), reverse("accounts:signup")]:
        response = georgian.get(url)
        assert response.status_code == 200
        assert mtavruli_in(response.content.decode()) == [], url


def test_the_wallet_words_the_ledger_in_georgian_lower_case(georgian, world):
    georgian.force_login(world["player"])
    content = georgian.get(reverse("coins:wallet")).content.decode()
    # "refund" and "tournament pool", as translated, start the cells as
    # Georgian writes them.
    assert "დაბრუნება" in content
    assert "ტურნირის ფონდი" in content


def test_capfirst_still_capitalises_the_other_languages():
    assert sentence_start("refund") == "Refund"
    assert sentence_start("возврат") == "Возврат"
    assert sentence_start("iade") == "Iade"
    # Turkish (and Azerbaijani) pair a dotted i with a dotted capital.
    with translation.override("tr"):
        assert sentence_start("iade") == "İade"
        assert sentence_start("ılık") == "Ilık"
    assert sentence_start("დაბრუნება") == "დაბრუნება"
    assert sentence_start("") == ""


DATE_AND_TIME = re.compile(r"\b\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}\b")


def test_georgian_dates_have_one_format(georgian, world):
    georgian.force_login(world["player"])
    for url in [
        reverse("coins:wallet"),
        reverse("games:replay", args=[world["finished"].pk]),
    ]:
        content = georgian.get(url).content.decode()
        assert DATE_AND_TIME.search(content), url
        for mixed in ("a.m.", "p.m.", "დეკ."):
            assert mixed not in content, (url, mixed)


def test_bots_are_named_in_the_page_language_and_once(georgian, world):
    georgian.force_login(world["player"])
    content = georgian.get(reverse("games:lobby")).content.decode()
    with translation.override("ka"):
        practice = translation.gettext("Practice bot")
        autopilot = translation.gettext("Autopilot")
    assert practice != "Practice bot"
    assert f"{practice} 2" in content
    assert f"{autopilot} 3" in content
    assert "Practice bot" not in content
    # The name says it is a bot: no "bot" tag after it ("Practice bot bot").
    assert "tag-bot" not in content


def test_a_casual_table_shows_no_rating_category_or_ratings(client, world):
    client.force_login(world["player"])
    content = client.get(reverse("games:lobby")).content.decode()
    assert "Rating category" not in content
    assert "1500" not in content
    table = client.get(reverse("games:table", args=[world["finished"].table_id]))
    config = table.context["config"]
    assert config["ratings"] == [None, None]


def test_the_admin_shows_no_mtavruli(georgian, world):
    """Django's admin capitalises model and field names in Python
    (``django.utils.text.capfirst``), not only in its templates."""
    from tests.factories import StaffUserFactory

    georgian.force_login(StaffUserFactory())
    urls = [
        reverse("admin:index"),
        reverse("admin:app_list", args=["coins"]),
        reverse("admin:coins_account_changelist"),
        reverse("admin:games_game_changelist"),
        reverse("admin:auth_user_changelist"),
        reverse("admin:games_game_change", args=[world["finished"].pk]),
    ]
    found = {}
    for url in urls:
        response = georgian.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Language"] == "ka"
        if words := mtavruli_in(response.content.decode()):
            found[url] = words
    assert found == {}


STYLESHEET = re.compile(r'<link rel="stylesheet"[^>]* href="([^"]+)"')
KA_RESET = re.compile(
    r":lang\(ka\),\s*:lang\(ka\) \*\s*\{\s*text-transform: none !important;\s*\}"
)


def test_no_stylesheet_transforms_the_case_of_georgian(georgian, world):
    """Django's admin CSS upper-cases table headings, filters and buttons
    (``text-transform: uppercase``): in Georgian, Mtavruli. Every page, the
    admin's too, loads the reset before anything can hold Georgian."""
    from django.contrib.staticfiles import finders
    from django.templatetags.static import static

    from tests.factories import StaffUserFactory

    assert KA_RESET.search(Path(finders.find("css/case.css")).read_text())
    georgian.force_login(StaffUserFactory())
    urls = [
        reverse("games:lobby"),
        reverse("games:table", args=[world["waiting"].pk]),
        reverse("admin:index"),
        reverse("admin:games_game_changelist"),
        reverse("ratings:leaderboard"),
    ]
    for url in urls:
        sheets = STYLESHEET.findall(georgian.get(url).content.decode())
        assert static("css/case.css") in sheets, url
