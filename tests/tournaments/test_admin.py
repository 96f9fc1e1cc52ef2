"""The tournaments admin: setting tournaments up through its forms, and the
actions that start and cancel them through the services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from coins import services as coins
from tests.factories import StaffUserFactory
from tournaments import services
from tournaments.models import Board, Entry, Schedule, Tournament

from .support import make_tournament, players, register_all, start_now

pytestmark = pytest.mark.django_db

ADD = reverse("admin:tournaments_tournament_add")
CHANGELIST = reverse("admin:tournaments_tournament_changelist")
SCHEDULE_ADD = reverse("admin:tournaments_schedule_add")


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(StaffUserFactory())
    return client


def settings_data(**changes) -> dict:
    data = {
        "name": "Sunday Cup",
        "category": "japanese",
        "format": "swiss",
        "short_match": "on",
        "rounds": "4",
        "duration_minutes": "60",
        "points_for_places": "[4, 2, 1, 0]",
        "turn_seconds": "20",
        "min_players": "4",
        "max_players": "16",
        "entry_fee": "50",
        "prize_split": "[60, 40]",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def tournament_data(**changes) -> dict:
    return settings_data(
        starts_at_0="2030-06-02", starts_at_1="18:00:00", _save="Save", **changes
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def pool(tournament) -> int:
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def action(client, name: str, tournaments, **extra):
    return client.post(
        CHANGELIST,
        {
            "action": name,
            "_selected_action": [t.pk for t in tournaments],
            **extra,
        },
    )


# --- Setting up -----------------------------------------------------------------


def test_the_add_form_offers_every_setting(admin_client):
    response = admin_client.get(ADD)

    assert response.status_code == 200
    fields = response.context["adminform"].form.fields
    for name in [
        "name",
        "category",
        "format",
        "rounds",
        "short_match",
        "final_table",
        "points_for_places",
        "starts_at",
        "entry_fee",
        "min_players",
        "max_players",
        "prize_split",
        "turn_seconds",
    ]:
        assert name in fields, name
    # Progress is the services' business.
    assert "status" not in fields and "current_round" not in fields


def test_creating_a_tournament_through_the_admin(admin_client):
    response = admin_client.post(ADD, tournament_data())

    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(name="Sunday Cup")
    assert tournament.status == Tournament.Status.SCHEDULED
    assert (tournament.category, tournament.format) == ("japanese", "swiss")
    assert (tournament.rounds, tournament.turn_seconds) == (4, 20)
    assert tournament.short_match and not tournament.final_table
    assert (tournament.min_players, tournament.max_players) == (4, 16)
    assert tournament.entry_fee == 50
    assert tournament.prize_split == [60, 40]
    assert tournament.starts_at.isoformat().startswith("2030-06-02T18:00")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"format": "multitable"},
            "format",
            "Japanese Joker is played Swiss, knockout or arena",
        ),
        (
            {"category": "joker", "format": "swiss"},
            "format",
            "Joker is played at tables of four",
        ),
        (
            {"prize_split": "[30, 70]"},
            "prize_split",
            "a better place never gets a smaller share",
        ),
        (
            {"prize_split": "[50, 30]"},
            "prize_split",
            "percents are not negative and add up to 100",
        ),
        ({"min_players": "20"}, "max_players", "at least the minimum"),
        ({"turn_seconds": "2"}, "turn_seconds", "between 5 and 600 seconds"),
        (
            {
                "category": "joker",
                "format": "multitable",
                "final_table": "on",
                "rounds": "1",
            },
            "rounds",
            "a final table needs at least one round before it",
        ),
    ],
)
def test_invalid_settings_are_refused(admin_client, changes, field, message):
    response = admin_client.post(ADD, tournament_data(**changes))

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert message in errors[field]
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_creating_a_recurring_tournament(admin_client):
    response = admin_client.post(
        SCHEDULE_ADD,
        settings_data(
            name="Evening Joker",
            category="joker-nines",
            format="multitable",
            rounds="3",
            final_table="on",
            time_of_day="19:30",
            weekdays="56",
            create_ahead_hours="12",
            active="on",
            _save="Save",
        ),
    )

    assert response.status_code == 302
    schedule = Schedule.objects.get()
    assert (schedule.weekdays, schedule.create_ahead_hours) == ("56", 12)
    assert schedule.final_table and schedule.format == "multitable"
    listed = admin_client.get(reverse("admin:tournaments_schedule_changelist"))
    assert "Evening Joker" in listed.content.decode()


def test_a_recurring_tournament_with_bad_weekdays_is_refused(admin_client):
    response = admin_client.post(
        SCHEDULE_ADD,
        settings_data(
            time_of_day="19:30",
            weekdays="79",
            create_ahead_hours="12",
            _save="Save",
        ),
    )

    assert response.status_code == 200
    assert "Use digits 0 (Monday) to 6." in response.content.decode()
    assert not Schedule.objects.exists()


def test_the_list_filters_and_searches(admin_client):
    make_tournament("japanese", name="Alpha Open")
    make_tournament("joker-nines", name="Beta Nines")

    found = admin_client.get(CHANGELIST, {"q": "Alpha"})
    by_category = admin_client.get(CHANGELIST, {"category__exact": "joker-nines"})

    assert [t.name for t in found.context["cl"].result_list] == ["Alpha Open"]
    assert [t.name for t in by_category.context["cl"].result_list] == ["Beta Nines"]


def test_a_tournament_with_entries_keeps_its_fee(admin_client):
    tournament = make_tournament("japanese")
    register_all(tournament, players(2))

    response = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    )

    fields = response.context["adminform"].form.fields
    assert "entry_fee" not in fields
    assert "rounds" in fields
    content = response.content.decode()
    # The entries show, read-only, with the pool.
    for entry in tournament.entries.all():
        assert entry.user.username in content
    assert response.context["inline_admin_formsets"][0].has_add_permission is False


def test_a_started_tournament_is_read_only(admin_client):
    tournament = make_tournament("japanese")
    register_all(tournament, players(2))
    start_now(tournament)

    response = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    )

    assert response.status_code == 200
    fields = response.context["adminform"].form.fields
    assert not {"rounds", "format", "entry_fee", "starts_at", "prize_split"} & set(
        fields
    )
    delete = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])
    assert admin_client.get(delete).status_code == 403


def test_entries_and_boards_are_read_only(admin_client):
    tournament = make_tournament("japanese")
    register_all(tournament, players(2))
    start_now(tournament)
    entry = Entry.objects.filter(tournament=tournament).first()
    board = Board.objects.get(round__tournament=tournament)

    assert (
        admin_client.get(reverse("admin:tournaments_entry_changelist")).status_code
        == 200
    )
    assert admin_client.get(reverse("admin:tournaments_entry_add")).status_code == 403
    entry_page = admin_client.get(
        reverse("admin:tournaments_entry_change", args=[entry.pk])
    )
    assert entry_page.status_code == 200
    assert not entry_page.context["has_change_permission"]
    boards = admin_client.get(reverse("admin:tournaments_board_changelist"))
    assert list(boards.context["cl"].result_list) == [board]
    board_page = admin_client.get(
        reverse("admin:tournaments_board_change", args=[board.pk])
    )
    assert board_page.status_code == 200
    assert not board_page.context["has_change_permission"]
    posted = admin_client.post(
        reverse("admin:tournaments_entry_change", args=[entry.pk]), {"place": "1"}
    )
    assert posted.status_code == 403
    entry.refresh_from_db()
    assert entry.place is None


# --- Actions ----------------------------------------------------------------------


def test_cancelling_asks_first_and_changes_nothing(admin_client):
    tournament = make_tournament("japanese", entry_fee=100)
    register_all(tournament, players(2))

    response = action(admin_client, "cancel_with_refunds", [tournament])

    assert response.status_code == 200
    assert "tournaments/admin/cancel.html" in [t.name for t in response.templates]
    assert str(tournament) in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED
    assert pool(tournament) == 200


def test_cancelling_gives_every_fee_back(admin_client):
    users = players(2, coins_each=300)
    tournament = make_tournament("japanese", entry_fee=100)
    register_all(tournament, users)
    assert [coins.wallet_of(u).balance for u in users] == [200, 200]

    response = action(
        admin_client,
        "cancel_with_refunds",
        [tournament],
        apply="Cancel with refunds",
        reason="venue closed",
    )

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == "venue closed"
    assert pool(tournament) == 0
    assert [coins.wallet_of(u).balance for u in users] == [300, 300]
    assert messages_of(response) == [
        "1 tournament cancelled; every fee in its pool went back."
    ]


def test_cancelling_a_running_tournament_stops_its_games(admin_client):
    users = players(4, coins_each=500)
    tournament = make_tournament("japanese", entry_fee=100)
    register_all(tournament, users)
    start_now(tournament)
    total = coins.ledger_total()

    action(
        admin_client,
        "cancel_with_refunds",
        [tournament],
        apply="Cancel with refunds",
        reason="",
    )

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == "cancelled by the organisers"
    assert [coins.wallet_of(u).balance for u in users] == [500] * 4
    assert coins.ledger_total() == total
    for board in Board.objects.filter(round__tournament=tournament):
        assert board.table.game.status != "playing"


def test_cancelling_twice_reports_the_refusal(admin_client):
    tournament = make_tournament("japanese")
    services.tournament_cancel(tournament_id=tournament.pk, reason="first")

    response = action(
        admin_client,
        "cancel_with_refunds",
        [tournament],
        apply="Cancel with refunds",
        reason="second",
    )

    assert messages_of(response) == [
        f"{tournament} was not cancelled: the tournament is already cancelled."
    ]
    tournament.refresh_from_db()
    assert tournament.cancel_reason == "first"


def test_starting_now_starts_only_what_is_due(admin_client):
    due = make_tournament("japanese", name="Due")
    register_all(due, players(2))
    Tournament.objects.filter(pk=due.pk).update(
        starts_at=due.starts_at - timedelta(hours=2)
    )
    later = make_tournament("japanese", name="Later")
    register_all(later, players(2))

    response = action(admin_client, "start_if_due", [due, later])

    due.refresh_from_db()
    later.refresh_from_db()
    assert due.status == Tournament.Status.RUNNING and due.current_round == 1
    assert later.status == Tournament.Status.SCHEDULED
    assert messages_of(response) == [
        "1 tournament started.",
        "1 tournament was not due or not waiting to start.",
    ]


def test_starting_with_too_few_players_cancels(admin_client):
    (alone,) = players(1, coins_each=300)
    tournament = make_tournament("japanese", entry_fee=100)
    register_all(tournament, [alone])
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=tournament.starts_at - timedelta(hours=2)
    )

    response = action(admin_client, "start_if_due", [tournament])

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert coins.wallet_of(alone).balance == 300
    assert "too few players" in messages_of(response)[0]


def test_the_actions_need_staff(client):
    tournament = make_tournament("japanese")
    (player,) = players(1)
    client.force_login(player)

    response = action(
        client, "cancel_with_refunds", [tournament], apply="Cancel", reason="x"
    )

    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("admin:login"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED


def levels_of(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def test_start_now_asks_first_then_starts_before_the_start_time(admin_client):
    tournament = make_tournament("japanese", starts_in=timedelta(hours=5))
    register_all(tournament, players(2))

    asked = action(admin_client, "start_now", [tournament])
    tournament.refresh_from_db()
    assert asked.status_code == 200
    assert "Each waiting tournament starts at once" in asked.content.decode()
    assert tournament.status == Tournament.Status.SCHEDULED

    done = action(admin_client, "start_now", [tournament], apply="Start now")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.current_round == 1
    assert levels_of(done) == [("success", "1 tournament started.")]


def test_start_now_below_the_minimum_is_a_warning_and_changes_nothing(admin_client):
    (alone,) = players(1, coins_each=300)
    tournament = make_tournament("japanese", min_players=3, entry_fee=100)
    register_all(tournament, [alone])

    done = action(admin_client, "start_now", [tournament], apply="Start now")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED
    assert coins.wallet_of(alone).balance == 200  # the fee stays in the pool
    assert levels_of(done) == [
        (
            "warning",
            f"{tournament} did not start: 1 player(s) registered, and it "
            "needs at least 3.",
        )
    ]


def test_a_refused_cancel_is_a_warning(admin_client):
    tournament = make_tournament("japanese")
    services.tournament_cancel(tournament_id=tournament.pk, reason="first")

    done = action(
        admin_client, "cancel_with_refunds", [tournament], apply="Cancel", reason=""
    )

    assert [level for level, _ in levels_of(done)] == ["warning"]
