"""Reads of the ratings app: leaderboards, ranks, players and their rating
history. The games a player played are the games' to read
(``games.recent_games.player_recent_games``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection
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


# A pair of accounts is lopsided (docs/ratings.md, "Lopsided pairs") when
# they played at least this many rated games together in the window and one
# of them gained while the other lost in at least this share of them.
LOPSIDED_GAMES = 5
LOPSIDED_SHARE = 0.9
# The most pairs listed at once, the most lopsided first.
LOPSIDED_LIMIT = 200


@dataclass(frozen=True, slots=True)
class PairGains:
    """What one account gained from another in their rated games together
    in a category, over a window."""

    gainer_id: int
    gainer: str
    loser_id: int
    loser: str
    category: str
    # Rated games the two played together, and those the gainer gained in
    # while the loser lost.
    games: int
    gains: int
    # The points the gainer won in those games, and the share they are of
    # every point the gainer won in the category in the window.
    points: int
    share_of_points: float
    game_ids: tuple[int, ...]


def lopsided_pairs(*, since: datetime, category: str | None = None) -> list[PairGains]:
    """The pairs of accounts one of which kept gaining rating from the
    other since ``since`` (in ``category``, or in each category): at least
    ``LOPSIDED_GAMES`` rated games together, in at least ``LOPSIDED_SHARE``
    of which the one gained and the other lost. Most games gained first.

    Read from the rating changes alone, each game's changes joined to one
    another by the game: in a game of four, each pair of its players is a
    pair here, gaining as their changes say."""
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    in_category = "AND mine.category = %(category)s" if category else ""
    sql = f"""
        WITH pairs AS (
            SELECT mine.user_id AS gainer_id, theirs.user_id AS loser_id,
                   mine.category,
                   COUNT(*) AS games,
                   COUNT(*) FILTER (WHERE mine.delta > 0 AND theirs.delta < 0)
                       AS gains,
                   COALESCE(SUM(mine.delta)
                       FILTER (WHERE mine.delta > 0 AND theirs.delta < 0), 0)
                       AS points,
                   ARRAY_AGG(mine.game_id ORDER BY mine.game_id) AS game_ids
            FROM {table} mine
            JOIN {table} theirs
              ON theirs.game_id = mine.game_id AND theirs.user_id <> mine.user_id
            WHERE mine.created_at >= %(since)s {in_category}
            GROUP BY mine.user_id, theirs.user_id, mine.category
            HAVING COUNT(*) >= %(games)s
               AND COUNT(*) FILTER (WHERE mine.delta > 0 AND theirs.delta < 0)
                   >= %(share)s * COUNT(*)
        )
        SELECT pairs.*,
               (SELECT SUM(delta) FROM {table} gained
                WHERE gained.user_id = pairs.gainer_id
                  AND gained.category = pairs.category
                  AND gained.created_at >= %(since)s
                  AND gained.delta > 0) AS all_points
        FROM pairs
        ORDER BY gains DESC, points DESC, gainer_id, loser_id
        LIMIT %(limit)s
    """
    params = {
        "since": since,
        "category": category,
        "games": LOPSIDED_GAMES,
        "share": LOPSIDED_SHARE,
        "limit": LOPSIDED_LIMIT,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        columns = [column.name for column in cursor.description]
        rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    players = {row["gainer_id"] for row in rows} | {row["loser_id"] for row in rows}
    names = dict(
        get_user_model().objects.filter(pk__in=players).values_list("pk", "username")
    )
    return [
        PairGains(
            gainer_id=row["gainer_id"],
            gainer=names[row["gainer_id"]],
            loser_id=row["loser_id"],
            loser=names[row["loser_id"]],
            category=row["category"],
            games=row["games"],
            gains=row["gains"],
            points=row["points"],
            share_of_points=row["points"] / row["all_points"],
            game_ids=tuple(row["game_ids"]),
        )
        for row in rows
    ]
