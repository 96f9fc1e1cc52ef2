"""What every drill checks after its failure, in the platform's database:
the coin ledger sums to zero and each balance matches its entries, and
each game's record replays in the engine to the game as stored.

In the test process (the drill's database is the test database):
``books(game_ids)``. Against a database of the drill's own, run with its
environment; prints the same as JSON:

    python -m tests.books GAME_ID...
"""

from __future__ import annotations

import json
import sys

import django

# ``books`` after a drill that lost nothing.
NOTHING_AMISS = {"ledger_total": 0, "ledger_mismatches": 0, "records_not_replayed": {}}


def books(game_ids: list[int]) -> dict:
    from coins.services.audit import ledger_mismatches, ledger_total

    return {
        "ledger_total": ledger_total(),
        "ledger_mismatches": len(ledger_mismatches()),
        "records_not_replayed": {
            game_id: why
            for game_id in game_ids
            if (why := why_not_replayed(game_id)) is not None
        },
    }


def why_not_replayed(game_id: int) -> str | None:
    """None when the game's record (every deal and action stored, as the
    replay command reads it) replays to the state the site loads for it;
    else what went wrong."""
    from games.live import loading
    from games.models import Game
    from games.selectors import game_history
    from joker.record import RecordError, record_json, replay

    game = Game.objects.select_related("table").get(pk=game_id)
    record = record_json(game.table.rules, game.first_dealer, game_history(game))
    try:
        replayed = replay(record).state
    except RecordError as error:
        return f"the record does not replay: {error}"
    live = loading.load(game_id)
    if live is None:
        return "the game does not load"
    if replayed != live.state:
        return "the record replays to another state than the game's"
    return None


def main(argv: list[str]) -> None:
    django.setup()
    print(json.dumps(books([int(game_id) for game_id in argv])))


if __name__ == "__main__":
    main(sys.argv[1:])
