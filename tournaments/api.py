"""Tournaments in the REST API, mounted at /api/v1/tournaments/.

Reading is public, like the pages: the list, a tournament's settings, its
standings, pairings and results. Registering and withdrawing are for the
signed-in player (token or session) and go through
``tournaments.services``; a refusal is answered with a stable ``code`` and
nothing changes: 404 (``not_found``) for a missing tournament, 409 for
every other refusal, ``few_coins`` included, as quick play answers it.

Results are published once a tournament is over: asked earlier, they are a
409 (``not_finished``), so that a 404 always means there is no such
tournament.

Pairings read no game state, only which game a board's table holds and its
status, so they cannot give away cards.

Included by ``config.api``, so the URL names live in the ``api`` namespace.
"""

from __future__ import annotations

from django.db.models import Case, F, Q, Value, When
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_errors import ErrorSerializer
from common.pagination import Pagination
from tournaments import selectors, services
from tournaments.formats.plugins import format_of
from tournaments.models import Entry, Tournament
from tournaments.serializers import (
    TournamentDetailSerializer,
    TournamentEntrySerializer,
    TournamentFilterSerializer,
    TournamentNotFinishedSerializer,
    TournamentPairingsSerializer,
    TournamentRegisterRefusalSerializer,
    TournamentResultsSerializer,
    TournamentSerializer,
    TournamentStandingsSerializer,
    TournamentWithdrawRefusalSerializer,
)

TOURNAMENT_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A tournament id."
)

LIVE = [Tournament.Status.SCHEDULED, Tournament.Status.RUNNING]


class TournamentPagination(Pagination):
    page_size = 20


@extend_schema(parameters=[TournamentFilterSerializer])
class TournamentListView(generics.ListAPIView):
    """Tournaments: those running and those to come first, by start time
    (the next to start first), then those over, the latest first. A page at
    a time (``page_size`` up to 100)."""

    serializer_class = TournamentSerializer
    permission_classes = [AllowAny]
    pagination_class = TournamentPagination

    def get_queryset(self):
        params = TournamentFilterSerializer(data=self.request.query_params.dict())
        params.is_valid(raise_exception=True)
        tournaments = selectors.tournaments_counted().filter(**params.validated_data)
        live = Q(status__in=LIVE)
        return tournaments.order_by(
            Case(When(live, then=Value(0)), default=Value(1)),
            # Null for those over, so the next key orders them.
            Case(When(live, then=F("starts_at"))).asc(nulls_last=True),
            F("starts_at").desc(),
            "-id",
        )

    def list(self, request: Request, *args, **kwargs) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        context = {
            **self.get_serializer_context(),
            "pools": selectors.pool_balances(page),
        }
        data = TournamentSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)


class TournamentDetailView(APIView):
    """A tournament: every setting, where it stands, links to its standings,
    pairings and results, and the signed-in user's own entry."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[TOURNAMENT_ID], responses={200: TournamentDetailSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(selectors.tournaments_counted(), pk=pk)
        context = {"request": request, "now": timezone.now()}
        if request.user.is_authenticated:
            entry = selectors.own_entry(tournament, request.user)
            context["own_status"] = entry.status if entry else None
        return Response(TournamentDetailSerializer(tournament, context=context).data)


class TournamentStandingsView(APIView):
    """The standings now, best first: every finished game counts, those of
    the round in play too. Points and tie-breaks are exact fractions in
    strings ("7/3"), each also as the nearest float (``points_value``,
    ``tiebreak_values``)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[TOURNAMENT_ID], responses={200: TournamentStandingsSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rows = selectors.standings_with_players(tournament)
        data = {
            "tournament": tournament,
            "tiebreaks": list(format_of(tournament.format).tiebreak_keys),
            "rows": rows,
        }
        return Response(
            TournamentStandingsSerializer(data, context={"request": request}).data
        )


class TournamentPairingsView(APIView):
    """Every round in order with its boards: who sits where, the table and
    game to watch, and each board's result once it is finished. Seats and
    results only, never any cards."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[TOURNAMENT_ID], responses={200: TournamentPairingsSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rounds = selectors.rounds_with_boards(tournament, newest_first=False)
        games = {}
        for round_ in rounds:
            for board in round_.boards.all():
                game = getattr(board.table, "game", None) if board.table_id else None
                if game is not None:
                    games[board.table_id] = (game.pk, game.status)
        data = {"tournament": tournament, "rounds": rounds}
        context = {"request": request, "games": games}
        return Response(TournamentPairingsSerializer(data, context=context).data)


class TournamentResultsView(APIView):
    """Final places and prizes of a finished tournament; for a cancelled one,
    why, and that the entry fees went back. 409 (``not_finished``) while it
    is still to come or running."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[TOURNAMENT_ID],
        responses={
            200: TournamentResultsSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such tournament."),
            409: TournamentNotFinishedSerializer,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        if tournament.status == Tournament.Status.FINISHED:
            results = selectors.final_results(tournament)
            fees_refunded = None
            prizes_paid = sum(entry.prize for entry in results)
        elif tournament.status == Tournament.Status.CANCELLED:
            results = []
            fees_refunded = selectors.pool_balance(tournament) == 0
            prizes_paid = 0
        else:
            return Response(
                {
                    "code": "not_finished",
                    "detail": "the results are published when the tournament is over",
                },
                status=status.HTTP_409_CONFLICT,
            )
        data = {
            "tournament": tournament,
            "fees_refunded": fees_refunded,
            "prizes_paid": prizes_paid,
            "results": results,
        }
        return Response(
            TournamentResultsSerializer(data, context={"request": request}).data
        )


def _entry_response(request: Request, entry: Entry, code: int) -> Response:
    entry = selectors.entry_with_player(entry.pk)
    data = TournamentEntrySerializer(entry, context={"request": request}).data
    return Response(data, status=code)


class TournamentRegisterView(APIView):
    """Register the signed-in player; the entry fee moves from their wallet
    into the prize pool.

    Refused with 409 when registration is closed, the field is full, the
    player is already registered or has fewer coins than the fee; 404 for a
    missing tournament.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={
            201: TournamentEntrySerializer,
            409: TournamentRegisterRefusalSerializer,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = services.tournament_register(tournament_id=pk, user=request.user)
        return _entry_response(request, entry, status.HTTP_201_CREATED)


class TournamentWithdrawView(APIView):
    """Withdraw the signed-in player before the start, with the entry fee
    back. Refused with 409 when registration is closed or the player is not
    registered; 404 for a missing tournament."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={
            200: TournamentEntrySerializer,
            409: TournamentWithdrawRefusalSerializer,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = services.tournament_withdraw(tournament_id=pk, user=request.user)
        return _entry_response(request, entry, status.HTTP_200_OK)


urlpatterns = [
    path("", TournamentListView.as_view(), name="tournament-list"),
    path("<int:pk>/", TournamentDetailView.as_view(), name="tournament-detail"),
    path(
        "<int:pk>/standings/",
        TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    path(
        "<int:pk>/pairings/",
        TournamentPairingsView.as_view(),
        name="tournament-pairings",
    ),
    path(
        "<int:pk>/results/", TournamentResultsView.as_view(), name="tournament-results"
    ),
    path(
        "<int:pk>/register/",
        TournamentRegisterView.as_view(),
        name="tournament-register",
    ),
    path(
        "<int:pk>/withdraw/",
        TournamentWithdrawView.as_view(),
        name="tournament-withdraw",
    ),
]
