"""What players decide about each other."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Block(models.Model):
    """``blocker`` wants nothing from ``blocked``: no chat from them, no
    invitations, no friend requests. The blocked player is not told."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks",
        verbose_name=_("blocker"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("blocked"),
    )
    created_at = models.DateTimeField(_("blocked at"))

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["blocker", "blocked"], name="one_block_a_pair"
            ),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")),
                name="no_blocking_oneself",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Asking(models.Model):
    """``sender`` asking ``receiver`` to be friends, at ``created_at``: the
    shape of a request still open (``FriendRequest``) and of the record of
    each one made (``FriendRequestSent``)."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("sender"),
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("receiver"),
    )
    created_at = models.DateTimeField(_("asked at"))

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]


class FriendRequest(Asking):
    """``sender`` asks ``receiver`` to be friends; the row lives until the
    receiver answers (accepted: a ``Friendship``; declined: gone) or the
    sender takes it back."""

    class Meta(Asking.Meta):
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "receiver"], name="one_request_a_pair"
            ),
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("receiver")),
                name="no_request_to_oneself",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} asks {self.receiver_id}"


class Friendship(models.Model):
    """Two players who are friends: one row a pair, the lower id first, so
    that a pair cannot be friends twice over."""

    low = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("first player"),
    )
    high = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("second player"),
    )
    created_at = models.DateTimeField(_("friends since"))

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["low", "high"], name="one_friendship_a_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(low__lt=models.F("high")),
                name="friendship_lower_id_first",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} and {self.high_id}"


class Invitation(models.Model):
    """``inviter``, seated at a table waiting for players, asks ``invitee``
    (a friend) to take one of its free seats. Pending until answered, or
    over at ``expires_at`` or once the table has no free seat left."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXPIRED = "expired", _("Expired")

    table = models.ForeignKey(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("table"),
    )
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("inviter"),
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("invitee"),
    )
    status = models.CharField(
        max_length=16,
        choices=Status.choices,
        default=Status.PENDING,
        verbose_name=_("status"),
    )
    created_at = models.DateTimeField(_("invited at"))
    expires_at = models.DateTimeField(_("expires at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["inviter", "created_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "invitee"],
                condition=models.Q(status="pending"),
                name="one_pending_invitation_a_seat_and_friend",
            ),
            models.CheckConstraint(
                condition=~models.Q(inviter=models.F("invitee")),
                name="no_invitation_to_oneself",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.inviter_id} invites {self.invitee_id} to {self.table_id}"


class FriendRequestSent(Asking):
    """One friend request made, kept after it is answered or taken back, so
    that asking and taking back again and again is counted
    (``social.errors.FRIEND_REQUESTS_PER_HOUR`` and ``_A_PAIR_PER_DAY``).
    A sender's rows older than a day are deleted as they make the next."""

    class Meta(Asking.Meta):
        verbose_name = _("friend request made")
        verbose_name_plural = _("friend requests made")
        indexes = [models.Index(fields=["sender", "created_at"])]

    def __str__(self) -> str:
        return f"{self.sender_id} asked {self.receiver_id}"
