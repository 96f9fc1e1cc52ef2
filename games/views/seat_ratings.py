"""The ratings shown next to the players at a table.

A ranked table (whose rules are always a rating category's preset) shows
each seated person's rating in that category; a casual table shows none,
even when its rules happen to be a category's, since its games move no
rating; a player without one shows the start
rating, provisional. Read from ``ratings.models.Rating`` in one query per
category, however many tables are listed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from games.models import Seat, Table
from ratings.categories import category_of
from ratings.elo import START
from ratings.models import Rating


@dataclass(frozen=True, slots=True)
class SeatRating:
    rating: int
    provisional: bool

    def as_json(self) -> dict:
        return {"rating": self.rating, "provisional": self.provisional}


UNRATED = SeatRating(START, True)

# {(category, user id): rating}
Ratings = dict[tuple[str, int], SeatRating]


def table_category(table: Table) -> str | None:
    """The rating category a table's games count in: None for a casual one."""
    if not table.ranked:
        return None
    return category_of(table.profile, table.options)


def ratings_for(tables: Iterable[Table]) -> Ratings:
    """The ratings of everybody seated at ``tables`` (with their seats
    prefetched or not) in each table's category."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for table in tables:
        category = table_category(table)
        if category is None:
            continue
        for seat in table.seats.all():
            if seat.user_id is not None:
                wanted[category].add(seat.user_id)
    found: Ratings = {}
    for category, user_ids in wanted.items():
        rows = Rating.objects.filter(category=category, user_id__in=user_ids)
        for row in rows.only("user_id", "rating", "games"):
            found[category, row.user_id] = SeatRating(row.rating, row.provisional)
    return found


def seat_rating(
    ratings: Ratings, category: str | None, seat: Seat
) -> SeatRating | None:
    """What to show for ``seat``: None for a bot, an empty seat, or a table
    outside every category."""
    if category is None or seat.user_id is None or seat.bot:
        return None
    return ratings.get((category, seat.user_id), UNRATED)
