"""The friends page, the buttons on a player's page and at a waiting
table, and the forms behind them."""

import pytest
from django.test import Client

from accounts.models import Profile
from games.models import Seat
from social import selectors
from social.models import Invitation
from tests.factories import UserFactory
from tests.social.helpers import befriend, open_table

pytestmark = pytest.mark.django_db

PAYLOAD = "<script>alert(1)</script>"


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_friends_page_lists_friends_requests_and_blocks_escaped():
    nino, giorgi, tamar, levan = UserFactory.create_batch(4)
    Profile.objects.create(user=giorgi, display_name=PAYLOAD)
    befriend(nino, giorgi)
    browser(tamar).post("/friends/request/", {"username": nino.username})
    browser(nino).post(f"/friends/blocks/{levan.pk}/")

    page = browser(nino).get("/friends/").content.decode()
    assert PAYLOAD not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f'data-friend="{giorgi.username}"' in page
    assert "asks to be your friend" in page
    assert f"/friends/blocks/{levan.pk}/lift/" in page


def test_the_friends_page_is_for_signed_in_players():
    response = Client().get("/friends/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_request_from_a_players_page_and_its_answer():
    nino, giorgi = UserFactory.create_batch(2)
    page = f"/players/{giorgi.username}/"
    assert "Add friend" in browser(nino).get(page).content.decode()
    response = browser(nino).post(
        "/friends/request/", {"username": giorgi.username, "next": page}
    )
    assert response["Location"] == page
    assert "Friend request sent" in browser(nino).get(page).content.decode()
    answer = browser(giorgi).get(f"/players/{nino.username}/").content.decode()
    assert "Accept friend request" in answer
    browser(giorgi).post(f"/friends/requests/{nino.pk}/accept/")
    assert selectors.are_friends(nino.pk, giorgi.pk)


def test_a_refusal_is_said_and_changes_nothing():
    nino, giorgi = UserFactory.create_batch(2)
    browser(giorgi).post(f"/friends/blocks/{nino.pk}/")
    client = browser(nino)
    response = client.post(
        "/friends/request/", {"username": giorgi.username}, follow=True
    )
    assert "one of you has blocked the other" in response.content.decode()
    assert selectors.relation(nino.pk, giorgi.pk) == "none"
    missing = client.post("/friends/request/", {"username": "nobody"}, follow=True)
    assert "There is no player called nobody." in missing.content.decode()


def test_a_player_page_does_not_offer_buttons_to_oneself_or_visitors():
    nino = UserFactory()
    page = f"/players/{nino.username}/"
    assert "Add friend" not in browser(nino).get(page).content.decode()
    assert "Add friend" not in Client().get(page).content.decode()


def test_a_waiting_table_offers_its_seated_player_to_invite_a_friend():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    befriend(nino, giorgi)
    table = open_table(nino)
    page = browser(nino).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="invite-friend"' in page
    assert f'<option value="{giorgi.pk}">' in page
    # Not to someone without a seat there.
    befriend(tamar, giorgi)
    other = browser(tamar).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="invite-friend"' not in other

    response = browser(nino).post(
        "/friends/invite/",
        {"table": table.pk, "friend": giorgi.pk, "next": f"/tables/{table.pk}/"},
    )
    assert response["Location"] == f"/tables/{table.pk}/"
    invitation = Invitation.objects.get()
    answered = browser(giorgi).post(f"/friends/invitations/{invitation.pk}/accept/")
    assert answered["Location"] == f"/tables/{table.pk}/"
    assert Seat.objects.get(table=table, number=1).user == giorgi


def test_an_unknown_answer_or_a_huge_id_is_a_404():
    nino = UserFactory()
    client = browser(nino)
    assert client.post("/friends/requests/1/dance/").status_code == 404
    assert (
        client.post("/friends/requests/99999999999999999999/accept/").status_code == 404
    )
    bad = client.post("/friends/invite/", {"table": "x"}, follow=True)
    assert "Choose a friend to invite." in bad.content.decode()
