"""Writing ratings: applying a finished game and reverting an annulled one.

Locking contract: both services run in one transaction and lock, in this
order, the game row (``select_for_update``), the players' ``Rating`` rows by
user id, then the ``RatingCount`` rows they move between by rating. So two
services touching the same players or ratings cannot deadlock, and a game is
applied or reverted by one of them at a time. Either may be called inside the
caller's transaction (for instance the one that finished the game).
"""

from __future__ import annotations

from collections import Counter

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F
from django.utils import timezone

from accounts import farming
from common.errors import ApplicationError
from games.models import Game, Seat
from ratings import elo
from ratings.categories import CATEGORIES, category_of
from ratings.models import Rating, RatingChange, RatingCount


def rated_category(game: Game, seats: list[Seat]) -> str | None:
    """The category ``game`` is rated in, or None when it is unrated: not
    finished (an aborted game is never rated), not at a ranked table, not
    playing a category's preset (which names the category), or with a seat
    that no person held (a bot has no rating to put at stake), unless the
    table is rated with bots: its bots are opponents of their level's fixed
    rating (``elo.BOT_RATINGS``), with a person at one seat at least. A person who
    left keeps the seat and is rated, placed last; but a game is unrated when
    one who left shares an address with another player of it
    (``accounts.farming``: the cheapest way to give a rating away)."""
    if game.status != Game.Status.FINISHED or not game.result:
        return None
    table = game.table
    if not table.ranked:
        return None
    category = category_of(table.profile, table.options)
    if category is None:
        return None
    if len(seats) != CATEGORIES[category].players:
        return None
    bots = [seat for seat in seats if seat.user_id is None]
    if bots and not (
        table.rated_with_bots
        and len(bots) < len(seats)
        and all(seat.bot in elo.BOT_RATINGS for seat in bots)
    ):
        return None
    left = [
        seat.user_id for seat in seats if seat.number in game.result.get("left", ())
    ]
    if farming.left_from_a_shared_address(game, left):
        return None
    return category


# Attempts at a service whose ratings vanish under it (see RatingVanished).
ATTEMPTS = 3


class RatingVanished(ApplicationError):
    """A rating was deleted (its last game reverted) while this transaction
    waited for its lock, so the locking read skipped it. Starting again
    creates it afresh; after ``ATTEMPTS`` the request is refused as a
    conflict (409), its transaction rolled back, and may be sent again: the
    move that ended the game, the annulment, the revert."""

    code = "ratings_busy"


def _locked_ratings(user_ids: list[int], category: str, now) -> dict[int, Rating]:
    """The players' ratings in ``category``, created at the start value where
    missing, locked in user id order."""
    user_ids = sorted(user_ids)
    # ON CONFLICT DO NOTHING: a concurrent first game of the same player
    # waits for the other insert instead of failing on the unique constraint.
    Rating.objects.bulk_create(
        [Rating(user_id=u, category=category, updated_at=now) for u in user_ids],
        ignore_conflicts=True,
    )
    rows = (
        Rating.objects.select_for_update()
        .filter(category=category, user_id__in=user_ids)
        .order_by("user_id")
    )
    ratings = {r.user_id: r for r in rows}
    if len(ratings) != len(user_ids):
        raise RatingVanished(f"a rating of {category} was deleted meanwhile: try again")
    return ratings


def rating_apply_game(*, game_id: int, now=None) -> list[RatingChange]:
    """Rate a finished game: one ``RatingChange`` per player and the new
    ratings, all or nothing. Returns the changes made; an empty list when the
    game is unrated or was already applied (applying twice is harmless, even
    from two processes at once)."""
    now = now or timezone.now()
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                return _apply(game_id, now)
        except RatingVanished:
            if attempt == ATTEMPTS - 1:
                raise
        except IntegrityError:
            # A concurrent run got there first (the unique constraint on game
            # and user): that run's changes are the game's changes.
            if RatingChange.objects.filter(game_id=game_id).exists():
                return []
            raise
    raise AssertionError("unreachable")


