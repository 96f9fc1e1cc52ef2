"""Whole tournaments on the real worker and beat.

Celery beat's tick starts each tournament at its time; the people play
through sockets of their own, as their pages would, at whatever table the
tournament seats them; the servers own the games and move the bots. Every
game's end reaches the worker as a task, which takes the result in, pairs
and seats the next round, and pays the prizes at the end. Nothing here
calls the tournament services except to register.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from coins import services as coins
from games.models import Seat
from ratings.models import Rating, RatingChange
from tournaments import services
from tournaments.models import Board, Entry, Tournament
from tournaments.services.lifecycle import TOO_FEW_PLAYERS

from .support import TableClient, db_call, wait_until

STARTS_IN = timedelta(seconds=3)


def create(people, category: str, fee: int = 100, **fields) -> Tournament:
    tournament = services.tournament_create(
        name=f"Live {category}",
        category=category,
        starts_at=timezone.now() + STARTS_IN,
        entry_fee=fee,
        min_players=2,
        max_players=16,
        **{"short_match": True, **fields},
    )
    for person in people:
        services.tournament_register(tournament_id=tournament.pk, user=person.user)
    return tournament


async def play_until_over(
    base_url: str, tournament: Tournament, people, timeout: float
) -> None:
    """Each person plays every game the tournament seats them at through a
    socket of their own, as their page would (a random legal choice, seeded
    by the game), until the tournament is over; the servers move the bots."""
    sessions = {person.user.pk: person.session_key for person in people}
    loop = asyncio.get_running_loop()
    limit = loop.time() + timeout
    playing: dict[tuple[int, int], asyncio.Task] = {}
    try:
        while True:
            status, seated = await db_call(open_games, tournament.pk)
            if status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                break
            for game_id, user_id in seated:
                if (game_id, user_id) not in playing and user_id in sessions:
                    play = play_game(base_url, game_id, sessions[user_id], limit)
                    playing[game_id, user_id] = loop.create_task(play)
            for task in playing.values():
                if task.done():
                    task.result()  # a client's failure fails the test
            if loop.time() > limit:
                raise AssertionError(f"tournament still {status} after {timeout}s")
            await asyncio.sleep(0.1)
        await asyncio.gather(*playing.values())
    finally:
        for task in playing.values():
            task.cancel()


def open_games(tournament_id: int) -> tuple[str, list[tuple[int, int]]]:
    """The tournament's status, and (game, user) for each person seated at
    a game of a board still open."""
    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
    boards = Board.objects.filter(
        round__tournament_id=tournament_id, finished=False, table__isnull=False
    )
    seats = Seat.objects.filter(
        table_id__in=boards.values("table_id"),
        table__game__isnull=False,
        user__isnull=False,
        bot="",
    ).values_list("table__game__id", "user_id")
    return status, list(seats)


async def play_game(base_url: str, game_id: int, session_key: str, limit: float):
    rng = random.Random(game_id)
    timeout = limit - asyncio.get_running_loop().time()
    async with TableClient(base_url, game_id, session_key) as client:
        await client.play_until(
            lambda c: c.snapshot["status"] != "playing", timeout, choose=rng.choice
        )


def check_the_books(tournament: Tournament, people, total: int, fee: int) -> None:
    entries = list(tournament.entries.all())
    assert coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL) == 0
    assert coins.ledger_total() == total
    assert sum(e.prize for e in entries) == fee * len(people)
    for entry in entries:
        assert entry.place is not None
        assert coins.wallet_of(entry.user).balance == 1000 - fee + entry.prize


def wait_for_the_start(tournament: Tournament) -> Tournament:
    def started():
        tournament.refresh_from_db()
        return tournament.status != Tournament.Status.SCHEDULED

    wait_until(started, 30, "beat to start the tournament")
    return tournament


@pytest.fixture
def funded(people):
    """funded(n): n signed-in people holding exactly 1000 Domino Coin."""

    def make(count: int):
        made = people(count)
        for person in made:
            change = 1000 - coins.wallet_of(person.user).balance
            if change:
                coins.coins_adjust(
                    user=person.user, amount=change, reason_text="test", by=person.user
                )
        return made

    return make


@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("category", "fields", "count", "rounds"),
    [
        # Rated games (full matches) are the arena's, below.
        ("japanese", {"format": "swiss", "rounds": 2}, 3, 2),
        ("japanese", {"format": "knockout"}, 4, 2),
        ("joker-nines", {"format": "multitable", "rounds": 2}, 4, 2),
        ("joker-nines", {"format": "multitable", "rounds": 1}, 5, 1),
    ],
    ids=["swiss", "knockout", "tables-of-four", "with-a-bot"],
)
@pytest.mark.slow
def test_a_whole_tournament_runs_on_the_worker(
    servers, beat, funded, category, fields, count, rounds
):
    # The servers own the games (the worker hands each new one over): they
    # take the people's sockets and move the bots.
    people = funded(count)
    tournament = create(people, category, **fields)
    total = coins.ledger_total()

    wait_for_the_start(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.started_at >= tournament.starts_at
    asyncio.run(play_until_over(servers[0], tournament, people, timeout=200))
    tournament.refresh_from_db()

    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.round_set.count() == rounds
    assert not Board.objects.filter(round__tournament=tournament, finished=False)
    check_the_books(tournament, people, total, fee=100)
    assert (
        tournament.entries.filter(place=1).count() == 1
        or fields["format"] != "knockout"
    )
    check_the_ratings(tournament)


def check_the_ratings(tournament: Tournament) -> None:
    """Each game between people is rated once if the tournament's rules
    have a category; games with a bot, and short Japanese matches, never."""
    boards = Board.objects.filter(round__tournament=tournament, table__isnull=False)
    games = [board.table.game for board in boards.select_related("table__game")]
    for game in games:
        seats = list(game.table.seats.all())
        changes = RatingChange.objects.filter(game=game)
        if tournament.rating_category and not any(seat.bot for seat in seats):
            assert changes.count() == len(seats)
            assert {c.category for c in changes} == {tournament.rating_category}
        else:
            assert not changes.exists()
    for entry in tournament.entries.all():
        rating = Rating.objects.filter(
            user=entry.user, category=tournament.rating_category or ""
        ).first()
        mine = RatingChange.objects.filter(user=entry.user, game__in=games)
        assert (rating.games if rating else 0) == mine.count()


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_too_few_players_at_the_start_time_get_their_fees_back(beat, funded):
    people = funded(2)
    tournament = create(people, "japanese", format="swiss", rounds=2)
    Tournament.objects.filter(pk=tournament.pk).update(min_players=3)
    total = coins.ledger_total()

    wait_for_the_start(tournament)

    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == TOO_FEW_PLAYERS
    assert coins.ledger_total() == total
    for person in people:
        assert coins.wallet_of(person.user).balance == 1000
    assert not Entry.objects.filter(tournament=tournament, place__isnull=False)


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_a_whole_arena_runs_on_the_worker(servers, beat, funded):
    """A one-minute rated arena: the worker pairs players again as their
    games end, stops pairing when the time is up, and finishes once the
    last game has ended. The minute is cut short once players have been
    paired again: nothing new happens in the rest of it."""
    people = funded(4)
    tournament = create(
        people, "japanese", format="arena", duration_minutes=1, short_match=False
    )
    total = coins.ledger_total()

    wait_for_the_start(tournament)
    assert tournament.status == Tournament.Status.RUNNING

    async def play_and_call_time():
        await asyncio.gather(
            play_until_over(servers[0], tournament, people, timeout=260),
            db_call(call_time_once_paired_again, tournament),
        )

    asyncio.run(play_and_call_time())
    tournament.refresh_from_db()

    assert tournament.status == Tournament.Status.FINISHED
    boards = Board.objects.filter(round__tournament=tournament).select_related("table")
    assert not boards.filter(finished=False)
    # Paired again after the first games, and never after the time was up.
    assert boards.count() > 2
    assert all(board.table.created_at < tournament.ends_at for board in boards)
    assert tournament.finished_at >= tournament.ends_at
    check_the_books(tournament, people, total, fee=100)
    check_the_ratings(tournament)


def call_time_once_paired_again(tournament: Tournament) -> None:
    """Once a second pairing has been seated, move the arena's start back so
    that its time is up now."""
    wait_until(
        lambda: Board.objects.filter(round__tournament=tournament).count() > 2,
        200,
        "the arena to pair players again",
    )
    started_at = timezone.now() - timedelta(minutes=tournament.duration_minutes)
    Tournament.objects.filter(pk=tournament.pk).update(started_at=started_at)
