"""Every movement of Domino Coin.

Pages, the API, the admin, tasks and other apps move coins only through these
functions; none of them writes ``Account.balance`` or ``Entry`` directly.

Locking contract. A service runs in one transaction (a savepoint when the
caller already has one) and locks every Account row it will change with
``SELECT ... FOR UPDATE``, all at once and in ascending primary-key order, so
two services never wait on each other in a cycle. A caller that makes several
calls in one transaction of its own holds the locks of the earlier calls until
it commits; it should make them in a consistent order too (for a table: the
table row first, then the coin calls).

Conflicts. A movement the database aborts for a serialization failure or a
deadlock (SQLSTATE 40001, 40P01) is tried again, a bounded number of times
(``RETRIES_ON_CONFLICT``); each try is one atomic block, so a failed try
leaves nothing behind.

Idempotency. Every movement carries a key, unique in the ledger. A service
looks the key up once it holds its locks: a movement that already happened is
returned as it is and nothing changes. A duplicate racing its twin (the twin
committed between the look-up and the insert) hits the unique constraint and
is answered the same way. The same key for a *different* movement (other
accounts, amount or reason) is a bug in the caller and raises ``KeyReused``.

The modules: ``ledger`` (the ``ledger_transfer`` primitive and the locking,
keys and retries under every movement), ``wallet`` (wallets, the mint, new coins),
``escrow`` (stakes held for a table and their payout or refund), ``pools``
(tournaments' prize pools) and ``audit`` (checks of the books).
"""

from .audit import ledger_mismatches, ledger_total
from .escrow import (
    escrow_account,
    escrow_balance,
    escrow_payout,
    escrow_refund,
    escrow_stake,
)
from .ledger import RETRIES_ON_CONFLICT, Kind, Reason, ledger_transfer
from .pools import pool_enter, pool_payout, pool_refund
from .wallet import (
    coins_adjust,
    coins_grant,
    coins_refill_daily,
    house_account,
    mint_account,
    refill_to,
    wallet_of,
    welcome_coins,
)

__all__ = [
    "RETRIES_ON_CONFLICT",
    "Kind",
    "Reason",
    "coins_adjust",
    "coins_grant",
    "coins_refill_daily",
    "escrow_account",
    "escrow_balance",
    "escrow_payout",
    "escrow_refund",
    "escrow_stake",
    "house_account",
    "ledger_mismatches",
    "ledger_total",
    "ledger_transfer",
    "mint_account",
    "pool_enter",
    "pool_payout",
    "pool_refund",
    "refill_to",
    "wallet_of",
    "welcome_coins",
]
