"""Writing ratings: applying a finished game and reverting an annulled one.

A game comes in as a ``RatedResult`` built by the games, or as its id to
revert: nothing here reads the games' tables.

Locking contract: both services run in one transaction and lock, in this
order, the game's changes (a revert), the players' ``Rating`` rows by user
id, then the ``RatingCount`` rows they move between by rating. So two
services touching the same players or ratings cannot deadlock. A game is
applied once (the unique change per game and player turns a second apply
away) and reverted once (a second revert finds its changes gone). Either may
be called inside the caller's transaction: the games call both holding the
game's row lock (the move that finished it, the annulment), so a game is
never applied and reverted at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F
from django.utils import timezone

from accounts import farming
from common.errors import ApplicationError
from ratings import elo
from ratings.categories import CATEGORIES
from ratings.models import (
    Rating,
    RatingChange,
    RatingCount,
    UnratedGame,
    UnratedReason,
)
from ratings.results import RatedResult, RatedSeat


@dataclass(frozen=True, slots=True)
class RatingDecision:
    """Whether a finished game is rated: its category when it is, else the
    rule that left it unrated (``reason``; ``category`` then says where it
    would have been rated, if anywhere)."""

    category: str | None
    reason: str = ""

    @property
    def rated(self) -> bool:
        return not self.reason


def rating_decision(result: RatedResult) -> RatingDecision:
    """Whether and where ``result`` is rated, by these rules in turn:

    * the table is ranked and plays a category's preset (the games leave the
      category out otherwise);
    * a person held every seat, unless the table is rated with bots: its
      bots are opponents of their level's fixed rating (``elo.BOT_RATINGS``),
      with a person at one seat at least;
    * nobody who left shares an address with another player of the game
      (``accounts.farming``: the cheapest way to give a rating away);
    * nobody who left is an account made on the sign-up page whose rating
      in the category is still provisional, whenever they left: such an
      account costs nothing to make, and its defeat would otherwise be a
      gift to whoever it chose to lose to (docs/ratings.md, "Leavers");
    * nor is one such account, still provisional, whose time ran out on
      so many of its turns that it was not playing (``let_time_run_out``):
      leaving without getting up, at a table that never takes the seat
      away for timeouts.

    A person who left keeps the seat and is otherwise rated, placed last."""
    category = result.category
    seats = result.seats
    if category is None or len(seats) != CATEGORIES[category].players:
        return RatingDecision(category, UnratedReason.OFF_PRESET)
    bots = [seat for seat in seats if seat.user_id is None]
    if bots and not (
        result.with_bots
        and len(bots) < len(seats)
        and all(seat.bot in elo.BOT_RATINGS for seat in bots)
    ):
        return RatingDecision(category, UnratedReason.BOT_SEAT)
    left = [seat.user_id for seat in seats if seat.left and seat.user_id]
    if farming.left_from_a_shared_address(result.game_id, left):
        return RatingDecision(category, UnratedReason.SHARED_ADDRESS)
    if _any_provisional(farming.signed_up_among(left), category):
        return RatingDecision(category, UnratedReason.PROVISIONAL_LEFT)
    idle = [seat.user_id for seat in seats if seat.user_id and let_time_run_out(seat)]
    if _any_provisional(farming.signed_up_among(idle), category):
        return RatingDecision(category, UnratedReason.PROVISIONAL_TIMED_OUT)
    return RatingDecision(category)


# A person let their time run out when the timer moved for them on at least
# this share of their turns in a game, and at least this many times
# (docs/ratings.md, "Leavers"). A game is about 170 turns a player in Joker
# and 200 in Japanese Joker; a short drop of the connection, back within the
# disconnect grace, costs one or two, so an honest player on a bad line
# stays far below a quarter. The floor keeps a few timeouts from counting in
# a game an opponent ended after a handful of turns.
TIMED_OUT_SHARE = 0.25
TIMED_OUT_AT_LEAST = 10


def let_time_run_out(seat: RatedSeat) -> bool:
    """Whether the person at ``seat`` let the timer play their game for
    them: counted, for a new account, as leaving it."""
    return (
        seat.timeouts >= TIMED_OUT_AT_LEAST
        and seat.timeouts >= TIMED_OUT_SHARE * seat.turns
    )


def _any_provisional(user_ids: list[int], category: str) -> bool:
    """Whether any of ``user_ids`` has fewer than the provisional games rated
    in ``category`` (no rating at all counts as none)."""
    established = Rating.objects.filter(
        user_id__in=user_ids, category=category, games__gte=elo.PROVISIONAL_GAMES
    ).count()
    return established < len(set(user_ids))


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


def rating_apply_game(result: RatedResult, *, now=None) -> list[RatingChange]:
    """Rate a finished game: one ``RatingChange`` per player and the new
    ratings, all or nothing; or, when a rule leaves it unrated, an
    ``UnratedGame`` naming the rule. Returns the changes made; an empty list
    when the game is unrated or was already applied (applying twice is harmless, even
    from two processes at once)."""
    now = now or timezone.now()
    game_id = result.game_id
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                return _apply(result, now)
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


def _apply(result: RatedResult, now) -> list[RatingChange]:
    if RatingChange.objects.filter(game_id=result.game_id).exists():
        return []
    decision = rating_decision(result)
    if not decision.rated:
        # Kept so that the game's result says which rule it was; a second
        # run finds the row and keeps it.
        UnratedGame.objects.get_or_create(
            game_id=result.game_id,
            defaults={
                "category": decision.category or "",
                "reason": decision.reason,
                "created_at": now,
            },
        )
        return []
    category = decision.category
    assert category is not None  # a rated game's
    seats = result.seats
    people = [s.user_id for s in seats if s.user_id is not None]
    ratings = _locked_ratings(people, category, now)
    before = [ratings[user_id] for user_id in people]
    # Partners sit opposite: seats 0 and 2 against 1 and 3.
    sides = [n % 2 for n in range(len(seats))] if CATEGORIES[category].pairs else None
    # A bot's seat plays at its level's fixed rating; its own change, worked
    # out with the others', is nobody's (its K does not matter).
    deltas = elo.game_changes(
        [elo.BOT_RATINGS[s.bot] if s.user_id is None else ratings[s.user_id].rating
         for s in seats],
        [0 if s.user_id is None else ratings[s.user_id].games for s in seats],
        result.places,
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
                game_id=result.game_id,
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
    # Locked, so that a second revert waits for this one and then finds none.
    changes = list(
        RatingChange.objects.select_for_update().filter(game_id=game_id).order_by("id")
    )
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
