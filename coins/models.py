"""The Domino Coin ledger: accounts and the entries that move coins between them.

Double entry: every entry takes ``amount`` coins from its debit account and
gives them to its credit account, so the sum of all balances never changes.
New coins come into play only from the mint (the ``grants`` account), whose
balance is the only one allowed below zero: minus the coins in circulation.

The database, not only the services, keeps the books sound: balances cannot go
negative, amounts are positive, an idempotency key names one entry, a user has
one wallet. Entries are append-only; balances change only through
``coins.services``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from coins.references import Named


class Account(models.Model):
    """Somewhere coins can be: a player's wallet, a table's escrow, a
    tournament's prize pool, the house, or the mint."""

    class Kind(models.TextChoices):
        WALLET = "wallet", _("wallet")
        TABLE_ESCROW = "table_escrow", _("table escrow")
        TOURNAMENT_POOL = "tournament_pool", _("tournament pool")
        HOUSE = "house", _("house")
        # The source of every coin in play; its balance is negative.
        GRANTS = "grants", _("grants (mint)")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # Wallets only. Protected: a user with coin history is deactivated, not
    # deleted, so the books still add up.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="coin_accounts",
        verbose_name=_("owner"),
    )
    # What an escrow or a pool belongs to, e.g. "game:12", "tournament:3".
    # Plain text rather than a foreign key keeps this app independent of the
    # apps that use it.
    ref = models.CharField(_("reference"), max_length=64, blank=True)
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        permissions = [("adjust_coins", "Can grant and remove Domino Coin")]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind="grants"),
                name="coins_account_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(Q(kind="wallet") & Q(owner__isnull=False) & Q(ref=""))
                | (~Q(kind="wallet") & Q(owner__isnull=True)),
                name="coins_account_owner_iff_wallet",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["wallet", "house", "grants"], ref="")
                | (Q(kind__in=["table_escrow", "tournament_pool"]) & ~Q(ref="")),
                name="coins_account_ref_iff_escrow_or_pool",
            ),
            models.UniqueConstraint(
                fields=["owner"],
                condition=Q(kind="wallet"),
                name="coins_account_one_wallet_per_user",
            ),
            # Also makes the house and the mint singletons (their ref is "").
            models.UniqueConstraint(
                fields=["kind", "ref"],
                condition=~Q(kind="wallet"),
                name="coins_account_unique_kind_ref",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.WALLET:
            return f"wallet of user {self.owner_id}"
        if self.ref:
            return f"{self.kind} {self.ref}"
        return self.kind


class EntryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("ledger entries are append-only")

    def delete(self):
        raise TypeError("ledger entries are append-only")


class Entry(models.Model):
    """One movement of coins, never changed or removed once written."""

    # Set for the wallet's page (``coins.views``): what the other side of
    # the entry is called, and the name of what its reference points at.
    counterparty_label: StrOrPromise
    named: Named | None

    class Reason(models.TextChoices):
        GRANT = "grant", _("grant")
        REFILL = "refill", _("daily refill")
        STAKE = "stake", _("stake")
        PAYOUT = "payout", _("payout")
        REFUND = "refund", _("refund")
        ENTRY_FEE = "entry_fee", _("entry fee")
        PRIZE = "prize", _("prize")
        ADMIN_GRANT = "admin_grant", _("granted by an operator")
        ADMIN_REMOVE = "admin_remove", _("removed by an operator")
        TRANSFER = "transfer", _("transfer")
        ANNUL = "annul", _("annulled")

    # The account the coins leave ...
    debit = models.ForeignKey(
        Account,
        on_delete=models.PROTECT,
        related_name="debit_entries",
        verbose_name=_("from"),
    )
    # ... and the account they reach.
    credit = models.ForeignKey(
        Account,
        on_delete=models.PROTECT,
        related_name="credit_entries",
        verbose_name=_("to"),
    )
    amount = models.BigIntegerField(_("amount"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    memo = models.TextField(_("memo"), blank=True)
    # What the movement belongs to, e.g. "game:12", "tournament:3".
    ref = models.CharField(_("reference"), max_length=64, blank=True, db_index=True)
    idempotency_key = models.CharField(
        _("idempotency key"), max_length=200, unique=True
    )
    # The two balances right after this entry, for statements and audits.
    debit_balance = models.BigIntegerField(_("balance of 'from' after"))
    credit_balance = models.BigIntegerField(_("balance of 'to' after"))
    # The operator, for admin grants and removals.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0), name="coins_entry_amount_positive"
            ),
            models.CheckConstraint(
                condition=~Q(debit=F("credit")),
                name="coins_entry_between_two_accounts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} from {self.debit} to {self.credit} ({self.reason})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("ledger entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("ledger entries are append-only")
