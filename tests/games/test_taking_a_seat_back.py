"""Who may take back a seat they left: only at a casual table. The live
path (a seat taken back from the bot at its next turn, over real sockets)
is tests/live/test_coming_back.py."""

from __future__ import annotations

import pytest

from common.errors import NotAllowed
from games.live import loading
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def test_a_seat_left_at_a_ranked_or_japanese_table_cannot_be_taken_back():
    game = start_game("georgian-club", people=1, turn_seconds=120)
    live = loading.load(game.pk)
    live.seats[0].left = True
    assert live.seats_can_be_taken_back
    live.at_stake = True
    with pytest.raises(NotAllowed) as refused:
        live.ask_to_rejoin(0)
    assert refused.value.code == "not_allowed"
    assert live.rejoining == set()


def test_a_seat_left_in_japanese_joker_cannot_be_taken_back():
    game = start_game("japanese", people=1, turn_seconds=120)
    live = loading.load(game.pk)
    live.seats[0].left = True
    assert not live.seats_can_be_taken_back
    with pytest.raises(NotAllowed):
        live.ask_to_rejoin(0)
    assert live.rejoining == set()
