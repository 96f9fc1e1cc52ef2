"""The chat in the REST API: a game's chat (/api/v1/games/<id>/chat/) and
the lobby's (/api/v1/chat/lobby/). Read-only; writing is the sockets' (docs/
protocol.md). A reader never gets the messages of players they muted or
that they and the author blocked (docs/chat.md).

Included by ``config.api``, so the URL names live in the ``api`` namespace.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny

from chat import selectors
from chat.serializers import ChatMessageSerializer, GameChatFilterSerializer
from common.api_errors import ErrorSerializer
from games.models import Game

GAME_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A game id."
)


@extend_schema(
    parameters=[GAME_ID, GameChatFilterSerializer],
    responses={
        200: ChatMessageSerializer(many=True),
        404: OpenApiResponse(
            ErrorSerializer,
            description="No such game, or none of its chat is yours to read.",
        ),
    },
)
class GameChatView(generics.ListAPIView):
    """A game's chat, oldest first. While the game is played, a player
    reads the players' room and anyone else who may watch the spectators'
    room (signed in); once it is over, whoever may see the game reads both.
    Each message says its ``room``."""

    serializer_class = ChatMessageSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        params = GameChatFilterSerializer(data=self.request.query_params.dict())
        params.is_valid(raise_exception=True)
        game = Game.objects.select_related("table").filter(pk=self.kwargs["pk"]).first()
        if game is None:
            raise Http404("no such game")
        rooms = selectors.game_rooms_readable(game, self.request.user)
        if "room" in params.validated_data:
            rooms = [room for room in rooms if room == params.validated_data["room"]]
        if not rooms:
            raise Http404("no chat of this game is yours to read")
        return selectors.game_messages(game, self.request.user, rooms)


class LobbyChatView(generics.ListAPIView):
    """The lobby's chat, newest first; open to anonymous readers."""

    serializer_class = ChatMessageSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        user = self.request.user
        return selectors.lobby_messages(user.pk if user.is_authenticated else None)


urlpatterns = [
    path("games/<int:pk>/chat/", GameChatView.as_view(), name="game-chat"),
    path("chat/lobby/", LobbyChatView.as_view(), name="lobby-chat"),
]
