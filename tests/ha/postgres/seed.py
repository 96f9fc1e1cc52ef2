"""Two signed-in players at a new two-player table, made in the database
DATABASE_URL names; printed as JSON (the game's id, the players' session
keys and names). Run by the drills (``python -m tests.ha.postgres.seed``) in a
process of its own: the drill's database is on a cluster of its own, not
pytest-django's test database."""

from __future__ import annotations

import json
import uuid

import django


def main() -> None:
    django.setup()
    from games import services
    from games.models import Game
    from tests.live.support import Person

    alice, bob = (Person(f"ha-{uuid.uuid4().hex[:10]}") for _ in range(2))
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)
    players = (alice, bob)
    seeded = {
        "game": game.pk,
        "sessions": [person.session_key for person in players],
        "names": [person.user.username for person in players],
    }
    print(json.dumps(seeded))


if __name__ == "__main__":
    main()
