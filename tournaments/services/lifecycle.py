"""Creating, starting and cancelling tournaments.

The top of the services: a start hands over to ``rounds`` or ``arena``,
which play the tournament on to its end (``finishing``) and never come
back here."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from coins import services as coins
from common.errors import ApplicationError
from games.live.local import owner_of
from ratings import elo
from ratings.models import Rating
from tournaments import notify
from tournaments.formats.plugins import format_of
from tournaments.models import Board, Entry, Round, Tournament

from .arena import arena_start
from .locking import locked_tournament
from .rounds import round_start

TOO_FEW_PLAYERS = "too few players"


def tournament_create(**fields) -> Tournament:
    """Create a tournament after the same checks as the admin form."""
    tournament = Tournament(**fields)
    tournament.full_clean()
    tournament.save()
    return tournament


def tournament_start(*, tournament_id: int, now=None) -> str | None:
    """Start a tournament that is due: "started", "cancelled" (too few
    players, every fee back), or None when it is not due or no longer
    waiting (so a second start of the same tournament does nothing)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            return None
        if tournament.starts_at > now:
            return None
        entries = _entries_to_seat(tournament)
        if len(entries) < tournament.min_players:
            _cancel(tournament, TOO_FEW_PLAYERS, now)
            return "cancelled"
        _begin(tournament, entries, now)
        return "started"


def tournament_start_now(*, tournament_id: int, now=None) -> None:
    """Start a waiting tournament at once (staff), before its start time.

    The minimum number of players still holds: with too few registered the
    tournament is refused and left waiting for its time (it is not
    cancelled, as a due one would be, since more may still register)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            raise ApplicationError(
                f"it is {tournament.get_status_display().lower()}, not waiting "
                "to start",
                code="not_waiting_to_start",
            )
        entries = _entries_to_seat(tournament)
        if len(entries) < tournament.min_players:
            raise ApplicationError(
                f"{len(entries)} player(s) registered, and it needs at least "
                f"{tournament.min_players}",
                code="too_few_players",
            )
        _begin(tournament, entries, now)


def _entries_to_seat(tournament: Tournament) -> list[Entry]:
    """The registered entries, banned players' withdrawn with their fees."""
    entries = list(
        tournament.entries.filter(status=Entry.Status.REGISTERED)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
    banned = [e for e in entries if not e.user.is_active]
    if banned:
        _withdraw_banned(tournament, banned)
    return [e for e in entries if e.user.is_active]


def _begin(tournament: Tournament, entries: list[Entry], now) -> None:
    _seed(tournament, entries)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    plugin = format_of(tournament.format)
    rounds = plugin.rounds_at_start(len(entries))
    if rounds is not None:
        tournament.rounds = rounds
    tournament.save()
    if plugin.continuous:
        arena_start(tournament, now)
    else:
        round_start(tournament, 1, now)


def tournament_start_due(*, now=None) -> dict[int, str]:
    """Start (or cancel) every tournament whose start time has come."""
    now = now or timezone.now()
    due = Tournament.objects.filter(
        status=Tournament.Status.SCHEDULED, starts_at__lte=now
    ).values_list("pk", flat=True)
    outcomes = {}
    for tournament_id in list(due):
        outcome = tournament_start(tournament_id=tournament_id, now=now)
        if outcome is not None:
            outcomes[tournament_id] = outcome
    return outcomes


def _withdraw_banned(tournament: Tournament, entries: list[Entry]) -> None:
    for entry in entries:
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
    if tournament.entry_fee:
        coins.pool_refund(
            ref=tournament.pool_ref,
            key_prefix=f"{tournament.pool_ref}:banned",
            user_ids=[e.user_id for e in entries],
        )


def _seed(tournament: Tournament, entries: list[Entry]) -> None:
    """Seeds by rating in the tournament's category (then by who came first)."""
    ratings = dict(
        Rating.objects.filter(
            user_id__in=[e.user_id for e in entries], category=tournament.category
        ).values_list("user_id", "rating")
    )
    ordered = sorted(
        enumerate(entries),
        key=lambda item: (-ratings.get(item[1].user_id, elo.START), item[0]),
    )
    for seed, (_, entry) in enumerate(ordered, start=1):
        entry.rating = ratings.get(entry.user_id, elo.START)
        entry.seed = seed
        entry.status = Entry.Status.PLAYING
    Entry.objects.bulk_update(entries, ["rating", "seed", "status"])


def tournament_cancel(*, tournament_id: int, reason: str = "", now=None) -> None:
    """Call a tournament off (staff): games in play stop, every entry fee
    still in the pool goes back to whoever paid it."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status in (
            Tournament.Status.FINISHED,
            Tournament.Status.CANCELLED,
        ):
            raise ApplicationError(
                f"the tournament is already {tournament.get_status_display().lower()}",
                code="over",
            )
        _cancel(tournament, reason or "cancelled by the organisers", now)
        playing = Board.objects.filter(
            round__tournament=tournament, finished=False, table__isnull=False
        ).values_list("table__game", flat=True)
        for game_id in list(playing):
            if game_id is not None:
                # Decided and written here, as the game's owner would,
                # which is told to read the game again.
                with owner_of(game_id) as table:
                    table.call_off()
        # The round in play ends here, its called-off games without a result.
        Board.objects.filter(round__tournament=tournament, finished=False).update(
            finished=True
        )
        tournament.round_set.filter(status=Round.Status.PLAYING).update(
            status=Round.Status.FINISHED, finished_at=now
        )


def _cancel(tournament: Tournament, reason: str, now) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason[:200]
    tournament.finished_at = now
    tournament.save()
    if tournament.entry_fee:
        coins.pool_refund(
            ref=tournament.pool_ref, key_prefix=f"{tournament.pool_ref}:cancel"
        )
    notify.changed_on_commit(tournament.pk, "cancelled")
