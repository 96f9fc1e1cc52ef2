"""The API's schema, walked: every refusal code its error schemas list is
produced by a real request through the whole middleware and view stack,
answered as JSON ``{"code", "detail"}`` with the status the schema gives it,
and every code a request here produces is listed. The one the test settings
leave out of reach, ``throttled`` (their rates are generous), is produced
on a real server with its own rates (tests/live/test_documented_codes.py),
as are the 400s of a request uvicorn cannot parse; ``unavailable``, on a
real server whose connections PostgreSQL refuses
(tests/outage/test_database_refuses.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from common.api_errors import API_ERRORS
from games import services
from games.models import Game, GameReview
from games.services import tables as table_services
from joker.review import version
from social.errors import FRIEND_REQUESTS_A_PAIR_PER_DAY, INVITATIONS_PER_MINUTE
from social.services import block_create
from tests.factories import UserFactory
from tests.games.helpers import resign, start_table
from tests.ranked.helpers import established, ranked_game, take_coins
from tests.social.helpers import befriend, open_table
from tests.tournaments.support import make_tournament, register_all, start_now

pytestmark = pytest.mark.django_db

ON_THE_WIRE = {"throttled", "unavailable"}


def documented_codes(client: Client) -> dict[str, set[str]]:
    """Each error schema's ``code`` enum, by schema name: every schema with
    a ``code`` and a ``detail``."""
    schemas = client.get("/api/v1/schema/", {"format": "json"}).json()["components"][
        "schemas"
    ]

    def enum(field: dict) -> set[str]:
        if "enum" in field:
            return set(field["enum"])
        (ref,) = [part["$ref"] for part in field["allOf"]]
        return enum(schemas[ref.rsplit("/", 1)[1]])

    return {
        name: enum(body["properties"]["code"])
        for name, body in schemas.items()
        if {"code", "detail"} <= set(body.get("properties", {}))
    }


def signed_in(user=None) -> Client:
    """A client with a personal token (a new player's unless given)."""
    token = Token.objects.create(user=user or UserFactory())
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")


def join(client: Client, category="japanese", stake=0):
    return client.post(
        "/api/v1/pools/join/",
        {"category": category, "stake": stake},
        content_type="application/json",
    )


def on_tournament(action: str, tournament, client=None):
    client = client or signed_in()
    return client.post(f"/api/v1/tournaments/{tournament.pk}/{action}/")


def locked_out():
    client = Client()
    for attempt in range(5):
        response = client.post(
            "/api/v1/auth/login/", {"username": "someone", "password": f"w{attempt}"}
        )
    return response


def csrf_refused():
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    return client.post("/api/v1/pools/cancel/")


def joined_twice():
    client = signed_in()
    assert join(client).status_code == 201
    return join(client)


def seated_elsewhere():
    seated = ranked_game("japanese").table.seats.first().user
    return join(signed_in(seated), "joker")


def short_of_coins():
    user = UserFactory()
    take_coins(user, 1000)
    return join(signed_in(user), stake=10)


def no_rating_for_a_high_stake():
    return join(signed_in(), stake=500)


def full():
    tournament = make_tournament(max_players=2)
    register_all(tournament, UserFactory.create_batch(2))
    return on_tournament("register", tournament)


def registered_twice():
    tournament, client = make_tournament(), signed_in()
    assert on_tournament("register", tournament, client).status_code == 201
    return on_tournament("register", tournament, client)


def registration_over():
    tournament = make_tournament()
    register_all(tournament, UserFactory.create_batch(3))
    start_now(tournament)
    return on_tournament("register", tournament)


def friends_pair():
    """Two new players who are friends, and a client of the first."""
    nino, giorgi = UserFactory(), UserFactory()
    befriend(nino, giorgi)
    return nino, giorgi, signed_in(nino)


def ask(client: Client, username: str):
    return client.post(
        "/api/v1/friends/requests/",
        {"username": username},
        content_type="application/json",
    )


def invite(client: Client, table, username: str):
    return client.post(
        "/api/v1/invitations/",
        {"table": table.pk, "username": username},
        content_type="application/json",
    )


def asked_across_a_block():
    nino, giorgi = UserFactory(), UserFactory()
    block_create(blocker_id=giorgi.pk, blocked_id=nino.pk)
    return ask(signed_in(nino), giorgi.username)


def asked_twice():
    client, other = signed_in(), UserFactory()
    assert ask(client, other.username).status_code == 201
    return ask(client, other.username)


def asked_and_took_back_too_often():
    client, other = signed_in(), UserFactory()
    for _ in range(FRIEND_REQUESTS_A_PAIR_PER_DAY):
        assert ask(client, other.username).status_code == 201
        cancel = f"/api/v1/friends/requests/{other.username}/cancel/"
        assert client.post(cancel).status_code == 204
    return ask(client, other.username)


def asked_a_friend():
    _, giorgi, client = friends_pair()
    return ask(client, giorgi.username)


def asked_oneself():
    user = UserFactory()
    return ask(signed_in(user), user.username)


def invited_to_a_table_elsewhere():
    _, giorgi, client = friends_pair()
    return invite(client, open_table(UserFactory()), giorgi.username)


def invited_to_a_full_table():
    nino, giorgi, client = friends_pair()
    table = open_table(nino, profile="japanese")
    table_services.seat_add_bot(table_id=table.pk, user=nino, number=1)
    return invite(client, table, giorgi.username)


def invited_a_friend_seated_there():
    nino, giorgi, client = friends_pair()
    table = open_table(nino)
    table_services.seat_take(table_id=table.pk, user=giorgi, number=1)
    return invite(client, table, giorgi.username)


def invited_twice():
    nino, giorgi, client = friends_pair()
    table = open_table(nino)
    assert invite(client, table, giorgi.username).status_code == 201
    return invite(client, table, giorgi.username)


def invited_too_often():
    nino, giorgi, client = friends_pair()
    for _ in range(INVITATIONS_PER_MINUTE):
        assert invite(client, open_table(nino), giorgi.username).status_code == 201
    return invite(client, open_table(nino), giorgi.username)


def accepted_twice():
    nino, giorgi, client = friends_pair()
    answer = invite(client, open_table(nino), giorgi.username).json()
    path = f"/api/v1/invitations/{answer['id']}/accept/"
    as_giorgi = signed_in(giorgi)
    assert as_giorgi.post(path).status_code == 200
    return as_giorgi.post(path)


def invited_a_stranger():
    nino = UserFactory()
    return invite(signed_in(nino), open_table(nino), UserFactory().username)


def finished_match():
    """A Japanese match its second player resigned: the game and players."""
    table, users = start_table("japanese", {"target": 11}, people=2)
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[1])
    return game, users


