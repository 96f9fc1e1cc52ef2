"""Reads of the ratings app: leaderboards, ranks, players and their rating
history. The games a player played are the games' to read
(``games.selectors.player_recent_games``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet, Sum

from accounts.selectors import display_name
from ratings.categories import CATEGORIES
from ratings.models import Rating, RatingChange, RatingCount, UnratedGame


@dataclass(frozen=True, slots=True)
class Standing:
    """A rating with its place in the category's leaderboard."""

    rank: int
    user_id: int
    username: str
    display_name: str
    category: str
    rating: int
    games: int
    peak: int
    provisional: bool


def leaderboard_queryset(category: str) -> QuerySet[Rating]:
    """A category's ratings in leaderboard order (best first; an equal rating
    lists the earlier rating first), the order of the ``rating_leaderboard``
    index."""
    return (
        Rating.objects.filter(category=category)
        .select_related("user", "user__profile")
        .order_by("-rating", "id")
    )


def rank_of_rating(category: str, rating: int) -> int:
    """The rank that ``rating`` has in ``category``: one more than the number
    of ratings strictly above it, so equal ratings share a rank. A sum over
    the counts per rating value (``RatingCount``), one row per value above."""
    above = RatingCount.objects.filter(category=category, rating__gt=rating).aggregate(
        n=Sum("players")
    )["n"]
    return (above or 0) + 1


def standings(ratings: Sequence[Rating], *, offset: int) -> list[Standing]:
    """Ranks for a slice of ``leaderboard_queryset`` starting at ``offset``."""
    out: list[Standing] = []
    for i, r in enumerate(ratings):
        if out and out[-1].rating == r.rating:
            rank = out[-1].rank
        elif i == 0 and offset > 0:
            rank = rank_of_rating(r.category, r.rating)
        else:
            rank = offset + i + 1
        out.append(_standing(r, rank))
    return out


def _standing(r: Rating, rank: int) -> Standing:
    return Standing(
        rank=rank,
        user_id=r.user_id,
        username=r.user.get_username(),
        display_name=display_name(r.user),
        category=r.category,
        rating=r.rating,
        games=r.games,
        peak=r.peak,
        provisional=r.provisional,
    )


def leaderboard(category: str, *, limit: int = 100, offset: int = 0) -> list[Standing]:
    """The ``limit`` best ratings of ``category`` from ``offset``, ranked."""
    page = list(leaderboard_queryset(category)[offset : offset + limit])
    return standings(page, offset=offset)


def player_rank(*, user_id: int, category: str) -> int | None:
    """A player's rank in ``category``; None when they have no rating there."""
    try:
        rating = Rating.objects.values_list("rating", flat=True).get(
            user_id=user_id, category=category
        )
    except Rating.DoesNotExist:
        return None
    return rank_of_rating(category, rating)


def player_standing(*, user_id: int, category: str) -> Standing | None:
    """A player's rating in ``category`` with its rank, or None."""
    rating = (
        Rating.objects.filter(user_id=user_id, category=category)
        .select_related("user", "user__profile")
        .first()
    )
    if rating is None:
        return None
    return _standing(rating, rank_of_rating(category, rating.rating))


def player_standings(user) -> list[Standing]:
    """A player's ratings, in the order of the categories, each ranked."""
    order = list(CATEGORIES)
    rows = sorted(
        Rating.objects.filter(user=user).select_related("user", "user__profile"),
        key=lambda r: order.index(r.category),
    )
    return [_standing(r, rank_of_rating(r.category, r.rating)) for r in rows]


def rating_history(*, user_id: int, category: str) -> QuerySet[RatingChange]:
    """A player's rating changes in ``category``, oldest first."""
    return RatingChange.objects.filter(user_id=user_id, category=category).order_by(
        "created_at", "id"
    )


def players(search: str = "") -> QuerySet:
    """Active players by username; ``search`` matches part of the username or
    of the display name, ignoring case."""
    users = get_user_model().objects.filter(is_active=True).select_related("profile")
    if search:
        users = users.filter(
            Q(username__icontains=search) | Q(profile__display_name__icontains=search)
        )
    return users.order_by("username")


def player_by_username(username: str):
    """The active player called ``username``, or None."""
    return (
        get_user_model()
        .objects.filter(is_active=True, username=username)
        .select_related("profile")
        .first()
    )


def rating_changes_by_game(*, user_id: int, game_ids: list[int]) -> dict:
    """What each of the games ``game_ids`` did to the rating of ``user_id``,
    by game id; an unrated game is missing."""
    return {
        c.game_id: c
        for c in RatingChange.objects.filter(user_id=user_id, game_id__in=game_ids)
    }


def latest_rated_category() -> str | None:
    """The category of the latest rated game, None before any: one step
    back along the primary key's index (changes are written as games are
    rated), where counting each category's games would read every rating."""
    return (
        RatingChange.objects.order_by("-id").values_list("category", flat=True).first()
    )


def game_rating_outcome(game_id: int) -> tuple[dict[int, RatingChange], str]:
    """What rating the game ``game_id`` gave: its changes by user id when it
    was rated, else the reason (``UnratedReason``) the ratings recorded when
    they left it unrated; both empty when they were never asked (a casual
    table, a game not over, or one finished before reasons were kept)."""
    changes = {c.user_id: c for c in RatingChange.objects.filter(game_id=game_id)}
    if changes:
        return changes, ""
    reason = (
        UnratedGame.objects.filter(game_id=game_id)
        .values_list("reason", flat=True)
        .first()
    )
    return {}, reason or ""
