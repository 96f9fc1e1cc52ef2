"""Numbers as the tournament pages write them."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


def number(value: Fraction | Decimal | int) -> str:
    """A score as people write it: 3, 1.5, 2.33."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")
