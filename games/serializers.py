"""Games in the REST API: who played, under which rules, and how it ended.

Never any cards: a game's cards are in its record only, which the API
publishes once the game is over (``games.api``).
"""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from games import selectors
from games.models import PROFILE_CHOICES, Game, Seat, Table
from ratings.categories import CATEGORY_CHOICES, category_of
from ratings.models import UnratedReason


class GameFilterSerializer(serializers.Serializer):
    """The query parameters of the game list; all optional."""

    # Matched exactly, as given: a username has no surrounding whitespace to
    # trim, and trimming turned a name of control characters (whitespace to
    # Python) into a blank refused as bad input, which the schema allows.
    player = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text="Only games with this username in a seat.",
    )
    category = serializers.ChoiceField(
        choices=CATEGORY_CHOICES,
        required=False,
        help_text="Only games whose rules are this rating category's preset.",
    )
    date_from = serializers.DateField(
        required=False, help_text="Only games started on this day or later."
    )
    date_to = serializers.DateField(
        required=False, help_text="Only games started on this day or earlier."
    )
    ranked = serializers.BooleanField(
        required=False, help_text="Only games at ranked (true) or casual tables."
    )
    status = serializers.ChoiceField(
        choices=Game.Status.choices, required=False, help_text="Only these games."
    )


class GameSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="0-based seat number.")
    name = serializers.CharField(
        source="display_name", help_text="The name shown at the table."
    )
    username = serializers.SerializerMethodField()
    bot = serializers.ChoiceField(
        choices=Seat.Bot.choices, help_text="The bot in the seat; empty: a person."
    )
    left = serializers.BooleanField(
        help_text="The player left the game (resigned or stayed away)."
    )

    def get_username(self, seat: Seat) -> str | None:
        """The person's username; null for a bot."""
        if seat.bot or seat.user is None:
            return None
        return seat.user.get_username()


class GameResultSerializer(serializers.Serializer):
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Final score, by seat."
    )
    places = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Final place (1 = first; shared places repeat), by seat.",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats in first place."
    )
    left = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats whose player left."
    )
    nets = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=(
            "Domino Coin each player won (positive) or lost (negative), by "
            "seat, as moved in the ledger: the payout minus the stake. Null "
            "for a game without a stake, or one not finished (called off or "
            "annulled)."
        ),
    )


class GameRatingChangeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES)
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


class GameRatingSeatSerializer(serializers.Serializer):
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


class GameRatingSerializer(serializers.Serializer):
    rated = serializers.BooleanField(help_text="The game moved the ratings.")
    reason = serializers.ChoiceField(
        choices=[("", "rated"), *UnratedReason.choices],
        help_text=(
            "Why the game was not rated: the rule that decided it; empty when rated."
        ),
    )
    detail = serializers.CharField(
        help_text="The reason in words, in the request's language; empty when rated."
    )
    changes = serializers.ListField(
        child=GameRatingSeatSerializer(allow_null=True),
        allow_null=True,
        help_text=(
            "Each seat's rating change (null for a bot's seat); null when unrated."
        ),
    )


class GameListSerializer(serializers.ListSerializer):
    """Games, their Domino Coin nets read from the ledger in one query."""

    def to_representation(self, data):
        games = list(data.all() if hasattr(data, "all") else data)
        self.context["coin_nets"] = selectors.coin_nets(games)
        return super().to_representation(games)


