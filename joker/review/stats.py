"""The arithmetic of a review: a paired loss with its 95 % interval, the
grade it earns and the accuracy it is worth (docs/review.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

Z95: Final = 1.959963984540054
# Student's t for one to three degrees of freedom, where the expansion in
# ``t95`` is poor; from four on it is within 0.05 %.
T95_SMALL: Final = {1: 12.706204736174698, 2: 4.302652729749464, 3: 3.182446305284263}

# The units a review counts in: deal points as the bots count them in the
# 4-player game, tricks in Japanese Joker.
POINTS: Final = "points"
TRICKS: Final = "tricks"

# Grades, the worst first, with the loss (in the game's unit) the interval's
# lower bound must exceed. Points: ten is the smallest step of a deal score
# (a trick taken beyond the bid), fifty a bid of 0 made, the least a made bid
# is worth. Tricks: a fifth, a half and a whole trick a deal.
INACCURACY: Final = "inaccuracy"
MISTAKE: Final = "mistake"
BLUNDER: Final = "blunder"
GRADE_NAMES: Final = (INACCURACY, MISTAKE, BLUNDER)
GRADES: Final[dict[str, tuple[tuple[str, float], ...]]] = {
    POINTS: ((BLUNDER, 50.0), (MISTAKE, 25.0), (INACCURACY, 10.0)),
    TRICKS: ((BLUNDER, 1.0), (MISTAKE, 0.5), (INACCURACY, 0.2)),
}
# A decision's accuracy is 100 * exp(-loss / ACCURACY_SCALE): a loss of a
# whole scale (a blunder's threshold) leaves 37.
ACCURACY_SCALE: Final = {POINTS: 50.0, TRICKS: 1.0}


class Paired(NamedTuple):
    """The mean of paired differences and its 95 % interval."""

    mean: float
    low: float
    high: float


NONE_LOST: Final = Paired(0.0, 0.0, 0.0)


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of
    freedom: the Cornish-Fisher expansion around the normal's (Abramowitz
    and Stegun 26.7.5), which needs no statistics library."""
    if df < 1:
        raise ValueError("a t quantile needs a degree of freedom")
    if df in T95_SMALL:
        return T95_SMALL[df]
    z = Z95
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    x = 1.0 / df
    return z + sum(term * x ** (i + 1) for i, term in enumerate(terms))


def paired(differences: Sequence[float]) -> Paired:
    """The mean of ``differences`` (one a sampled deal) with a t interval."""
    n = len(differences)
    if n < 2:
        raise ValueError("an interval needs at least two deals")
    mean = math.fsum(differences) / n
    variance = math.fsum((d - mean) ** 2 for d in differences) / (n - 1)
    half = t95(n - 1) * math.sqrt(variance / n)
    return Paired(mean, mean - half, mean + half)


def grade(unit: str, low: float) -> str | None:
    """The worst grade whose threshold the loss's lower bound is above; None
    when the loss may be noise or is too small to matter."""
    for name, threshold in GRADES[unit]:
        if low > threshold:
            return name
    return None


def accuracy(unit: str, loss: float) -> float:
    """A decision's accuracy, 0 to 100, from its loss (docs/review.md)."""
    return 100.0 * math.exp(-max(loss, 0.0) / ACCURACY_SCALE[unit])
