"""No admin page filters, searches or sorts by a game's hidden cards, and
the one page that shows them, to the permitted reader, writes that down.

The attacks are those of a staff member with nothing but view permissions:
a query-string lookup answers one row or none, so a few dozen requests
would read a hand. Each is refused (400), the same for a true guess as for
a false one.
"""

from __future__ import annotations

import html
import json
from collections import deque
from urllib.parse import quote

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client, RequestFactory
from django.urls import reverse

from config.admin import KeepsSecrets, secret_fields
from games import services
from games.models import DealRecord, Game, GameEvent, HandsRead
from tests.factories import StaffUserFactory, UserFactory


@pytest.fixture
def game(db):
    """A Japanese Joker game being played: two hands, columns with face-down
    cards, a salt, all dealt and stored."""
    user = UserFactory()
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")
    return Game.objects.get(table=table)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def staff_with(*codenames: str) -> Client:
    """A staff member with only the named permissions (``app.codename``)."""
    user = UserFactory(is_staff=True)
    for name in codenames:
        app, codename = name.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=codename)
        )
    return signed_in(user)


VIEWS = [
    "games.view_game",
    "games.view_dealrecord",
    "games.view_gameevent",
    "games.view_table",
    "games.view_handsread",
    "ratings.view_ratingchange",
    "tournaments.view_board",
    "tournaments.view_entry",
    "matchmaking.view_match",
    "auth.view_user",
    "accounts.view_profile",
    "coins.view_account",
]


def guesses(game: Game) -> list[tuple[str, str, str]]:
    """(admin page, a lookup reading a secret, a value it matches). Each
    would answer one row for the true value and none for a false one."""
    record = game.deal_records.get(index=0)
    card = record.hands[1][0]
    face_down = record.columns[1][0][0]
    held = json.dumps(card)
    return [
        # On the secret's own model.
        ("games/dealrecord", f"game__id={game.pk}&hands__1__icontains", held),
        ("games/dealrecord", "hands__icontains", held),
        ("games/dealrecord", "columns__icontains", json.dumps(face_down)),
        ("games/dealrecord", "salt__startswith", record.salt[:2]),
        ("games/dealrecord", "salt", record.salt),
        ("games/game", "state__icontains", held),
        ("games/game", "state__hands__1__icontains", held),
        # Across relations, from every admin with a path there.
        ("games/game", "deal_records__salt__startswith", record.salt[:2]),
        ("games/gameevent", "game__state__icontains", held),
        ("games/gameevent", "game__deal_records__hands__icontains", held),
        ("games/gameevent", "game_id__state__icontains", held),
        ("games/table", "game__state__icontains", held),
        ("games/table", "game__deal_records__salt__startswith", record.salt[:2]),
        ("games/handsread", "game__deal_records__columns__icontains", held),
        ("ratings/ratingchange", "game__state__icontains", held),
        ("tournaments/board", "table__game__state__icontains", held),
        ("tournaments/entry", "user__seats__table__game__state__icontains", held),
        ("matchmaking/match", "table__game__deal_records__hands__icontains", held),
        ("auth/user", "seats__table__game__state__icontains", held),
        ("accounts/profile", "user__seats__table__game__state__icontains", held),
        (
            "coins/account",
            "owner__seats__table__game__deal_records__salt__startswith",
            record.salt[:2],
        ),
    ]


# A value no hidden field holds: the false guess.
WRONG = "no-such-card"


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_no_lookup_on_a_hidden_field_answers_even_with_a_true_guess(game, who):
    client = (
        staff_with(*VIEWS)
        if who == "viewer"
        else signed_in(StaffUserFactory(is_superuser=True))
    )
    answered = []
    for page, lookup, value in guesses(game):
        answers = [
            client.get(f"/admin/{page}/?{lookup}={quote(guess)}")
            for guess in (value, WRONG)
        ]
        statuses = [answer.status_code for answer in answers]
        same = answers[0].content == answers[1].content
        if statuses != [400, 400] or not same:
            answered.append((page, lookup, statuses, same))
    assert answered == []
    assert not HandsRead.objects.exists()


def test_search_reads_no_hidden_field(game):
    record = game.deal_records.get(index=0)
    client = staff_with("games.view_dealrecord")
    url = reverse("admin:games_dealrecord_changelist")

    by_commitment = client.get(url, {"q": record.commitment})
    by_salt = client.get(url, {"q": record.salt})

    assert by_commitment.context["cl"].result_count == 1
    assert by_salt.status_code == 200
    assert by_salt.context["cl"].result_count == 0


def relation_paths_to_secrets(model, depth: int = 6) -> dict[tuple, str]:
    """The shortest lookup path from ``model`` to each secret field, over
    every relation, forward and reverse: {(model label, field): path}."""
    found: dict[tuple, str] = {}
    queue = deque([(model, "")])
    seen = {model}
    while queue:
        current, path = queue.popleft()
        prefix = f"{path}__" if path else ""
        for name in secret_fields(current):
            found.setdefault((current._meta.label, name), prefix + name)
        if path.count("__") + 1 >= depth:
            continue
        for field in current._meta.get_fields():
            target = field.related_model if field.is_relation else None
            if target is None or target in seen or isinstance(target, str):
                continue
            seen.add(target)
            queue.append((target, prefix + field.name))
    return found


