"""Helpers for the tournament tests: players with coins, tournaments that
start now, and playing their games out through the live-play services."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.utils import timezone

from coins import services as coins
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tournaments import services
from tournaments.models import Board, Tournament

DEFAULTS = {
    "joker": {"format": "multitable", "rounds": 2},
    "joker-nines": {"format": "multitable", "rounds": 2},
    "japanese": {"format": "swiss", "rounds": 3},
}


def players(count: int, coins_each: int = 1000) -> list:
    """``count`` new users whose wallets hold exactly ``coins_each``."""
    made = []
    for _ in range(count):
        user = UserFactory(username=f"t-{uuid.uuid4().hex[:10]}")
        change = coins_each - coins.wallet_of(user).balance
        if change:
            coins.coins_adjust(
                user=user, amount=change, reason_text="test wallet", by=user
            )
        made.append(user)
    return made


def make_tournament(category="japanese", starts_in=timedelta(hours=1), **fields):
    settings = {
        "name": f"Test {category}",
        "category": category,
        "starts_at": timezone.now() + starts_in,
        "entry_fee": 100,
        "min_players": 2,
        "max_players": 64,
        "short_match": True,
        "turn_seconds": 30,
        **DEFAULTS[category],
        **fields,
    }
    return services.tournament_create(**settings)


def register_all(tournament: Tournament, users: list) -> None:
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)


def start_now(tournament: Tournament) -> str | None:
    return services.tournament_start(
        tournament_id=tournament.pk, now=tournament.starts_at + timedelta(seconds=1)
    )


def open_boards(tournament: Tournament) -> list[Board]:
    return list(
        Board.objects.filter(
            round__tournament=tournament, finished=False, table__isnull=False
        ).select_related("table__game")
    )


def play_round(tournament: Tournament, absent: frozenset = frozenset()) -> None:
    """Play every open game of the current round and take the results in
    (as the worker's task would)."""
    for board in open_boards(tournament):
        play_out(board.table.game.pk, absent)
        services.board_take_result(board_id=board.pk)


def play_to_the_end(tournament: Tournament, absent=frozenset(), limit=20) -> None:
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return
        play_round(tournament, absent)
    raise AssertionError("the tournament did not end")
