"""A player's statistics, per rating category: how their bids, hishts,
premiums and jokers went, and what the stored deal reviews say of their
decisions, over their latest finished games (docs/review.md, "Player
statistics").

Computed when asked, from the game records and the reviews that are done;
nothing is stored. ``seat_facts`` reads one game for one seat and
``aggregate`` adds games up; both are plain functions over plain data, so
that they are tested on made-up reviews. ``player_statistics`` reads the
games a viewer may see (as their replays: ``selectors.visible_to``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache

from games import selectors
from games.models import Game, GameReview, Seat
from joker.record import replay, result_json
from ratings.categories import category_of
from ratings.models import RatingChange

# The latest finished games read: each is replayed from its record, so
# the page's cost is bounded whatever a player's history.
STATISTICS_GAMES = 60
# How long a game's facts from a seat stay in the cache (they change only
# with the game's review, which is in their key).
FACTS_SECONDS = 7 * 24 * 3600
# Opponents within this many rating points (their mean, before the game)
# are "of a similar rating": a little over the Elo step between two ranks.
SIMILAR_RATING = 100
JOKER_MODES = ("take", "give", "high", "low", "nominal")


@dataclass
class SeatFacts:
    """One finished game seen from one seat: what its record and its
    review (None when not done) say."""

    game_id: int
    category: str
    finished_at: datetime | None
    japanese: bool
    deals: int = 0
    # (bid, cards dealt, made exactly), one a deal; the 4-player game only.
    bids: list[tuple[int, int, bool]] = field(default_factory=list)
    hishts: int = 0
    pulkas: int = 0
    premiums: int = 0
    jokers: Counter[str] = field(default_factory=Counter)
    joker_tricks: int = 0  # tricks the seat won with a joker it played
    reviewed_deals: int = 0
    decisions: int = 0  # reviewed decisions that were not forced
    loss: float = 0.0  # their losses added up
    accuracy: float = 0.0  # their accuracies added up
    grades: Counter[str] = field(default_factory=Counter)
    reviewed: bool = False
    similar: bool = False  # rated, against players of a similar rating


def seat_facts(
    *,
    game_id: int,
    category: str,
    finished_at: datetime | None,
    record: dict,
    result: dict,
    seat: int,
    review: dict | None,
    similar: bool = False,
) -> SeatFacts:
    """The facts of ``seat`` in one game, from its record (RECORD.md), the
    replay's result (``joker.record.result_json``) and the seat's review
    (``joker.review`` JSON, or None)."""
    japanese = "pulkas" not in result
    facts = SeatFacts(game_id, category, finished_at, japanese, similar=similar)
    players = len(record["deals"][0]["hands"]) if record["deals"] else 0
    for deal, outcome in zip(record["deals"], result["deals"], strict=False):
        facts.deals += 1
        if not japanese:
            bid, took = outcome["bids"][seat], outcome["tricks"][seat]
            facts.bids.append((bid, outcome["cards"], bid == took))
            facts.hishts += bid > 0 and took == 0
        plays = [action for action in deal["actions"] if "card" in action]
        for number, play in enumerate(plays):
            if play["seat"] != seat or not play["card"].startswith("X"):
                continue
            facts.jokers[play.get("mode") or "nominal"] += 1
            winners = outcome["trick_winners"]
            trick = number // players
            facts.joker_tricks += trick < len(winners) and winners[trick] == seat
    for pulka in result.get("pulkas", []):
        facts.pulkas += 1
        facts.premiums += bool(pulka["premium"][seat])
    if review is not None:
        facts.reviewed = True
        free = [d for d in review["decisions"] if not d["forced"]]
        facts.decisions = len(free)
        facts.loss = math.fsum(d["loss"] for d in free)
        facts.accuracy = math.fsum(d["accuracy"] for d in free)
        facts.grades = Counter(d["grade"] for d in free if d["grade"])
        facts.reviewed_deals = sum(1 for d in review["per_deal"] if d["decisions"])
    return facts


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def _mean(total: float, count: int, digits: int = 1) -> float | None:
    return round(total / count, digits) if count else None


def _bid_rows(bids: Iterable[tuple[int, int, bool]], key: int) -> list[dict]:
    made: Counter[int] = Counter()
    total: Counter[int] = Counter()
    for row in bids:
        total[row[key]] += 1
        made[row[key]] += row[2]
    return [
        {"size": size, "deals": total[size], "made": made[size]}
        for size in sorted(total)
    ]


def aggregate(category: str, games: Sequence[SeatFacts]) -> dict[str, Any]:
    """One category's statistics over ``games`` (oldest first)."""
    reviewed = [g for g in games if g.reviewed]
    decisions = sum(g.decisions for g in reviewed)
    japanese = any(g.japanese for g in games)
    bids = [row for g in games for row in g.bids]
    with_bids = [row for row in bids if row[0] > 0]
    jokers: Counter[str] = Counter()
    for g in games:
        jokers.update(g.jokers)
    similar = [g for g in reviewed if g.similar]
    similar_decisions = sum(g.decisions for g in similar)
    out: dict[str, Any] = {
        "category": category,
        "games": len(games),
        "deals": sum(g.deals for g in games),
        "games_reviewed": len(reviewed),
        "deals_reviewed": sum(g.reviewed_deals for g in reviewed),
        "decisions": decisions,
        "loss_per_decision": _mean(sum(g.loss for g in reviewed), decisions, 3),
        "accuracy": _mean(sum(g.accuracy for g in reviewed), decisions),
        "grades": {
            name: sum(g.grades[name] for g in reviewed)
            for name in ("inaccuracy", "mistake", "blunder")
        },
        "jokers": {
            "played": sum(jokers.values()),
            "tricks": sum(g.joker_tricks for g in games),
            "modes": {mode: jokers[mode] for mode in JOKER_MODES},
        },
        "similar_rating": {
            "games": len(similar),
            "decisions": similar_decisions,
            "accuracy": _mean(sum(g.accuracy for g in similar), similar_decisions),
            "loss_per_decision": _mean(
                sum(g.loss for g in similar), similar_decisions, 3
            ),
        },
        "trend": [
            {
                "game": g.game_id,
                "finished_at": g.finished_at,
                "accuracy": _mean(g.accuracy, g.decisions),
            }
            for g in reviewed
            if g.decisions
        ],
    }
    if not japanese:
        out["bids"] = {
            "deals": len(bids),
            "made": sum(row[2] for row in bids),
            "exact_share": _share(sum(row[2] for row in bids), len(bids)),
            "by_bid": _bid_rows(bids, 0),
            "by_cards": _bid_rows(bids, 1),
        }
        out["hisht"] = {
            "bids": len(with_bids),
            "hishts": sum(g.hishts for g in games),
            "share": _share(sum(g.hishts for g in games), len(with_bids)),
        }
        pulkas = sum(g.pulkas for g in games)
        premiums = sum(g.premiums for g in games)
        out["premium"] = {
            "pulkas": pulkas,
            "premiums": premiums,
            "share": _share(premiums, pulkas),
        }
    return out


