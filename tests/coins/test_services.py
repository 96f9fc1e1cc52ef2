"""The coin services: transfers, grants, refills, escrows and adjustments."""

from __future__ import annotations

from datetime import date

import pytest

from coins import services
from coins.errors import (
    EscrowMismatch,
    InsufficientCoins,
    InvalidAmount,
    KeyReused,
    LedgerRefusal,
)
from coins.models import Account, Entry
from coins.services import ledger
from tests.factories import StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

Reason = Entry.Reason


@pytest.fixture(autouse=True)
def coin_settings(settings):
    settings.PULKA_COINS_WELCOME = 1000
    settings.PULKA_COINS_REFILL_TO = 500


def balance(account_or_user) -> int:
    if isinstance(account_or_user, Account):
        return Account.objects.get(pk=account_or_user.pk).balance
    return services.wallet_of(account_or_user).balance


def books_are_sound():
    assert services.ledger_total() == 0
    assert services.ledger_mismatches() == []
    assert not Account.objects.filter(balance__lt=0).exclude(kind="grants").exists()


# Wallets and the welcome grant


def test_a_new_wallet_comes_with_the_welcome_coins():
    user = UserFactory()

    wallet = services.wallet_of(user)

    assert wallet.owner == user
    assert wallet.balance == 1000
    entry = Entry.objects.get()
    assert (entry.debit.kind, entry.credit, entry.amount) == ("grants", wallet, 1000)
    assert entry.idempotency_key == f"welcome:{user.pk}"
    assert services.mint_account().balance == -1000
    books_are_sound()


def test_the_welcome_is_granted_once():
    user = UserFactory()

    first = services.wallet_of(user)
    again = services.wallet_of(user)

    assert first == again
    assert Entry.objects.get().idempotency_key == f"welcome:{user.pk}"
    assert balance(user) == 1000


def test_one_wallet_per_user():
    user = UserFactory()

    assert services.wallet_of(user) == services.wallet_of(user)
    assert Account.objects.filter(kind="wallet").count() == 1


# The transfer primitive


def test_transfer_moves_coins_and_records_the_balances_after():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())

    entry = services.ledger_transfer(
        debit=alice,
        credit=bob,
        amount=300,
        reason=Reason.TRANSFER,
        key="t1",
        memo="for the last pulka",
        ref="game:7",
    )

    assert (balance(alice), balance(bob)) == (700, 1300)
    assert (entry.debit_balance, entry.credit_balance) == (700, 1300)
    assert (entry.memo, entry.ref, entry.reason) == (
        "for the last pulka",
        "game:7",
        "transfer",
    )
    books_are_sound()


def test_insufficient_coins_change_nothing():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())
    entries = Entry.objects.count()

    with pytest.raises(InsufficientCoins) as refused:
        services.ledger_transfer(
            debit=alice, credit=bob, amount=1001, reason=Reason.TRANSFER, key="t1"
        )

    assert (refused.value.amount, refused.value.balance) == (1001, 1000)
    assert (balance(alice), balance(bob)) == (1000, 1000)
    assert Entry.objects.count() == entries
    assert not Entry.objects.filter(idempotency_key="t1").exists()


def test_a_whole_balance_can_be_moved():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())

    services.ledger_transfer(
        debit=alice, credit=bob, amount=1000, reason="transfer", key="t"
    )

    assert (balance(alice), balance(bob)) == (0, 2000)


@pytest.mark.parametrize("amount", [0, -5, 2.5, "10", True, None])
def test_only_positive_whole_amounts_move(amount):
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())

    with pytest.raises(InvalidAmount):
        services.ledger_transfer(
            debit=alice, credit=bob, amount=amount, reason="transfer", key="t"
        )

    assert (balance(alice), balance(bob)) == (1000, 1000)


def test_an_account_cannot_pay_itself():
    alice = services.wallet_of(UserFactory())

    with pytest.raises(LedgerRefusal):
        services.ledger_transfer(
            debit=alice, credit=alice, amount=1, reason="transfer", key="t"
        )


def test_the_same_key_twice_makes_one_entry():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())
    before = Entry.objects.count()

    first = services.ledger_transfer(
        debit=alice, credit=bob, amount=100, reason="transfer", key="once"
    )
    second = services.ledger_transfer(
        debit=alice, credit=bob, amount=100, reason="transfer", key="once"
    )

    assert first.pk == second.pk
    assert Entry.objects.count() == before + 1
    assert (balance(alice), balance(bob)) == (900, 1100)


