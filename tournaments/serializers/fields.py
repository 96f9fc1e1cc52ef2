"""Fields shared by the tournaments' serializers: the choice sets as named
schema components, exact fractions, links."""

from __future__ import annotations

from fractions import Fraction

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from tournaments.choices import Format
from tournaments.models import TOURNAMENT_CATEGORIES, Entry, Round, Tournament

STATUS_HELP = (
    "scheduled (registration open until the start), running, finished or cancelled."
)
COIN_HELP = "Domino Coin (a virtual coin, never money)."


def fraction_text(value) -> str:
    """The exact value: "7/3", or "2" for a whole number."""
    return str(Fraction(value))


def fraction_value(value) -> float:
    return float(Fraction(value))


def _enum(choices) -> dict:
    return {
        "type": "string",
        "enum": [value for value, _ in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }


# Each choice set is its own named schema component. Other apps use the field
# names "status" and "category" for other choice sets; left to drf-spectacular,
# the shared names would rename their enums.


@extend_schema_field(
    _enum(Tournament.Status.choices), component_name="TournamentStatusEnum"
)
class TournamentStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(Tournament.Status.choices, **kwargs)


@extend_schema_field(
    _enum(TOURNAMENT_CATEGORIES), component_name="TournamentCategoryEnum"
)
class TournamentCategoryField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(TOURNAMENT_CATEGORIES, **kwargs)


@extend_schema_field(_enum(Format.choices), component_name="TournamentFormatEnum")
class TournamentFormatField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(Format.choices, **kwargs)


@extend_schema_field(
    _enum(Entry.Status.choices), component_name="TournamentEntryStatusEnum"
)
class EntryStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(Entry.Status.choices, **kwargs)


@extend_schema_field(
    _enum(Round.Status.choices), component_name="TournamentRoundStatusEnum"
)
class RoundStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(Round.Status.choices, **kwargs)


def link(name: str, tournament_id: int, request) -> str:
    return reverse(f"api:{name}", args=[tournament_id], request=request)


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A number as stored (a whole percent stays 50, not 50.0)."""

    def to_representation(self, value):
        return value
