"""Data migrations of the games app, run forwards over rows of the schema before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("games", "0005_table_forfeit_after_timeouts_table_managed")
AFTER = ("games", "0006_game_commitments")


@pytest.fixture
def executor(transactional_db):
    executor = MigrationExecutor(connection)
    yield executor
    # Leave the schema as the other tests expect it.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_existing_games_get_their_deal_commitments_in_order(executor):
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    user = apps.get_model("auth", "User").objects.create(username="old")
    table = apps.get_model("games", "Table").objects.create(
        profile="japanese", options={"target": 11}, created_by=user
    )
    Game = apps.get_model("games", "Game")
    DealRecord = apps.get_model("games", "DealRecord")
    game = Game.objects.create(table=table, first_dealer=0, state={})
    untouched = Game.objects.create(
        table=apps.get_model("games", "Table").objects.create(
            profile="japanese", options={"target": 11}, created_by=user
        ),
        first_dealer=0,
        state={},
    )
    # Written out of order: the migration orders them by deal.
    for index, commitment in ((1, "b" * 64), (0, "a" * 64), (2, "c" * 64)):
        DealRecord.objects.create(
            game=game, index=index, hands=[], salt="s", commitment=commitment
        )

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    apps = executor.loader.project_state([AFTER]).apps
    Game = apps.get_model("games", "Game")

    assert Game.objects.get(pk=game.pk).commitments == ["a" * 64, "b" * 64, "c" * 64]
    assert Game.objects.get(pk=untouched.pk).commitments == []
