"""A game and its append-only records: the deals dealt and the numbered
steps played, from which its state is read back."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import statuses
from games.models.tables import Table
from joker import apply
from joker.actions import Deal, action_from_json
from joker.codec import state_from_json


class Game(models.Model):
    """The game played at a table: a snapshot of the engine state, and its
    version.

    ``version`` counts the events applied so far. ``state`` is the state as
    of ``state_version``, saved when a deal or the game ends (and now and
    then): the state now is that snapshot with the later events applied
    (``engine_state``). While the game is live, one process owns it and
    writes its events (``games.live``). An operator may annul a game
    (``games.services.annul``): it then counts for nothing, neither in
    ratings nor in Domino Coin.
    """

    class Status(models.TextChoices):
        PLAYING = statuses.PLAYING, _("Playing")
        FINISHED = statuses.FINISHED, _("Finished")
        ABORTED = statuses.ABORTED, _("Aborted")
        ANNULLED = statuses.ANNULLED, _("Annulled")

    # Hold hidden cards: no admin page filters, searches or sorts by them
    # (config.admin), and a game's page shows them only once it is over.
    SECRET_FIELDS = ("state",)

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=Status.choices,
        default=Status.PLAYING,
        db_index=True,
    )
    first_dealer = models.PositiveSmallIntegerField()
    state = models.JSONField()
    state_version = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(_("version"), default=0)
    # When the seat to move runs out of time (None while a bot is to move).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    cards_played = models.PositiveIntegerField(_("cards played"), default=0)
    # The SHA-256 commitment of every deal so far, in order: shown with every
    # snapshot, so it is kept here rather than read from the deal records on
    # every move.
    commitments = models.JSONField(default=list, blank=True)
    # Each seat's timeouts in a row at the end of its moves so far (too many
    # lose the seat): kept with every step, as cards_played is, so that
    # reading a game back never walks its events.
    timeouts_in_a_row = models.JSONField(default=list, blank=True)
    # Each seat a person has been shown (its hand sent to one of their
    # sockets), by seat number: null while the seat was present when last
    # written, or the time its disconnect grace runs out while it is away.
    # A seat never shown is absent. Written by the game's owner as presence
    # changes, so that a process taking the game over knows who was here,
    # who is away and until when (``games.live.owner``).
    presence = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    annulled_at = models.DateTimeField(null=True, blank=True)
    annulled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        permissions = [
            ("annul_game", "Can annul games"),
            # For investigations only; every use is written to HandsRead.
            ("view_live_hands", "Can see the hands of games being played"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    def engine_state(self):
        """The state at ``version``: the snapshot, and the events after it."""
        state = state_from_json(self.state)
        if self.version == self.state_version:
            return state
        later = list(
            GameEvent.objects.filter(game_id=self.pk, version__gt=self.state_version)
            .order_by("version")
            .values_list("kind", "action")
        )
        return replay_events(self.pk, state, later)

    @property
    def escrow_ref(self) -> str:
        """The ledger's reference of the game's Domino Coin escrow."""
        return f"game:{self.pk}"


class DealRecord(models.Model):
    """The cards of one deal, and the commitment published when it began.

    Secret until the game is over: only then are the cards and the salt shown,
    so that anyone can check the commitment.
    """

    # As Game.SECRET_FIELDS; the commitment is public from the deal's start.
    SECRET_FIELDS = ("hands", "columns", "salt")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="deal_records"
    )
    index = models.PositiveSmallIntegerField()
    hands = models.JSONField()
    turned = models.CharField(max_length=2, blank=True, default="")
    columns = models.JSONField(default=list, blank=True)
    salt = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("deal record")
        verbose_name_plural = _("deal records")
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="deal_index"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id}, deal {self.index + 1}"


class GameEvent(models.Model):
    """One numbered step of a game: a deal or a seat's action. Append-only."""

    class Kind(models.TextChoices):
        DEAL = "deal", _("Deal")
        ACTION = "action", _("Action")
        ABORT = "abort", _("Abort")

    class Cause(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        TIMEOUT = "timeout", _("Timeout")
        DISCONNECT = "disconnect", _("Disconnect")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    cause = models.CharField(max_length=16, choices=Cause.choices, default=Cause.PLAYER)
    # The record form of the action (RECORD.md); a deal's index for deals.
    action = models.JSONField(null=True, blank=True)
    # What everyone may know about the step (joker.events).
    public = models.JSONField(default=list)
    # The player's own id for the action (docs/protocol.md): a resend with
    # the same id is answered from this row and applied at most once.
    client_id = models.CharField(max_length=64, blank=True, default="")
    # How long a practice bot thought about this move.
    thinking_ms = models.PositiveIntegerField(null=True, blank=True)
    # The thinking budget the bot was given for it, and whether that was
    # less than its level's because the bot processes were busy
    # (games.live.thinking).
    budget_ms = models.PositiveIntegerField(
        _("thinking budget (ms)"), null=True, blank=True
    )
    cut_short = models.BooleanField(_("thinking cut short"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "version"]
        constraints = [
            # The fence of ownership: of two processes writing the same
            # step, one fails here and learns that it does not own the game.
            models.UniqueConstraint(fields=["game", "version"], name="event_version"),
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"],
                condition=~models.Q(client_id=""),
                name="one_event_per_action_id",
            ),
        ]
        indexes = [
            # The bot moves of the last minutes, for the share cut short.
            models.Index(
                fields=["created_at"],
                condition=models.Q(budget_ms__isnull=False),
                name="bot_move_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} v{self.version}: {self.kind}"


def replay_events(game_id: int, state, events: list[tuple[str, dict]]):
    """``state`` with the game's ``events`` (kind, action) applied in order."""
    deals = {}
    if any(kind == GameEvent.Kind.DEAL for kind, _ in events):
        deals = {
            record.index: deal_of(record)
            for record in DealRecord.objects.filter(game_id=game_id)
        }
    for kind, action in events:
        if kind == GameEvent.Kind.DEAL:
            state = apply(state, deals[action["deal"]])
        elif kind == GameEvent.Kind.ACTION:
            state = apply(state, action_from_json(action))
    return state


def deal_of(record: DealRecord):
    """A stored deal as the engine's ``Deal``."""
    return Deal(
        tuple(tuple(hand) for hand in record.hands),
        record.turned or None,
        tuple(tuple(tuple(column) for column in own) for own in record.columns),
    )
