"""Games in the REST API: lists with filters, details, records."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Game
from games.services.annul import game_annul
from joker.record import replay
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import resign
from tests.ranked.helpers import finish, ranked_game, users_by_seat

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
# Every card code that can be written: 6-A in four suits and both jokers.
CARD_CODE = re.compile(r"\b(?:[6-9TJQKA][SHDC]|X[12])\b")


def casual_game(profile="japanese", options=None, *, private=False, users=None):
    """A casual game between people, just started."""
    options = {"target": 11} if options is None and profile == "japanese" else options
    players = 2 if profile == "japanese" else 4
    users = users or [UserFactory() for _ in range(players)]
    table = services.table_create(
        user=users[0], profile=profile, options=options, is_private=private
    )
    for number, user in enumerate(users[1:], start=1):
        services.seat_take(
            table_id=table.pk, user=user, number=number, invite_code=table.invite_code
        )
    return Game.objects.get(table=table)


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


# The list


def test_anyone_may_list_games_newest_first(api_client):
    first = finish(ranked_game("japanese", stake=10))
    second = casual_game()

    response = api_client.get(GAMES)

    assert ids(response) == [second.pk, first.pk]
    assert response.json()["count"] == 2


def test_a_game_as_listed(api_client):
    game = finish(ranked_game("japanese", stake=10))
    users = users_by_seat(game)

    (listed,) = api_client.get(GAMES).json()["results"]

    assert listed["id"] == game.pk
    assert listed["url"] == f"http://testserver/api/v1/games/{game.pk}/"
    assert listed["table"] == game.table_id
    assert (listed["profile"], listed["category"]) == ("japanese", "japanese")
    assert listed["options"]["target"] == 21
    assert (listed["ranked"], listed["stake"], listed["status"]) == (
        True,
        10,
        "finished",
    )
    assert listed["started"] and listed["finished"]
    assert [seat["username"] for seat in listed["seats"]] == [
        user.username for user in users
    ]
    assert [seat["name"] for seat in listed["seats"]] == [u.username for u in users]
    assert (listed["settlement"], listed["points_per_coin"]) == ("pot", None)
    (winner,) = game.result["winners"]
    assert listed["result"] == {
        **{key: game.result[key] for key in ("totals", "places", "winners", "left")},
        # The winner took the pot of 2 x 10: 10 more than the stake.
        "nets": [10 if seat == winner else -10 for seat in range(2)],
    }
    assert listed["record"] == f"http://testserver/api/v1/games/{game.pk}/record/"
    assert "rating_changes" not in listed


def test_a_game_in_progress_is_listed_without_cards(api_client):
    game = casual_game("georgian-club", {"schedule": "nines"})

    response = api_client.get(GAMES)

    (listed,) = response.json()["results"]
    assert (listed["status"], listed["result"], listed["finished"]) == (
        "playing",
        None,
        None,
    )
    assert listed["record"] is None
    assert listed["category"] == "joker-nines" and listed["ranked"] is False
    body = response.content.decode()
    assert not CARD_CODE.search(body)
    for secret in ("hand", "deal", "state", "salt"):
        assert f'"{secret}' not in body
    assert game.pk == listed["id"]


def test_bots_have_no_username(api_client):
    user = UserFactory()
    table = services.table_create(user=user, profile="japanese", options={"target": 11})
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")

    (listed,) = api_client.get(GAMES).json()["results"]

    assert [seat["username"] for seat in listed["seats"]] == [user.username, None]
    assert listed["seats"][1]["bot"] == "autopilot"


# Filters


def test_filter_by_player(api_client):
    game = casual_game()
    other = casual_game()
    player = users_by_seat(game)[1]

    assert ids(api_client.get(GAMES, {"player": player.username})) == [game.pk]
    assert ids(api_client.get(GAMES, {"player": "nobody"})) == []
    # A name the schema allows, control characters included, is looked up
    # as given, not trimmed into a blank and refused (Schemathesis, ST202).
    assert ids(api_client.get(GAMES, {"player": "\x1d"})) == []
    assert api_client.get(GAMES, {"player": ""}).status_code == 400
    assert other.pk in ids(api_client.get(GAMES))


def test_filter_by_category(api_client):
    nines = casual_game("georgian-club", {"schedule": "nines"})
    japanese = ranked_game("japanese")
    casual_game("japanese", {"target": 11})

    assert ids(api_client.get(GAMES, {"category": "joker-nines"})) == [nines.pk]
    assert ids(api_client.get(GAMES, {"category": "japanese"})) == [japanese.pk]
    assert ids(api_client.get(GAMES, {"category": "joker"})) == []
    response = api_client.get(GAMES, {"category": "chess"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "category" in response.json()["fields"]


def test_filter_by_ranked(api_client):
    ranked = ranked_game("japanese")
    casual = casual_game()

    assert ids(api_client.get(GAMES, {"ranked": "true"})) == [ranked.pk]
    assert ids(api_client.get(GAMES, {"ranked": "false"})) == [casual.pk]
    assert ids(api_client.get(GAMES)) == [casual.pk, ranked.pk]
    assert api_client.get(GAMES, {"ranked": "perhaps"}).status_code == 400


def test_filter_by_status(api_client):
    finished = finish(ranked_game("japanese"))
    playing = casual_game()
    annulled = finish(ranked_game("japanese"))
    game_annul(game_id=annulled.pk, by=StaffUserFactory())

    assert ids(api_client.get(GAMES, {"status": "finished"})) == [finished.pk]
    assert ids(api_client.get(GAMES, {"status": "playing"})) == [playing.pk]
    assert ids(api_client.get(GAMES, {"status": "annulled"})) == [annulled.pk]
    assert api_client.get(GAMES, {"status": "won"}).status_code == 400


def test_filter_by_dates(api_client):
    old, new = casual_game(), casual_game()
    today = timezone.localdate()
    Game.objects.filter(pk=old.pk).update(
        started_at=timezone.now() - timedelta(days=10)
    )
    ten_days_ago = (today - timedelta(days=10)).isoformat()

    assert ids(api_client.get(GAMES, {"date_from": today.isoformat()})) == [new.pk]
    assert ids(api_client.get(GAMES, {"date_to": ten_days_ago})) == [old.pk]
    both = {"date_from": ten_days_ago, "date_to": today.isoformat()}
    assert ids(api_client.get(GAMES, both)) == [new.pk, old.pk]
    assert api_client.get(GAMES, {"date_from": "yesterday"}).status_code == 400
    # A range that ends before it starts holds no game.
    backwards = {"date_from": today.isoformat(), "date_to": ten_days_ago}
    assert ids(api_client.get(GAMES, backwards)) == []


def test_filters_combine(api_client):
    player = UserFactory()
    mine = finish(ranked_game("japanese", users=[player, UserFactory()]))
    casual_game(users=[player, UserFactory()])
    finish(ranked_game("japanese"))

    query = {"player": player.username, "ranked": "true", "status": "finished"}
    assert ids(api_client.get(GAMES, query)) == [mine.pk]


# Private tables


def test_a_private_game_is_shown_only_to_its_players(api_client):
    game = casual_game(private=True)
    player = users_by_seat(game)[0]
    detail = f"{GAMES}{game.pk}/"

    assert ids(api_client.get(GAMES)) == []
    assert api_client.get(detail).status_code == 404
    api_client.force_authenticate(UserFactory())
    assert ids(api_client.get(GAMES)) == []
    assert api_client.get(detail).status_code == 404

    api_client.force_authenticate(player)
    assert ids(api_client.get(GAMES)) == [game.pk]
    assert api_client.get(detail).status_code == 200


# Details


def test_the_detail_has_the_rating_changes(api_client):
    game = finish(ranked_game("japanese", stake=10))
    users = users_by_seat(game)

    response = api_client.get(f"{GAMES}{game.pk}/")

    assert response.status_code == 200
    data = response.json()
    assert data["id"] == game.pk and data["status"] == "finished"
    changes = data["rating_changes"]
    assert [c["username"] for c in changes] == [u.username for u in users]
    assert [c["seat"] for c in changes] == [0, 1]
    for change in changes:
        assert change["category"] == "japanese"
        assert change["before"] == 1500
        assert change["after"] == change["before"] + change["delta"]
    assert changes[0]["delta"] == -changes[1]["delta"] != 0


def test_an_unrated_or_annulled_game_has_no_rating_changes(api_client):
    casual = finish(casual_game())
    annulled = finish(ranked_game("japanese"))
    game_annul(game_id=annulled.pk, by=StaffUserFactory())

    for game in (casual, annulled):
        assert api_client.get(f"{GAMES}{game.pk}/").json()["rating_changes"] == []


def test_no_such_game(api_client):
    assert api_client.get(f"{GAMES}999/").status_code == 404
    assert api_client.get(f"{GAMES}999/record/").status_code == 404


# Records


def test_the_record_of_a_finished_game_replays(api_client):
    game = finish(ranked_game("japanese"))

    response = api_client.get(f"{GAMES}{game.pk}/record/")

    assert response.status_code == 200
    state = replay(response.json()).state
    assert state.is_over
    assert list(state.totals) == game.result["totals"]


def test_no_record_while_the_game_is_being_played(api_client):
    game = casual_game()
    player = users_by_seat(game)[0]

    assert api_client.get(f"{GAMES}{game.pk}/record/").status_code == 404
    api_client.force_authenticate(player)
    response = api_client.get(f"{GAMES}{game.pk}/record/")
    assert response.status_code == 404
    assert not CARD_CODE.search(response.content.decode())


def test_a_private_record_is_refused_to_others(api_client):
    game = casual_game(private=True)
    player = users_by_seat(game)[1]
    resign(game_id=game.pk, user=player)
    record = f"{GAMES}{game.pk}/record/"

    assert api_client.get(record).status_code == 404
    api_client.force_authenticate(UserFactory())
    assert api_client.get(record).status_code == 404
    api_client.force_authenticate(player)
    assert api_client.get(record).status_code == 200


def test_an_annulled_game_in_progress_publishes_its_record(api_client):
    game = casual_game()
    game_annul(game_id=game.pk, by=StaffUserFactory())

    response = api_client.get(f"{GAMES}{game.pk}/record/")

    assert response.status_code == 200
    assert not replay(response.json()).state.is_over


# Reading only, and the schema


def test_the_api_is_read_only(api_client):
    game = casual_game()
    api_client.force_authenticate(users_by_seat(game)[0])
    assert api_client.post(GAMES, {}).status_code == 405
    assert api_client.delete(f"{GAMES}{game.pk}/").status_code == 405


def test_the_list_reads_a_page_in_a_few_queries(
    api_client, django_assert_max_num_queries
):
    for _ in range(5):
        finish(ranked_game("japanese"))
    with django_assert_max_num_queries(6):
        assert len(ids(api_client.get(GAMES))) == 5


def test_the_schema_documents_the_games_and_validates(tmp_path):
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )
    schema = (tmp_path / "schema.yml").read_text()
    for path in (
        "/api/v1/games/:",
        "/api/v1/games/{id}/:",
        "/api/v1/games/{id}/record/:",
    ):
        assert path in schema
    for parameter in ("player", "category", "date_from", "date_to", "ranked"):
        assert f"name: {parameter}" in schema