def review_of_the_current_version_asked_again():
    game, users = finished_match()
    GameReview.objects.update_or_create(
        game=game, defaults={"status": GameReview.Status.DONE, "version": version()}
    )
    return signed_in(users[0]).post(f"/api/v1/games/{game.pk}/review/")


def rematch(game, user=None, method="post"):
    token, _ = Token.objects.get_or_create(user=user or UserFactory())
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    return getattr(client, method)(f"/api/v1/games/{game.pk}/rematch/")


def rematch_of_a_game_being_played():
    table, users = start_table("japanese", {"target": 11}, people=2)
    return rematch(Game.objects.get(table=table), users[0])


def rematch_of_a_tournament_game():
    users = UserFactory.create_batch(2)
    table = services.table_create_seated(
        profile="japanese",
        options={"target": 11},
        turn_seconds=30,
        players=users,
        created_by=users[0],
    )
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[0])
    return rematch(game, users[1])


def rematch_twice():
    game, users = finished_match()
    assert rematch(game, users[0]).status_code == 200
    return rematch(game, users[0])


def rematch_made_already():
    game, users = finished_match()
    for user in users:
        assert rematch(game, user).json()["state"] in ("open", "made")
    return rematch(game, users[0])


def rematch_refused():
    game = ranked_game("japanese")
    users = [seat.user for seat in game.table.seats.order_by("number")]
    resign(game_id=game.pk, user=users[0])
    assert rematch(game, users[0]).status_code == 200
    ranked_game("japanese", users=[users[1], UserFactory()])
    return rematch(game, users[1])


