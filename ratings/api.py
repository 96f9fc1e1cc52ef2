"""Players, leaderboards and rating history in the REST API (/api/v1/).

Read-only and public, like the pages; everything goes through
``ratings.selectors``. Included by ``config.api``, so the URL names live in
the ``api`` namespace.
"""

from __future__ import annotations

from typing import Any, cast

from django.http import Http404
from django.urls import path
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.serializers import PlayerSerializer
from common.pagination import Pagination
from common.replica import replica_reads
from ratings import selectors
from ratings.categories import CATEGORIES, CATEGORY_CHOICES

USERNAME = OpenApiParameter(
    "username", OpenApiTypes.STR, OpenApiParameter.PATH, description="A username."
)
CATEGORY = OpenApiParameter(
    "category",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=list(CATEGORIES),
    description="A rating category.",
)
SEARCH = OpenApiParameter(
    "search",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    description="Part of the username or the display name, in any case.",
)


class PlayerRatingSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES)
    rating = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 + the number of higher ratings.")
    games = serializers.IntegerField(help_text="Rated games played.")
    peak = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Fewer than 20 rated games.")


class PlayerDetailSerializer(PlayerSerializer):
    date_joined = serializers.DateTimeField()
    ratings = serializers.SerializerMethodField()

    @extend_schema_field(PlayerRatingSerializer(many=True))
    def get_ratings(self, user) -> list:
        # ``many=True`` makes a ListSerializer, whose data is a list.
        return cast(
            list[Any],
            PlayerRatingSerializer(selectors.player_standings(user), many=True).data,
        )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal ratings share a rank.")
    username = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    peak = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RatingChangeSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    at = serializers.DateTimeField(source="created_at")
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


def _player_or_404(username: str):
    user = selectors.player_by_username(username)
    if user is None:
        raise Http404("no such player")
    return user


def _category_or_404(category: str) -> str:
    if category not in CATEGORIES:
        raise Http404("no such category")
    return category


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[SEARCH])
class PlayerListView(generics.ListAPIView):
    """List players by username, optionally filtered by ``search``."""

    serializer_class = PlayerSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.players(self.request.query_params.get("search", "").strip())


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[USERNAME])
class PlayerDetailView(generics.GenericAPIView):
    """A player with their rating and rank in every category they play."""

    serializer_class = PlayerDetailSerializer
    permission_classes = [AllowAny]

    def get(self, request: Request, username: str) -> Response:
        user = _player_or_404(username)
        return Response(self.get_serializer(user).data)


class LeaderboardPagination(Pagination):
    page_size = 50


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[CATEGORY])
class LeaderboardView(generics.ListAPIView):
    """A category's leaderboard, best first, a page at a time (``page_size``
    up to 100)."""

    serializer_class = StandingSerializer
    permission_classes = [AllowAny]
    pagination_class = LeaderboardPagination

    def get_queryset(self):
        return selectors.leaderboard_queryset(_category_or_404(self.kwargs["category"]))

    def list(self, request: Request, *args, **kwargs) -> Response:
        paginator = cast(LeaderboardPagination, self.paginator)
        page = self.paginate_queryset(self.get_queryset())
        shown = paginator.page  # set by paginate_queryset
        offset = shown.start_index() - 1 if page and shown is not None else 0
        # A page always: the view's pagination is set.
        rows = selectors.standings(page or [], offset=offset)
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


@method_decorator(replica_reads, name="get")
@extend_schema(parameters=[USERNAME, CATEGORY])
class RatingHistoryView(generics.ListAPIView):
    """A player's rating changes in a category, newest first."""

    serializer_class = RatingChangeSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        user = _player_or_404(self.kwargs["username"])
        category = _category_or_404(self.kwargs["category"])
        return selectors.rating_history(user_id=user.pk, category=category).reverse()


urlpatterns = [
    path("players/", PlayerListView.as_view(), name="player-list"),
    path("players/<str:username>/", PlayerDetailView.as_view(), name="player-detail"),
    path(
        "players/<str:username>/ratings/<slug:category>/history/",
        RatingHistoryView.as_view(),
        name="rating-history",
    ),
    path("ratings/<slug:category>/", LeaderboardView.as_view(), name="leaderboard"),
]
