"""Friends, friend requests, blocks and invitations in the REST API,
mounted at /api/v1/ (docs/social.md).

Everything here is the signed-in player's own: their friends (with
presence and table), the requests to and from them, the players they
block, the invitations to and from them. Writes go through
``social.services``; a refusal is answered with its status and a stable
``code``, and nothing changes. The lists are short by nature (a player's
own friends and open invitations) and are not paged.
"""

from __future__ import annotations

from typing import Any, cast

from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import display_name
from common.api_errors import ErrorSerializer, refusal_serializer
from common.errors import NotFound
from common.signed_in import signed_in_id
from social import selectors, services
from social.serializers import (
    AcceptedSerializer,
    BlockSerializer,
    FriendRequestsSerializer,
    FriendSerializer,
    InvitationCreateSerializer,
    InvitationSerializer,
    InvitationsSerializer,
    RequestResultSerializer,
    UsernameSerializer,
)

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such player.")
INVALID = OpenApiResponse(ErrorSerializer, description="Bad input.")


def _player(username: str):
    player = selectors.player_by_username(username)
    if player is None:
        raise NotFound(f"there is no player {username!r}")
    return player


def _request_json(request, other) -> dict:
    return {
        "username": other.get_username(),
        "name": display_name(other),
        "created_at": request.created_at,
    }


class FriendListView(APIView):
    """Your friends, by name: online or not, and the table they sit at."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: FriendSerializer(many=True)})
    def get(self, request: Request) -> Response:
        friends = selectors.friends_with_presence(signed_in_id(request))
        return Response(FriendSerializer(friends, many=True).data)


class FriendDeleteView(APIView):
    """Unfriend a player: 409 ``not_friends`` when you are not friends."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            204: None,
            404: NOT_FOUND,
            409: refusal_serializer("UnfriendRefusal", ["not_friends"]),
        }
    )
    def delete(self, request: Request, username: str) -> Response:
        services.friendship_delete(
            user_id=signed_in_id(request), friend_id=_player(username).pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRequestListView(APIView):
    """The friend requests to you and from you; POST asks a player.

    Asking a player who asked you already makes you friends at once
    (``result``: friends). Refused with 409 when either of you has blocked
    the other (``blocked``), for yourself, when you are friends already or
    your request waits already."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: FriendRequestsSerializer})
    def get(self, request: Request) -> Response:
        me = signed_in_id(request)
        data = {
            "received": [
                _request_json(r, r.sender) for r in selectors.requests_received(me)
            ],
            "sent": [_request_json(r, r.receiver) for r in selectors.requests_sent(me)],
        }
        return Response(FriendRequestsSerializer(data).data)

    @extend_schema(
        request=UsernameSerializer,
        responses={
            201: RequestResultSerializer,
            400: INVALID,
            404: NOT_FOUND,
            409: refusal_serializer(
                "FriendRequestRefusal",
                ["blocked", "yourself", "already_friends", "already_requested"],
            ),
            429: refusal_serializer("FriendRequestFlood", ["too_many_friend_requests"]),
        },
    )
    def post(self, request: Request) -> Response:
        data = UsernameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.friend_request_create(
            sender_id=signed_in_id(request),
            receiver_id=_player(data.validated_data["username"]).pk,
        )
        return Response({"result": result}, status=status.HTTP_201_CREATED)


class FriendRequestAnswerView(APIView):
    """Answer a friend request: ``accept`` or ``decline`` one made to you,
    ``cancel`` your own. 404 when there is no such request."""

    permission_classes = [IsAuthenticated]
    answer = ""

    def post(self, request: Request, username: str) -> Response:
        me, other = signed_in_id(request), _player(username).pk
        if self.answer == "accept":
            services.friend_request_accept(receiver_id=me, sender_id=other)
        elif self.answer == "decline":
            services.friend_request_decline(receiver_id=me, sender_id=other)
        else:
            services.friend_request_cancel(sender_id=me, receiver_id=other)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _answer_view(answer: str, summary: str, refusals: list[str]):
    responses: dict[int, Any] = {
        204: None,
        404: OpenApiResponse(
            ErrorSerializer, description="No such player, or no such request."
        ),
    }
    if refusals:
        responses[409] = refusal_serializer("FriendAcceptRefusal", refusals)
    post = extend_schema(request=None, responses=responses)(
        FriendRequestAnswerView.post
    )
    view = cast(
        type[FriendRequestAnswerView],
        type(
            f"FriendRequest{answer.title()}View",
            (FriendRequestAnswerView,),
            {"answer": answer, "__doc__": summary, "post": post},
        ),
    )
    return view.as_view()


class BlockListView(APIView):
    """The players you block; POST blocks one.

    Blocking ends your friendship and the friend requests between you, and
    withdraws the invitations between you; a blocked player sends you no
    chat, no invitation and no friend request, and is not told. Blocking
    twice keeps the first. 409 ``yourself``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: BlockSerializer(many=True)})
    def get(self, request: Request) -> Response:
        blocks = [
            {
                "username": block.blocked.get_username(),
                "name": display_name(block.blocked),
                "created_at": block.created_at,
            }
            for block in selectors.blocked_players(signed_in_id(request))
        ]
        return Response(BlockSerializer(blocks, many=True).data)

    @extend_schema(
        request=UsernameSerializer,
        responses={
            201: None,
            400: INVALID,
            404: NOT_FOUND,
            409: refusal_serializer("BlockRefusal", ["yourself"]),
        },
    )
    def post(self, request: Request) -> Response:
        data = UsernameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.block_create(
            blocker_id=signed_in_id(request),
            blocked_id=_player(data.validated_data["username"]).pk,
        )
        return Response(status=status.HTTP_201_CREATED)


