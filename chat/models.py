"""Chat messages, who muted whom, and the reports operators read."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from chat.phrases import PHRASES


class Message(models.Model):
    """One line said in a room: free text or a quick phrase's key, never
    both. A table's two rooms are the table's, from the moment it opens:
    what its players said while it waited for the last seats is the start
    of its game's chat. Kept for the replay; append-only."""

    class Room(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    room = models.CharField(_("room"), max_length=16, choices=Room.choices)
    # Null in the lobby; a table's rooms belong to the table.
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("table"),
    )
    # The table's game when it was said: null in the lobby, and at a table
    # still waiting for its players.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("game"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("author"),
    )
    # As delivered: control characters stripped, filtered words masked.
    text = models.CharField(_("text"), max_length=300, blank=True)
    phrase = models.CharField(
        _("quick phrase"),
        max_length=16,
        blank=True,
        choices=[(key, label) for key, label in PHRASES.items()],
    )
    # The word filter masked something: an offence (chat.limits).
    filtered = models.BooleanField(_("filtered"), default=False)
    created_at = models.DateTimeField(_("said at"))

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["table", "room", "created_at"]),
            models.Index(fields=["room", "created_at"]),
            models.Index(fields=["author", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(text="") & ~models.Q(phrase=""))
                | (~models.Q(text="") & models.Q(phrase="")),
                name="chat_text_or_phrase",
            ),
            models.CheckConstraint(
                condition=models.Q(room="lobby", table__isnull=True, game__isnull=True)
                | (~models.Q(room="lobby") & models.Q(table__isnull=False)),
                name="chat_lobby_has_no_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author_id} in {self.room}: {self.shown}"

    @property
    def shown(self) -> str:
        """The text, or the quick phrase in the reader's language."""
        return self.text or str(PHRASES.get(self.phrase, self.phrase))


class PersonalMute(models.Model):
    """``user`` does not want to read ``muted``: kept on the server, so it
    holds on every device, history included. ``muted`` is not told."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        verbose_name=_("user"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("muted player"),
    )
    created_at = models.DateTimeField(_("muted at"))

    class Meta:
        verbose_name = _("personal mute")
        verbose_name_plural = _("personal mutes")
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="one_mute_a_pair"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("muted")),
                name="no_muting_oneself",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatMute(models.Model):
    """An operator's (or the word filter's) silence on ``user`` until
    ``until``: every message they send meanwhile is refused."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    until = models.DateTimeField(_("muted until"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    # Null when the word filter muted the player by itself.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("muted by"),
    )
    created_at = models.DateTimeField(_("muted at"))

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"{self.user_id} muted until {self.until:%Y-%m-%d %H:%M}"


class Report(models.Model):
    """A player's report of a message, with the conversation around it as it
    stood when reported (the snapshot holds even if later messages come)."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported by"),
    )
    message = models.ForeignKey(
        Message,
        on_delete=models.CASCADE,
        related_name="reports",
        verbose_name=_("message"),
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    # [{"id", "author", "author_id", "text", "phrase", "at"}], oldest first.
    conversation = models.JSONField(_("conversation"), default=list)
    created_at = models.DateTimeField(_("reported at"))
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "message"], name="one_report_a_message"
            )
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"
