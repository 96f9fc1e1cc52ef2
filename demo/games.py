"""Demo content for a fresh local install: players, open tables, and a few
finished ranked games so that leaderboards, replays and wallets have
something to show. Everything goes through the services and the games'
owners, as real play does.

The finished games are played on a clock set two days back (every service
takes its ``now``), so their times are in the past and no timer is left for
the worker: their deadlines are long gone, which the sweep alone handles.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.services import profile_update
from games import services
from games.live.game import LiveGame
from games.live.local import Due, owner_of
from games.live.steps import Step
from games.models import Game
from joker.actions import action_to_json
from joker.bots.autopilot import autopilot_action

DEMO_PASSWORD = "demo"
DEMO_PLAYERS = [
    ("nino", "Nino"),
    ("giorgi", "Giorgi"),
    ("tamar", "Tamar"),
    ("levan", "Levan"),
]
# How far back the demo's finished games were played.
DEMO_PAST = timedelta(days=2)


def create_demo_data() -> list[str]:
    """Create the demo content once; returns what was created (empty if the
    demo players exist already)."""
    User = get_user_model()
    if User.objects.filter(username=DEMO_PLAYERS[0][0]).exists():
        return []
    players = []
    for username, name in DEMO_PLAYERS:
        user = User.objects.create_user(username=username, password=DEMO_PASSWORD)
        profile_update(user=user, display_name=name, language="")
        players.append(user)
    nino, giorgi, tamar, levan = players
    names = ", ".join(user.username for user in players)
    created = [f"players {names} (password {DEMO_PASSWORD!r})"]

    played_at = timezone.now() - DEMO_PAST
    _play_ranked(
        [nino, giorgi],
        profile="japanese",
        options={"target": 21},
        stake=10,
        now=played_at,
    )
    _play_ranked(
        players,
        profile="georgian-club",
        options={"schedule": "nines"},
        stake=10,
        now=played_at + timedelta(hours=6),
    )
    created.append("two finished ranked games (Japanese Joker, Joker nines)")

    table = services.table_create(user=tamar, profile="georgian-club")
    services.seat_add_bot(table_id=table.pk, user=tamar, number=2, bot="practice")
    services.table_create(user=levan, profile="japanese", options={"target": 11})
    created.append("two open tables in the lobby")
    return created


def _play_ranked(users, *, profile, options, stake, now) -> Game:
    """Seat ``users`` at a ranked table at ``now`` and let the autopilot play
    every move (each move is a timeout), as it would for players who never
    moved."""
    table = services.table_create(
        user=users[0], profile=profile, options=options, ranked=True, stake=stake
    )
    for number, user in enumerate(users[1:], start=1):
        services.seat_take(table_id=table.pk, user=user, number=number, now=now)
    game = Game.objects.get(table=table)
    with owner_of(game.pk) as owner:
        owner.play_out(_at_deadline)
    game.refresh_from_db()
    return game


def person_move(live: LiveGame, now) -> Step:
    """The move of the person to move, the one the autopilot would choose,
    sent as their own client sends it (so it counts as their move, not a
    timeout), at ``now``."""
    action = action_to_json(autopilot_action(live.state))
    seat = action.pop("seat")
    return live.decide_play(
        seat,
        action,
        expected_version=live.version,
        client_id=uuid.uuid4().hex,
        now=now,
    )


def _at_deadline(live: LiveGame) -> Due:
    """The move due when the turn's time is up (a game being played has a
    deadline)."""
    assert live.deadline is not None
    return Due(live.deadline)
