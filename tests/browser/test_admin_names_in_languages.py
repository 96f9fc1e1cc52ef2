"""The admin in Georgian and Turkish, as Chromium draws it: the index names
every model of the site's apps in the operator's language, and every change
list's column headings and filter titles are in it too (verbose names of
the models and their fields, foreign keys and filters followed through).

Georgian is written in its own script, so a Latin letter in a heading is an
English word left over; for Turkish, words only the catalog gives are
looked for."""

from __future__ import annotations

import re

import pytest

from accounts.models import Profile
from tests.factories import StaffUserFactory

from .test_table_page import log_in

APPS = ["accounts", "chat", "coins", "matchmaking", "ratings", "social", "tournaments"]
# Names that are the same in every language.
NAMES = re.compile(r"\bID\b|\bUTC\b|Domino Coin|Joker|Elo")
LATIN = re.compile(r"[A-Za-z]")

# App and model names in the Turkish index.
TURKISH_MODELS = ["Hesaplar", "Profiller", "Reytingler", "Reyting değişimleri"]
TURKISH_MODELS += ["Davetler", "Arkadaşlık istekleri"]
# Column headings of Turkish change lists, by list.
TURKISH_COLUMNS = {
    "ratings/rating": ["Kullanıcı", "Reyting"],
    "accounts/profile": ["Kullanıcı"],
    "tournaments/entry": ["Turnuva"],
}


def operator_in(read_db, language: str) -> str:
    def create():
        from demo.games import create_demo_data
        from demo.social import create_demo_friends
        from demo.tournaments import create_demo_tournaments

        create_demo_data()
        players = list(Profile.objects.values_list("user", flat=True))
        from django.contrib.auth import get_user_model

        users = list(get_user_model().objects.filter(pk__in=players))
        create_demo_tournaments(users)
        create_demo_friends(users)
        user = StaffUserFactory(is_superuser=True)
        Profile.objects.update_or_create(user=user, defaults={"language": language})
        return user.username

    return read_db(create)


def change_lists(page) -> list[str]:
    page.goto("/admin/")
    links = page.eval_on_selector_all(
        "#content-main a[href^='/admin/']", "links => links.map(a => a.pathname)"
    )
    return sorted(
        {
            link
            for link in links
            if re.fullmatch(r"/admin/(\w+)/(\w+)/", link) and link.split("/")[2] in APPS
        }
    )


def headings(page, path: str) -> list[str]:
    page.goto(path)
    page.wait_for_selector("#changelist")
    texts = page.eval_on_selector_all(
        "#result_list thead th, #changelist-filter h3",
        "cells => cells.map(c => c.innerText.trim()).filter(Boolean)",
    )
    # A sorted column's heading starts with its sort priority on a line.
    return [text.splitlines()[-1] for text in texts]


@pytest.mark.timeout(300)
def test_the_georgian_admin_names_every_model_and_column_in_georgian(
    transactional_db, page, read_db
):
    log_in(page, operator_in(read_db, "ka"))
    lists = change_lists(page)
    assert page.locator("html").get_attribute("lang") == "ka"
    assert len(lists) >= 20, lists
    index = page.eval_on_selector_all(
        ", ".join(
            f"#content-main .app-{app} {part}"
            for app in APPS
            for part in ("caption", "th a")
        ),
        "links => links.map(a => a.innerText.trim())",
    )
    english = [name for name in index if LATIN.search(NAMES.sub("", name))]
    assert index and not english, english

    english = {}
    for path in lists:
        found = headings(page, path)
        left = [text for text in found if LATIN.search(NAMES.sub("", text))]
        if left:
            english[path] = left
    assert not english, english
    assert page.js_errors == []


@pytest.mark.timeout(300)
def test_the_turkish_admin_names_models_and_columns_in_turkish(
    transactional_db, page, read_db
):
    log_in(page, operator_in(read_db, "tr"))
    change_lists(page)
    index = page.locator("#content-main").inner_text()
    for name in TURKISH_MODELS:
        assert name in index, name
    for path, words in TURKISH_COLUMNS.items():
        found = headings(page, f"/admin/{path}/")
        for word in words:
            assert word in found, (path, word, found)
