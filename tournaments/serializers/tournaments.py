"""Tournaments as listed and in detail, with the reader's own entry."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import selectors
from tournaments.formats.plugins import format_of
from tournaments.models import Entry, Tournament

from .fields import (
    COIN_HELP,
    STATUS_HELP,
    EntryStatusField,
    NumberField,
    TournamentCategoryField,
    TournamentFormatField,
    TournamentStatusField,
    link,
)


class TournamentFilterSerializer(serializers.Serializer):
    """The query parameters of the tournament list; all optional."""

    status = TournamentStatusField(required=False, help_text="Only these.")
    category = TournamentCategoryField(
        required=False,
        help_text="Only this game.",
    )


class TournamentSerializer(serializers.Serializer):
    """A tournament as listed."""

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    name = serializers.CharField()
    category = TournamentCategoryField()
    format = TournamentFormatField()
    status = TournamentStatusField(help_text=STATUS_HELP)
    starts_at = serializers.DateTimeField()
    entry_fee = serializers.IntegerField(help_text=COIN_HELP)
    players = serializers.IntegerField(
        source="player_count",
        help_text="Registered players before the start; afterwards, everyone "
        "who took part. Withdrawn players are not counted.",
    )
    max_players = serializers.IntegerField()
    pool = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, tournament: Tournament) -> str:
        return link("tournament-detail", tournament.pk, self.context.get("request"))

    def get_pool(self, tournament: Tournament) -> int:
        """Domino Coin in the prize pool now: the entry fees paid, until the
        prizes are paid out (or the fees refunded), then 0."""
        pools = self.context.get("pools")
        if pools is None:
            return selectors.pool_balance(tournament)
        return pools.get(tournament.pool_ref, 0)


class TournamentLinksSerializer(serializers.Serializer):
    standings = serializers.URLField()
    pairings = serializers.URLField()
    results = serializers.URLField()
    register = serializers.URLField()
    withdraw = serializers.URLField()


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with all its settings and, for a signed-in user, their
    own entry."""

    players_per_table = serializers.IntegerField()
    rounds = serializers.IntegerField(
        help_text="Rounds to play. A knockout's is set at the start, from the "
        "number of players; an arena has one round that holds all its games."
    )
    current_round = serializers.IntegerField(help_text="0 before the start.")
    duration_minutes = serializers.SerializerMethodField()
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="Arena: when pairing stops (games still being played then "
        "finish and count); null before the start and in other formats.",
    )
    short_match = serializers.BooleanField(
        help_text="Japanese Joker to 11 points; Joker plays the nines schedule."
    )
    final_table = serializers.BooleanField(
        help_text="Tables of four: the last round is one table of the top four."
    )
    rated = serializers.BooleanField(
        help_text="Whether the organisers have its games rated."
    )
    rating_category = serializers.CharField(
        allow_null=True,
        help_text="The rating category its games between people are rated in; "
        "null when they are not rated (an unrated tournament, or Japanese Joker "
        "to 11 points, which no category plays). A game with a bot at the table "
        "is never rated.",
    )
    points_for_places = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Tables of four: tournament points for 1st, 2nd, 3rd, 4th.",
    )
    prize_split = serializers.ListField(
        child=NumberField(), help_text="Percent of the pool by final place."
    )
    min_players = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    registration_open = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(
        allow_null=True, help_text="When it finished or was cancelled."
    )
    cancel_reason = serializers.CharField(help_text="Empty unless cancelled.")
    registered = serializers.SerializerMethodField()
    entry_status = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    def get_registered(self, tournament: Tournament) -> bool | None:
        """The signed-in user has an entry they have not withdrawn (they are
        registered, or took part); null when nobody is signed in."""
        status = self._own_status()
        if status is _ANONYMOUS:
            return None
        return status is not None and status != Entry.Status.WITHDRAWN

    @extend_schema_field(EntryStatusField(allow_null=True))
    def get_entry_status(self, tournament: Tournament) -> str | None:
        """The signed-in user's entry: registered, withdrawn, playing,
        eliminated or dropped (for missing a round); null without one."""
        status = self._own_status()
        return None if status is _ANONYMOUS else status

    def get_duration_minutes(self, tournament: Tournament) -> int | None:
        """Arena: how long players are paired; null in other formats."""
        if not format_of(tournament.format).continuous:
            return None
        return tournament.duration_minutes

    def get_registration_open(self, tournament: Tournament) -> bool:
        """Registering and withdrawing are allowed now (scheduled, and the
        start time has not come)."""
        now = self.context.get("now") or timezone.now()
        return tournament.is_open and tournament.starts_at > now

    @extend_schema_field(TournamentLinksSerializer)
    def get_links(self, tournament: Tournament) -> dict:
        request = self.context.get("request")
        return {
            name: link(f"tournament-{name}", tournament.pk, request)
            for name in TournamentLinksSerializer().fields
        }

    def _own_status(self):
        return self.context.get("own_status", _ANONYMOUS)


_ANONYMOUS = object()
