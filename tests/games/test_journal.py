"""The journal: a step's rows, written in one query, read back exactly.

Every move in the other tests already goes through ``games.live.journal``;
these check what the owner relies on: one query per ordinary move, the
fence on the event version, and a game read back from its snapshot and
later events into the very state it was in.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.services import profile_update
from games import rows, selectors
from games.live import journal, loading
from games.models import Game, GameEvent, Seat, Table
from joker import apply, new_game
from tests.games.helpers import (
    advance_overdue,
    first_legal,
    move,
    play_until,
    start_game,
    start_table,
)

pytestmark = pytest.mark.django_db


def test_seats_come_in_order_with_the_names_shown_at_the_table(db):
    table, (host, guest) = start_table("georgian-club", people=2)
    profile_update(user=guest, display_name="Nino", language="")
    game = Game.objects.get(table=table)

    seats = rows.seats_of(game.table_id)

    assert [seat.number for seat in seats] == [0, 1, 2, 3]
    assert [seat.display_name for seat in seats] == [
        host.username,
        "Nino",
        *(seat.display_name for seat in Seat.objects.filter(table=table)[2:]),
    ]
    for seat, expected in zip(
        seats, Seat.objects.filter(table=table).order_by("number"), strict=True
    ):
        for field in Seat._meta.concrete_fields:
            assert getattr(seat, field.attname) == getattr(expected, field.attname)
        assert seat.display_name == expected.display_name


def _turn_step(live):
    """The step of the seat to move playing its first legal choice."""
    from joker import legal_actions

    action = legal_actions(live.state)[0]
    return live._step(action, cause="player", now=timezone.now())


def test_an_ordinary_move_is_one_query(db):
    game = start_game("japanese", people=2)
    live = loading.load(game.pk)
    step = live.decide_play(
        live.state.turn,
        first_legal(
            selectors.snapshot(game, selectors.seats_of(game), live.state.turn)["view"]
        ),
        expected_version=live.version,
        client_id="q1",
        now=timezone.now(),
    )
    assert not step.save_state and step.deal is None
    with CaptureQueriesContext(connection) as queries:
        journal.write_sync(live, step)
    sent = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(sent) == 1
    game.refresh_from_db()
    assert game.version == step.version
    assert GameEvent.objects.get(game=game, version=step.version).client_id == "q1"


def test_a_step_on_a_version_already_written_is_fenced_and_changes_nothing(db):
    game = start_game("japanese", people=2)
    first, second = loading.load(game.pk), loading.load(game.pk)
    journal.write_sync(first, _turn_step(first))
    before = list(GameEvent.objects.filter(game=game).values_list("version", "action"))
    with pytest.raises(journal.Fenced):
        journal.write_sync(second, _turn_step(second))
    after = list(GameEvent.objects.filter(game=game).values_list("version", "action"))
    assert after == before


def _replayed(game: Game):
    """The state from the game's record alone: its first deal, every deal
    record and every action, applied from a new game."""
    state = new_game(game.table.rules, game.first_dealer)
    for deal, actions in selectors.game_history(game):
        state = apply(state, deal)
        for action in actions:
            state = apply(state, action)
    return state


@settings(max_examples=6, deadline=None)
@given(
    profile=st.sampled_from(["japanese", "georgian-club"]),
    steps=st.integers(min_value=1, max_value=90),
)
@pytest.mark.slow
def test_the_snapshot_and_the_later_events_rebuild_the_state(profile, steps):
    people = 2 if profile == "japanese" else 4
    game = start_game(profile, people=people)
    for _ in range(steps):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        move(game)
        game.refresh_from_db()
        rebuilt = game.engine_state()
        assert rebuilt == _replayed(game)
        assert loading.load(game.pk).state == rebuilt
        assert game.state_version <= game.version


def _timeouts_in_a_row(game: Game, seat: int) -> int:
    causes = GameEvent.objects.filter(
        game=game, seat=seat, kind=GameEvent.Kind.ACTION
    ).order_by("-version")
    count = 0
    for cause in causes.values_list("cause", flat=True):
        if cause != GameEvent.Cause.TIMEOUT:
            break
        count += 1
    return count


def test_many_games_are_read_back_in_as_many_queries_as_one(db):
    """A takeover reads a dead server's games together: each as ``load``
    reads it alone, in a number of queries that does not grow with them."""
    games = []
    for profile, steps, timed_out in [
        ("japanese", 7, 2),
        ("georgian-club", 30, 1),
        ("japanese", 0, 0),
    ]:
        game = start_game(profile, people=1)
        # Three timeouts in a row would lose the seat; two are played here.
        Table.objects.filter(pk=game.table_id).update(forfeit_after_timeouts=3)
        for _ in range(steps):
            game.refresh_from_db()
            move(game)
        for _ in range(timed_out):
            game = play_until(game, lambda g: g.engine_state().turn == 0)
            assert advance_overdue(
                game_id=game.pk, version=game.version, now=game.deadline
            )
        game.refresh_from_db()
        games.append(game)
    ids = [game.pk for game in games]

    with CaptureQueriesContext(connection) as one:
        loading.load_many(ids[:1])
    with CaptureQueriesContext(connection) as three:
        loaded = loading.load_many([*ids, 10**9])

    assert len(three.captured_queries) == len(one.captured_queries)
    assert sorted(loaded) == sorted(ids)
    for game in games:
        live = loaded[game.pk]
        assert live.state == game.engine_state()
        assert live.version == game.version
        assert live.timeouts == [
            _timeouts_in_a_row(game, seat) for seat in range(len(live.seats))
        ]
        assert live.deal_actions == list(selectors.game_history(game))[-1][1]
        assert live.answers == loading.load(game.pk).answers
    assert loaded[games[0].pk].timeouts[0] == 2


# Group commit on the event loop


@pytest.mark.django_db(transaction=True)
def test_writes_arriving_together_share_commits_and_each_hears_of_its_own():
    """Moves of many games sent at once through a journal of two writers
    are written in fewer queries (transactions) than moves; a fenced one
    among them fails alone, and the others are durable."""
    import asyncio

    games = [start_game("japanese", people=2) for _ in range(12)]
    lives = [loading.load(game.pk) for game in games]
    steps = [_turn_step(live) for live in lives]
    # Another writer took the last game's version: its step is fenced.
    stale = loading.load(games[-1].pk)
    journal.write_sync(stale, _turn_step(stale))

    async def write(writer, pairs):
        return await asyncio.gather(
            *(writer.write(live, step) for live, step in pairs),
            return_exceptions=True,
        )

    async def write_all():
        writer = journal.Journal(size=2)
        await writer.open()
        try:
            together = await write(writer, list(zip(lives[:8], steps[:8], strict=True)))
            grouped = (writer.written, writer.queries)
            mixed = await write(writer, list(zip(lives[8:], steps[8:], strict=True)))
            return together, grouped, mixed
        finally:
            await writer.close()

    together, (written, queries), mixed = asyncio.run(write_all())

    assert together == [None] * 8
    assert written == 8 and queries < 8
    assert mixed[:3] == [None] * 3 and isinstance(mixed[3], journal.Fenced)
    for game, step in zip(games[:-1], steps, strict=False):
        game.refresh_from_db()
        assert game.version == step.version
    assert GameEvent.objects.filter(game=games[-1]).count() == stale.version + 1


def test_the_last_step_of_a_deleted_game_is_refused_as_gone(db):
    """A grace that ends after its game was deleted (a table cleared away)
    ends the game: the owner must be told the game is gone, not crash."""
    table, _ = start_table("japanese", people=2)
    game = Game.objects.get(table=table)
    live = loading.load(game.pk)
    step = live.decide_resign(0, cause="disconnect", now=timezone.now())
    assert step.ends_game
    Table.objects.filter(pk=table.pk).delete()

    with pytest.raises(journal.Gone):
        journal.finish_sync(live, step)
