"""The practice bot's thinking budget (``IsmctsBot``)."""

from __future__ import annotations

# Kept back from the budget for choosing and returning the move (besides
# twice the slowest playout): a share of it, and at least MARGIN seconds.
MARGIN = 0.0005
MARGIN_SHARE = 0.05


class Clock:
    """The thinking budget, on the bot's ``timer``: ``more()`` is False once
    one more playout as slow as the slowest so far, twice over, would overrun
    it (with a margin kept for choosing and returning the move), or once
    ``cap`` deals have been sampled."""

    __slots__ = ("timer", "start", "budget", "cap", "deals", "last", "slowest")

    def __init__(self, timer, start: float, budget: float, cap: int | None):
        self.timer = timer
        self.start = start
        self.budget = budget
        self.cap = cap
        self.deals = 0
        self.last = timer()
        self.slowest = 0.0

    def more(self) -> bool:
        """Whether to sample another deal."""
        if self.cap is not None and self.deals >= self.cap:
            return False
        return self.in_time()

    def in_time(self) -> bool:
        """Whether another playout fits in the budget."""
        reserve = 2 * self.slowest + max(MARGIN, MARGIN_SHARE * self.budget)
        return self.timer() + reserve < self.start + self.budget

    def restart(self) -> None:
        """Time the next playout from now (after work outside the loop)."""
        self.last = self.timer()

    def tick(self) -> None:
        """One playout done (with the deal sampled for it, if any)."""
        now = self.timer()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
