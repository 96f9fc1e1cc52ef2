"""Reaching live games from outside a server process: Celery tasks and the
site's services tell a game's owner something (``tell_owner``), or hand the
games nobody owns to the servers (``hand_over``, the beat's sweep). The
servers' side of it is ``relay``."""

from __future__ import annotations

from typing import cast

from asgiref.sync import async_to_sync

from common import redis_roles
from common.channel_layer import channel_layer
from games.live import commands
from games.live.commands import OwnerCommand
from games.live.leases import owner_key
from games.live.relay import HALLS_GROUP
from games.models import Game


def tell_owner(game_id: int, command: OwnerCommand) -> None:
    """Hand ``command`` to the game's owner; with none, to whichever server
    takes the game over. Nothing happens while no server runs: the beat's
    sweep hands unowned games over once one does."""
    client = redis_roles.client("live", decode_responses=True)
    try:
        channel = cast(str | None, client.get(owner_key(game_id)))
    finally:
        client.close()
    layer = channel_layer()
    if channel:
        message = {
            "type": "hall.command",
            "game": game_id,
            "key": None,
            "command": commands.to_message(command),
        }
        async_to_sync(layer.send)(channel, message)
    else:
        message = {
            "type": "hall.adopt",
            "game": game_id,
            "command": commands.to_message(command),
        }
        async_to_sync(layer.group_send)(HALLS_GROUP, message)


def hand_over(game_ids: list[int]) -> None:
    """Hand unowned games to the servers, all in one message: each server
    takes those that are its own (``Relay.mine_to_take``), a batch at a time,
    as it takes a dead server's games over."""
    if game_ids:
        message = {"type": "hall.adopt_many", "games": list(game_ids)}
        async_to_sync(channel_layer().group_send)(HALLS_GROUP, message)


def hand_over_unowned() -> int:
    """Hand every game being played that no server owns to a server (the
    beat's sweep); returns how many were handed over."""
    playing = list(
        Game.objects.filter(status=Game.Status.PLAYING).values_list("pk", flat=True)
    )
    orphans = unowned(playing)
    hand_over(orphans)
    return len(orphans)


def unowned(game_ids: list[int]) -> list[int]:
    """Which of these games no server owns now."""
    if not game_ids:
        return []
    client = redis_roles.client("live", decode_responses=True)
    try:
        held = client.mget([owner_key(game_id) for game_id in game_ids])
    finally:
        client.close()
    return [game_id for game_id, owner in zip(game_ids, held, strict=True) if not owner]