class BlockDeleteView(APIView):
    """Lift a block (lifting one that is not there does nothing)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, 404: NOT_FOUND})
    def delete(self, request: Request, username: str) -> Response:
        services.block_delete(
            blocker_id=signed_in_id(request), blocked_id=_player(username).pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _invitations(user_id: int, now) -> dict:
    return {
        "received": [
            selectors.invitation_json(i)
            for i in selectors.invitations_received(user_id, now=now)
        ],
        "sent": [
            selectors.invitation_json(i)
            for i in selectors.invitations_sent(user_id, now=now)
        ],
    }


class InvitationListView(APIView):
    """The invitations to you and from you still open; POST invites a friend
    to a free seat of the table you sit at, waiting for players.

    An invitation is open for two minutes, until answered, or until the
    table has no free seat. Refused with 409 for yourself, a player blocked
    either way (``blocked``), one who is not your friend, a table you have
    no seat at, one without a free seat, a friend seated there already or
    invited there already; 429 past six invitations a minute."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: InvitationsSerializer})
    def get(self, request: Request) -> Response:
        data = _invitations(signed_in_id(request), timezone.now())
        return Response(InvitationsSerializer(data).data)

    @extend_schema(
        request=InvitationCreateSerializer,
        responses={
            201: InvitationSerializer,
            400: INVALID,
            404: OpenApiResponse(
                ErrorSerializer, description="No such player or table."
            ),
            409: refusal_serializer(
                "InvitationRefusal",
                [
                    "yourself",
                    "blocked",
                    "not_friends",
                    "not_seated",
                    "no_free_seat",
                    "already_seated",
                    "invited_already",
                ],
            ),
            429: refusal_serializer("InvitationFlood", ["too_many_invitations"]),
        },
    )
    def post(self, request: Request) -> Response:
        data = InvitationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invitation_create(
            inviter_id=signed_in_id(request),
            invitee_id=_player(data.validated_data["username"]).pk,
            table_id=data.validated_data["table"],
        )
        return Response(
            InvitationSerializer(selectors.invitation_json(invitation)).data,
            status=status.HTTP_201_CREATED,
        )


class InvitationAcceptView(APIView):
    """Accept an invitation: you take a free seat at its table, with every
    check a seat makes (a seat at another ranked table, the stake, the
    rating a stake needs: refused with their codes, the invitation staying
    open). 409 ``invitation_over`` when it was answered, expired, or its
    seats are taken."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: AcceptedSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such invitation."),
            409: refusal_serializer(
                "InvitationAcceptRefusal",
                ["invitation_over", "ranked_elsewhere", "few_coins", "rating_needed"],
            ),
        },
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = services.invitation_accept(
            invitee=request.user, invitation_id=invitation_id
        )
        url = selectors.invitation_json(invitation)["url"]
        return Response({"table": invitation.table_id, "url": url})


class InvitationDeclineView(APIView):
    """Decline an invitation; its sender is told. 409 ``invitation_over``
    when it is no longer open."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            204: None,
            404: OpenApiResponse(ErrorSerializer, description="No such invitation."),
            409: refusal_serializer("InvitationDeclineRefusal", ["invitation_over"]),
        },
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        services.invitation_decline(
            invitee_id=signed_in_id(request), invitation_id=invitation_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("friends/", FriendListView.as_view(), name="friend-list"),
    path(
        "friends/requests/", FriendRequestListView.as_view(), name="friend-request-list"
    ),
    path(
        "friends/requests/<str:username>/accept/",
        _answer_view("accept", "Accept a friend request made to you.", ["blocked"]),
        name="friend-request-accept",
    ),
    path(
        "friends/requests/<str:username>/decline/",
        _answer_view("decline", "Decline a friend request made to you.", []),
        name="friend-request-decline",
    ),
    path(
        "friends/requests/<str:username>/cancel/",
        _answer_view("cancel", "Take back your friend request.", []),
        name="friend-request-cancel",
    ),
    path("friends/<str:username>/", FriendDeleteView.as_view(), name="friend-delete"),
    path("blocks/", BlockListView.as_view(), name="block-list"),
    path("blocks/<str:username>/", BlockDeleteView.as_view(), name="block-delete"),
    path("invitations/", InvitationListView.as_view(), name="invitation-list"),
    path(
        "invitations/<int:invitation_id>/accept/",
        InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        InvitationDeclineView.as_view(),
        name="invitation-decline",
    ),
]
