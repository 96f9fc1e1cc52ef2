"""The standings: exact tournament points and tie-breaks, each also as
the nearest float."""

from __future__ import annotations

from rest_framework import serializers

from accounts.serializers import PlayerSerializer

from .fields import (
    STATUS_HELP,
    EntryStatusField,
    TournamentStatusField,
    fraction_text,
    fraction_value,
)


class TournamentStandingSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Equal standings share a place.")
    player = PlayerSerializer(source="entry.user")
    status = EntryStatusField(
        source="entry.status",
        help_text="playing, eliminated (knockout), dropped (missed a round).",
    )
    points = serializers.SerializerMethodField()
    points_value = serializers.SerializerMethodField()
    tiebreaks = serializers.SerializerMethodField()
    tiebreak_values = serializers.SerializerMethodField()
    games = serializers.IntegerField(help_text="Games played, byes included.")
    note = serializers.CharField(
        help_text='"out" (knocked out), "final table", or empty.'
    )
    streak = serializers.SerializerMethodField()

    def get_streak(self, row) -> bool:
        """Arena: the last two games were won, so the next one counts double.
        Always false in other formats."""
        return bool(row.details.get("streak"))

    def get_points(self, row) -> str:
        """Tournament points, exact: "7/3", "2"."""
        return fraction_text(row.points)

    def get_points_value(self, row) -> float:
        """``points`` as the nearest float."""
        return fraction_value(row.points)

    def get_tiebreaks(self, row) -> list[str]:
        """Exact tie-breaks, in the order named by the response's
        ``tiebreaks``."""
        return [fraction_text(value) for value in row.tiebreaks]

    def get_tiebreak_values(self, row) -> list[float]:
        """``tiebreaks`` as the nearest floats."""
        return [fraction_value(value) for value in row.tiebreaks]


class TournamentStandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    status = TournamentStatusField(source="tournament.status", help_text=STATUS_HELP)
    current_round = serializers.IntegerField(source="tournament.current_round")
    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="What each row's tie-breaks are: Swiss [buchholz, "
        "sonneborn_berger], tables of four [score] (total game score), "
        "arena [performance] (the performance rating, whole), knockout [].",
    )
    rows = TournamentStandingSerializer(
        many=True,
        help_text="Best first. Every finished game counts, those of the round "
        "in play too. Empty before the start.",
    )