def _similar(changes: list[RatingChange], user_id: int) -> bool:
    own = [c.before for c in changes if c.user_id == user_id]
    others = [c.before for c in changes if c.user_id != user_id]
    if not own or not others:
        return False
    return abs(own[0] - sum(others) / len(others)) <= SIMILAR_RATING


def player_statistics(user, *, viewer, limit: int = STATISTICS_GAMES) -> list[dict]:
    """``user``'s statistics per category, over their latest ``limit``
    finished games that ``viewer`` may see, the categories most played
    first."""
    seats = list(
        Seat.objects.filter(
            user=user,
            table__game__status=Game.Status.FINISHED,
            table__game__in=Game.objects.filter(selectors.visible_to(viewer)),
        )
        .select_related("table", "table__game")
        .order_by("-table__game__finished_at", "-table__game__id")[:limit]
    )
    games = [seat.table.game for seat in seats]
    reviews = {
        r.game_id: (r.data, r.version)
        for r in GameReview.objects.filter(
            game__in=games, status=GameReview.Status.DONE
        )
    }
    # A finished game's facts from a seat never change but with its review:
    # kept in the cache, they spare replaying up to ``limit`` records on
    # every visit of the player page.
    keys = {
        seat.pk: facts_key(seat, reviews.get(seat.table.game.pk, (None, None))[1])
        for seat in seats
    }
    cached = cache.get_many(list(keys.values()))
    changes: dict[int, list[RatingChange]] = defaultdict(list)
    if len(cached) < len(keys):
        for change in RatingChange.objects.filter(game__in=games):
            changes[change.game_id].append(change)
    by_category: dict[str, list[SeatFacts]] = defaultdict(list)
    for seat in reversed(seats):
        game = seat.table.game
        category = category_of(seat.table.profile, seat.table.options)
        if category is None:
            continue
        facts = cached.get(keys[seat.pk])
        if facts is None:
            record = selectors.game_record(game)
            data = (reviews.get(game.pk) or (None, ""))[0] or {}
            review = next(
                (s for s in data.get("seats", []) if s["seat"] == seat.number), None
            )
            facts = seat_facts(
                game_id=game.pk,
                category=category,
                finished_at=game.finished_at,
                record=record,
                result=result_json(replay(record).state),
                seat=seat.number,
                review=review,
                similar=_similar(changes[game.pk], user.pk),
            )
            cache.set(keys[seat.pk], facts, FACTS_SECONDS)
        by_category[category].append(facts)
    ordered = sorted(by_category.items(), key=lambda item: -len(item[1]))
    return [aggregate(category, facts) for category, facts in ordered]


def facts_key(seat: Seat, review_version: str | None) -> str:
    """The cache key of a finished game's facts from ``seat``, with the
    version of its done review (None while it has none). The game's end time
    is in it too: a database made again (tests, a restored backup) reuses
    game ids, never with the same end."""
    game = seat.table.game
    ended = game.finished_at.timestamp() if game.finished_at else ""
    review = "none" if review_version is None else f"done-{review_version}"
    return f"statistics-facts:{game.pk}:{ended}:{seat.number}:{review}"