def _apply(game_id: int, now) -> list[RatingChange]:
    game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
    if RatingChange.objects.filter(game=game).exists():
        return []
    seats = list(Seat.objects.filter(table_id=game.table_id).order_by("number"))
    category = rated_category(game, seats)
    if category is None:
        return []
    people = [s for s in seats if s.user_id is not None]
    ratings = _locked_ratings([s.user_id for s in people], category, now)
    before = [ratings[s.user_id] for s in people]
    sides = [s.number % 2 for s in seats] if CATEGORIES[category].pairs else None
    # A bot's seat plays at its level's fixed rating; its own change, worked
    # out with the others', is nobody's (its K does not matter).
    deltas = elo.game_changes(
        [elo.BOT_RATINGS[s.bot] if s.user_id is None else ratings[s.user_id].rating
         for s in seats],
        [0 if s.user_id is None else ratings[s.user_id].games for s in seats],
        game.result["places"],
        sides,
    )  # fmt: skip
    people_deltas = [d for s, d in zip(seats, deltas, strict=True) if s.user_id]
    changes = []
    moves: Counter[int] = Counter()
    for rating, delta in zip(before, people_deltas, strict=True):
        old = rating.rating
        if rating.games:  # a rating made for this game was not counted yet
            moves[old] -= 1
        moves[old + delta] += 1
        rating.rating = old + delta
        rating.games += 1
        rating.peak = max(rating.peak, rating.rating)
        rating.updated_at = now
        changes.append(
            RatingChange(
                game=game,
                user_id=rating.user_id,
                category=category,
                before=old,
                after=rating.rating,
                delta=delta,
                created_at=now,
            )
        )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(before, ["rating", "games", "peak", "updated_at"])
    _move_counts(category, moves)
    return changes


def _move_counts(category: str, moves: Counter[int]) -> None:
    """Add ``moves[r]`` players (negative: take them away) to the count of
    rating ``r``, locking the counts in rating order."""
    ratings = sorted(r for r, n in moves.items() if n)
    RatingCount.objects.bulk_create(
        [RatingCount(category=category, rating=r) for r in ratings],
        ignore_conflicts=True,
    )
    for r in ratings:
        RatingCount.objects.filter(category=category, rating=r).update(
            players=F("players") + moves[r]
        )


def rating_counts_rebuild() -> int:
    """Count the ratings by value again, from the ratings themselves: after
    loading ratings by hand, or should the counts ever be doubted. Safe while
    games are rated: it waits for the services writing counts
    and holds off new ones until it commits. Returns the number of counts."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(RatingCount._meta.db_table)
            cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        RatingCount.objects.all().delete()
        counts = (
            Rating.objects.values("category", "rating")
            .annotate(players=Count("id"))
            .order_by()
        )
        return len(
            RatingCount.objects.bulk_create(
                (RatingCount(**row) for row in counts), batch_size=5000
            )
        )


def rating_revert_game(*, game_id: int, now=None) -> int:
    """Undo a rated game (an annulment): take each player's change back off
    their current rating and delete the changes. Later games keep their own
    changes. Returns how many players were reverted; 0 when the game was not
    rated or is reverted already.

    The peak becomes the highest rating left in the player's history (or the
    current rating if higher). A rating left with no games is deleted: it is
    back at the start value and was never really played.
    """
    now = now or timezone.now()
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                return _revert(game_id, now)
        except RatingVanished:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _revert(game_id: int, now) -> int:
    list(Game.objects.select_for_update().filter(pk=game_id).values_list("pk"))
    changes = list(RatingChange.objects.filter(game_id=game_id))
    if not changes:
        return 0
    category = changes[0].category
    ratings = _locked_ratings([c.user_id for c in changes], category, now)
    RatingChange.objects.filter(game_id=game_id).delete()
    emptied, kept = [], []
    moves: Counter[int] = Counter()
    for change in changes:
        rating = ratings[change.user_id]
        moves[rating.rating] -= 1
        rating.rating -= change.delta
        rating.games -= 1
        if rating.games == 0:
            emptied.append(rating.pk)
            continue
        moves[rating.rating] += 1
        rating.peak = _peak(rating)
        rating.updated_at = now
        kept.append(rating)
    Rating.objects.filter(pk__in=emptied).delete()
    Rating.objects.bulk_update(kept, ["rating", "games", "peak", "updated_at"])
    _move_counts(category, moves)
    return len(changes)


def _peak(rating: Rating) -> int:
    afters = RatingChange.objects.filter(
        user_id=rating.user_id, category=rating.category
    ).values_list("after", flat=True)
    return max([elo.START, rating.rating, *afters])
