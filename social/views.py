"""The friends page and the forms of the social buttons (the friends page,
a player's page, a waiting table). Each form answers with a message and
goes back to the page it was on (``next``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.selectors import display_name
from common.errors import ApplicationError, refusal_message
from common.signed_in import signed_in_id
from games.views.lobby import SEAT_REFUSALS
from ratings.elo import PROVISIONAL_GAMES
from social import selectors, services
from social.errors import (
    FRIEND_REQUESTS_A_PAIR_PER_DAY,
    FRIEND_REQUESTS_PER_HOUR,
    INVITATIONS_PER_MINUTE,
)

# Why a social request was refused, in the player's language.
REFUSALS = {
    **SEAT_REFUSALS,
    "not_found": gettext_lazy("There is no such player, request or invitation."),
    "blocked": gettext_lazy(
        "Not possible: one of you has blocked the other. Blocked players "
        "exchange no friend requests and no invitations."
    ),
    "yourself": gettext_lazy("That is you."),
    "already_friends": gettext_lazy("You are friends already."),
    "already_requested": gettext_lazy("Your friend request is waiting for an answer."),
    "not_friends": gettext_lazy("Only friends can be invited."),
    "not_seated": gettext_lazy("Take a seat at the table to invite to it."),
    "no_free_seat": gettext_lazy("The table has no free seat."),
    "already_seated": gettext_lazy("Your friend is seated at this table already."),
    "invited_already": gettext_lazy("Your friend has an invitation to this table."),
    "invitation_over": gettext_lazy(
        "The invitation is over: answered, expired, or its seats are taken."
    ),
    "too_many_invitations": gettext_lazy(
        "At most %(per_minute)s invitations a minute: wait a little."
    ),
    "too_many_friend_requests": gettext_lazy(
        "Too many friend requests: at most %(per_hour)s an hour, and "
        "%(per_pair)s to one player a day. Try again later."
    ),
}


def refusal(error: ApplicationError, stake: int | None = None) -> str:
    return refusal_message(
        error,
        REFUSALS,
        stake=stake,
        games=PROVISIONAL_GAMES,
        per_minute=INVITATIONS_PER_MINUTE,
        per_hour=FRIEND_REQUESTS_PER_HOUR,
        per_pair=FRIEND_REQUESTS_A_PAIR_PER_DAY,
    )


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the form was on (``next``), or the friends page."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("social:friends")


def _done(request: HttpRequest, write, success: str) -> HttpResponse:
    """Run a service's write; say how it went and go back."""
    try:
        write()
    except ApplicationError as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, success)
    return _back(request)


def _name_of(user_id: int) -> str:
    user = selectors.player(user_id)
    return display_name(user) if user is not None else ""


@login_required
@never_cache
@require_GET
def friends(request: HttpRequest) -> HttpResponse:
    user_id = signed_in_id(request)
    now = timezone.now()
    return render(
        request,
        "social/friends.html",
        {
            "friends": selectors.friends_with_presence(user_id),
            "received": selectors.requests_received(user_id),
            "sent": selectors.requests_sent(user_id),
            "blocked": selectors.blocked_players(user_id),
            "invitations": selectors.invitations_received(user_id, now=now),
        },
    )


@login_required
@require_POST
def friend_request_create(request: HttpRequest) -> HttpResponse:
    username = request.POST.get("username", "").strip()
    other = selectors.player_by_username(username)
    if other is None:
        unknown = _("There is no player called %(name)s.") % {"name": username}
        messages.error(request, unknown)
        return _back(request)
    try:
        result = services.friend_request_create(
            sender_id=signed_in_id(request), receiver_id=other.pk
        )
    except ApplicationError as error:
        messages.error(request, refusal(error))
    else:
        name = display_name(other)
        if result == "friends":
            messages.success(
                request, _("You and %(name)s are friends.") % {"name": name}
            )
        else:
            messages.success(
                request, _("Friend request sent to %(name)s.") % {"name": name}
            )
    return _back(request)


@login_required
@require_POST
def friend_request_answer(request: HttpRequest, user_id, answer: str) -> HttpResponse:
    user_id = int(user_id)
    me, name = signed_in_id(request), _name_of(user_id)
    writes = {
        "accept": (
            lambda: services.friend_request_accept(receiver_id=me, sender_id=user_id),
            _("You and %(name)s are friends.") % {"name": name},
        ),
        "decline": (
            lambda: services.friend_request_decline(receiver_id=me, sender_id=user_id),
            _("You declined %(name)s's friend request.") % {"name": name},
        ),
        "cancel": (
            lambda: services.friend_request_cancel(sender_id=me, receiver_id=user_id),
            _("You took back your friend request to %(name)s.") % {"name": name},
        ),
    }
    write, success = writes[answer]
    return _done(request, write, success)


def _ending_form(end, success):
    """The form that ends the viewer's tie to the player in the address:
    ``end(me, them)`` is the service, ``success`` the message (naming them)."""

    @login_required
    @require_POST
    def view(request: HttpRequest, user_id: int) -> HttpResponse:
        return _done(
            request,
            lambda: end(signed_in_id(request), user_id),
            success % {"name": _name_of(user_id)},
        )

    return view


friendship_delete = _ending_form(
    lambda me, them: services.friendship_delete(user_id=me, friend_id=them),
    gettext_lazy("You and %(name)s are no longer friends."),
)
block_delete = _ending_form(
    lambda me, them: services.block_delete(blocker_id=me, blocked_id=them),
    gettext_lazy("You lifted the block on %(name)s."),
)


@login_required
@require_POST
def block_create(request: HttpRequest, user_id: int) -> HttpResponse:
    if selectors.player(user_id) is None:
        messages.error(request, str(REFUSALS["not_found"]))
        return _back(request)
    return _done(
        request,
        lambda: services.block_create(
            blocker_id=signed_in_id(request), blocked_id=user_id
        ),
        _("You blocked %(name)s.") % {"name": _name_of(user_id)},
    )


@login_required
@require_POST
def invitation_create(request: HttpRequest) -> HttpResponse:
    try:
        table_id, friend_id = int(request.POST["table"]), int(request.POST["friend"])
    except (KeyError, ValueError):
        messages.error(request, _("Choose a friend to invite."))
        return _back(request)
    return _done(
        request,
        lambda: services.invitation_create(
            inviter_id=signed_in_id(request), invitee_id=friend_id, table_id=table_id
        ),
        _("%(name)s is invited: they have two minutes to answer.")
        % {"name": _name_of(friend_id)},
    )


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id, answer: str) -> HttpResponse:
    """Accept (and go to the table) or decline, from the friends page."""
    invitation_id = int(invitation_id)
    try:
        if answer == "accept":
            invitation = services.invitation_accept(
                invitee=request.user, invitation_id=invitation_id
            )
            return redirect("games:table", table_id=invitation.table_id)
        services.invitation_decline(
            invitee_id=signed_in_id(request), invitation_id=invitation_id
        )
    except ApplicationError as error:
        messages.error(
            request, refusal(error, selectors.invitation_stake(invitation_id))
        )
    else:
        messages.info(request, _("You declined the invitation."))
    return _back(request)
