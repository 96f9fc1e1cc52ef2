"""Demo tournaments for a fresh local install: one finished (standings,
pairings and prizes to look at), two open for registration (one of them an
arena), and a daily recurring one. Everything goes through the services and
the games' owners, as real play does; the finished one on a clock set back
(see demo.games), so that its times are in the past and it leaves no timers
behind."""

from __future__ import annotations

from datetime import time, timedelta

from django.utils import timezone

from demo.games import DEMO_PAST, person_move
from games.live.game import LiveGame
from games.live.local import owner_of
from games.live.steps import Step
from games.models import Game
from tournaments import services
from tournaments.models import Board, Schedule, Tournament


def create_demo_tournaments(players: list) -> list[str]:
    """``players``: four demo users with coins. Returns what was created."""
    if Tournament.objects.exists():
        return []
    now = timezone.now()
    starts_at = now - DEMO_PAST + timedelta(hours=12)
    finished = services.tournament_create(
        name="Demo Cup",
        category="japanese",
        format="swiss",
        rounds=2,
        short_match=True,
        starts_at=starts_at,
        entry_fee=20,
        min_players=2,
        max_players=16,
        prize_split=[70, 30],
    )
    # Three players: two rounds, each with one game and a bye.
    for user in players[:3]:
        services.tournament_register(
            tournament_id=finished.pk, user=user, now=starts_at - timedelta(hours=1)
        )
    services.tournament_start(
        tournament_id=finished.pk, now=starts_at + timedelta(seconds=1)
    )
    _play_out(finished)

    upcoming = services.tournament_create(
        name="Friday Joker",
        category="joker-nines",
        format="multitable",
        rounds=3,
        final_table=True,
        starts_at=now + timedelta(days=2),
        entry_fee=50,
        min_players=4,
        max_players=32,
    )
    for user in players[:2]:
        services.tournament_register(tournament_id=upcoming.pk, user=user)

    arena = services.tournament_create(
        name="Japanese Arena",
        category="japanese",
        format="arena",
        duration_minutes=30,
        starts_at=now + timedelta(days=1),
        entry_fee=10,
        min_players=2,
        max_players=64,
    )
    services.tournament_register(tournament_id=arena.pk, user=players[0])

    Schedule.objects.create(
        name="Evening Japanese",
        category="japanese",
        format="swiss",
        rounds=4,
        short_match=True,
        time_of_day=time(20, 0),
        entry_fee=10,
        min_players=4,
    )
    services.tournament_create_scheduled(now=now)
    return [
        "a finished Swiss tournament (Japanese Joker)",
        "an open Joker tournament with a final table",
        "an open half-hour Japanese Joker arena",
        "a daily Japanese Joker tournament at 20:00 UTC",
    ]


def _play_out(tournament: Tournament) -> None:
    """Play every game with the autopilot's moves, round after round, each
    move a second before its deadline."""
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return
        boards = Board.objects.filter(
            round__tournament=tournament, finished=False, table__isnull=False
        )
        for board in boards:
            game = Game.objects.get(table=board.table_id)
            with owner_of(game.pk) as owner:
                owner.play_out(_just_in_time)
            game.refresh_from_db()
            services.board_take_result(board_id=board.pk, now=game.finished_at)


def _just_in_time(live: LiveGame) -> Step:
    """The person's move a second before the turn's time is up."""
    assert live.deadline is not None  # a game being played has one
    return person_move(live, live.deadline - timedelta(seconds=1))
