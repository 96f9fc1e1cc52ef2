"""Ranked tables and Domino Coin stakes: who may sit, escrow, settlement.

Stakes go into the game's escrow (``game:<id>``) when the game starts and
leave it once: to the winners when the game ends, or back to the players
when it is aborted. Every movement has an idempotency key, and settlement
runs in the same transaction as the move that ends the game, so it happens
exactly once even if that path runs twice or a process dies half-way.
"""

from __future__ import annotations

from django.conf import settings

from coins import services as coins
from coins.errors import InsufficientCoins
from games.errors import NotAllowed, PlayError
from games.models import Game, Seat, Table
from ratings import services as ratings
from ratings.categories import category_of
from ratings.elo import PROVISIONAL_GAMES
from ratings.models import Rating

STAKE_CHOICES = (0, 10, 50, 100, 500, 1000)


def check_ranked_options(*, profile: str, options: dict, ranked: bool, stake: int):
    if stake not in STAKE_CHOICES:
        raise PlayError(f"the stake cannot be {stake}", code="bad_options")
    if stake and not ranked:
        raise PlayError("only ranked tables have stakes", code="bad_options")
    if ranked and category_of(profile, options) is None:
        raise PlayError(
            "a ranked table plays a category's standard rules", code="bad_options"
        )


def check_may_sit(table: Table, user) -> None:
    """Refuse a seat at a ranked table to someone who may not take it.

    ``table`` may be unsaved: quick play asks before a table exists.
    """
    if not table.ranked:
        return
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
    if table.stake >= settings.PULKA_HIGH_STAKE:
        category = category_of(table.profile, table.options)
        rating = Rating.objects.filter(user=user, category=category).first()
        if rating is None or rating.games < PROVISIONAL_GAMES:
            raise NotAllowed(
                "high stakes need an established rating: "
                f"{PROVISIONAL_GAMES} rated games in this category",
                code="rating_needed",
            )


def stake_all(game: Game) -> None:
    """Move every player's stake into the game's escrow (at the start)."""
    table = game.table
    if not table.stake:
        return
    for seat in Seat.objects.filter(table=table).select_related("user"):
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


def settle(game: Game) -> None:
    """Pay the pot to the winners and rate the game (once per game)."""
    table = game.table
    if table.stake:
        winners = [
            seat.user_id
            for seat in Seat.objects.filter(table=table).order_by("number")
            if seat.number in game.result["winners"]
        ]
        pot = coins.escrow_balance(escrow_ref(game))
        coins.escrow_payout(
            ref=escrow_ref(game),
            shares=split_pot(pot, winners),
            key_prefix=f"payout:game:{game.pk}",
        )
    if table.ranked:
        ratings.rating_apply_game(game_id=game.pk)


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


def escrow_ref(game: Game) -> str:
    return f"game:{game.pk}"
