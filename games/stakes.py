"""Ranked tables and Domino Coin stakes: who may sit, escrow, settlement.

Stakes go into the game's escrow (``game:<id>``) when the game starts and
leave it once: when the game ends, to the winners (a table settled by the
pot) or to every player by score (a table settled by score, where the stake
is each player's deposit: ``games.settlement``); or back to the players
when it is aborted. Every movement has an idempotency key, and settlement
runs in the same transaction as the move that ends the game (a subscriber
to ``games.ended``), so it happens exactly once even if that path runs
twice or a process dies half-way.
"""

from __future__ import annotations

from django.conf import settings

from accounts import farming
from accounts.locking import lock_players
from coins import services as coins
from coins.errors import InsufficientCoins
from common.errors import ApplicationError, NotAllowed
from games.ended import GameEnded
from games.models import Game, Seat, Table
from games.rated import rated_result
from games.settlement import (
    DEFAULT_POINTS_PER_COIN,
    POINTS_PER_COIN_CHOICES,
    score_settlement,
)
from ratings import services as ratings
from ratings.categories import category_of
from ratings.elo import PROVISIONAL_GAMES
from ratings.models import Rating

STAKE_CHOICES = (0, 10, 50, 100, 500, 1000)


def check_ranked_options(
    *,
    profile: str,
    options: dict,
    ranked: bool,
    stake: int,
    settlement: str = Table.Settlement.POT,
    points_per_coin: int = DEFAULT_POINTS_PER_COIN,
):
    if stake not in STAKE_CHOICES:
        raise ApplicationError(f"the stake cannot be {stake}", code="bad_options")
    if stake and not ranked:
        raise ApplicationError("only ranked tables have stakes", code="bad_options")
    if ranked and category_of(profile, options) is None:
        raise ApplicationError(
            "a ranked table plays a category's standard rules", code="bad_options"
        )
    if settlement not in Table.Settlement.values:
        raise ApplicationError(
            f"there is no settlement {settlement!r}", code="bad_options"
        )
    if type(points_per_coin) is not int or (
        points_per_coin not in POINTS_PER_COIN_CHOICES
    ):
        raise ApplicationError(
            f"the rate cannot be one coin per {points_per_coin!r} points",
            code="bad_options",
        )
    if settlement == Table.Settlement.SCORE and not (ranked and stake):
        raise ApplicationError(
            "only a ranked table with a stake is settled by score",
            code="bad_options",
        )


def check_may_sit(table: Table, user) -> None:
    """Refuse a seat at a ranked table to someone who may not take it.

    ``table`` may be unsaved: quick play asks before a table exists.

    Locking: call it inside the transaction that seats ``user``. For a
    ranked table it first locks the user's row (``FOR NO KEY UPDATE``) until
    that transaction ends, so that one player's seats at two ranked tables,
    taken at once, are taken one after the other: the second transaction's
    check runs once the first has committed, and sees its seat (PostgreSQL's
    READ COMMITTED gives each statement a fresh snapshot). The tables' own
    locks cannot do it, each request locking a different table.
    """
    if not table.ranked:
        return
    lock_player(user)
    elsewhere = Seat.objects.filter(
        user=user,
        left=False,
        table__ranked=True,
        table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    ).exclude(table_id=table.pk)
    if elsewhere.exists():
        raise NotAllowed(
            "you already have a seat at another ranked table", code="ranked_elsewhere"
        )
    if not table.stake:
        return
    if coins.wallet_of(user).balance < table.stake:
        raise NotAllowed(
            f"the stake is {table.stake} Domino Coin: you have fewer", code="few_coins"
        )
    # A high stake needs an established rating; so does any stake of an
    # account the sign-up page made, which costs nothing to make and comes
    # with coins (docs/security.md, "Farming").
    high = table.stake >= settings.PULKA_HIGH_STAKE
    if high or farming.stakes_need_established_rating(user):
        category = category_of(table.profile, table.options)
        rating = Rating.objects.filter(user=user, category=category).first()
        if rating is None or rating.games < PROVISIONAL_GAMES:
            what = "high stakes" if high else "stakes from a new account"
            raise NotAllowed(
                f"{what} need an established rating: "
                f"{PROVISIONAL_GAMES} rated games in this category",
                code="rating_needed",
            )


