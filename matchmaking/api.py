"""Quick play in the REST API, mounted at /api/v1/pools/.

``GET /pools/`` is public: every pool's size and longest wait. Joining,
leaving and one's own status are for the signed-in player only, and go
through ``matchmaking.services``. A refusal is answered with 409 and a
stable ``code``; nothing changes.
"""

from __future__ import annotations

from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_errors import ErrorSerializer, refusal_serializer
from games.stakes import STAKE_CHOICES
from matchmaking import selectors, services
from matchmaking.grouping import BOT_WAIT_SECONDS
from ratings.categories import CATEGORY_CHOICES

STAKE_HELP = "Domino Coin per player (a virtual coin, never money)."


class PoolSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES)
    stake = serializers.ChoiceField(choices=STAKE_CHOICES, help_text=STAKE_HELP)
    players = serializers.IntegerField(help_text="Players waiting now.")
    oldest_wait = serializers.IntegerField(
        allow_null=True,
        help_text="Seconds the longest-waiting player has waited; null if none.",
    )


class StrictBooleanField(serializers.BooleanField):
    """JSON's true or false only: DRF's own also takes 0, 1, "yes" and the
    like, which the schema does not allow."""

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class JoinSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES)
    stake = serializers.ChoiceField(
        choices=STAKE_CHOICES, default=0, help_text=STAKE_HELP
    )
    bots = StrictBooleanField(
        default=True,
        help_text="In a 4-player category without a stake: after "
        f"{BOT_WAIT_SECONDS} seconds' wait, be seated at once with practice "
        "bots in the seats no waiting player fits.",
    )
    bots_rated = StrictBooleanField(
        default=False,
        help_text="A table with bots counts for the rating, each bot an "
        "opponent of its level's fixed rating (docs/ratings.md). Players "
        "are seated with bots only beside players who made the same choice.",
    )


class StatusSerializer(serializers.Serializer):
    waiting = serializers.BooleanField(help_text="In a pool now.")
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES, allow_null=True)
    stake = serializers.ChoiceField(
        choices=STAKE_CHOICES, allow_null=True, help_text=STAKE_HELP
    )
    rating = serializers.IntegerField(
        allow_null=True, help_text="The rating the player is matched by."
    )
    joined_at = serializers.DateTimeField(allow_null=True)
    waited = serializers.IntegerField(help_text="Seconds waited so far.")
    window = serializers.IntegerField(
        allow_null=True,
        help_text="Opponents are at most this many rating points away now.",
    )
    players = serializers.IntegerField(
        help_text="Players waiting in this pool, the player included."
    )
    table = serializers.IntegerField(
        allow_null=True,
        help_text="When not waiting: the table quick play seated the player "
        "at, while its game is on.",
    )
    url = serializers.CharField(allow_null=True, help_text="That table's page.")
    bots_in = serializers.IntegerField(
        allow_null=True,
        help_text="Seconds until practice bots fill the table (0: at the next "
        "tick, every 2 seconds); null when they never will.",
    )
    bots_rated = serializers.BooleanField(
        help_text="A table with bots would count for the rating."
    )


JoinRefusalSerializer = refusal_serializer(
    "PoolJoinRefusal",
    ["already_waiting", "ranked_elsewhere", "few_coins", "rating_needed"],
)
CancelRefusalSerializer = refusal_serializer("PoolCancelRefusal", ["not_waiting"])


def _status(request: Request) -> dict:
    return StatusSerializer(
        selectors.pool_status(request.user, now=timezone.now())
    ).data


class PoolListView(APIView):
    """Every pool (category and stake): players waiting and the longest wait."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PoolSerializer(many=True)})
    def get(self, request: Request) -> Response:
        pools = selectors.pools(now=timezone.now())
        return Response(PoolSerializer(pools, many=True).data)


class PoolJoinView(APIView):
    """Join the pool of a category and stake.

    Refused with 409 when already waiting, seated at another live ranked
    table, short of the stake's coins, or without an established rating for
    a high stake (any stake, for an account made by the sign-up page). Stay
    in the pool by asking for ``/pools/me/`` (or keeping the quick-play
    WebSocket open) at least every 30 seconds.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=JoinSerializer,
        responses={
            201: StatusSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="An unknown category or stake."
            ),
            409: JoinRefusalSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.pool_join(
            user=request.user,
            category=data.validated_data["category"],
            stake=data.validated_data["stake"],
            bots=data.validated_data["bots"],
            bots_rated=data.validated_data["bots_rated"],
            now=timezone.now(),
        )
        return Response(_status(request), status=status.HTTP_201_CREATED)


class PoolCancelView(APIView):
    """Leave the pool; 409 (``not_waiting``) when not in one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: StatusSerializer, 409: CancelRefusalSerializer}
    )
    def post(self, request: Request) -> Response:
        services.pool_cancel(user=request.user)
        return Response(_status(request))


class PoolMeView(APIView):
    """The signed-in player's status; asking also keeps them in the pool."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: StatusSerializer})
    def get(self, request: Request) -> Response:
        services.pool_touch(user=request.user, now=timezone.now())
        return Response(_status(request))


urlpatterns = [
    path("", PoolListView.as_view(), name="pool-list"),
    path("join/", PoolJoinView.as_view(), name="pool-join"),
    path("cancel/", PoolCancelView.as_view(), name="pool-cancel"),
    path("me/", PoolMeView.as_view(), name="pool-me"),
]
