"""A coin movement that PostgreSQL aborts for a conflict (a serialization
failure, a deadlock) is tried again a bounded number of times, and a failed
try leaves nothing behind. The failures are real: a trigger on the ledger
raises them, counted by a sequence (which a rollback does not undo)."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from coins import services as coins
from coins.models import Entry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def failing_entries():
    """failing_entries(times, state): the next ``times`` ledger inserts fail
    with SQLSTATE ``state``."""

    def arm(times: int, state: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute("DROP SEQUENCE IF EXISTS injected_failures")
            cursor.execute("CREATE SEQUENCE injected_failures")
            cursor.execute(
                f"""
                CREATE OR REPLACE FUNCTION inject_failure() RETURNS trigger AS $$
                BEGIN
                    IF nextval('injected_failures') <= {int(times)} THEN
                        RAISE EXCEPTION 'injected' USING ERRCODE = '{state}';
                    END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql
                """
            )
            cursor.execute(
                "CREATE TRIGGER inject_failure BEFORE INSERT ON coins_entry "
                "FOR EACH ROW EXECUTE FUNCTION inject_failure()"
            )

    yield arm
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER IF EXISTS inject_failure ON coins_entry")


def wallets():
    payer, payee = UserFactory(), UserFactory()
    return payer, payee, coins.wallet_of(payer), coins.wallet_of(payee)


@pytest.mark.parametrize("state", ["40001", "40P01"])
def test_a_conflict_is_tried_again_and_moves_the_coins_once(failing_entries, state):
    payer, payee, source, target = wallets()
    before = Entry.objects.count()
    failing_entries(coins.RETRIES_ON_CONFLICT, state)

    coins.ledger_transfer(
        debit=source, credit=target, amount=7, reason="transfer", key="conflict:1"
    )

    assert Entry.objects.count() == before + 1
    assert coins.wallet_of(payer).balance == coins.welcome_coins() - 7
    assert coins.wallet_of(payee).balance == coins.welcome_coins() + 7
    assert coins.ledger_mismatches() == []


def test_past_the_bound_the_conflict_is_raised_and_nothing_moved(failing_entries):
    payer, payee, source, target = wallets()
    before = Entry.objects.count()
    failing_entries(coins.RETRIES_ON_CONFLICT + 1, "40001")

    with pytest.raises(OperationalError):
        coins.ledger_transfer(
            debit=source, credit=target, amount=7, reason="transfer", key="conflict:2"
        )

    assert Entry.objects.count() == before
    assert coins.wallet_of(payer).balance == coins.welcome_coins()
    assert coins.wallet_of(payee).balance == coins.welcome_coins()
    assert coins.ledger_mismatches() == []


def test_another_database_error_is_not_tried_again(failing_entries):
    _, _, source, target = wallets()
    failing_entries(1, "53100")  # disk full: trying again would not help

    with pytest.raises(OperationalError):
        coins.ledger_transfer(
            debit=source, credit=target, amount=7, reason="transfer", key="conflict:3"
        )
    # It was tried once: the one failure armed is used up, the next works.
    coins.ledger_transfer(
        debit=source, credit=target, amount=7, reason="transfer", key="conflict:3"
    )
