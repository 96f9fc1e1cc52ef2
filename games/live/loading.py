"""Reading a live game back from the database, as its owner holds it: the
state at its last snapshot with the events after it replayed, the seats, the
clocks, the presence and the answers to action ids; and what the snapshot
of a game that is over adds."""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from django.conf import settings
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from games import rows
from games.live import broadcast
from games.live.game import LiveGame, SeatInfo, Timing, public_step
from games.live.statements import presence_from_json
from games.models import Game, GameEvent, replay_events
from games.selectors import game_ending
from joker.actions import action_from_json
from joker.codec import state_from_json


def load(game_id: int, *, client_id: str | None = None) -> LiveGame | None:
    """The game as its owner holds it, read from the database; None when
    there is no such game. The answers to action ids are read for every id,
    or for ``client_id`` alone when given."""
    return load_many([game_id], client_id=client_id).get(game_id)


def load_many(
    game_ids: list[int], *, client_id: str | None = None
) -> dict[int, LiveGame]:
    """``load`` for many games at once (a takeover of a dead server's games):
    one query per kind of row, whatever the number of games. Games that do
    not exist are left out."""
    games = list(Game.objects.select_related("table").filter(pk__in=game_ids))
    if not games:
        return {}
    ids = [game.pk for game in games]
    seats = rows.seats_of_tables([game.table_id for game in games])
    # Every deal saves the state, so the events after the snapshot hold the
    # whole of the deal being played.
    # One range of the (game, version) index per game.
    after_snapshots = reduce(
        operator.or_,
        (Q(game_id=game.pk, version__gt=game.state_version) for game in games),
    )
    later: dict[int, list[Any]] = {game_id: [] for game_id in ids}
    for game_id, kind, action in (
        GameEvent.objects.filter(after_snapshots)
        .order_by("game_id", "version")
        .values_list("game_id", "kind", "action")
    ):
        later[game_id].append((kind, action))
    answers: dict[int, dict[tuple[int, str], int]] = {game_id: {} for game_id in ids}
    answered = GameEvent.objects.filter(game_id__in=ids).exclude(client_id="")
    if client_id is not None:
        answered = answered.filter(client_id=client_id)
    for game_id, seat, client, version in answered.values_list(
        "game_id", "seat", "client_id", "version"
    ):
        # Only a seat's own actions are answered (``LiveGame.answers``).
        if seat is not None:
            answers[game_id][(seat, client)] = version
    # Why each seat that left did (its latest resignation's cause): the
    # player coming back is told (``LiveGame``, ``SeatInfo.left_cause``).
    left_causes: dict[int, dict[int, str]] = {game_id: {} for game_id in ids}
    for game_id, seat, cause in (
        GameEvent.objects.filter(game_id__in=ids, action__has_key="resign")
        .order_by("version")
        .values_list("game_id", "seat", "cause")
    ):
        if seat is not None:  # a resignation is always a seat's
            left_causes[game_id][seat] = cause
    loaded = {}
    for game in games:
        table = game.table
        events = later[game.pk]
        loaded[game.pk] = LiveGame(
            game_id=game.pk,
            table_id=table.pk,
            state=replay_events(game.pk, state_from_json(game.state), events),
            version=game.version,
            state_version=game.state_version,
            deadline=game.deadline,
            seats=[
                SeatInfo(
                    s.number,
                    s.user_id,
                    s.bot,
                    s.left,
                    s.display_name,
                    left_cause=left_causes[game.pk].get(s.number, "") if s.left else "",
                )
                for s in seats[table.pk]
            ],
            timing=Timing(
                turn_seconds=table.turn_seconds,
                bot_seconds=settings.PULKA_BOT_MOVE_SECONDS,
                forfeit_after_timeouts=table.forfeit_after_timeouts,
            ),
            managed=table.managed,
            at_stake=table.ranked or table.stake > 0,
            status=game.status,
            cards_played=game.cards_played,
            commitments=list(game.commitments),
            answers=answers[game.pk],
            # Empty for a game whose seats have not moved yet.
            timeouts=game.timeouts_in_a_row or [0] * len(seats[table.pk]),
            deal_actions=_deal_actions(events),
            presence=presence_from_json(game.presence),
        )
    return loaded


def ending_of(game_id: int) -> dict[str, Any]:
    """What the snapshot of a game that is over adds (``game_ending``), for
    an owner that read the game after its end."""
    return game_ending(Game.objects.select_related("table").get(pk=game_id))


def _deal_actions(events: list[Any]) -> list[Any]:
    """The actions of the deal being played, from the events after the
    snapshot (which may begin with the end of the deal before)."""
    deals = [i for i, (kind, _) in enumerate(events) if kind == GameEvent.Kind.DEAL]
    start = deals[-1] + 1 if deals else 0
    return [
        action_from_json(action)
        for kind, action in events[start:]
        if kind == GameEvent.Kind.ACTION
    ]


def load_to_own(
    game_ids: list[int], recent_steps: int
) -> tuple[dict[int, LiveGame], dict[int, list[tuple[int, bytes]]], dict[int, float]]:
    """The games as ``load_many`` reads them, for a process taking them over,
    and for each the public events of its latest ``recent_steps`` steps (for
    a socket that asks what it missed), oldest first, and when its last
    step was written (a Unix time)."""
    loaded = load_many(game_ids)
    recent: dict[int, list[tuple[int, bytes]]] = {game_id: [] for game_id in loaded}
    rows = (
        GameEvent.objects.filter(game_id__in=list(loaded))
        .annotate(
            back=Window(
                RowNumber(), partition_by=[F("game_id")], order_by=F("version").desc()
            )
        )
        .filter(back__lte=recent_steps)
        .order_by("game_id", "version")
        .values_list("game_id", "version", "public", "cause", "created_at")
    )
    last_step: dict[int, float] = {}
    for game_id, version, public, cause, created_at in rows:
        recent[game_id].append(broadcast.held(public_step(version, public, cause)))
        last_step[game_id] = created_at.timestamp()
    return loaded, recent, last_step
