"""Games in the REST API (/api/v1/games/): results and records.

Read-only and open to anonymous readers, with the default throttles. A game
at a private table exists here only for its players, as on the pages. A
game's record holds every hand, so it is published only once the game is
over: while it is being played the record is a 404.

Included by ``config.api``, so the URL names live in the ``api`` namespace.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.urls import path
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from common.api_errors import ErrorSerializer, refusal_serializer
from common.replica import replica_reads
from games import reviews, selectors
from games.models import Game, GameReview, Seat
from games.serializers import (
    GameDetailSerializer,
    GameFilterSerializer,
    GameSerializer,
)
from games.services import rematch as rematch_services
from games.services.rematch import GameNotFinished
from ratings.categories import preset

GAME_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A game id."
)


def visible_games(user) -> QuerySet[Game]:
    """Every game ``user`` may see (anonymous: None or AnonymousUser), with
    its table and seats: public tables', and private ones' to their players."""
    seats = Seat.objects.select_related("user__profile").order_by("number")
    games = Game.objects.select_related("table").prefetch_related(
        Prefetch("table__seats", queryset=seats)
    )
    return games.filter(selectors.visible_to(user))


def filter_games(games: QuerySet[Game], filters: dict) -> QuerySet[Game]:
    """Apply the validated ``GameFilterSerializer`` fields."""
    if "player" in filters:
        games = games.filter(
            table__in=Seat.objects.filter(
                user__username=filters["player"], bot=""
            ).values("table_id")
        )
    if "category" in filters:
        # Tables store their options normalised by the engine (every default
        # spelled out, in the engine's order), as the preset is.
        profile, options = preset(filters["category"])
        games = games.filter(table__profile=profile, table__options=options)
    if "date_from" in filters:
        games = games.filter(started_at__date__gte=filters["date_from"])
    if "date_to" in filters:
        games = games.filter(started_at__date__lte=filters["date_to"])
    if "ranked" in filters:
        games = games.filter(table__ranked=filters["ranked"])
    if "status" in filters:
        games = games.filter(status=filters["status"])
    return games


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[GameFilterSerializer])
class GameListView(generics.ListAPIView):
    """Games, newest first: finished, in progress, called off or annulled.

    Seats, rules and results only, never any cards. Games at private tables
    are listed only to their players.
    """

    serializer_class = GameSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        # A plain dict: a missing boolean in a query string is not "false".
        params = GameFilterSerializer(data=self.request.query_params.dict())
        params.is_valid(raise_exception=True)
        games = visible_games(self.request.user)
        return filter_games(games, params.validated_data).order_by("-started_at", "-id")


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[GAME_ID])
class GameDetailView(generics.RetrieveAPIView):
    """A game, with the rating change of each player if it was rated."""

    serializer_class = GameDetailSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return visible_games(self.request.user)


@extend_schema(
    parameters=[GAME_ID],
    responses={
        200: OpenApiTypes.OBJECT,
        404: OpenApiResponse(
            ErrorSerializer, description="No such game, or not over yet."
        ),
    },
)
@method_decorator(replica_reads, name="get")
class GameRecordView(generics.GenericAPIView):
    """The game record in the RECORD.md format: every deal's cards and every
    action, as ``python -m joker.replay`` reads it, and each deal's
    commitment and salt (docs/engine.md). Published once the game is over;
    404 while it is being played."""

    permission_classes = [AllowAny]
    serializer_class = None

    def get_queryset(self):
        return visible_games(self.request.user)

    def get(self, request: Request, pk: int) -> Response:
        game = self.get_object()
        if game.status == Game.Status.PLAYING:
            raise Http404("the record is published when the game is over")
        return Response(selectors.game_record(game))


class GameReviewSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id")
    # A plain string in the schema: an enum of its own would be named after
    # the field and rename the games' "status" enum with it.
    status = serializers.CharField(
        help_text="queued or running: not made yet, ask again later; done: "
        "`review` holds it; failed: it could not be made.",
    )
    version = serializers.CharField(
        help_text="The review's and the bot's version that made it "
        "(joker.review.version()); empty until done."
    )
    review = serializers.JSONField(
        source="data",
        allow_null=True,
        help_text="Once done: `seats`, one review per seat a person held "
        "(docs/review.md: each decision, its alternatives with their "
        "expected points or tricks, the loss with its 95 % interval, the "
        "grade, the summaries per deal and for the game, and hindsight).",
    )

    class Meta:
        model = GameReview
        fields = ["game", "status", "version", "review"]


ReviewRefusal = refusal_serializer("GameReviewRefusal", ["game_not_finished"])
ReviewRequestRefusal = refusal_serializer(
    "GameReviewRequestRefusal",
    ["game_not_finished", "not_a_player", "review_current"],
)
NO_REVIEW = OpenApiResponse(
    ErrorSerializer,
    description="No such game, or it has no review (called off, annulled "
    "before its end, or played by bots only).",
)


class ReviewRequestThrottle(UserRateThrottle):
    """Each request makes the reviews' worker review a whole game again."""

    scope = "review_request"

    def get_rate(self) -> str:
        # Read at each request, not when the class is made, so that a
        # setting changed later (a test's) is the one applied.
        return settings.REVIEW_REQUEST_RATE


