"""Creating tables, taking and leaving seats, and starting the game."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import farming
from common.errors import ApplicationError, NotAllowed, NotFound
from games import stakes
from games.live.local import owner_of
from games.models import Game, Seat, Table
from games.settlement import DEFAULT_POINTS_PER_COIN
from joker import BadRecord, make_rules, new_game
from joker.codec import state_to_json
from joker.shuffle import draw_first_dealer

from . import notify

TURN_SECONDS_CHOICES = (10, 15, 20, 30, 45, 60, 90, 120)


def table_create(
    *,
    user,
    profile: str,
    options: dict | None = None,
    turn_seconds: int = 30,
    is_private: bool = False,
    take_seat: bool = True,
    ranked: bool = False,
    stake: int = 0,
    settlement: str = Table.Settlement.POT,
    points_per_coin: int = DEFAULT_POINTS_PER_COIN,
) -> Table:
    """Open a table; the creator takes seat 0 unless ``take_seat`` is off.

    A ranked table must play a rating category's standard rules; its stake
    (Domino Coin per seat, 0 for none) is escrowed when the game starts.
    ``settlement`` says how the escrow is paid out at the end: all of it to
    the winners ("pot"), or by score ("score", ranked tables with a stake
    only), one coin per ``points_per_coin`` points between each pair of
    players (``games.settlement``).
    """
    try:
        rules = make_rules(profile, options)
    except BadRecord as error:
        raise ApplicationError(str(error), code="bad_options") from error
    if type(turn_seconds) is not int or not 1 <= turn_seconds <= 600:
        raise ApplicationError("the turn timer is a whole number of seconds")
    if turn_seconds not in TURN_SECONDS_CHOICES and not settings.PULKA_ANY_TURN_SECONDS:
        raise ApplicationError(f"the turn timer cannot be {turn_seconds} seconds")
    stakes.check_ranked_options(
        profile=profile,
        options=dict(rules.options),
        ranked=ranked,
        stake=stake,
        settlement=settlement,
        points_per_coin=points_per_coin,
    )
    with transaction.atomic():
        table = Table.objects.create(
            profile=profile,
            options=dict(rules.options),
            turn_seconds=turn_seconds,
            is_private=is_private,
            ranked=ranked,
            stake=stake,
            settlement=settlement,
            points_per_coin=points_per_coin,
            created_by=user,
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=n) for n in range(rules.players)
        )
        if take_seat:
            stakes.check_may_sit(table, user)
            Seat.objects.filter(table=table, number=0).update(user=user)
        transaction.on_commit(notify.lobby_changed)
    return table


def table_create_seated(
    *,
    profile: str,
    options: dict,
    turn_seconds: int,
    players: list,
    created_by,
    forfeit_after_timeouts: int = 0,
    ranked: bool = False,
    managed: bool = True,
    bot: str = Seat.Bot.PRACTICE,
    rated_with_bots: bool = False,
    now=None,
) -> Table:
    """Open a table with every seat taken and start its game at once (a
    tournament round, or quick play with bots): ``players`` holds a user, or
    None for a practice bot of level ``bot``, per seat. A ``ranked`` table's
    game is rated when it ends (if its rules are a category's and nobody at
    it is a bot, or ``rated_with_bots``: its bots count at their level's
    fixed rating), as at any ranked table; it carries no stake. A
    ``managed`` table's game nobody may call off. Call it inside the
    caller's transaction, which has checked each player's seat."""
    if rated_with_bots and not ranked:
        raise ApplicationError("only a ranked table is rated with bots")
    rules = make_rules(profile, options)
    if len(players) != rules.players:
        raise ApplicationError(f"{profile} is played by {rules.players}")
    if type(turn_seconds) is not int or not 1 <= turn_seconds <= 600:
        raise ApplicationError("the turn timer is a whole number of seconds")
    with transaction.atomic():
        table = Table.objects.create(
            profile=profile,
            options=dict(rules.options),
            turn_seconds=turn_seconds,
            created_by=created_by,
            forfeit_after_timeouts=forfeit_after_timeouts,
            managed=managed,
            ranked=ranked,
            rated_with_bots=rated_with_bots,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                number=number,
                user=player,
                bot="" if player is not None else bot,
            )
            for number, player in enumerate(players)
        )
        _start_if_full(table, now or timezone.now())
    return table


def _open_table(table_id: int) -> Table:
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist as error:
        raise NotFound(f"there is no table {table_id}") from error
    if table.status != Table.Status.OPEN:
        raise NotAllowed("the game at this table has already begun")
    return table


def _free_seat(table: Table, number: int) -> Seat:
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise NotFound(f"there is no seat {number} at this table")
    if not seat.is_empty:
        raise NotAllowed(f"seat {number + 1} is taken")
    return seat


def seat_take(
    *, table_id: int, user, number: int, invite_code: str | None = None, now=None
) -> Seat:
    """Sit ``user`` at a free seat (moving from another seat of the table).

    A private table is joined with its invite code; its creator and its
    players may move between its seats without one.

    Locking: the player's row, then the table's (the order a ban takes them
    in, ``accounts.bans.user_ban``); the player's lock makes their seats at two
    ranked tables, asked for at once, one after the other
    (``stakes.check_may_sit``).
    """
    with transaction.atomic():
        stakes.lock_player(user)
        table = _open_table(table_id)
        if table.is_private and not (
            table.created_by_id == user.pk
            or Seat.objects.filter(table=table, user=user).exists()
            or invite_code == table.invite_code
        ):
            raise NotAllowed("this table is private: join it with its invite link")
        seat = _free_seat(table, number)
        stakes.check_may_sit(table, user)
        Seat.objects.filter(table=table, user=user).update(user=None)
        seat.user = user
        seat.save(update_fields=["user"])
        _start_if_full(table, now or timezone.now())
        transaction.on_commit(notify.lobby_changed)
    return seat


def seat_add_bot(*, table_id: int, user, number: int, bot: str = "practice") -> Seat:
    """Seat a bot; only a player seated at the table (or its creator) may."""
    if bot not in Seat.Bot.values or bot == Seat.Bot.NONE:
        raise ApplicationError(f"there is no bot {bot!r}")
    with transaction.atomic():
        table = _open_table(table_id)
        if table.ranked:
            raise NotAllowed(
                "ranked tables are played by people only", code="ranked_no_bots"
            )
        seated = Seat.objects.filter(table=table, user=user).exists()
        if not seated and table.created_by_id != user.pk:
            raise NotAllowed("only a player at the table can seat a bot")
        seat = _free_seat(table, number)
        seat.bot = bot
        seat.save(update_fields=["bot"])
        _start_if_full(table, timezone.now())
        transaction.on_commit(notify.lobby_changed)
    return seat


def seat_leave(*, table_id: int, user) -> None:
    """Leave a table that has not started; the last person out closes it.

    Leaving a game in progress is resigning (a ``resign`` to its owner).
    """
    with transaction.atomic():
        table = _open_table(table_id)
        if not Seat.objects.filter(table=table, user=user).update(user=None):
            raise NotAllowed("you have no seat at this table")
        if not Seat.objects.filter(table=table, user__isnull=False).exists():
            table.status = Table.Status.ABORTED
            table.save(update_fields=["status"])
        transaction.on_commit(notify.lobby_changed)


def seat_leave_every_waiting_table(*, user) -> None:
    """Free ``user``'s seats at every table still waiting for players (a
    banned player's, in the ban's transaction: ``accounts.bans``)."""
    waiting = Seat.objects.filter(
        user=user, table__status=Table.Status.OPEN
    ).values_list("table_id", flat=True)
    for table_id in list(waiting):
        seat_leave(table_id=table_id, user=user)


def free_the_seats_of_a_banned_player(sender, user, **kwargs) -> None:
    """Receiver of ``accounts.bans.player_banned``."""
    seat_leave_every_waiting_table(user=user)


def seat_remove_bot(*, table_id: int, user, number: int) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        if not Seat.objects.filter(table=table, user=user).exists():
            raise NotAllowed("only a player at the table can remove a bot")
        if (
            not Seat.objects.filter(table=table, number=number)
            .exclude(bot="")
            .update(bot="")
        ):
            raise NotAllowed(f"seat {number + 1} has no bot")
        transaction.on_commit(notify.lobby_changed)


def _start_if_full(table: Table, now) -> None:
    """Start the game, as of ``now``, as soon as every seat is filled (inside
    the lock)."""
    if Seat.objects.filter(table=table, user__isnull=True, bot="").exists():
        return
    rules = table.rules
    state = new_game(rules, draw_first_dealer(rules))
    game = Game(
        table=table,
        first_dealer=state.first_dealer,
        state=state_to_json(state),
        version=0,
        started_at=now,
    )
    game.save()
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    if table.ranked:
        # Listed for operators; a game one of them leaves is not rated.
        farming.shared_addresses_flag(
            game=game,
            user_ids=list(
                Seat.objects.filter(table=table, user__isnull=False).values_list(
                    "user_id", flat=True
                )
            ),
            now=now,
        )
    stakes.stake_all(game)
    # The first deal, and a server told to own the game (``owner_of``).
    with owner_of(game.pk) as first:
        first.first_deal(now)
