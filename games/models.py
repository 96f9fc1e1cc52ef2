"""Tables, seats, games and their append-only event records."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.selectors import display_name
from games.settlement import DEFAULT_POINTS_PER_COIN, POINTS_PER_COIN_CHOICES
from joker import apply, make_rules
from joker.actions import Deal, action_from_json
from joker.codec import state_from_json
from joker.rules import PROFILE_NAMES

PROFILE_CHOICES = list(PROFILE_NAMES.items())


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    """A place to play one game: a rule profile, its options, the timer."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Settlement(models.TextChoices):
        POT = "pot", _("The winners take the pot")
        SCORE = "score", _("By score")

    profile = models.CharField(max_length=32, choices=PROFILE_CHOICES)
    options = models.JSONField(default=dict, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    is_private = models.BooleanField(default=False)
    # A ranked table plays a category's standard rules between people; its
    # games move ratings. ``stake`` Domino Coin per seat go into escrow when
    # the game starts (0: no stake).
    ranked = models.BooleanField(default=False)
    stake = models.PositiveIntegerField(default=0)
    # How a staked game's escrow is paid out: all of it to the winners, or by
    # score (``games.settlement``), one coin per ``points_per_coin`` points
    # between each pair of players, the stake being each player's deposit.
    settlement = models.CharField(
        max_length=8, choices=Settlement.choices, default=Settlement.POT
    )
    points_per_coin = models.PositiveIntegerField(
        choices=[(rate, str(rate)) for rate in POINTS_PER_COIN_CHOICES],
        default=DEFAULT_POINTS_PER_COIN,
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    # After this many timed-out moves in a row a person forfeits the seat (a
    # bot plays on; in Japanese Joker the game is lost); 0: never. Tournament
    # tables set it, so a player who never shows up cannot stall a round.
    forfeit_after_timeouts = models.PositiveSmallIntegerField(default=0)
    # Seated by the site (a tournament round), not by the players: nobody
    # may call its game off.
    managed = models.BooleanField(default=False)
    # A ranked table with practice bots at it whose game is rated all the
    # same (quick play's ranked option): each bot counts as an opponent of
    # its level's fixed rating (docs/ratings.md, "Bot seats").
    rated_with_bots = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(settlement="pot")
                | models.Q(ranked=True, stake__gt=0),
                name="score_settlement_needs_a_stake",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.profile})"

    @property
    def settled_by_score(self) -> bool:
        return self.settlement == self.Settlement.SCORE

    @property
    def rules(self):
        return make_rules(self.profile, self.options)

    @property
    def players(self) -> int:
        return 2 if self.profile == "japanese" else 4


class Seat(models.Model):
    """One seat of a table, held by a person or a bot.

    A person who leaves a game in progress (or stays away past the grace
    period) keeps the seat with ``left`` set; a bot then plays it.
    """

    class Bot(models.TextChoices):
        NONE = "", _("Person")
        # The practice bots' levels (games.live.thinking.LEVELS).
        EASY = "easy", _("Easy bot")
        PRACTICE = "practice", _("Practice bot")
        STRONG = "strong", _("Strong bot")
        AUTOPILOT = "autopilot", _("Autopilot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, choices=Bot.choices, blank=True, default="")
    left = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def played_by_bot(self) -> bool:
        return bool(self.bot) or self.left

    @property
    def display_name(self) -> str:
        if self.bot:
            return f"{Seat.Bot(self.bot).label} {self.number + 1}"
        if self.user_id is None:
            return ""
        # Reads of a whole table's seats fetch the names with them.
        shown = getattr(self, "shown_name", None)
        if shown is not None:
            return shown
        return display_name(self.user)


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
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        ANNULLED = "annulled", _("Annulled")

    # Hold hidden cards: no admin page filters, searches or sorts by them
    # (config.admin), and a game's page shows them only once it is over.
    SECRET_FIELDS = ("state",)

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    first_dealer = models.PositiveSmallIntegerField()
    state = models.JSONField()
    state_version = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    # When the seat to move runs out of time (None while a bot is to move).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    cards_played = models.PositiveIntegerField(default=0)
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


class Rematch(models.Model):
    """The players' offer to play a finished game again at a new table.

    One row per game: ``agreed`` lists the seats whose person said yes (bots
    agree at once). When every person of the game has agreed, the new table
    is made (``table``) and the offer is over; it lapses when a player
    declines or leaves the page, when someone may no longer take their seat,
    or at ``expires_at``. A lapsed offer may be made again; a made one never
    (``games.services.rematch``).
    """

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        MADE = "made", _("Made")
        LAPSED = "lapsed", _("Lapsed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    agreed = models.JSONField(default=list, blank=True)
    # Why it lapsed: "declined", "left", "expired" or a seat's refusal code
    # ("few_coins", ...), and the seat it came from (None for "expired").
    reason = models.CharField(max_length=32, blank=True, default="")
    reason_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    expires_at = models.DateTimeField()
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state="made", table__isnull=False)
                | ~models.Q(state="made"),
                name="a_made_rematch_has_a_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id} ({self.state})"


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
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
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

    def __str__(self) -> str:
        return f"Game {self.game_id} v{self.version}: {self.kind}"


class HandsRead(models.Model):
    """The audit log of the one way anyone sees a game's hidden cards while
    it is played: an operator with ``games.view_live_hands`` opening its
    state or a deal's record in the admin. Append-only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # What was opened: "game" or "deal <n>".
    what = models.CharField(max_length=32)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("live hands read")
        verbose_name_plural = _("live hands read")

    def __str__(self) -> str:
        return f"{self.by} read {self.what} of game {self.game_id}"


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
