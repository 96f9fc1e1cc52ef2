"""A finished game as the ratings see it: plain data, no model.

The games build a ``RatedResult`` when a game ends (``games.rated``) and hand
it to ``ratings.services.rating_apply_game``, so the ratings never read the
games' tables and the games may depend on the ratings, not the other way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished game."""

    # The person at the seat; None for a practice bot.
    user_id: int | None
    # The bot's level (a key of ``elo.BOT_RATINGS`` when it is rated), or "".
    bot: str
    # The final place, 1 = first; a leaver is placed last.
    place: int
    # Whether the person left the game before its end.
    left: bool
    # The person's turns in the game (the moves made at the seat while they
    # held it), and how many of them ran out, the timer moving for them.
    turns: int = 0
    timeouts: int = 0


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A finished game: where it was played and how each seat ended."""

    game_id: int
    # The category whose preset the table played, None when the table is
    # unranked or played off every preset (then the game is unrated).
    category: str | None
    # The table is rated with bots: each bot is an opponent of its level's
    # fixed rating.
    with_bots: bool
    # In seat order.
    seats: tuple[RatedSeat, ...]

    @property
    def places(self) -> list[int]:
        return [seat.place for seat in self.seats]
