"""Pools for the quick-play tests, through ``matchmaking.services``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from matchmaking import services
from ratings.models import Rating
from ratings.services import rating_counts_rebuild
from tests.factories import UserFactory

# A fixed moment for the pools' clock; tables and games keep real time.
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def player(rating: int | None = None, category: str = "japanese", games: int = 5):
    """A new player, rated ``rating`` in ``category`` (unrated if None)."""
    user = UserFactory()
    if rating is not None:
        Rating.objects.create(
            user=user, category=category, rating=rating, games=games, peak=rating
        )
        rating_counts_rebuild()
    return user


def join_all(users, category: str = "japanese", stake: int = 0, seconds: float = 0):
    for user in users:
        services.pool_join(user=user, category=category, stake=stake, now=at(seconds))


def tick_at(seconds: float, users=()):
    """A tick ``seconds`` after T0, the pages of ``users`` having pinged just
    before (so that they are not taken for gone)."""
    for user in users:
        services.pool_touch(user=user, now=at(seconds))
    return services.match_tick(now=at(seconds))