def test_a_twin_that_lands_between_the_check_and_the_insert_is_returned(
    monkeypatch,
):
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())
    twin = services.ledger_transfer(
        debit=alice, credit=bob, amount=10, reason="transfer", key="k"
    )
    # Both look-ups miss the twin, as when it commits right after them.
    lookups = []
    real_lookup = ledger._entry_by_key

    def late_lookup(key):
        lookups.append(key)
        return None if len(lookups) <= 2 else real_lookup(key)

    # ``transfer`` looks its keys up in the ledger module.
    monkeypatch.setattr(ledger, "_entry_by_key", late_lookup)

    again = services.ledger_transfer(
        debit=alice, credit=bob, amount=10, reason="transfer", key="k"
    )

    assert again.pk == twin.pk
    assert len(lookups) == 3  # the unique key refused the insert; asked again
    assert (balance(alice), balance(bob)) == (990, 1010)
    assert Entry.objects.filter(idempotency_key="k").count() == 1


def test_a_key_cannot_name_another_movement():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())
    services.ledger_transfer(
        debit=alice, credit=bob, amount=100, reason="transfer", key="k"
    )

    with pytest.raises(KeyReused):
        services.ledger_transfer(
            debit=alice, credit=bob, amount=200, reason="transfer", key="k"
        )
    with pytest.raises(KeyReused):
        services.ledger_transfer(
            debit=bob, credit=alice, amount=100, reason="transfer", key="k"
        )

    assert (balance(alice), balance(bob)) == (900, 1100)


def test_the_reason_is_one_of_the_ledgers():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())

    with pytest.raises(ValueError):
        services.ledger_transfer(
            debit=alice, credit=bob, amount=1, reason="gift", key="k"
        )

    assert not Entry.objects.filter(idempotency_key="k").exists()


def test_a_key_is_required():
    alice, bob = services.wallet_of(UserFactory()), services.wallet_of(UserFactory())

    with pytest.raises(ValueError):
        services.ledger_transfer(
            debit=alice, credit=bob, amount=1, reason="transfer", key=""
        )


# Grants and refills


def test_grant_comes_from_the_mint():
    user = UserFactory()

    services.coins_grant(user=user, amount=250, reason=Reason.GRANT, key="event:1")

    assert balance(user) == 1250
    assert services.mint_account().balance == -1250
    books_are_sound()


def test_daily_refill_tops_up_to_the_mark_once_a_day():
    user = UserFactory()
    wallet = services.wallet_of(user)
    services.escrow_stake(user=user, ref="game:1", amount=900, key="s")
    assert balance(wallet) == 100

    entry = services.coins_refill_daily(user=user, today=date(2025, 3, 1))

    assert entry.amount == 400
    assert entry.reason == Reason.REFILL
    assert entry.idempotency_key == f"refill:{user.pk}:2025-03-01"
    assert balance(wallet) == 500

    # Spent again the same day: no second refill until tomorrow.
    services.escrow_stake(user=user, ref="game:2", amount=450, key="s2")
    assert services.coins_refill_daily(user=user, today=date(2025, 3, 1)) == entry
    assert balance(wallet) == 50
    tomorrow = services.coins_refill_daily(user=user, today=date(2025, 3, 2))
    assert tomorrow.amount == 450
    assert balance(wallet) == 500
    books_are_sound()


def test_no_refill_for_a_wallet_at_or_above_the_mark():
    user = UserFactory()

    assert services.coins_refill_daily(user=user, today=date(2025, 3, 1)) is None

    assert balance(user) == 1000
    assert not Entry.objects.filter(reason=Reason.REFILL).exists()


def test_refill_all_task_tops_up_every_low_wallet():
    from coins.tasks import refill_all

    low, rich = UserFactory(), UserFactory()
    services.escrow_stake(user=low, ref="game:1", amount=1000, key="s")
    services.wallet_of(rich)

    assert refill_all() == 1
    assert refill_all() == 0

    assert (balance(low), balance(rich)) == (500, 1000)
    assert Entry.objects.filter(reason=Reason.REFILL).count() == 1


# Escrows