class GameSerializer(serializers.Serializer):
    """A game's table, rules, players and result."""

    class Meta:
        list_serializer_class = GameListSerializer

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    table = serializers.IntegerField(source="table_id")
    profile = serializers.ChoiceField(choices=PROFILE_CHOICES, source="table.profile")
    options = serializers.DictField(
        source="table.options", help_text="The rule options, every default included."
    )
    category = serializers.SerializerMethodField()
    ranked = serializers.BooleanField(source="table.ranked")
    stake = serializers.IntegerField(
        source="table.stake",
        help_text=(
            "Domino Coin per seat (0: none); settled by score, each player's "
            "deposit, the most a player can lose. A virtual coin, never money."
        ),
    )
    settlement = serializers.ChoiceField(
        choices=Table.Settlement.choices,
        source="table.settlement",
        help_text=(
            "How a stake is paid out: all of it to the winners (pot), or by "
            "score, each pair of players settling the difference of their "
            "totals at points_per_coin."
        ),
    )
    points_per_coin = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started = serializers.DateTimeField(source="started_at")
    finished = serializers.DateTimeField(
        source="finished_at", allow_null=True, help_text="Null while playing."
    )
    seats = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, game: Game) -> str:
        return reverse(
            "api:game-detail", args=[game.pk], request=self.context.get("request")
        )

    @extend_schema_field(
        serializers.ChoiceField(choices=CATEGORY_CHOICES, allow_null=True)
    )
    def get_category(self, game: Game) -> str | None:
        """The rating category whose preset the rules are; null: none."""
        return category_of(game.table.profile, game.table.options)

    @extend_schema_field(GameSeatSerializer(many=True))
    def get_seats(self, game: Game) -> list:
        seats = sorted(game.table.seats.all(), key=lambda seat: seat.number)
        # ``many=True`` makes a ListSerializer, whose data is a list.
        return cast(list[Any], GameSeatSerializer(seats, many=True).data)

    @extend_schema_field(
        serializers.IntegerField(
            allow_null=True,
            min_value=1,
            help_text=(
                "Settled by score: one Domino Coin per so many points of "
                "difference between two players' totals. Null: settled by "
                "the pot."
            ),
        )
    )
    def get_points_per_coin(self, game: Game) -> int | None:
        """Settled by score: one Domino Coin per so many points of difference
        between two players' totals; null for a table settled by the pot."""
        table = game.table
        return table.points_per_coin if table.settled_by_score else None

    @extend_schema_field(GameResultSerializer(allow_null=True))
    def get_result(self, game: Game) -> dict | None:
        """Null until the game has finished (and for a game called off)."""
        if not game.result:
            return None
        keys = ("totals", "places", "winners", "left")
        result = {key: game.result.get(key, []) for key in keys}
        result["nets"] = self._nets_of(game)
        return GameResultSerializer(result).data

    def _nets_of(self, game: Game) -> list[int] | None:
        # A list of games reads every game's nets at once (GameListSerializer).
        known = self.context.get("coin_nets")
        if known is not None:
            return known.get(game.pk)
        return selectors.game_coin_nets(game)

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_record(self, game: Game) -> str | None:
        """The game record (RECORD.md); null while the game is being played."""
        if game.status == Game.Status.PLAYING:
            return None
        return reverse(
            "api:game-record", args=[game.pk], request=self.context.get("request")
        )


class GameDetailSerializer(GameSerializer):
    rating = serializers.SerializerMethodField()
    rating_changes = serializers.SerializerMethodField()

    @extend_schema_field(GameRatingSerializer(allow_null=True))
    def get_rating(self, game: Game) -> dict | None:
        """What a ranked game that is over did to the ratings, or why it did
        nothing; null at a casual table, while playing and when called off."""
        rating = selectors.game_rating(game)
        if rating is None:
            return None
        reason = rating["reason"]
        detail = str(UnratedReason(reason).label) if reason else ""
        return GameRatingSerializer({**rating, "detail": detail}).data

    @extend_schema_field(GameRatingChangeSerializer(many=True))
    def get_rating_changes(self, game: Game) -> list:
        """What the game did to each player's rating (empty: unrated)."""
        seat_of = {seat.user_id: seat.number for seat in game.table.seats.all()}
        changes = sorted(
            game.rating_changes.select_related("user"),
            key=lambda change: seat_of.get(change.user_id, 0),
        )
        for change in changes:
            change.seat = seat_of.get(change.user_id)
        # ``many=True`` makes a ListSerializer, whose data is a list.
        return cast(list[Any], GameRatingChangeSerializer(changes, many=True).data)
