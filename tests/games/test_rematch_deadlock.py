"""Two ranked rematches of the same two players, agreed at the same moment
with the seats the other way round, on real concurrent transactions.

Each rematch locks both players' rows to seat them; taken in seat order,
one request would lock A then B and the other B then A, and PostgreSQL
would kill one of them (``DeadlockDetected``), which the API answered with
a 500. Players' rows are locked lowest id first, so the two go one after
the other: one rematch is made, the other is refused with a clear code.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Game
from games.services.rematch import rematch_agree
from tests.factories import UserFactory
from tests.games.helpers import resign
from tests.ranked.helpers import ranked_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ROUNDS = 10


def finished_ranked(users) -> Game:
    """A ranked Japanese Joker game of ``users`` in that seat order, over."""
    game = ranked_game("japanese", users=users)
    resign(game_id=game.pk, user=users[1])
    return game


def agree_at_once(calls) -> list[tuple[int, str]]:
    """POST each (game, user) rematch agreement on a thread of its own, with
    its own connection, released together; each answer's status and code."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def post(index, game, user):
        client = APIClient(raise_request_exception=False)
        client.force_authenticate(user)
        try:
            barrier.wait(timeout=30)
            response = client.post(f"/api/v1/games/{game.pk}/rematch/")
            body = response.json() if response.status_code != 500 else {}
            answers[index] = (response.status_code, body.get("code", body.get("state")))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=post, args=(index, game, user))
        for index, (game, user) in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_rematches_with_reversed_seats_agreed_at_once_never_deadlock():
    for _ in range(ROUNDS):
        first, second = UserFactory(), UserFactory()
        forward = finished_ranked([first, second])
        backward = finished_ranked([second, first])
        # Each game's offer made by one player; the other's click makes it.
        rematch_agree(game_id=forward.pk, user=first)
        rematch_agree(game_id=backward.pk, user=first)

        answers = agree_at_once([(forward, second), (backward, second)])

        # One rematch seats both; the other finds them seated at a live
        # ranked table already, and says so.
        assert sorted(answers) == [(200, "made"), (409, "rematch_refused")]