def test_stakes_then_payout_of_the_whole_escrow():
    players = [UserFactory() for _ in range(4)]
    for n, player in enumerate(players):
        services.escrow_stake(user=player, ref="game:12", amount=100, key=f"s{n}")
    assert services.escrow_balance("game:12") == 400
    assert [balance(p) for p in players] == [900] * 4

    entries = services.escrow_payout(
        ref="game:12",
        shares={players[0].pk: 300, players[1].pk: 100, players[2].pk: 0},
        key_prefix="payout:game:12",
    )

    assert [e.amount for e in entries] == [300, 100]
    assert {e.reason for e in entries} == {"payout"}
    assert entries[0].idempotency_key == f"payout:game:12:{players[0].pk}"
    assert [balance(p) for p in players] == [1200, 1000, 900, 900]
    assert services.escrow_balance("game:12") == 0
    books_are_sound()


def test_payout_shares_must_add_up_to_the_escrow():
    a, b = UserFactory(), UserFactory()
    services.escrow_stake(user=a, ref="game:1", amount=100, key="sa")
    services.escrow_stake(user=b, ref="game:1", amount=100, key="sb")

    for shares in ({a.pk: 150}, {a.pk: 150, b.pk: 51}):
        with pytest.raises(EscrowMismatch):
            services.escrow_payout(ref="game:1", shares=shares, key_prefix="p")

    assert services.escrow_balance("game:1") == 200
    assert (balance(a), balance(b)) == (900, 900)
    assert not Entry.objects.filter(reason="payout").exists()


def test_payout_twice_pays_once():
    a, b = UserFactory(), UserFactory()
    services.escrow_stake(user=a, ref="game:1", amount=100, key="sa")
    services.escrow_stake(user=b, ref="game:1", amount=100, key="sb")
    shares = {a.pk: 200}

    first = services.escrow_payout(ref="game:1", shares=shares, key_prefix="p")
    again = services.escrow_payout(ref="game:1", shares=shares, key_prefix="p")

    assert [e.pk for e in first] == [e.pk for e in again]
    assert (balance(a), balance(b)) == (1100, 900)
    # Other shares under the same keys, or an escrow already empty: refused.
    with pytest.raises(KeyReused):
        services.escrow_payout(ref="game:1", shares={a.pk: 199}, key_prefix="p")
    with pytest.raises(EscrowMismatch):
        services.escrow_payout(ref="game:1", shares={b.pk: 200}, key_prefix="p")
    assert (balance(a), balance(b)) == (1100, 900)


def test_a_stake_larger_than_the_wallet_is_refused():
    user = UserFactory()

    with pytest.raises(InsufficientCoins):
        services.escrow_stake(user=user, ref="game:1", amount=1001, key="s")

    assert balance(user) == 1000
    assert services.escrow_balance("game:1") == 0


def test_refund_returns_exactly_what_each_staked():
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    services.escrow_stake(user=a, ref="game:5", amount=100, key="a1")
    services.escrow_stake(user=a, ref="game:5", amount=50, key="a2")
    services.escrow_stake(user=b, ref="game:5", amount=70, key="b1")
    services.escrow_stake(user=c, ref="game:6", amount=10, key="c1")

    entries = services.escrow_refund(ref="game:5", key_prefix="refund:game:5")

    assert sorted((e.credit.owner_id, e.amount) for e in entries) == sorted(
        [(a.pk, 150), (b.pk, 70)]
    )
    assert (balance(a), balance(b), balance(c)) == (1000, 1000, 990)
    assert services.escrow_balance("game:5") == 0
    assert services.escrow_balance("game:6") == 10
    again = services.escrow_refund(ref="game:5", key_prefix="refund:game:5")
    assert {e.pk for e in again} == {e.pk for e in entries}
    assert (balance(a), balance(b)) == (1000, 1000)
    books_are_sound()


def test_refund_of_some_stakers_then_the_rest():
    a, b = UserFactory(), UserFactory()
    services.escrow_stake(user=a, ref="game:5", amount=100, key="a1")
    services.escrow_stake(user=b, ref="game:5", amount=70, key="b1")

    left = services.escrow_refund(ref="game:5", key_prefix="leave:a", user_ids=[a.pk])
    rest = services.escrow_refund(ref="game:5", key_prefix="cancel")

    assert [(e.credit.owner_id, e.amount) for e in left] == [(a.pk, 100)]
    assert [(e.credit.owner_id, e.amount) for e in rest] == [(b.pk, 70)]
    assert (balance(a), balance(b)) == (1000, 1000)
    assert services.escrow_balance("game:5") == 0


