"""What the tournament pages show, put together from the models, the
standings and the ledger: rules in sentences, the prize table, standings
rows and every round's boards."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.selectors import display_name
from ratings.categories import CATEGORIES
from tournaments import selectors
from tournaments.formats.plugins import format_of
from tournaments.formats.prizes import split_prizes
from tournaments.models import TOURNAMENT_CATEGORIES, Entry, Tournament
from tournaments.standings import Row
from tournaments.views.numbers import number
from tournaments.views.rounds import round_views

if TYPE_CHECKING:
    from tournaments.selectors import CountedTournament

CATEGORY_LABELS = dict(TOURNAMENT_CATEGORIES)

NOTES = {
    Entry.Status.ELIMINATED: gettext_lazy("knocked out"),
    Entry.Status.DROPPED: gettext_lazy("dropped out"),
}


def rules_of(tournament: Tournament) -> list[str]:
    """The tournament's rules, a sentence each: its format's first."""
    rules = format_of(tournament.format).rules(tournament)
    profile, options = tournament.game_profile()
    if profile == "japanese":
        rules.append(
            _("Each match is played to %(target)s points.")
            % {"target": options.get("target")}
        )
    elif options.get("schedule") == "nines":
        rules.append(
            _("Each game is played on the nines schedule: every deal is nine cards.")
        )
    else:
        rules.append(_("Each game is played with the full schedule of deals."))
    category = tournament.rating_category
    if category is None:
        rules.append(_("Its games are not rated."))
    else:
        rules.append(
            _(
                "Games between people are rated in the %(category)s rating; a "
                "game with a bot at the table is not."
            )
            % {"category": CATEGORIES[category].label}
        )
    rules.append(
        ngettext(
            "Each move has a timer of %(seconds)d second.",
            "Each move has a timer of %(seconds)d seconds.",
            tournament.turn_seconds,
        )
        % {"seconds": tournament.turn_seconds}
    )
    rules.append(
        _("It needs at least %(min)d players and takes at most %(max)d.")
        % {"min": tournament.min_players, "max": tournament.max_players}
    )
    if tournament.entry_fee:
        rules.append(
            _(
                "The entry fee is %(fee)d Domino Coin; every fee goes into the "
                "prize pool."
            )
            % {"fee": tournament.entry_fee}
        )
    else:
        rules.append(_("It is free to enter."))
    return rules


@dataclass
class Prize:
    place: int
    percent: str
    coins: int | None


def prize_table(tournament: Tournament, pool: int | None) -> list[Prize]:
    """Each paid place's share, and its coins from the pool as it is now
    (as if every paid place is reached and nobody ties)."""
    split = list(tournament.prize_split or [])
    places = {place: place for place in range(1, len(split) + 1)}
    coins_by_place = split_prizes(pool, split, places) if pool else {}
    return [
        Prize(
            place=place,
            percent=number(Fraction(str(percent))),
            coins=coins_by_place.get(place) if pool else None,
        )
        for place, percent in enumerate(split, start=1)
    ]


@dataclass
class StandingRow:
    place: int
    name: str
    username: str
    points: str
    tiebreaks: list[str]
    games: int
    note: str
    prize: int
    is_you: bool


def tiebreak_labels(tournament: Tournament) -> list[str]:
    return format_of(tournament.format).tiebreak_labels()


def _note(row: Row) -> str:
    if row.entry.status in NOTES:
        return str(NOTES[row.entry.status])
    if row.note == "final table":
        return _("final table")
    if row.details.get("streak"):
        # Two wins in a row: the next game counts double.
        return _("on a streak ×2")
    return ""


def standing_rows(tournament: Tournament, user) -> list[StandingRow]:
    finished = tournament.status == Tournament.Status.FINISHED
    rows = selectors.standings_with_players(tournament)
    shown = [
        StandingRow(
            place=row.entry.place if finished and row.entry.place else row.place,
            name=display_name(row.entry.user),
            username=row.entry.user.get_username(),
            points=number(row.points),
            tiebreaks=[number(t) for t in row.tiebreaks],
            games=row.games,
            note=_note(row),
            prize=row.entry.prize,
            is_you=user.is_authenticated and row.entry.user_id == user.pk,
        )
        for row in rows
    ]
    if finished:
        shown.sort(key=lambda row: row.place)
    return shown


def detail_context(request: HttpRequest, tournament: CountedTournament) -> dict:
    """The detail page's context; ``tournament`` comes from
    ``selectors.tournaments_counted``."""
    user = request.user
    now = timezone.now()
    plugin = format_of(tournament.format)
    status = Tournament.Status
    started = tournament.started_at is not None
    your_entry = selectors.own_entry(tournament, user)
    registration_open = tournament.status == status.SCHEDULED and (
        tournament.starts_at > now
    )
    is_registered = (
        your_entry is not None and your_entry.status == Entry.Status.REGISTERED
    )
    pool = (
        selectors.pool_balance(tournament)
        if tournament.status != status.FINISHED
        else None
    )
    your_seat = None
    if tournament.status == status.RUNNING:
        # A cancelled tournament's last round stays "playing", its games
        # called off: nobody has a table to go to.
        your_seat = selectors.seat_of_user(tournament, user)
    your_table_url = None
    your_game_over = False
    if your_seat is not None:
        if your_seat.board.finished:
            your_game_over = True
        else:
            your_table_url = reverse("games:table", args=[your_seat.board.table_id])
    if started:
        registered = []
    else:
        registered = [
            (display_name(entry.user), entry.user.get_username())
            for entry in selectors.registered_entries(tournament)
        ]
    registered_count = tournament.player_count
    prizes_paid = None
    if tournament.status == status.FINISHED:
        prizes_paid = tournament.prizes_paid
    return {
        "tournament": tournament,
        "category": CATEGORY_LABELS.get(tournament.category, ""),
        "rules": rules_of(tournament),
        "prizes": prize_table(tournament, pool),
        "pool": pool,
        "prizes_paid": prizes_paid,
        "registration_open": registration_open,
        "is_registered": is_registered,
        "registered": registered,
        "registered_count": registered_count,
        "is_full": registration_open
        and not is_registered
        and registered_count >= tournament.max_players,
        "standings": standing_rows(tournament, user) if started else [],
        "tiebreak_labels": tiebreak_labels(tournament),
        "show_points": plugin.shows_points,
        "continuous": plugin.continuous,
        "now": now,
        "games_playing": selectors.boards_playing(tournament),
        "rounds": round_views(tournament, user) if started else [],
        "your_table_url": your_table_url,
        "your_game_over": your_game_over,
        "fragment_url": reverse("tournaments:detail", args=[tournament.pk])
        + "?fragment=1",
    }