def lock_player(user) -> None:
    """Lock ``user``'s row until the transaction ends (``FOR NO KEY
    UPDATE``: rows that refer to the user, ledger entries and seats, may
    still be written meanwhile). Several players are locked together with
    ``accounts.locking.lock_players``, which takes them lowest id first."""
    lock_players(user.pk)


def stake_all(game: Game) -> None:
    """Move every player's stake into the game's escrow (at the start).
    Their wallets are locked one at a time, lowest user id first, as their
    rows are (``accounts.locking``)."""
    table = game.table
    if not table.stake:
        return
    seats = Seat.objects.filter(table=table).select_related("user").order_by("user_id")
    for seat in seats:
        try:
            coins.escrow_stake(
                user=seat.user,
                ref=escrow_ref(game),
                amount=table.stake,
                key=f"stake:game:{game.pk}:{seat.user_id}",
            )
        except InsufficientCoins as error:
            raise NotAllowed(
                f"{seat.display_name} no longer has the {table.stake} coins staked"
            ) from error


def settle_ended(ended: GameEnded) -> None:
    """Subscriber to ``games.ended``, in the end's transaction: a game
    played to its end is settled and rated, an aborted one refunded."""
    if ended.finished:
        settle(ended.game)
    else:
        refund(ended.game)


def settle(game: Game) -> None:
    """Pay the escrow out, to the winners or by score, and rate the game
    (once per game)."""
    table = game.table
    if table.stake:
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        result = game.result
        assert result is not None  # a finished game's
        if table.settled_by_score:
            shares = score_shares(table, result, seats)
        else:
            winners = [
                _user_id(seat) for seat in seats if seat.number in result["winners"]
            ]
            shares = split_pot(coins.escrow_balance(escrow_ref(game)), winners)
        coins.escrow_payout(
            ref=escrow_ref(game),
            shares=shares,
            key_prefix=f"payout:game:{game.pk}",
        )
    rated = rated_result(game.pk) if table.ranked else None
    if rated is not None:
        ratings.rating_apply_game(rated)


def refund(game: Game) -> None:
    """Give every player their stake back (the game was aborted)."""
    if game.table.stake:
        coins.escrow_refund(ref=escrow_ref(game), key_prefix=f"refund:game:{game.pk}")


def split_pot(pot: int, winners: list[int]) -> dict[int, int]:
    """Equal shares; the coins that do not divide evenly go one each to the
    winners in seat order (``winners`` is in seat order)."""
    share, remainder = divmod(pot, len(winners))
    return {
        user_id: share + (1 if index < remainder else 0)
        for index, user_id in enumerate(winners)
    }


def score_shares(table: Table, result: dict, seats: list[Seat]) -> dict[int, int]:
    """What each player (by user id) is paid out of the escrow of a game
    settled by score: their deposit plus their net. ``seats`` in seat order.

    The shares depend on the result alone, so a settlement run again asks
    for the same payouts, which the ledger already holds (paid once)."""
    nets = score_settlement(
        result["totals"],
        table.stake,
        table.points_per_coin,
        left=result.get("left", ()),
    )
    return {
        _user_id(seat): table.stake + net for seat, net in zip(seats, nets, strict=True)
    }


def _user_id(seat: Seat) -> int:
    """A staked seat's player: a stake is a person's (no bot sits at a
    staked table, and one who left keeps the seat)."""
    assert seat.user_id is not None, "a staked seat without its player"
    return seat.user_id


def escrow_ref(game: Game) -> str:
    return game.escrow_ref