@extend_schema(parameters=[GAME_ID])
class GameReviewView(generics.GenericAPIView):
    """A finished game's deal review (docs/review.md): every decision of
    each seat a person held, judged from what that seat knew. Made in the
    background after the game: ``status`` says whether it is done yet. A
    game being played has no review: 409 (``game_not_finished``)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = GameReviewSerializer

    def get_queryset(self):
        return visible_games(self.request.user)

    def get_throttles(self):
        throttles = super().get_throttles()
        # No request when the schema's checks make the view bare.
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            throttles.append(ReviewRequestThrottle())
        return throttles

    @extend_schema(
        responses={200: GameReviewSerializer, 404: NO_REVIEW, 409: ReviewRefusal}
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.get_object()
        if game.status == Game.Status.PLAYING:
            raise GameNotFinished("the game is being played: no review until it ends")
        review = GameReview.objects.filter(game=game).first()
        if review is None:
            raise Http404("this game has no review")
        return Response(GameReviewSerializer(review).data)

    @extend_schema(
        request=None,
        responses={
            202: GameReviewSerializer,
            404: NO_REVIEW,
            409: ReviewRequestRefusal,
            429: OpenApiResponse(
                ErrorSerializer,
                description="Asked too often (``API_THROTTLE_REVIEW_REQUEST``, "
                "six an hour by default): ``Retry-After`` says when to ask "
                "again.",
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Have the review made again, for the game's players and staff:
        only when it failed or was made by another version of the review
        and its bot (``version`` differs from the site's). It is queued
        (202) and made in the background; ask for it with ``GET``."""
        game = self.get_object()
        try:
            review = reviews.request_again(game=game, user=request.user)
        except GameReview.DoesNotExist:
            raise Http404("this game has no review") from None
        return Response(GameReviewSerializer(review).data, status=202)


class RematchSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["none", "open", "made", "lapsed"],
        help_text="none: no offer yet; open: waiting for the seats in "
        "`waiting` until `expires`; made: `table` is the new table; lapsed: "
        "see `reason`.",
    )
    agreed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats of the people who agreed."
    )
    waiting = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats of the people who have not agreed yet.",
    )
    expires = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField(
        help_text="Why the offer lapsed: declined, left, expired, or the "
        "refusal of `seat` (ranked_elsewhere, few_coins, rating_needed, "
        "banned); empty otherwise."
    )
    seat = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(allow_null=True, help_text="The new table's page.")


RematchAgreeRefusal = refusal_serializer(
    "RematchAgreeRefusal",
    [
        "game_not_finished",
        "not_a_player",
        "tournament_game",
        "rematch_agreed",
        "rematch_made",
        "rematch_refused",
    ],
)
RematchDeclineRefusal = refusal_serializer(
    "RematchDeclineRefusal",
    ["game_not_finished", "not_a_player", "tournament_game", "no_offer"],
)
NO_GAME = OpenApiResponse(ErrorSerializer, description="No such game.")


@extend_schema(parameters=[GAME_ID])
class RematchView(generics.GenericAPIView):
    """A finished game's rematch (docs/protocol.md, "Rematch").

    ``POST`` agrees to play the game again, with the same options and
    seats; when every person of it has agreed, the new table is made and its
    game started (``url``). ``DELETE`` declines the open offer. Each answers
    with the offer's state; a refusal is a 409 and changes nothing, except
    ``rematch_refused``: somebody may not take their seat, so the offer
    lapsed and no table was made.
    """

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = RematchSerializer

    def get_queryset(self):
        return visible_games(self.request.user)

    def answer(self, pk: int) -> Response:
        return Response(RematchSerializer(selectors.rematch_message(pk)).data)

    @extend_schema(responses={200: RematchSerializer, 404: NO_GAME})
    def get(self, request: Request, pk: int) -> Response:
        return self.answer(self.get_object().pk)

    @extend_schema(
        request=None,
        responses={200: RematchSerializer, 404: NO_GAME, 409: RematchAgreeRefusal},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = self.get_object()
        rematch_services.rematch_agree(game_id=game.pk, user=request.user)
        return self.answer(game.pk)

    @extend_schema(
        request=None,
        responses={200: RematchSerializer, 404: NO_GAME, 409: RematchDeclineRefusal},
    )
    def delete(self, request: Request, pk: int) -> Response:
        game = self.get_object()
        rematch_services.rematch_decline(game_id=game.pk, user=request.user)
        return self.answer(game.pk)


urlpatterns = [
    path("games/", GameListView.as_view(), name="game-list"),
    path("games/<int:pk>/", GameDetailView.as_view(), name="game-detail"),
    path("games/<int:pk>/record/", GameRecordView.as_view(), name="game-record"),
    path("games/<int:pk>/rematch/", RematchView.as_view(), name="game-rematch"),
    path("games/<int:pk>/review/", GameReviewView.as_view(), name="game-review"),
]
