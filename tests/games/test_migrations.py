"""Data migrations of the games app, run forwards over rows of the schema before."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("games", "0005_table_forfeit_after_timeouts_table_managed")
AFTER = ("games", "0006_game_commitments")
BEFORE_TIMEOUTS = ("games", "0011_bot_levels")
AFTER_TIMEOUTS = ("games", "0012_game_timeouts_in_a_row")


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


def test_games_in_progress_get_their_timeouts_in_a_row_from_their_events(executor):
    executor.migrate([BEFORE_TIMEOUTS])
    apps = executor.loader.project_state([BEFORE_TIMEOUTS]).apps
    User = apps.get_model("auth", "User")
    user, other = User.objects.create(username="old"), User.objects.create(username="o")
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")

    def game_with(causes: list[tuple[int, str]], status: str = "playing"):
        table = Table.objects.create(
            profile="japanese", options={"target": 11}, created_by=user
        )
        for number, sitter in enumerate([user, other]):
            Seat.objects.create(table=table, number=number, user=sitter)
        game = Game.objects.create(table=table, first_dealer=0, state={}, status=status)
        GameEvent.objects.create(game=game, version=1, kind="deal", cause="player")
        for version, (seat, cause) in enumerate(causes, start=2):
            GameEvent.objects.create(
                game=game, version=version, kind="action", seat=seat, cause=cause
            )
        return game

    # Seat 0 timed out twice since its last own move; seat 1 moved last.
    playing = game_with(
        [(0, "player"), (1, "timeout"), (0, "timeout"), (1, "bot"), (0, "timeout")]
    )
    fresh = game_with([])
    finished = game_with([(0, "timeout")], status="finished")

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER_TIMEOUTS])
    Game = executor.loader.project_state([AFTER_TIMEOUTS]).apps.get_model(
        "games", "Game"
    )

    assert Game.objects.get(pk=playing.pk).timeouts_in_a_row == [2, 0]
    assert Game.objects.get(pk=fresh.pk).timeouts_in_a_row == [0, 0]
    assert Game.objects.get(pk=finished.pk).timeouts_in_a_row == []


BEFORE_BAN_MOVE = [
    ("games", "0013_game_presence"),
    ("accounts", "0003_profile_time_zone"),
]
AFTER_BAN_MOVE = [("games", "0014_ban_to_accounts")]


def test_bans_move_to_the_accounts_with_their_rows_and_their_permission(executor):
    executor.migrate(BEFORE_BAN_MOVE)
    apps = executor.loader.project_state(BEFORE_BAN_MOVE).apps
    User = apps.get_model("auth", "User")
    player, operator = (
        User.objects.create(username="p"),
        User.objects.create(username="o"),
    )
    apps.get_model("games", "Ban").objects.create(
        user=player, by=operator, reason="farming"
    )
    # The content types and permissions are no migration's: today's models.
    ContentType.objects.filter(app_label="accounts", model="ban").delete()
    games_ban, _ = ContentType.objects.get_or_create(app_label="games", model="ban")
    permission, _ = Permission.objects.get_or_create(
        content_type=games_ban,
        codename="ban_user",
        defaults={"name": "Can ban players"},
    )
    get_user_model().objects.get(pk=operator.pk).user_permissions.add(permission)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER_BAN_MOVE)
    apps = executor.loader.project_state(AFTER_BAN_MOVE).apps

    ban = apps.get_model("accounts", "Ban").objects.get()
    assert (ban.user_id, ban.by_id, ban.reason) == (player.pk, operator.pk, "farming")
    kept = get_user_model().objects.get(pk=operator.pk)
    assert [
        (p.content_type.app_label, p.codename) for p in kept.user_permissions.all()
    ] == [("accounts", "ban_user")]
