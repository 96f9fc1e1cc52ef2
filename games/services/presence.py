"""Who is connected, and what happens to a seat whose player stays away."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game, GameEvent, Seat

from . import notify
from .play import locked_game, resign_seat


def seat_connected(*, game_id: int, seat: int) -> None:
    """A socket of the seat's player opened; any grace timer is void."""
    with transaction.atomic():
        Seat.objects.filter(table__game__pk=game_id, number=seat).update(
            connections=F("connections") + 1, disconnect_token="", disconnected_at=None
        )
        transaction.on_commit(lambda: notify.presence_changed(game_id))


def seat_disconnected(*, game_id: int, seat: int, now=None) -> None:
    """A socket closed; with none left, the grace period starts."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Seat.objects.select_for_update().get(table__game__pk=game_id, number=seat)
        row.connections = max(row.connections - 1, 0)
        if row.connections == 0 and not row.left:
            row.disconnect_token = secrets.token_hex(8)
            row.disconnected_at = now
            token = row.disconnect_token
            playing = Game.objects.filter(
                pk=game_id, status=Game.Status.PLAYING
            ).exists()
            if playing:
                transaction.on_commit(
                    lambda: notify.schedule_grace(
                        game_id, seat, token, settings.PULKA_DISCONNECT_GRACE_SECONDS
                    )
                )
        row.save()
        transaction.on_commit(lambda: notify.presence_changed(game_id))


def seat_grace_expired(*, game_id: int, seat: int, token: str) -> bool:
    """The grace period of a disconnect ran out: unless the player came back
    (the token changed), the seat leaves the game as if it had resigned."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.PLAYING:
            return False
        row = Seat.objects.get(table_id=game.table_id, number=seat)
        if row.left or row.connections or row.disconnect_token != token:
            return False
        resign_seat(game, row, GameEvent.Cause.DISCONNECT, timezone.now())
        return True


def sweep_disconnected(*, now=None) -> int:
    """Expire every grace period whose timer task was lost."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.PULKA_DISCONNECT_GRACE_SECONDS)
    stale = Seat.objects.filter(
        table__game__status=Game.Status.PLAYING,
        connections=0,
        left=False,
        disconnected_at__lt=limit,
    ).values_list("table__game__pk", "number", "disconnect_token")
    return sum(
        seat_grace_expired(game_id=game_id, seat=number, token=token)
        for game_id, number, token in stale
    )
