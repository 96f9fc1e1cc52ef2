"""A practice bot's move says what thinking budget it was given and whether
a busy pool cut it short; the share cut short is on /health/ and in the
admin's list of game events."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.urls import reverse

from games import services
from games.live import bot_pool, thinking
from games.models import Game
from tests.factories import StaffUserFactory
from tests.games.helpers import advance_overdue, play_until

from .test_bot_levels import a_state_in_play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("full", "allowed"), [(0.25, 0.25), (0.025, 0.1)])
def test_a_short_wait_for_a_bot_process_leaves_the_whole_budget(full, allowed):
    """A move may wait its budget, and at least a tenth of a second."""
    assert thinking.budget_given(full, 0.0) == full
    assert thinking.budget_given(full, allowed) == full


@pytest.mark.parametrize(("full", "allowed"), [(0.25, 0.25), (0.025, 0.1)])
def test_only_the_wait_beyond_the_allowance_comes_off_the_budget(full, allowed):
    late = full / 2
    assert thinking.budget_given(full, allowed + late) == pytest.approx(full - late)
    assert thinking.budget_given(full, allowed + 60) == thinking.MINIMUM_BUDGET


def test_a_move_says_the_budget_it_was_given_and_whether_it_was_cut_short():
    state = a_state_in_play("georgian-club")
    whole = thinking.practice_move(state, None, "practice", 0.02, time.time())
    assert (whole.budget_ms, whole.cut_short) == (20, False)
    late = thinking.practice_move(state, None, "practice", 0.02, time.time() - 60)
    assert (late.budget_ms, late.cut_short) == (1, True)


def a_bots_turn(user) -> Game:
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="practice")
    return play_until(
        Game.objects.get(table=table), lambda g: g.engine_state().turn == 1
    )


def test_a_move_cut_short_is_recorded_and_summed_up_in_the_admin(
    user, client, monkeypatch
):
    game = a_bots_turn(user)
    before = game.version
    assert advance_overdue(game_id=game.pk, version=before, now=game.deadline)
    whole = game.events.get(version=before + 1)
    # Japanese Joker's share of the normal level's budget (0.02 s in tests).
    japanese_ms = round(20 * thinking.budget_share("practice", japanese=True))
    assert (whole.cause, whole.budget_ms, whole.cut_short) == (
        "bot",
        japanese_ms,
        False,
    )

    # The next bot move was asked for a minute ago: every bot process was
    # busy meanwhile.
    practice_move = thinking.practice_move

    def asked_long_ago(state, deal_actions, bot, seconds):
        return practice_move(state, deal_actions, bot, seconds, time.time() - 60)

    monkeypatch.setattr(thinking, "practice_move", asked_long_ago)
    game = play_until(game, lambda g: g.engine_state().turn == 1)
    before = game.version
    assert advance_overdue(game_id=game.pk, version=before, now=game.deadline)
    cut = game.events.get(version=before + 1)
    assert (cut.cause, cut.budget_ms, cut.cut_short) == ("bot", 1, True)
    # Nobody else's move has a budget.
    assert set(game.events.exclude(budget_ms=None)) == {whole, cut}

    client.force_login(StaffUserFactory())
    page = client.get(reverse("admin:games_gameevent_changelist"))
    text = " ".join(page.content.decode().split())
    assert "the practice bots made 2 moves; 1 of them (50%) were cut short" in text
    only_cut = client.get(
        reverse("admin:games_gameevent_changelist"), {"cut_short__exact": "1"}
    )
    assert list(only_cut.context["cl"].result_list) == [cut]


def test_health_shows_the_share_of_bot_moves_a_busy_pool_cut_short(
    client, settings, monkeypatch
):
    settings.PULKA_BOT_PROCESSES = 1
    settings.PULKA_PRACTICE_BOT_SECONDS = 0.02
    monkeypatch.setattr(bot_pool, "LOAD", bot_pool.Load())
    state = a_state_in_play("georgian-club")
    bot_pool.stop()
    try:
        # Started, and its process has loaded the bot, before the first move.
        assert bot_pool.pool().submit(thinking.thinks, "practice").result()
        asyncio.run(bot_pool.think("practice", state, []))
        # The one bot process is busy for far longer than the move's budget.
        busy = bot_pool.pool().submit(time.sleep, 0.5)
        asyncio.run(bot_pool.think("practice", state, []))
        busy.result()
    finally:
        bot_pool.stop()
    bots = client.get("/health/").json()["live"]["bots"]
    assert bots == {
        "processes": 1,
        "window_seconds": 300,
        "moves": 2,
        "cut_short": 1,
        "share_cut_short": 0.5,
    }


def test_the_health_figure_forgets_moves_older_than_its_window():
    now = [0.0]
    load = bot_pool.Load(window=300, clock=lambda: now[0])
    load.add(thinking.Thought("move", 1, budget_ms=1, cut_short=True))
    now[0] = 200
    load.add(thinking.Thought("move", 20, budget_ms=20, cut_short=False))
    assert (load.summary()["moves"], load.summary()["cut_short"]) == (2, 1)
    now[0] = 400
    assert (load.summary()["moves"], load.summary()["cut_short"]) == (1, 0)
