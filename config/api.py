"""The REST API root and account endpoints, mounted at /api/v1/."""

import threading
from typing import Any, cast

from csp.decorators import csp_update
from django.contrib.auth import get_user_model
from django.urls import include, path
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from accounts.selectors import display_name
from coins import services as coins
from ratings.api import PlayerRatingSerializer
from ratings.selectors import player_standings

app_name = "api"


class MeWalletSerializer(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Coins in the wallet now.")
    coin = serializers.CharField(help_text='Always "Domino Coin".')


class MeSerializer(serializers.ModelSerializer):
    display_name = serializers.SerializerMethodField(
        help_text="The name shown at tables: the display name, else the username."
    )
    ratings = serializers.SerializerMethodField(
        help_text="A rating for each category played rated, ranked."
    )
    wallet = serializers.SerializerMethodField(
        help_text="The Domino Coin wallet (never money)."
    )

    class Meta:
        model = get_user_model()
        fields = [
            "id",
            "username",
            "display_name",
            "first_name",
            "last_name",
            "date_joined",
            "ratings",
            "wallet",
        ]
        read_only_fields = fields

    def get_display_name(self, user) -> str:
        return display_name(user)

    @extend_schema_field(PlayerRatingSerializer(many=True))
    def get_ratings(self, user) -> list:
        # ``many=True`` makes a ListSerializer, whose data is a list.
        return cast(
            list[Any], PlayerRatingSerializer(player_standings(user), many=True).data
        )

    @extend_schema_field(MeWalletSerializer)
    def get_wallet(self, user) -> dict:
        wallet = coins.wallet_of(user)
        data = {"balance": wallet.balance, "coin": "Domino Coin"}
        return MeWalletSerializer(data).data


class ApiRootView(APIView):
    """List the API's entry points."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        def link(name: str) -> str:
            return reverse(f"api:{name}", request=request)

        return Response(
            {
                "me": link("me"),
                "players": link("player-list"),
                "leaderboard": reverse(
                    "api:leaderboard", args=["joker"], request=request
                ),
                "games": link("game-list"),
                "wallet": link("wallet"),
                "pools": link("pool-list"),
                "tournaments": link("tournament-list"),
                "friends": link("friend-list"),
                "invitations": link("invitation-list"),
                "schema": link("schema"),
                "docs": link("docs"),
            }
        )


class MeView(generics.RetrieveAPIView):
    """Return the signed-in player: names, ratings by category (each with its
    rank) and the Domino Coin balance."""

    serializer_class = MeSerializer
    permission_classes = [IsAuthenticated]

    def get_object(self):
        return self.request.user


class SchemaView(SpectacularAPIView):
    """drf-spectacular's schema, generated one request at a time.

    Under ASGI each request's synchronous view runs on a thread of its own,
    and drf-spectacular's generation is not thread-safe: its extensions load
    their target classes lazily into class attributes, and its warnings go
    to a shared singleton (tfranzel/drf-spectacular#1122, #1368). Two first
    requests at once made one of them a 500. The lock holds only the
    generation (the view's own step for it, so that its ``get`` keeps its
    place in the schema); the answer is rendered after it."""

    generating = threading.Lock()

    def _get_schema_response(self, request):
        with self.generating:
            return super()._get_schema_response(request)


@method_decorator(csp_update({"img-src": "data:"}), name="dispatch")
class DocsView(SpectacularSwaggerSplitView):
    """The API's docs page: drf-spectacular's Swagger UI, from the files of
    drf-spectacular-sidecar (no CDN), within the site's Content-Security-
    Policy (config.content_security): its script is a file of its own
    (``?script``) and its page style a static file, where drf-spectacular
    writes both inline. Swagger UI's style sheet draws its icons as data:
    images, which this page alone allows."""

    template_name = "api/docs.html"


urlpatterns = [
    path("", ApiRootView.as_view(), name="root"),
    path("me/", MeView.as_view(), name="me"),
    path("", include("ratings.api")),
    path("", include("games.api")),
    path("", include("games.statistics_api")),
    path("", include("chat.api")),
    path("wallet/", include("coins.api")),
    path("pools/", include("matchmaking.api")),
    path("tournaments/", include("tournaments.api")),
    path("", include("social.api")),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", DocsView.as_view(url_name="api:schema"), name="docs"),
]