def test_every_admin_of_the_site_refuses_every_path_to_a_hidden_field(db):
    request = RequestFactory().get("/admin/")
    request.user = StaffUserFactory(is_superuser=True)
    reached, allowed = 0, []
    for model, model_admin in admin.site._registry.items():
        assert isinstance(model_admin, KeepsSecrets), model._meta.label
        for path in relation_paths_to_secrets(model).values():
            reached += 1
            for lookup in (path, f"{path}__icontains", f"{path}__0__exact"):
                if model_admin.lookup_allowed(lookup, "x", request):
                    allowed.append((model._meta.label, lookup))
    assert allowed == []
    # Games, tables, users, wallets, ratings, tournaments, matches...
    assert reached > 20


def check_ids(model, **options) -> list[str]:
    admin_class = type("Probe", (KeepsSecrets, admin.ModelAdmin), options)
    return [error.id for error in admin_class(model, admin.site).check()]


@pytest.mark.parametrize(
    ("model", "options"),
    [
        (DealRecord, {"search_fields": ["salt"]}),
        (GameEvent, {"search_fields": ["=game__deal_records__hands"]}),
        (GameEvent, {"list_filter": ["game__state"]}),
        (DealRecord, {"list_filter": [("hands", admin.EmptyFieldListFilter)]}),
        (DealRecord, {"ordering": ["-salt"]}),
        (GameEvent, {"list_display": ["game", "game__state"]}),
        (DealRecord, {"list_display": ["index", "hands"]}),
        (
            GameEvent,
            {
                "list_display": ["shown"],
                "shown": admin.display(ordering="game__deal_records__salt")(
                    lambda self, obj: "-"
                ),
            },
        ),
    ],
    ids=lambda value: getattr(value, "__name__", None) or str(value)[:40],
)
def test_an_admin_declaring_a_search_filter_or_sort_by_a_hidden_field_fails_the_checks(
    model, options
):
    assert "pulka.E001" in check_ids(model, **options)


def test_the_sites_admins_pass_the_secret_checks():
    errors = [
        error
        for model_admin in admin.site._registry.values()
        for error in model_admin.check()
        if error.id == "pulka.E001"
    ]
    assert errors == []
    assert check_ids(DealRecord, search_fields=["commitment"]) == []


def test_a_lookup_on_an_annotation_is_refused(db):
    """An annotation is computed: what it reads cannot be told from its name."""
    request = RequestFactory().get("/admin/")
    request.user = StaffUserFactory(is_superuser=True)
    from tournaments.models import Tournament

    tournaments = admin.site._registry[Tournament]
    assert not tournaments.lookup_allowed("_players__gt", "0", request)
    assert tournaments.lookup_allowed("status", "scheduled", request)


# Reading with the permission: every page that shows hidden cards logs it


def shows_hidden_cards(page: bytes, record: DealRecord) -> bool:
    text = html.unescape(page.decode())
    return (
        record.salt in text
        or json.dumps(record.hands[1]) in text
        or json.dumps(record.columns[1]) in text
    )


def admin_pages(game: Game) -> list[str]:
    record = game.deal_records.get(index=0)
    pages = []
    for name, pk in (("game", game.pk), ("dealrecord", record.pk)):
        pages += [
            reverse(f"admin:games_{name}_changelist"),
            reverse(f"admin:games_{name}_changelist") + "?_popup=1",
            reverse(f"admin:games_{name}_change", args=[pk]),
            reverse(f"admin:games_{name}_change", args=[pk]) + "?_popup=1",
            reverse(f"admin:games_{name}_history", args=[pk]),
        ]
    return pages


def test_every_page_that_shows_live_hands_to_the_permitted_reader_is_logged(game):
    client = staff_with(
        "games.view_game", "games.view_dealrecord", "games.view_live_hands"
    )
    record = game.deal_records.get(index=0)
    unlogged, shown = [], []
    for url in admin_pages(game):
        before = HandsRead.objects.count()
        response = client.get(url)
        assert response.status_code == 200, url
        logged = HandsRead.objects.count() - before
        if shows_hidden_cards(response.content, record):
            shown.append(url)
            if logged != 1:
                unlogged.append(url)
        elif logged:
            unlogged.append(url)
    # The change pages show them (with and without the popup), and only they.
    assert shown == [url for url in admin_pages(game) if "/change/" in url]
    assert unlogged == []


def test_no_page_shows_live_hands_without_the_permission(game):
    record = game.deal_records.get(index=0)
    for client in (
        signed_in(StaffUserFactory(is_superuser=True)),
        staff_with("games.view_game", "games.view_dealrecord"),
    ):
        for url in admin_pages(game):
            response = client.get(url)
            assert response.status_code == 200, url
            assert not shows_hidden_cards(response.content, record), url
    assert not HandsRead.objects.exists()
