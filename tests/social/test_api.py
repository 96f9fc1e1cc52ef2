"""The social API (/api/v1/friends/, /blocks/, /invitations/) end to end,
with personal tokens: what the player sees and what each write does."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from games.models import Seat
from social import selectors
from tests.factories import UserFactory
from tests.social.helpers import befriend, open_table

pytestmark = pytest.mark.django_db


def api(user) -> Client:
    token, _ = Token.objects.get_or_create(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")


def post(client, path, data=None):
    return client.post(path, data or {}, content_type="application/json")


def test_a_friendship_from_request_to_unfriending():
    nino, giorgi = UserFactory(username="nino"), UserFactory(username="giorgi")
    as_nino, as_giorgi = api(nino), api(giorgi)

    response = post(as_nino, "/api/v1/friends/requests/", {"username": "giorgi"})
    assert (response.status_code, response.json()) == (201, {"result": "requested"})
    requests = as_giorgi.get("/api/v1/friends/requests/").json()
    assert [r["username"] for r in requests["received"]] == ["nino"]
    assert requests["sent"] == []
    again = post(as_nino, "/api/v1/friends/requests/", {"username": "giorgi"})
    assert (again.status_code, again.json()["code"]) == (409, "already_requested")

    assert post(as_giorgi, "/api/v1/friends/requests/nino/accept/").status_code == 204
    friends = as_nino.get("/api/v1/friends/").json()
    assert friends == [
        {"username": "giorgi", "name": "giorgi", "online": False, "table": None}
    ]

    table = open_table(giorgi)
    [friend] = as_nino.get("/api/v1/friends/").json()
    assert friend["table"] == {
        "id": table.pk,
        "playing": False,
        "url": f"/tables/{table.pk}/",
    }

    assert as_nino.delete("/api/v1/friends/giorgi/").status_code == 204
    assert as_giorgi.get("/api/v1/friends/").json() == []
    gone = as_nino.delete("/api/v1/friends/giorgi/")
    assert (gone.status_code, gone.json()["code"]) == (409, "not_friends")


def test_a_friend_at_a_private_table_shows_no_table_to_those_not_seated_there():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    open_table(giorgi, is_private=True)
    [friend] = api(nino).get("/api/v1/friends/").json()
    assert friend["table"] is None


def test_requests_are_declined_and_taken_back():
    nino, giorgi = UserFactory(username="nino"), UserFactory(username="giorgi")
    post(api(nino), "/api/v1/friends/requests/", {"username": "giorgi"})
    assert (
        post(api(giorgi), "/api/v1/friends/requests/nino/decline/").status_code == 204
    )
    post(api(nino), "/api/v1/friends/requests/", {"username": "giorgi"})
    assert post(api(nino), "/api/v1/friends/requests/giorgi/cancel/").status_code == 204
    missing = post(api(giorgi), "/api/v1/friends/requests/nino/accept/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_blocks_listed_made_and_lifted():
    nino, giorgi = UserFactory(username="nino"), UserFactory(username="giorgi")
    befriend(nino, giorgi)
    as_nino = api(nino)
    assert post(as_nino, "/api/v1/blocks/", {"username": "giorgi"}).status_code == 201
    assert [b["username"] for b in as_nino.get("/api/v1/blocks/").json()] == ["giorgi"]
    assert as_nino.get("/api/v1/friends/").json() == []
    refused = post(api(giorgi), "/api/v1/friends/requests/", {"username": "nino"})
    assert (refused.status_code, refused.json()["code"]) == (409, "blocked")
    assert as_nino.delete("/api/v1/blocks/giorgi/").status_code == 204
    assert as_nino.get("/api/v1/blocks/").json() == []


def test_an_invitation_made_listed_and_accepted_seats_the_friend():
    nino, giorgi = UserFactory(username="nino"), UserFactory(username="giorgi")
    befriend(nino, giorgi)
    table = open_table(nino)
    made = post(
        api(nino), "/api/v1/invitations/", {"table": table.pk, "username": "giorgi"}
    )
    assert made.status_code == 201
    invitation = made.json()
    assert (invitation["sender"]["username"], invitation["to"]["username"]) == (
        "nino",
        "giorgi",
    )
    listed = api(giorgi).get("/api/v1/invitations/").json()
    assert [i["id"] for i in listed["received"]] == [invitation["id"]]

    accepted = post(api(giorgi), f"/api/v1/invitations/{invitation['id']}/accept/")
    assert accepted.json() == {"table": table.pk, "url": f"/tables/{table.pk}/"}
    assert Seat.objects.get(table=table, number=1).user == giorgi
    again = post(api(giorgi), f"/api/v1/invitations/{invitation['id']}/accept/")
    assert (again.status_code, again.json()["code"]) == (409, "invitation_over")


def test_a_declined_invitation_is_no_longer_listed():
    nino, giorgi = UserFactory(username="nino"), UserFactory(username="giorgi")
    befriend(nino, giorgi)
    table = open_table(nino)
    made = post(
        api(nino), "/api/v1/invitations/", {"table": table.pk, "username": "giorgi"}
    )
    path = f"/api/v1/invitations/{made.json()['id']}/decline/"
    assert post(api(giorgi), path).status_code == 204
    assert api(nino).get("/api/v1/invitations/").json() == {"received": [], "sent": []}
    assert selectors.free_seats(table.pk) == [1, 2, 3]


def test_everything_here_is_for_signed_in_players_only():
    for path in ["/api/v1/friends/", "/api/v1/blocks/", "/api/v1/invitations/"]:
        assert Client().get(path).status_code == 401
