"""The four rule profiles, each one ``Rules`` value with its options as data."""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from .errors import BadRecord
from .jsontypes import JsonObject

T = TypeVar("T")

CLASSIC_SCHEDULE = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    9,
    9,
    9,
    8,
    7,
    6,
    5,
    4,
    3,
    2,
    1,
    9,
    9,
    9,
    9,
)
CLASSIC_PULKAS = (8, 4, 8, 4)
NINES_SCHEDULE = (9,) * 16
NINES_PULKAS = (4, 4, 4, 4)

JAPANESE_TARGETS = (11, 15, 21, 31)
HISHT_CHOICES = ("200", "500", "alternating", "dynamic")
HOME_SCORINGS = ("home-missing", "home-bid")

PROFILE_NAMES = {
    "georgian-club": "Joker, Georgian club rules",
    "georgian-tvaladze": "Joker, Tvaladze rules",
    "live-games": "Joker, Live Games rules",
    "japanese": "Japanese Joker",
}
PROFILES = tuple(PROFILE_NAMES)


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that differs between profiles and options, as plain data."""

    profile: str
    players: int
    options: JsonObject = field(hash=False, compare=False)
    # 4-player game: cards per player in each deal, and deals per pulka.
    schedule: tuple[int, ...] = ()
    pulka_sizes: tuple[int, ...] = ()
    # 9-card deals: True when the dealer's last card fixes trump (Tvaladze);
    # False when the player left of the dealer names it after 3 cards.
    nine_card_turned: bool = False
    # Joker modes allowed when leading and when answering.
    lead_modes: tuple[str, ...] = ("take", "give")
    answer_modes: tuple[str, ...] = ("high", "low")
    # Scoring (4-player).
    hisht_penalty: str = "200"  # "0", "200", "500", "alternating", "dynamic"
    full_take_bonus: bool = True  # k = b = n scores 100*b instead of 50+50*b
    deductions: bool = True
    pairs: bool = False
    scoring: str = "online"  # or "home-missing" / "home-bid" (live-games)
    # Japanese match.
    target: int = 21

    @property
    def is_japanese(self) -> bool:
        return self.players == 2

    @property
    def name(self) -> str:
        return PROFILE_NAMES[self.profile]

    def cards_in_deal(self, deal_index: int) -> int:
        # Only Japanese Joker has no schedule: 18 cards each, every deal.
        return self.schedule[deal_index] if self.schedule else 18

    def pulka_of(self, deal_index: int) -> int:
        """0-based pulka number of a deal (4-player)."""
        end = 0
        for pulka, size in enumerate(self.pulka_sizes):
            end += size
            if deal_index < end:
                return pulka
        raise IndexError(deal_index)

    def pulka_bounds(self, pulka: int) -> range:
        start = sum(self.pulka_sizes[:pulka])
        return range(start, start + self.pulka_sizes[pulka])

    def trump_is_named(self, deal_index: int) -> bool:
        """True when a player names trump instead of a card fixing it."""
        if self.is_japanese:
            return True
        return self.cards_in_deal(deal_index) == 9 and not self.nine_card_turned


def _choice(
    options: JsonObject,
    key: str,
    allowed: Container[T],
    default: T,
    aliases: Mapping[object, T] | None = None,
) -> T:
    # Declared as the default's type, which the exact check below makes it.
    value: T = options.pop(key, default)
    # Exact types only: JSON true is not 1 and 1.0 is not 1 in a record.
    if aliases and type(value) in (int, str) and value in aliases:
        value = aliases[value]
    if type(value) is not type(default) or value not in allowed:
        raise BadRecord(f"option {key!r} cannot be {value!r}")
    return value


def make_rules(profile: object, options: object = None) -> Rules:
    """Build the rules of a profile, checking every option (``BadRecord``)."""
    if not isinstance(profile, str) or profile not in PROFILE_NAMES:
        raise BadRecord(f"unknown profile {profile!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRecord("options must be an object")
    rest = dict(options)
    rules = _BUILDERS[profile](rest)
    if rest:
        raise BadRecord(f"unknown option {next(iter(rest))!r} for profile {profile}")
    return rules


def _georgian_club(opts: JsonObject) -> Rules:
    schedule = _choice(opts, "schedule", ("classic", "nines"), "classic")
    hisht = _choice(
        opts, "hisht_penalty", HISHT_CHOICES, "200", aliases={200: "200", 500: "500"}
    )
    deductions = _choice(opts, "deductions", (True, False), True)
    pairs = _choice(opts, "pairs", (True, False), False)
    nines = schedule == "nines"
    return Rules(
        profile="georgian-club",
        players=4,
        options={
            "schedule": schedule,
            "hisht_penalty": hisht,
            "deductions": deductions,
            "pairs": pairs,
        },
        schedule=NINES_SCHEDULE if nines else CLASSIC_SCHEDULE,
        pulka_sizes=NINES_PULKAS if nines else CLASSIC_PULKAS,
        hisht_penalty=hisht,
        deductions=deductions,
        pairs=pairs,
    )


def _georgian_tvaladze(opts: JsonObject) -> Rules:
    return Rules(
        profile="georgian-tvaladze",
        players=4,
        options={},
        schedule=CLASSIC_SCHEDULE,
        pulka_sizes=CLASSIC_PULKAS,
        nine_card_turned=True,
        hisht_penalty="0",
        deductions=False,
    )


def _live_games(opts: JsonObject) -> Rules:
    scoring = _choice(opts, "scoring", ("online", *HOME_SCORINGS), "online")
    return Rules(
        profile="live-games",
        players=4,
        options={"scoring": scoring},
        schedule=CLASSIC_SCHEDULE,
        pulka_sizes=CLASSIC_PULKAS,
        lead_modes=("take", "give", "nominal"),
        answer_modes=("high", "low", "nominal"),
        full_take_bonus=False,
        scoring=scoring,
    )


def _japanese(opts: JsonObject) -> Rules:
    aliases: dict[object, int] = {str(t): t for t in JAPANESE_TARGETS}
    target = _choice(opts, "target", JAPANESE_TARGETS, 21, aliases=aliases)
    return Rules(
        profile="japanese",
        players=2,
        options={"target": target},
        lead_modes=("take",),
        answer_modes=("high",),
        deductions=False,
        target=target,
    )


_BUILDERS = {
    "georgian-club": _georgian_club,
    "georgian-tvaladze": _georgian_tvaladze,
    "live-games": _live_games,
    "japanese": _japanese,
}
