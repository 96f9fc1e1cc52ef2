"""Registering for a tournament (the entry fee into its pool) and
withdrawing before the start (the fee back)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from coins import services as coins
from coins.errors import InsufficientCoins
from common.errors import ApplicationError, Forbidden
from tournaments import notify
from tournaments.models import Entry, Tournament

from .locking import locked_tournament


def _check_open(tournament: Tournament, now) -> None:
    if tournament.status != Tournament.Status.SCHEDULED or tournament.starts_at <= now:
        raise ApplicationError("registration is closed", code="closed")


def tournament_register(*, tournament_id: int, user, now=None) -> Entry:
    """Enter ``user``; the entry fee moves from their wallet to the pool.

    Refused, with nothing changed, when registration is closed, the field is
    full, the user is already in, or their wallet holds less than the fee.
    """
    now = now or timezone.now()
    if not user.is_active:
        raise Forbidden("this account may not play", code="inactive")
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _check_open(tournament, now)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status == Entry.Status.REGISTERED:
            raise ApplicationError("you are already registered", code="registered")
        taken = tournament.entries.filter(status=Entry.Status.REGISTERED).count()
        if taken >= tournament.max_players:
            raise ApplicationError("the tournament is full", code="full")
        if entry is None:
            entry = Entry.objects.create(tournament=tournament, user=user)
        else:
            entry.status = Entry.Status.REGISTERED
            entry.registrations += 1
            entry.save(update_fields=["status", "registrations"])
        if tournament.entry_fee:
            try:
                coins.pool_enter(
                    user=user,
                    ref=tournament.pool_ref,
                    amount=tournament.entry_fee,
                    key=f"{tournament.pool_ref}:fee:{user.pk}:{entry.registrations}",
                )
            except InsufficientCoins as error:
                # Leaving the atomic block by this exception undoes the entry.
                raise ApplicationError(
                    f"the entry fee is {tournament.entry_fee} Domino Coin: "
                    "you have fewer",
                    code="few_coins",
                ) from error
        notify.changed_on_commit(tournament.pk, "registration")
    return entry


def tournament_withdraw(*, tournament_id: int, user, now=None) -> Entry:
    """Take ``user`` out before the start, with the entry fee back."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _check_open(tournament, now)
        entry = Entry.objects.filter(
            tournament=tournament, user=user, status=Entry.Status.REGISTERED
        ).first()
        if entry is None:
            raise ApplicationError("you are not registered", code="not_registered")
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        if tournament.entry_fee:
            coins.pool_refund(
                ref=tournament.pool_ref,
                key_prefix=f"{tournament.pool_ref}:withdraw:{entry.registrations}",
                user_ids=[user.pk],
            )
        notify.changed_on_commit(tournament.pk, "registration")
    return entry