PRODUCERS = {
    "invalid": lambda: Client().get("/api/v1/games/", {"category": "chess"}),
    "parse_error": lambda: signed_in().post(
        "/api/v1/pools/join/", "{oops", content_type="application/json"
    ),
    "bad_request": lambda: Client().get("/api/v1/players/?search=a%00b"),
    "not_authenticated": lambda: Client().get("/api/v1/me/"),
    "authentication_failed": lambda: Client(HTTP_AUTHORIZATION="Token not-a-token").get(
        "/api/v1/me/"
    ),
    "permission_denied": csrf_refused,
    "not_found": lambda: Client().get("/api/v1/games/999999/"),
    "method_not_allowed": lambda: signed_in().delete("/api/v1/me/"),
    "not_acceptable": lambda: Client().get(
        "/api/v1/players/", HTTP_ACCEPT="application/xml"
    ),
    "unsupported_media_type": lambda: signed_in().post(
        "/api/v1/pools/join/", "japanese", content_type="text/plain"
    ),
    "already_waiting": joined_twice,
    "not_waiting": lambda: signed_in().post("/api/v1/pools/cancel/"),
    "ranked_elsewhere": seated_elsewhere,
    "few_coins": short_of_coins,
    "rating_needed": no_rating_for_a_high_stake,
    "closed": registration_over,
    "full": full,
    "registered": registered_twice,
    "not_registered": lambda: on_tournament("withdraw", make_tournament()),
    "not_finished": lambda: Client().get(
        f"/api/v1/tournaments/{make_tournament().pk}/results/"
    ),
    "locked_out": locked_out,
    "blocked": asked_across_a_block,
    "yourself": asked_oneself,
    "already_friends": asked_a_friend,
    "already_requested": asked_twice,
    "not_friends": invited_a_stranger,
    "not_seated": invited_to_a_table_elsewhere,
    "no_free_seat": invited_to_a_full_table,
    "already_seated": invited_a_friend_seated_there,
    "invited_already": invited_twice,
    "invitation_over": accepted_twice,
    "too_many_invitations": invited_too_often,
    "too_many_friend_requests": asked_and_took_back_too_often,
    "game_not_finished": rematch_of_a_game_being_played,
    "not_a_player": lambda: rematch(finished_match()[0]),
    "tournament_game": rematch_of_a_tournament_game,
    "rematch_agreed": rematch_twice,
    "rematch_made": rematch_made_already,
    "no_offer": lambda: rematch(*finished_match_and_player(), method="delete"),
    "rematch_refused": rematch_refused,
    "review_current": review_of_the_current_version_asked_again,
}


def finished_match_and_player():
    game, users = finished_match()
    return game, users[0]


def test_every_error_schema_lists_codes_of_the_one_list(client):
    documented = documented_codes(client)
    assert documented["Error"] == set(API_ERRORS)
    for name, codes in documented.items():
        assert codes <= documented["Error"], name


@pytest.mark.parametrize("code", sorted(set(API_ERRORS) - ON_THE_WIRE))
def test_each_documented_code_is_produced_by_a_real_request(code):
    produce = PRODUCERS.get(code)
    assert produce, f"{code} is documented, but nothing here produces it"
    response = produce()
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert (response.status_code, body["code"]) == (API_ERRORS[code][0], code)
    assert body["detail"]


def test_every_code_produced_here_is_documented(client):
    documented = documented_codes(client)["Error"]
    assert set(PRODUCERS) | ON_THE_WIRE <= documented


def test_an_established_player_is_not_refused_a_high_stake():
    # The producer of rating_needed is refused for its rating, not its coins.
    assert join(signed_in(established("japanese")), stake=500).status_code == 201


DEEP_BODIES = {
    "1,000 arrays": "[" * 1000 + "]" * 1000,
    "1,000 objects": '{"a":' * 1000 + "1" + "}" * 1000,
    "100,000 arrays": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("body", DEEP_BODIES.values(), ids=DEEP_BODIES.keys())
def test_a_body_nested_too_deep_is_a_parse_error_wherever_a_body_is_read(client, body):
    # The standard library's parser, which DRF's JSONParser uses, ran out
    # of stack on it: a RecursionError, a 500.
    paths = client.get("/api/v1/schema/", {"format": "json"}).json()["paths"]
    tournament = make_tournament()
    writes = [
        (path.replace("{id}", str(tournament.pk)), method, "requestBody" in operation)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if method in {"post", "put", "patch", "delete"}
    ]
    assert any(reads for *_, reads in writes)
    for path, method, reads_a_body in writes:
        response = signed_in().generic(
            method.upper(), path, body, content_type="application/json"
        )
        assert response["Content-Type"] == "application/json", path
        if reads_a_body:
            code = response.json()["code"]
            assert (response.status_code, code) == (400, "parse_error"), path
        else:
            assert response.status_code < 500, path
