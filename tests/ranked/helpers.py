"""Ranked tables and their games for the tests, through the games services.

Ranked tables take no bots, so every seat holds a person. The quickest way
to play a ranked game to its end is to let every move time out: at the
deadline the timer makes the autopilot's move for the person to move.
"""

from __future__ import annotations

from coins import services as coins
from games import services
from games.models import Game, Table
from ratings.categories import preset
from ratings.models import Rating
from ratings.services import rating_counts_rebuild
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import advance_overdue, time_out_to_the_end


def players_of(category: str) -> int:
    profile, _ = preset(category)
    return 2 if profile == "japanese" else 4


def ranked_table(category: str = "japanese", *, stake: int = 0, users=None):
    """A ranked table of ``category``'s preset, its creator in seat 0 and
    every other seat but the last taken by ``users`` (new players unless
    given; None leaves a seat free); returns the table and all its players,
    the one still to sit last. Nothing has started yet."""
    profile, options = preset(category)
    if users is None:
        users = [UserFactory() for _ in range(players_of(category))]
    table = services.table_create(
        user=users[0], profile=profile, options=options, ranked=True, stake=stake
    )
    for number, user in enumerate(users[1:-1], start=1):
        if user is not None:  # None: the seat stays free
            services.seat_take(table_id=table.pk, user=user, number=number)
    return table, users


def ranked_game(category: str = "japanese", *, stake: int = 0, users=None) -> Game:
    """A ranked game just started: ``ranked_table`` with the last seat taken."""
    table, users = ranked_table(category, stake=stake, users=users)
    services.seat_take(table_id=table.pk, user=users[-1], number=len(users) - 1)
    return Game.objects.get(table=table)


def time_out(game: Game) -> None:
    """The move of whoever is to move, made by the timer at the deadline."""
    game.refresh_from_db()
    moved = advance_overdue(game_id=game.pk, version=game.version, now=game.deadline)
    assert moved


def finish(game: Game) -> Game:
    """Play the game to its end, every move a timeout; returns it reloaded."""
    time_out_to_the_end(game.pk)
    game.refresh_from_db()
    return game


def users_by_seat(game: Game) -> list:
    return [seat.user for seat in game.table.seats.order_by("number")]


def balance(user) -> int:
    return coins.wallet_of(user).balance


def balances(users) -> list[int]:
    return [balance(user) for user in users]


def take_coins(user, amount: int) -> None:
    """Leave ``user`` with ``amount`` coins fewer, as an operator would."""
    coins.coins_adjust(
        user=user, amount=-amount, reason_text="test", by=StaffUserFactory()
    )


def established(category: str, *, rating: int = 1600, games: int = 30, **user):
    """A player past the provisional games of ``category``."""
    user = UserFactory(**user)
    Rating.objects.create(
        user=user, category=category, rating=rating, games=games, peak=rating
    )
    rating_counts_rebuild()
    return user


def ratings_of(users, category: str) -> list[tuple | None]:
    """Each player's (rating, games, peak) in ``category``; None: unrated."""
    out = []
    for user in users:
        row = Rating.objects.filter(user=user, category=category).first()
        out.append(None if row is None else (row.rating, row.games, row.peak))
    return out


def table_status(table: Table) -> str:
    table.refresh_from_db()
    return table.status
