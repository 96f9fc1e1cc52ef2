"""The REST API root and account endpoints, mounted at /api/v1/."""

import threading

from csp.decorators import csp_update
from django.contrib.auth import get_user_model
from django.urls import include, path
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

app_name = "api"


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username", "first_name", "last_name", "date_joined"]
        read_only_fields = fields


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
    """Return the signed-in user."""

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
    path("", include("chat.api")),
    path("wallet/", include("coins.api")),
    path("pools/", include("matchmaking.api")),
    path("tournaments/", include("tournaments.api")),
    path("", include("social.api")),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", DocsView.as_view(url_name="api:schema"), name="docs"),
]
