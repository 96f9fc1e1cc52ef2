"""A player's statistics in the REST API (/api/v1/players/<username>/
statistics/): ``games.statistics`` per rating category, counted over the
games the asker may see, as the replays are. Read-only and public, with
the default throttles; included by ``config.api`` (namespace ``api``)."""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from common.api_errors import ErrorSerializer
from games.statistics import JOKER_MODES, STATISTICS_GAMES, player_statistics
from ratings.categories import CATEGORY_CHOICES
from ratings.selectors import player_by_username

USERNAME = OpenApiParameter(
    "username", OpenApiTypes.STR, OpenApiParameter.PATH, description="A username."
)


def share(**kwargs) -> serializers.FloatField:
    return serializers.FloatField(allow_null=True, **kwargs)


class BidSizeSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text="The bid, or the cards dealt.")
    deals = serializers.IntegerField()
    made = serializers.IntegerField(help_text="Deals whose bid was made exactly.")


class BidsSerializer(serializers.Serializer):
    deals = serializers.IntegerField()
    made = serializers.IntegerField(help_text="Bids made exactly.")
    exact_share = share(help_text="Percent of the bids made exactly.")
    by_bid = BidSizeSerializer(many=True)
    by_cards = BidSizeSerializer(many=True)


class HishtSerializer(serializers.Serializer):
    bids = serializers.IntegerField(help_text="Bids of at least one trick.")
    hishts = serializers.IntegerField(help_text="Of them, with no trick taken.")
    share = share(help_text="Percent of those bids that were a hisht.")


class PremiumSerializer(serializers.Serializer):
    pulkas = serializers.IntegerField()
    premiums = serializers.IntegerField()
    share = share(help_text="Percent of the pulkas with a premium.")


class JokersSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    tricks = serializers.IntegerField(help_text="Tricks won with a joker played.")
    modes = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Jokers played in each mode: " + ", ".join(JOKER_MODES) + ".",
    )


class SimilarSerializer(serializers.Serializer):
    games = serializers.IntegerField(
        help_text="Reviewed rated games whose opponents' mean rating was "
        "within 100 of the player's, before the game."
    )
    decisions = serializers.IntegerField()
    accuracy = share()
    loss_per_decision = share()


class TrendSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)
    accuracy = share()


class CategoryStatisticsSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=CATEGORY_CHOICES)
    games = serializers.IntegerField(help_text="Finished games counted.")
    deals = serializers.IntegerField()
    games_reviewed = serializers.IntegerField()
    deals_reviewed = serializers.IntegerField()
    decisions = serializers.IntegerField(
        help_text="Reviewed decisions that were not forced."
    )
    loss_per_decision = share(
        help_text="Points (Japanese Joker: tricks) lost per decision (docs/review.md)."
    )
    accuracy = share(help_text="Mean accuracy of the decisions, 0 to 100.")
    grades = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Inaccuracies, mistakes and blunders flagged.",
    )
    bids = BidsSerializer(required=False, help_text="Not in Japanese Joker.")
    hisht = HishtSerializer(required=False, help_text="Not in Japanese Joker.")
    premium = PremiumSerializer(required=False, help_text="Not in Japanese Joker.")
    jokers = JokersSerializer()
    similar_rating = SimilarSerializer()
    trend = TrendSerializer(
        many=True, help_text="Each reviewed game's accuracy, oldest first."
    )


@extend_schema(
    parameters=[USERNAME],
    responses={
        200: CategoryStatisticsSerializer(many=True),
        404: OpenApiResponse(ErrorSerializer, description="No such player."),
    },
)
class PlayerStatisticsView(generics.GenericAPIView):
    """A player's statistics per rating category, the most played first,
    over their latest 60 finished games that you may see
    (a private table's games only to its players): games and deals, bids
    made exactly by bid and by cards dealt, hishts, premiums, jokers, and
    from the deal reviews done, points lost per decision, accuracy and the
    grades, overall, against players of a similar rating and game by game."""

    permission_classes = [AllowAny]
    serializer_class = CategoryStatisticsSerializer
    # One row per category, never many: a plain list, not pages.
    pagination_class = None

    def get(self, request: Request, username: str) -> Response:
        user = player_by_username(username)
        if user is None:
            raise Http404("no such player")
        rows = player_statistics(user, viewer=request.user, limit=STATISTICS_GAMES)
        return Response(CategoryStatisticsSerializer(rows, many=True).data)


urlpatterns = [
    path(
        "players/<str:username>/statistics/",
        PlayerStatisticsView.as_view(),
        name="player-statistics",
    ),
]
