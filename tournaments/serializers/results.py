"""Final places and prizes, the player's own entry, and the refusals of
registering, withdrawing and asking for results too early."""

from __future__ import annotations

from rest_framework import serializers

from accounts.serializers import PlayerSerializer
from common.api_errors import refusal_serializer

from .fields import COIN_HELP, EntryStatusField, TournamentStatusField


class TournamentResultSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Final place; ties share it.")
    player = PlayerSerializer(source="user")
    status = EntryStatusField()
    prize = serializers.IntegerField(help_text=COIN_HELP)


class TournamentResultsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    status = TournamentStatusField(
        source="tournament.status", help_text="finished or cancelled."
    )
    finished_at = serializers.DateTimeField(
        source="tournament.finished_at",
        help_text="When it finished or was cancelled.",
    )
    entry_fee = serializers.IntegerField(
        source="tournament.entry_fee", help_text=COIN_HELP
    )
    cancel_reason = serializers.CharField(
        source="tournament.cancel_reason", help_text="Empty unless cancelled."
    )
    fees_refunded = serializers.BooleanField(
        allow_null=True,
        help_text="Cancelled: every entry fee has gone back to whoever paid "
        "it (the prize pool is empty). Null for a finished tournament.",
    )
    prizes_paid = serializers.IntegerField(
        help_text="The whole prize pool, paid out as prizes (0 when cancelled)."
    )
    results = TournamentResultSerializer(
        many=True,
        help_text="Final places, best first, with prizes; empty when cancelled.",
    )


class TournamentEntrySerializer(serializers.Serializer):
    """The signed-in player's entry after registering or withdrawing."""

    tournament = serializers.IntegerField(source="tournament_id")
    player = PlayerSerializer(source="user")
    status = EntryStatusField(help_text="registered or withdrawn.")
    entry_fee = serializers.IntegerField(
        source="tournament.entry_fee",
        help_text="Paid into the pool on registering, given back on "
        "withdrawing. " + COIN_HELP,
    )
    registered_at = serializers.DateTimeField()


# A deactivated account's session or token is refused before any view (401),
# so the services' own "inactive" refusal is not one a client meets.
TournamentRegisterRefusalSerializer = refusal_serializer(
    "TournamentRegisterRefusal", ["closed", "full", "registered", "few_coins"]
)
TournamentWithdrawRefusalSerializer = refusal_serializer(
    "TournamentWithdrawRefusal", ["closed", "not_registered"]
)
TournamentNotFinishedSerializer = refusal_serializer(
    "TournamentNotFinished", ["not_finished"]
)
