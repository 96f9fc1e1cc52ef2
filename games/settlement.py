"""Settlement by score: every pair of players settles the difference of their
final totals in Domino Coin. Pure functions, no database.

A table settled by score has a rate (``points_per_coin``: one coin per so
many points) and a deposit (the table's stake), which every player puts into
the game's escrow at the start and which is the most a player can lose.

The rule, with the rounding:

* Each pair of players settles on its own: the lower final total owes the
  higher ``floor(difference / points_per_coin)`` coins. The division rounds
  down, in the favour of the one who pays; equal totals owe nothing.
* Nobody pays more than the deposit. A player whose debts add up to more
  than the deposit pays exactly the deposit, shared among the creditors in
  proportion to what each is owed: each creditor gets the whole coins of
  their exact share, and the coins still missing go one each to the largest
  fractions (the lower seat first between equal fractions). Nobody gets more
  than they are owed.
* A player who left the game (resigned, or stayed away past the grace
  period) forfeits the whole deposit, shared equally among the players who
  stayed (the coins that do not divide evenly go one each to the lower
  seats first), and is owed nothing. The players who stayed settle among
  themselves by score. So leaving never pays better than staying, just as a
  leaver cannot win the pot. When every player left, nobody counts as a
  leaver.
* A player's net is what they receive minus what they pay. Every coin paid
  is received, so the nets add up to zero; nobody pays more than the
  deposit, so no net is below minus the deposit. Paid out of the escrow,
  ``deposit + net`` per player is never negative and adds up to the pot.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

# The rates a table may choose: one coin per so many points.
POINTS_PER_COIN_CHOICES = (1, 5, 10, 50, 100)
DEFAULT_POINTS_PER_COIN = 10


def pairwise_debts(totals: Sequence[int], points_per_coin: int) -> list[list[int]]:
    """``debts[i][j]``: the coins seat ``i`` owes seat ``j`` by their totals,
    before any deposit limits it (0 unless ``i`` has the lower total)."""
    _check_rate(points_per_coin)
    seats = range(len(totals))
    return [
        [
            (totals[j] - totals[i]) // points_per_coin if totals[i] < totals[j] else 0
            for j in seats
        ]
        for i in seats
    ]


def score_settlement(
    totals: Sequence[int],
    deposit: int,
    points_per_coin: int,
    left: Collection[int] = (),
) -> list[int]:
    """Each seat's net in coins (received minus paid), by seat; see the
    module's docstring for the rule. ``left`` holds the seats whose player
    left the game."""
    return nets_of(settlement_payments(totals, deposit, points_per_coin, left))


def settlement_payments(
    totals: Sequence[int],
    deposit: int,
    points_per_coin: int,
    left: Collection[int] = (),
) -> list[list[int]]:
    """``paid[i][j]``: the coins seat ``i`` pays seat ``j``."""
    if type(deposit) is not int or deposit < 0:
        raise ValueError(f"a deposit of {deposit!r} coins")
    players = len(totals)
    leavers = set(left) if len(set(left)) < players else set()
    owed = pairwise_debts(totals, points_per_coin)
    for i in range(players):
        for j in range(players):
            if j in leavers:
                owed[i][j] = 0
            elif i in leavers and i != j:
                # Owing every player who stayed the whole deposit, the leaver
                # pays exactly the deposit, shared equally among them.
                owed[i][j] = deposit
    return [
        share_out(deposit, debts) if sum(debts) > deposit else debts for debts in owed
    ]


def nets_of(paid: Sequence[Sequence[int]]) -> list[int]:
    """Received minus paid, by seat, from ``settlement_payments``."""
    seats = range(len(paid))
    return [sum(paid[j][i] for j in seats) - sum(paid[i]) for i in seats]


def share_out(coins: int, claims: Sequence[int]) -> list[int]:
    """``coins`` shared in proportion to ``claims`` (largest remainders; the
    lower index first between equal remainders). Every share is at most its
    claim when the claims add up to at least ``coins``."""
    total = sum(claims)
    if total <= 0:
        raise ValueError("nothing is owed to share the coins by")
    exact = [coins * claim for claim in claims]
    shares = [part // total for part in exact]
    missing = coins - sum(shares)
    by_remainder = sorted(range(len(claims)), key=lambda k: (-(exact[k] % total), k))
    for k in by_remainder[:missing]:
        shares[k] += 1
    return shares


def _check_rate(points_per_coin: int) -> None:
    if type(points_per_coin) is not int or points_per_coin < 1:
        raise ValueError(f"a rate of {points_per_coin!r} points per coin")
