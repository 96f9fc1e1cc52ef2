"""Banning players: an operator closes a player's account for good.

A ban turns the account inactive, which Django's login, sessions and API
tokens refuse, and records who banned whom and why (``Ban``). Deactivating
the account closes every socket the player has open once it commits
(``accounts.sockets``). Other apps clear up after the player on
``player_banned``, sent inside the ban's transaction while the player's row
is locked: the games free the player's seats at tables still waiting for
players. A game in progress goes on without the player: the closed socket
starts the disconnect grace period, after which the player forfeits.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.template.defaultfilters import date as format_date
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Ban
from common.errors import NotAllowed

# A player was banned just now. Arguments: ``user`` (locked in the ban's
# transaction, not yet committed). Receivers write in that transaction, so
# the ban and their clearing up commit together or not at all.
player_banned = Signal()


def user_ban(*, user, by, reason: str, now=None) -> Ban:
    """Ban ``user`` on behalf of the operator ``by`` for ``reason``.

    Locks the user's row. Banning a player who is banned already records
    nothing new and returns the existing ban. Raises ``ValueError`` without
    an operator or a reason, and ``NotAllowed`` for banning oneself.
    """
    if by is None:
        raise ValueError("a ban records the operator who made it")
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("a ban needs a reason")
    if by.pk == user.pk:
        raise NotAllowed("operators cannot ban themselves")
    now = now or timezone.now()
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        earlier = Ban.objects.filter(user=locked).first()
        if not locked.is_active and earlier is not None:
            ban = earlier
        else:
            locked.is_active = False
            locked.save(update_fields=["is_active"])
            ban = Ban.objects.create(user=locked, by=by, reason=reason, created_at=now)
            player_banned.send(sender=Ban, user=locked)
    user.is_active = False
    return ban


def closed_account_error(user) -> ValidationError:
    """What the login page tells the owner of an inactive account, once they
    have given its password: the ban, since when and why, if there is one.
    Bans have no end; an account an operator closed without a ban is only
    said to be closed."""
    ban = Ban.objects.filter(user=user).first()
    if ban is None:
        return ValidationError(_("This account is closed."), code="inactive")
    return ValidationError(
        _(
            "This account is banned for good, since %(date)s. "
            "The reason given: %(reason)s"
        ),
        code="banned",
        params={
            "date": format_date(timezone.localtime(ban.created_at), "DATE_FORMAT"),
            "reason": ban.reason,
        },
    )
