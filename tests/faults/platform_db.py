"""The fault tests' hands in the database of the platform under test.

The platform runs on embedded servers of its own (``PULKA_VAR_DIR``), not on
the test session's database, so the test process reaches it the way any
tool of the checkout does: this module, run with the platform's environment,
through the project's own services and models. It prints one JSON object.

    python -m tests.faults.platform_db setup TURN_SECONDS STAKE
    python -m tests.faults.platform_db state GAME_ID
"""

from __future__ import annotations

import json
import sys
import uuid

import django


def setup(turn_seconds: int, stake: int) -> dict:
    """Two signed-in players at a ranked Japanese table with a stake, its
    game started (both stakes in escrow)."""
    from games import services
    from games.models import Game
    from ratings.categories import preset
    from tests.factories import UserFactory
    from tests.live.support import session_cookie

    profile, options = preset("japanese")
    users = [UserFactory(username=f"fault-{uuid.uuid4().hex[:10]}") for _ in "ab"]
    table = services.table_create(
        user=users[0],
        profile=profile,
        options=options,
        turn_seconds=turn_seconds,
        ranked=True,
        stake=stake,
    )
    services.seat_take(table_id=table.pk, user=users[1], number=1)
    game = Game.objects.get(table=table)
    return {"game": game.pk, "sessions": [session_cookie(user) for user in users]}


def state(game_id: int) -> dict:
    """The game as stored, its event log, and the books."""
    from coins.services.audit import ledger_mismatches, ledger_total
    from coins.services.escrow import escrow_balance
    from games.models import Game, GameEvent
    from games.stakes import escrow_ref

    game = Game.objects.get(pk=game_id)
    events = [
        [version, seat, client_id, cause, created_at.timestamp()]
        for version, seat, client_id, cause, created_at in GameEvent.objects.filter(
            game=game
        )
        .order_by("version")
        .values_list("version", "seat", "client_id", "cause", "created_at")
    ]
    return {
        "version": game.version,
        "status": game.status,
        "presence": game.presence,
        "left": sorted(
            game.table.seats.filter(left=True).values_list("number", flat=True)
        ),
        "winners": (game.result or {}).get("winners"),
        "deadline": game.deadline.timestamp() if game.deadline else None,
        "events": events,
        "ledger_total": ledger_total(),
        "ledger_mismatches": len(ledger_mismatches()),
        "escrow": escrow_balance(escrow_ref(game)),
    }


def main(argv: list[str]) -> None:
    django.setup()
    command, *args = argv
    if command == "setup":
        result = setup(int(args[0]), int(args[1]))
    elif command == "state":
        result = state(int(args[0]))
    else:
        raise SystemExit(f"no command {command!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
