"""Rounds and their boards: who sits where, the table and game to watch,
each board's result once it is in. Never anything of a game's state, so
never any cards."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from accounts.serializers import PlayerSerializer
from tournaments.models import BoardSeat

from .fields import STATUS_HELP, RoundStatusField, TournamentStatusField


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
        if seat.entry is None:
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
