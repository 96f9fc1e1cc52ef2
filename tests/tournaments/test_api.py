"""Tournaments in the REST API: /api/v1/tournaments/."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from coins import services as coins
from coins.models import Account
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Board, Entry, Tournament
from tournaments.serializers import TournamentStandingSerializer
from tournaments.standings import Row, standings

from .support import (
    make_tournament,
    play_round,
    play_to_the_end,
    players,
    register_all,
    start_now,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def url(tournament, tail=""):
    return f"{API}{tournament.pk}/{tail}"


def balance(user) -> int:
    return coins.wallet_of(user).balance


def pool(tournament) -> int:
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def with_token(api_client, user):
    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api_client


def keys_of(data) -> set[str]:
    """Every key anywhere in a JSON document."""
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys_of(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys_of(value)}
    return set()


# The list


def test_the_list_puts_what_is_on_and_next_first_then_the_latest_over(api_client):
    later = make_tournament(name="Later", starts_in=timedelta(hours=5))
    sooner = make_tournament(name="Sooner", starts_in=timedelta(hours=1))
    running = make_tournament(name="Running", starts_in=timedelta(minutes=1))
    old = make_tournament(name="Old", starts_in=timedelta(days=-3))
    older = make_tournament(name="Older", starts_in=timedelta(days=-5))
    Tournament.objects.filter(pk=running.pk).update(status="running")
    Tournament.objects.filter(pk__in=[old.pk, older.pk]).update(status="finished")
    called_off = make_tournament(name="Called off", starts_in=timedelta(days=-1))
    services.tournament_cancel(tournament_id=called_off.pk, reason="storm")

    body = api_client.get(API).json()

    assert body["count"] == 6
    assert [t["name"] for t in body["results"]] == [
        "Running",
        "Sooner",
        "Later",
        "Called off",
        "Old",
        "Older",
    ]
    upcoming = api_client.get(API, {"status": "scheduled"}).json()
    assert [t["name"] for t in upcoming["results"]] == ["Sooner", "Later"]
    over = api_client.get(API, {"status": "finished"}).json()
    assert [t["name"] for t in over["results"]] == ["Old", "Older"]
    assert {later.pk, sooner.pk} == {t["id"] for t in upcoming["results"]}


def test_a_listed_tournament_counts_players_and_the_pool(api_client):
    tournament = make_tournament(entry_fee=70, max_players=16)
    a, b, c = players(3)
    register_all(tournament, [a, b, c])
    services.tournament_withdraw(tournament_id=tournament.pk, user=c)

    [item] = api_client.get(API).json()["results"]

    assert item == {
        "id": tournament.pk,
        "url": f"http://testserver{API}{tournament.pk}/",
        "name": "Test japanese",
        "category": "japanese",
        "format": "swiss",
        "status": "scheduled",
        "starts_at": item["starts_at"],
        "entry_fee": 70,
        "players": 2,
        "max_players": 16,
        "pool": 140,
    }
    assert item["starts_at"].startswith(tournament.starts_at.strftime("%Y-%m-%dT%H"))


def test_the_list_filters_by_category_and_pages(api_client):
    for _ in range(3):
        make_tournament("japanese")
    make_tournament("japanese", format="knockout")
    make_tournament("joker")

    def names(**query):
        return [
            (t["category"], t["format"])
            for t in api_client.get(API, query).json()["results"]
        ]

    assert names(category="joker") == [("joker", "multitable")]
    assert (
        sorted(names(category="japanese"))
        == [("japanese", "knockout")] + [("japanese", "swiss")] * 3
    )
    assert names(status="running") == []
    first = api_client.get(API, {"page_size": 2}).json()
    assert first["count"] == 5 and len(first["results"]) == 2
    assert first["next"] is not None


@pytest.mark.parametrize(
    "query", [{"status": "over"}, {"category": "chess"}, {"category": ""}]
)
def test_an_unknown_filter_value_is_a_400(api_client, query):
    make_tournament()
    assert api_client.get(API, query).status_code == 400


# A tournament


def test_the_detail_of_a_scheduled_tournament(api_client):
    tournament = make_tournament(
        "joker",
        name="Sunday Joker",
        entry_fee=50,
        rounds=3,
        final_table=True,
        min_players=4,
        max_players=12,
        prize_split=[60, 40],
        points_for_places=[5, 3, 1, 0],
        turn_seconds=20,
    )
    register_all(tournament, players(2))

    response = api_client.get(url(tournament))

    assert response.status_code == 200
    body = response.json()
    base = f"http://testserver{API}{tournament.pk}/"
    expected = {
        "id": tournament.pk,
        "name": "Sunday Joker",
        "category": "joker",
        "format": "multitable",
        "status": "scheduled",
        "entry_fee": 50,
        "players": 2,
        "max_players": 12,
        "min_players": 4,
        "pool": 100,
        "players_per_table": 4,
        "rounds": 3,
        "current_round": 0,
        "short_match": True,
        "final_table": True,
        "rated": True,
        "rating_category": "joker-nines",
        "points_for_places": [5, 3, 1, 0],
        "prize_split": [60, 40],
        "turn_seconds": 20,
        "registration_open": True,
        "started_at": None,
        "finished_at": None,
        "cancel_reason": "",
        "registered": None,
        "entry_status": None,
        "links": {
            name: f"{base}{name}/"
            for name in ("standings", "pairings", "results", "register", "withdraw")
        },
    }
    assert {k: body[k] for k in expected} == expected
    assert body["url"] == base


def test_the_detail_tells_a_signed_in_player_about_their_entry(api_client):
    tournament = make_tournament()
    a, b = players(2)
    register_all(tournament, [a])

    with_token(api_client, a)
    body = api_client.get(url(tournament)).json()
    assert (body["registered"], body["entry_status"]) == (True, "registered")

    api_client.force_authenticate(b)
    body = api_client.get(url(tournament)).json()
    assert (body["registered"], body["entry_status"]) == (False, None)

    services.tournament_withdraw(tournament_id=tournament.pk, user=a)
    api_client.force_authenticate(a)
    body = api_client.get(url(tournament)).json()
    assert (body["registered"], body["entry_status"]) == (False, "withdrawn")


def test_registration_is_shown_closed_once_the_start_has_come(api_client):
    tournament = make_tournament(starts_in=timedelta(seconds=-5))

    body = api_client.get(url(tournament)).json()

    assert body["status"] == "scheduled"
    assert body["registration_open"] is False


@pytest.mark.parametrize(
    "tail", ["", "standings/", "pairings/", "results/", "register/", "withdraw/"]
)
def test_a_missing_tournament_is_a_404(api_client, tail):
    user = players(1)[0]
    api_client.force_authenticate(user)
    method = api_client.post if tail in ("register/", "withdraw/") else api_client.get

    response = method(f"{API}987654/{tail}")

    assert response.status_code == 404
    if tail in ("register/", "withdraw/"):
        assert response.json()["code"] == "not_found"


# Registering and withdrawing


def test_register_and_withdraw_with_a_token_move_the_fee(api_client):
    tournament = make_tournament(entry_fee=120)
    user = players(1)[0]
    before = balance(user)
    with_token(api_client, user)

    registered = api_client.post(url(tournament, "register/"))

    assert registered.status_code == 201
    body = registered.json()
    assert body["tournament"] == tournament.pk
    assert body["status"] == "registered"
    assert body["entry_fee"] == 120
    assert body["player"]["username"] == user.username
    assert balance(user) == before - 120
    assert pool(tournament) == 120
    assert api_client.get(url(tournament)).json()["players"] == 1

    withdrawn = api_client.post(url(tournament, "withdraw/"))

    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "withdrawn"
    assert balance(user) == before
    assert pool(tournament) == 0
    assert Entry.objects.get(tournament=tournament, user=user).status == "withdrawn"

    again = api_client.post(url(tournament, "register/"))

    assert again.status_code == 201
    assert balance(user) == before - 120
    assert pool(tournament) == 120


def test_register_with_a_session(client):
    tournament = make_tournament(entry_fee=10)
    user = players(1)[0]
    before = balance(user)
    client.force_login(user)

    response = client.post(url(tournament, "register/"), HTTP_ACCEPT="application/json")

    assert response.status_code == 201
    assert balance(user) == before - 10


def accounts() -> list[tuple[int, int]]:
    return list(Account.objects.order_by("pk").values_list("pk", "balance"))


def _refused(api_client, tournament, user, action, status, code):
    """Ask for ``action`` as ``user``: refused with ``status`` and ``code``,
    and no entry, wallet or pool changed."""
    balance(user)
    entries = list(Entry.objects.order_by("pk").values())
    books = accounts()
    api_client.force_authenticate(user)

    response = api_client.post(url(tournament, f"{action}/"))

    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert list(Entry.objects.order_by("pk").values()) == entries
    assert accounts() == books


def test_registering_without_the_coins_is_refused(api_client):
    tournament = make_tournament(entry_fee=100)
    user = players(1, coins_each=99)[0]
    assert balance(user) == 99

    _refused(api_client, tournament, user, "register", 409, "few_coins")

    assert not Entry.objects.exists()


def test_registering_for_a_full_tournament_is_refused(api_client):
    tournament = make_tournament(min_players=2, max_players=2)
    register_all(tournament, players(2))

    _refused(api_client, tournament, players(1)[0], "register", 409, "full")

    assert Entry.objects.count() == 2


def test_registering_twice_is_refused_and_charged_once(api_client):
    tournament = make_tournament(entry_fee=100)
    user = players(1)[0]
    before = balance(user)
    register_all(tournament, [user])

    _refused(api_client, tournament, user, "register", 409, "registered")

    assert balance(user) == before - 100


def test_withdrawing_without_an_entry_is_refused(api_client):
    tournament = make_tournament()
    register_all(tournament, players(1))

    _refused(api_client, tournament, players(1)[0], "withdraw", 409, "not_registered")


@pytest.mark.parametrize("action", ["register", "withdraw"])
def test_after_the_start_time_registration_is_closed(api_client, action):
    tournament = make_tournament(starts_in=timedelta(seconds=-1))
    user = players(1)[0]
    if action == "withdraw":
        Entry.objects.create(tournament=tournament, user=user)

    _refused(api_client, tournament, user, action, 409, "closed")


def test_withdrawing_from_a_running_tournament_is_refused(api_client):
    tournament = make_tournament()
    users = players(3)
    register_all(tournament, users)
    start_now(tournament)

    _refused(api_client, tournament, users[0], "withdraw", 409, "closed")

    assert Entry.objects.get(user=users[0]).status == "playing"


def test_an_account_that_may_not_play_is_refused(api_client):
    tournament = make_tournament()
    user = players(1)[0]
    user.is_active = False
    user.save()

    _refused(api_client, tournament, user, "register", 403, "inactive")


@pytest.mark.parametrize("action", ["register", "withdraw"])
def test_registering_and_withdrawing_need_sign_in(api_client, action):
    tournament = make_tournament()
    user = players(1)[0]
    register_all(tournament, [user])
    before = balance(user)

    response = api_client.post(url(tournament, f"{action}/"))

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"
    assert Entry.objects.get().status == "registered"
    assert balance(user) == before
    assert pool(tournament) == 100


# Standings, pairings and results


def test_nothing_is_paired_or_standing_before_the_start(api_client):
    tournament = make_tournament()
    register_all(tournament, players(3))

    standing = api_client.get(url(tournament, "standings/")).json()
    pairings = api_client.get(url(tournament, "pairings/")).json()
    results = api_client.get(url(tournament, "results/"))

    assert standing == {
        "tournament": tournament.pk,
        "status": "scheduled",
        "current_round": 0,
        "tiebreaks": ["buchholz", "sonneborn_berger"],
        "rows": [],
    }
    assert pairings == {
        "tournament": tournament.pk,
        "status": "scheduled",
        "current_round": 0,
        "rounds": [],
    }
    assert results.status_code == 409
    assert results.json()["code"] == "not_finished"


def test_a_running_swiss_round_is_paired_with_its_games_and_a_bye(api_client):
    tournament = make_tournament(rounds=2)
    users = players(5)
    register_all(tournament, users)
    start_now(tournament)
    by_username = {u.username: u for u in users}

    with CaptureQueriesContext(connection) as queries:
        response = api_client.get(url(tournament, "pairings/"))

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["current_round"]) == ("running", 1)
    [round_] = body["rounds"]
    assert (round_["number"], round_["status"], round_["is_final_table"]) == (
        1,
        "playing",
        False,
    )
    boards = {b.number: b for b in Board.objects.select_related("table__game")}
    assert [b["number"] for b in round_["boards"]] == [1, 2, 3]
    seated = []
    for item in round_["boards"]:
        board = boards[item["number"]]
        assert item["is_bye"] is board.is_bye
        if board.is_bye:
            assert item["finished"] is True
            assert (item["table"], item["game"], item["watch_url"]) == (None,) * 3
            [seat] = item["seats"]
            assert (seat["place"], seat["won"]) == (1, True)
        else:
            assert item["finished"] is False
            assert item["table"] == board.table_id
            assert item["game"] == board.table.game.pk
            assert item["game_status"] == "playing"
            assert item["game_url"].endswith(f"/api/v1/games/{board.table.game.pk}/")
            assert item["watch_url"].endswith(f"/tables/{board.table_id}/")
            assert [s["number"] for s in item["seats"]] == [0, 1]
            for seat in item["seats"]:
                assert seat["bot"] is False
                assert (seat["place"], seat["score"], seat["won"]) == (None,) * 3
        seated += [s["player"]["username"] for s in item["seats"]]
    assert sorted(seated) == sorted(by_username)
    # Seats and results only: no key that could carry a hand, and the games'
    # rows (state and all) are not even read.
    assert keys_of(body) <= {
        "tournament", "status", "current_round", "rounds", "number",
        "is_final_table", "started_at", "finished_at", "boards", "is_bye",
        "finished", "table", "game", "game_status", "game_url", "watch_url",
        "seats", "player", "username", "display_name", "url", "bot", "place",
        "score", "won", "absent",
    }  # fmt: skip
    game_reads = [q["sql"] for q in queries if '"games_game"' in q["sql"]]
    assert game_reads and all('"state"' not in sql for sql in game_reads)
    assert all('"games_dealrecord"' not in q["sql"] for q in queries)


def test_standings_follow_the_finished_games(api_client):
    tournament = make_tournament(rounds=2)
    register_all(tournament, players(5))
    start_now(tournament)
    play_round(tournament)

    body = api_client.get(url(tournament, "standings/")).json()

    assert (body["status"], body["current_round"]) == ("running", 2)
    rows = body["rows"]
    assert len(rows) == 5
    # Round 1: two games of one point each (split on a draw) and a bye worth
    # one; round 2's bye is a finished board from its start, so it counts too.
    assert sum(Fraction(r["points"]) for r in rows) == 4
    assert sorted(r["games"] for r in rows) == [1, 1, 1, 1, 2]
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert rows[0]["place"] == 1
    assert all(r["status"] == "playing" for r in rows)
    expected = standings(tournament)
    assert [
        (r["player"]["username"], r["place"], r["points"], r["tiebreaks"]) for r in rows
    ] == [
        (
            row.entry.user.username,
            row.place,
            str(row.points),
            [str(t) for t in row.tiebreaks],
        )
        for row in expected
    ]
    for r in rows:
        assert r["points_value"] == float(Fraction(r["points"]))
        assert r["tiebreak_values"] == [float(Fraction(t)) for t in r["tiebreaks"]]


def test_fractions_are_given_exact_and_as_floats():
    entry = Entry(user=UserFactory(username="nino"), status="playing")
    row = Row(
        entry=entry,
        place=2,
        points=Fraction(7, 3),
        tiebreaks=(Fraction(5, 2), Fraction(4)),
        games=3,
    )

    data = TournamentStandingSerializer(row).data

    assert data["points"] == "7/3"
    assert data["points_value"] == pytest.approx(2.3333333)
    assert data["tiebreaks"] == ["5/2", "4"]
    assert data["tiebreak_values"] == [2.5, 4.0]
    assert data["player"]["username"] == "nino"
    assert (data["place"], data["games"], data["status"]) == (2, 3, "playing")


def test_a_finished_tournament_publishes_places_and_prizes(api_client):
    tournament = make_tournament(rounds=2, entry_fee=100, prize_split=[70, 30])
    users = players(4)
    before = {u.pk: balance(u) for u in users}
    register_all(tournament, users)
    start_now(tournament)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"

    response = api_client.get(url(tournament, "results/"))

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished"
    assert body["fees_refunded"] is None
    assert body["cancel_reason"] == ""
    assert body["prizes_paid"] == 400
    results = body["results"]
    assert len(results) == 4
    assert sum(r["prize"] for r in results) == 400
    assert [r["place"] for r in results] == sorted(r["place"] for r in results)
    entries = {e.user.username: e for e in tournament.entries.select_related("user")}
    for r in results:
        entry = entries[r["player"]["username"]]
        assert (r["place"], r["prize"]) == (entry.place, entry.prize)
        user = entry.user
        assert balance(user) == before[user.pk] - 100 + entry.prize
    assert results[0]["prize"] >= results[-1]["prize"]

    detail = api_client.get(url(tournament)).json()
    assert (detail["pool"], detail["players"], detail["current_round"]) == (0, 4, 2)
    assert detail["finished_at"] is not None

    pairings = api_client.get(url(tournament, "pairings/")).json()
    assert [r["number"] for r in pairings["rounds"]] == [1, 2]
    for round_ in pairings["rounds"]:
        assert round_["status"] == "finished"
        for board in round_["boards"]:
            assert board["finished"] is True
            assert board["game_status"] == "finished"
            places = [s["place"] for s in board["seats"]]
            assert sorted(places) in ([1, 2], [1, 1])
            for seat in board["seats"]:
                assert seat["won"] is (seat["place"] == 1)
                assert isinstance(seat["score"], int)
                assert seat["absent"] is False

    standing = api_client.get(url(tournament, "standings/")).json()
    assert {r["player"]["username"]: r["place"] for r in standing["rows"]} == {
        name: entry.place for name, entry in entries.items()
    }


def test_a_cancelled_tournament_gives_its_reason_and_the_fees_back(api_client):
    tournament = make_tournament(entry_fee=100)
    users = players(3)
    before = {u.pk: balance(u) for u in users}
    register_all(tournament, users)
    services.tournament_cancel(tournament_id=tournament.pk, reason="server move")

    response = api_client.get(url(tournament, "results/"))

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "cancelled"
    assert body["cancel_reason"] == "server move"
    assert body["fees_refunded"] is True
    assert (body["prizes_paid"], body["results"]) == (0, [])
    assert body["finished_at"] is not None
    assert {u.pk: balance(u) for u in users} == before
    detail = api_client.get(url(tournament)).json()
    assert (detail["status"], detail["cancel_reason"], detail["pool"]) == (
        "cancelled",
        "server move",
        0,
    )


def test_a_tournament_cancelled_while_running(api_client):
    tournament = make_tournament(entry_fee=100)
    users = players(4)
    before = {u.pk: balance(u) for u in users}
    register_all(tournament, users)
    start_now(tournament)
    services.tournament_cancel(tournament_id=tournament.pk, reason="outage")

    results = api_client.get(url(tournament, "results/")).json()
    pairings = api_client.get(url(tournament, "pairings/")).json()

    assert (results["status"], results["cancel_reason"]) == ("cancelled", "outage")
    assert results["fees_refunded"] is True
    assert {u.pk: balance(u) for u in users} == before
    [round_] = pairings["rounds"]
    assert len(round_["boards"]) == 2
    for board in round_["boards"]:
        assert board["game_status"] == "aborted"
        assert all(seat["place"] is None for seat in board["seats"])
        assert all(seat["score"] is None for seat in board["seats"])


def test_a_tournament_short_of_players_is_cancelled_with_the_reason(api_client):
    tournament = make_tournament(entry_fee=100, min_players=4)
    user = players(1)[0]
    before = balance(user)
    register_all(tournament, [user])
    assert start_now(tournament) == "cancelled"

    body = api_client.get(url(tournament, "results/")).json()

    assert (body["status"], body["cancel_reason"]) == ("cancelled", "too few players")
    assert body["fees_refunded"] is True
    assert balance(user) == before


def test_tables_of_four_show_bots_and_the_score_tiebreak(api_client):
    tournament = make_tournament("joker-nines", rounds=2)
    users = players(5)
    register_all(tournament, users)
    start_now(tournament)

    pairings = api_client.get(url(tournament, "pairings/")).json()
    standing = api_client.get(url(tournament, "standings/")).json()

    [round_] = pairings["rounds"]
    seats = [s for b in round_["boards"] for s in b["seats"]]
    assert all(len(b["seats"]) == 4 for b in round_["boards"])
    humans = [s for s in seats if not s["bot"]]
    bots = [s for s in seats if s["bot"]]
    assert len(humans) == 5
    assert bots and all(s["player"] is None for s in bots)
    assert all(b["game"] is not None for b in round_["boards"])
    assert standing["tiebreaks"] == ["score"]
    assert len(standing["rows"]) == 5


def test_a_knockout_lists_who_is_out(api_client):
    tournament = make_tournament(format="knockout")
    register_all(tournament, players(4))
    start_now(tournament)
    play_round(tournament)

    body = api_client.get(url(tournament, "standings/")).json()

    assert body["tiebreaks"] == []
    notes = sorted((r["note"], r["status"]) for r in body["rows"])
    assert notes == [
        ("", "playing"),
        ("", "playing"),
        ("out", "eliminated"),
        ("out", "eliminated"),
    ]
    assert all(r["tiebreaks"] == [] for r in body["rows"])
    assert [r["place"] for r in body["rows"]] == [1, 1, 3, 3]


# The API root and the schema


def test_the_api_root_links_the_tournaments(api_client):
    assert api_client.get("/api/v1/").json()["tournaments"] == (
        f"http://testserver{API}"
    )


def test_the_schema_documents_the_tournaments_and_validates(api_client, tmp_path):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    tails = ("", "standings/", "pairings/", "results/", "register/", "withdraw/")
    paths = {API} | {f"{API}{{id}}/{tail}" for tail in tails}
    assert paths <= set(schema["paths"])
    register = schema["paths"][f"{API}{{id}}/register/"]["post"]
    assert {"201", "403", "404", "409"} <= set(register["responses"])
    assert "409" in schema["paths"][f"{API}{{id}}/results/"]["get"]["responses"]
    # The other apps' enums keep their names.
    assert {"StatusEnum", "CategoryEnum", "TournamentStatusEnum"} <= set(
        schema["components"]["schemas"]
    )
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )


def test_running_tournaments_are_counted_by_who_took_part(api_client):
    tournament = make_tournament()
    users = players(4)
    register_all(tournament, users)
    services.tournament_withdraw(tournament_id=tournament.pk, user=users[3])
    start_now(tournament)

    [item] = api_client.get(API, {"status": "running"}).json()["results"]

    assert (item["players"], item["pool"]) == (3, 300)
