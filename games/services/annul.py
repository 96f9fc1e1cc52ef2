"""Annulling a game: an operator's decision that it counts for nothing.

A game in progress ends as if called off, and every stake goes back. A
finished game loses its rating changes, and its Domino Coin are undone: every
payout (to the winners, or by score to each player) goes back into the game's
escrow, then every stake back to its player. Either way the game ends
``ANNULLED``, which nothing rates or settles again, so a second annulment
(or a late settlement) does nothing.

Locking contract: one transaction; the game row first (as every writer of a
game), then the coin accounts, then the ratings, the order in which the
move that finishes a game settles it, so the two cannot wait on each other.
All or nothing: a player who no longer holds the coins paid out makes the
whole annulment refuse, with nothing changed.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from coins import services as coins
from coins.errors import InsufficientCoins
from coins.models import Account, Entry
from common.errors import NotAllowed
from games.live.local import owner_of
from games.models import Game
from games.selectors import game_locked
from games.stakes import escrow_ref
from ratings import services as ratings


def game_annul(*, game_id: int, by, now=None) -> bool:
    """Annul the game ``game_id`` on behalf of the operator ``by``.

    Returns True when the game was annulled now, False when it already was.
    Raises ``NotFound`` for no such game, and ``NotAllowed`` for an aborted
    game (nothing to annul) or when a winner has spent the coins won.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = game_locked(game_id)
        if game.status == Game.Status.ANNULLED:
            return False
        if game.status == Game.Status.ABORTED:
            raise NotAllowed("the game was called off: there is nothing to annul")
        if game.status == Game.Status.PLAYING:
            # The stakes go back as annulled first, so the refund of the
            # game's end finds nothing left to give; then its owner stops it
            # with an abort event, as a game called off is (and tells a
            # server's owner to read it again).
            _refund_stakes(game)
            with owner_of(game_id) as table:
                table.call_off()
            game.refresh_from_db()
        else:
            _take_back_payouts(game, by)
            _refund_stakes(game)
        ratings.rating_revert_game(game_id=game.pk, now=now)
        game.status = Game.Status.ANNULLED
        game.finished_at = game.finished_at or now
        game.annulled_at = now
        game.annulled_by = by
        game.save()
    return True


def _refund_stakes(game: Game) -> None:
    if not game.table.stake:
        return
    coins.escrow_refund(
        ref=escrow_ref(game),
        key_prefix=f"annul:game:{game.pk}:refund",
        reason=Entry.Reason.ANNUL,
    )


def _take_back_payouts(game: Game, by) -> None:
    """Move what each player was paid from the escrow back into it, so that
    the escrow holds every stake again."""
    ref = escrow_ref(game)
    payouts = (
        Entry.objects.filter(
            ref=ref,
            reason=Entry.Reason.PAYOUT,
            debit__kind=Account.Kind.TABLE_ESCROW,
        )
        .select_related("credit__owner")
        .order_by("credit_id")
    )
    escrow = coins.escrow_account(ref)
    for payout in payouts:
        wallet = payout.credit
        try:
            coins.ledger_transfer(
                debit=wallet,
                credit=escrow,
                amount=payout.amount,
                reason=Entry.Reason.ANNUL,
                key=f"annul:game:{game.pk}:{wallet.owner_id}",
                memo=f"payout of game {game.pk} annulled",
                ref=ref,
                by=by,
            )
        except InsufficientCoins as error:
            raise NotAllowed(
                f"{wallet.owner} no longer holds the {payout.amount} Domino Coin "
                f"won in game {game.pk} (has {error.balance}): nothing was annulled",
                code="coins_spent",
            ) from error
