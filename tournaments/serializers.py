"""Tournaments in the REST API: settings, standings, pairings and results.

Exact numbers stay exact: tournament points and tie-breaks are fractions (a
drawn game is half a point, shared places share their points), so each is
given twice, as the exact fraction in a string ("7/3", "2") and as the
nearest float for sorting and charts (``points`` and ``points_value``).

Pairings name tables and games so they can be watched, and copy each board's
result once it is in; never anything of a game's state, so never any cards.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from accounts.serializers import PlayerSerializer
from coins import services as coins
from config.api_errors import refusal_serializer
from tournaments.models import (
    TOURNAMENT_CATEGORIES,
    BoardSeat,
    Entry,
    Format,
    Round,
    Tournament,
)

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


def _link(name: str, tournament_id: int, request) -> str:
    return reverse(f"api:{name}", args=[tournament_id], request=request)


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A number as stored (a whole percent stays 50, not 50.0)."""

    def to_representation(self, value):
        return value


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
        return _link("tournament-detail", tournament.pk, self.context.get("request"))

    def get_pool(self, tournament: Tournament) -> int:
        """Domino Coin in the prize pool now: the entry fees paid, until the
        prizes are paid out (or the fees refunded), then 0."""
        pools = self.context.get("pools")
        if pools is None:
            return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)
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
        if tournament.format != Format.ARENA:
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
            name: _link(f"tournament-{name}", tournament.pk, request)
            for name in TournamentLinksSerializer().fields
        }

    def _own_status(self):
        return self.context.get("own_status", _ANONYMOUS)


_ANONYMOUS = object()


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


class TournamentBoardSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="0-based seat at the table.")
    player = serializers.SerializerMethodField()
    bot = serializers.BooleanField(source="is_bot", help_text="A bot in the seat.")
    place = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    won = serializers.SerializerMethodField()
    absent = serializers.SerializerMethodField()

    @extend_schema_field(PlayerSerializer(allow_null=True))
    def get_player(self, seat: BoardSeat) -> dict | None:
        """Null for a bot."""
        if seat.entry_id is None:
            return None
        return PlayerSerializer(seat.entry.user, context=self.context).data

    def get_place(self, seat: BoardSeat) -> int | None:
        """Place at the table (1 = first; ties share); null until the board
        is finished, and for a game called off."""
        return seat.place if seat.board.finished else None

    def get_score(self, seat: BoardSeat) -> int | None:
        """Final game score; null until the board is finished, and for a game
        called off."""
        return seat.score if seat.board.finished else None

    def get_won(self, seat: BoardSeat) -> bool | None:
        """Null until the board is finished."""
        return seat.won if seat.board.finished else None

    def get_absent(self, seat: BoardSeat) -> bool | None:
        """The player made no move of their own (the timer played for them);
        null until the board is finished."""
        return seat.absent if seat.board.finished else None


class TournamentBoardSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    is_bye = serializers.BooleanField(
        help_text="A win without a game (or an empty slot of a knockout "
        "bracket): no table."
    )
    finished = serializers.BooleanField(help_text="Its result is in the seats.")
    table = serializers.IntegerField(source="table_id", allow_null=True)
    game = serializers.SerializerMethodField()
    game_status = serializers.SerializerMethodField()
    game_url = serializers.SerializerMethodField()
    watch_url = serializers.SerializerMethodField()
    seats = TournamentBoardSeatSerializer(many=True, source="seats.all")

    def _game(self, board) -> tuple[int, str] | None:
        return self.context["games"].get(board.table_id)

    def get_game(self, board) -> int | None:
        """The game's id, for ``/api/v1/games/<id>/``; null for a bye."""
        game = self._game(board)
        return game[0] if game else None

    def get_game_status(self, board) -> str | None:
        """The game's status, as in the games API: playing, finished, aborted
        (called off) or annulled; null for a bye."""
        game = self._game(board)
        return game[1] if game else None

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_game_url(self, board) -> str | None:
        game = self._game(board)
        if not game:
            return None
        return reverse(
            "api:game-detail", args=[game[0]], request=self.context.get("request")
        )

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_watch_url(self, board) -> str | None:
        """The table's page, to watch the game; null for a bye."""
        if board.table_id is None:
            return None
        return reverse(
            "games:table", args=[board.table_id], request=self.context.get("request")
        )


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = RoundStatusField()
    is_final_table = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    boards = TournamentBoardSerializer(many=True, source="boards.all")


class TournamentPairingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    status = TournamentStatusField(source="tournament.status", help_text=STATUS_HELP)
    current_round = serializers.IntegerField(source="tournament.current_round")
    rounds = TournamentRoundSerializer(
        many=True, help_text="In order of play, the round in play last."
    )


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