def test_no_refund_once_the_escrow_is_paid_out():
    a, b = UserFactory(), UserFactory()
    services.escrow_stake(user=a, ref="game:5", amount=100, key="a1")
    services.escrow_stake(user=b, ref="game:5", amount=100, key="b1")
    services.escrow_payout(ref="game:5", shares={a.pk: 200}, key_prefix="p")

    with pytest.raises(EscrowMismatch):
        services.escrow_refund(ref="game:5", key_prefix="r")

    assert (balance(a), balance(b)) == (1100, 900)


def test_an_annulled_game_is_refunded_as_annulled():
    a = UserFactory()
    services.escrow_stake(user=a, ref="game:5", amount=100, key="a1")

    (entry,) = services.escrow_refund(
        ref="game:5", key_prefix="annul:5", reason=Reason.ANNUL
    )

    assert entry.reason == "annul"
    assert balance(a) == 1000


def test_tournament_pool_fees_and_prizes():
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    for user in (a, b, c):
        services.pool_enter(user=user, ref="tournament:3", amount=50, key=f"f{user.pk}")
    pool = services.escrow_account("tournament:3", Account.Kind.TOURNAMENT_POOL)
    assert pool.balance == 150
    assert services.escrow_balance("tournament:3") == 0  # not a table escrow

    entries = services.pool_payout(
        ref="tournament:3", shares={a.pk: 100, b.pk: 50}, key_prefix="prize:3"
    )

    assert {e.reason for e in entries} == {"prize"}
    assert (balance(a), balance(b), balance(c)) == (1050, 1000, 950)
    books_are_sound()


def test_cancelled_tournament_refunds_entry_fees():
    a, b = UserFactory(), UserFactory()
    services.pool_enter(user=a, ref="tournament:4", amount=50, key="fa")
    services.pool_enter(user=b, ref="tournament:4", amount=50, key="fb")

    services.pool_refund(ref="tournament:4", key_prefix="cancel:4")

    assert (balance(a), balance(b)) == (1000, 1000)


# Operators


def test_admin_adjust_grants_and_removes_through_the_mint():
    user, operator = UserFactory(), StaffUserFactory()

    added = services.coins_adjust(
        user=user, amount=500, reason_text="tournament winner", by=operator
    )
    removed = services.coins_adjust(
        user=user, amount=-200, reason_text="duplicate account", by=operator
    )

    assert (added.reason, added.created_by, added.memo) == (
        "admin_grant",
        operator,
        "tournament winner",
    )
    assert (removed.reason, removed.amount, removed.credit.kind) == (
        "admin_remove",
        200,
        "grants",
    )
    assert balance(user) == 1300
    books_are_sound()


def test_admin_cannot_remove_more_than_the_wallet_holds():
    user, operator = UserFactory(), StaffUserFactory()

    with pytest.raises(InsufficientCoins):
        services.coins_adjust(user=user, amount=-1001, reason_text="x", by=operator)

    assert balance(user) == 1000


def test_admin_adjust_needs_an_operator_and_a_reason():
    user, operator = UserFactory(), StaffUserFactory()

    with pytest.raises(ValueError):
        services.coins_adjust(user=user, amount=5, reason_text="x", by=None)
    with pytest.raises(ValueError):
        services.coins_adjust(user=user, amount=5, reason_text="  ", by=operator)
    with pytest.raises(InvalidAmount):
        services.coins_adjust(user=user, amount=0, reason_text="x", by=operator)


# The ledger


def test_entries_are_append_only():
    services.wallet_of(UserFactory())
    entry = Entry.objects.get()

    entry.amount = 1
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        Entry.objects.all().update(amount=5)
    with pytest.raises(TypeError):
        Entry.objects.all().delete()


def test_the_books_balance_after_a_mixed_day():
    users = [UserFactory() for _ in range(5)]
    services.escrow_stake(user=users[0], ref="game:1", amount=300, key="1")
    services.escrow_stake(user=users[1], ref="game:1", amount=300, key="2")
    services.escrow_payout(ref="game:1", shares={users[1].pk: 600}, key_prefix="p1")
    services.coins_refill_daily(user=users[0], today=date(2025, 1, 1))
    services.coins_adjust(user=users[2], amount=-999, reason_text="x", by=users[4])
    services.coins_refill_daily(user=users[2], today=date(2025, 1, 1))
    services.coins_grant(user=users[3], amount=5, reason="grant", key="g")

    books_are_sound()
    circulating = sum(balance(u) for u in users)
    assert circulating == -services.mint_account().balance
