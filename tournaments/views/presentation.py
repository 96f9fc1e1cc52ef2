"""What the tournament pages show, put together from the models, the
standings and the ledger: rules in sentences, the prize table, standings
rows and every round's boards."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.selectors import display_name
from ratings.categories import CATEGORIES
from tournaments import selectors
from tournaments.formats.prizes import split_prizes
from tournaments.models import (
    TOURNAMENT_CATEGORIES,
    Entry,
    Format,
    Tournament,
)
from tournaments.standings import Row
from tournaments.views.numbers import number
from tournaments.views.rounds import round_views

CATEGORY_LABELS = dict(TOURNAMENT_CATEGORIES)

NOTES = {
    Entry.Status.ELIMINATED: gettext_lazy("knocked out"),
    Entry.Status.DROPPED: gettext_lazy("dropped out"),
}


FORMAT_SENTENCES = {
    Format.SWISS: gettext_lazy(
        "Swiss: every round pairs players with the same or a similar score, "
        "never the same two twice if it can be helped. A win scores 1 point, "
        "a draw half a point, a bye 1 point; ties are broken by Buchholz "
        "(the opponents' scores), then Sonneborn-Berger."
    ),
    Format.KNOCKOUT: gettext_lazy(
        "Knockout: players are seeded by rating; the winner of each match goes "
        "through and the loser is out, until one player is left."
    ),
    Format.MULTITABLE: gettext_lazy(
        "Tables of four: every round seats players by their standings, four "
        "to a table (bots fill the spare seats), and each place at a table "
        "scores tournament points; ties are broken by the total game score."
    ),
    Format.ARENA: gettext_lazy(
        "Arena: as soon as your game ends you are paired again with a free "
        "player close to you in the standings (not your last opponent while "
        "other games go on). A win scores 2 points, a draw 1; after two wins "
        "in a row every game counts double until one is not won. Ties are "
        "broken by the performance rating. A player who makes no move in a "
        "whole game is out."
    ),
}


def rules_of(tournament: Tournament) -> list[str]:
    """The tournament's rules, a sentence each."""
    rules = [str(FORMAT_SENTENCES[tournament.format])]
    if tournament.format == Format.ARENA:
        rules.append(
            ngettext(
                "Players are paired for %(minutes)d minute; games still being "
                "played then finish and count.",
                "Players are paired for %(minutes)d minutes; games still being "
                "played then finish and count.",
                tournament.duration_minutes,
            )
            % {"minutes": tournament.duration_minutes}
        )
    elif tournament.format == Format.KNOCKOUT and tournament.started_at is None:
        # A knockout's rounds are counted at the start, from its field.
        rules.append(_("The number of rounds depends on the number of players."))
    else:
        rules.append(
            ngettext(
                "It is played over %(rounds)d round.",
                "It is played over %(rounds)d rounds.",
                tournament.rounds,
            )
            % {"rounds": tournament.rounds}
        )
    if tournament.format == Format.MULTITABLE:
        rules.append(
            _("Places at a table score %(points)s points (1st, 2nd, 3rd, 4th).")
            % {"points": ", ".join(str(p) for p in tournament.points_for_places)}
        )
        if tournament.final_table:
            rules.append(
                _(
                    "The last round is a final table of the top four, which "
                    "decides places 1 to 4."
                )
            )
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
    if tournament.format == Format.SWISS:
        return [_("Buchholz"), _("Sonneborn-Berger")]
    if tournament.format == Format.MULTITABLE:
        return [_("Game score")]
    if tournament.format == Format.ARENA:
        return [_("Performance")]
    return []


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


def detail_context(request: HttpRequest, tournament: Tournament) -> dict:
    """The detail page's context; ``tournament`` comes from
    ``selectors.tournaments_counted``."""
    user = request.user
    now = timezone.now()
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
        "show_points": tournament.format != Format.KNOCKOUT,
        "is_arena": tournament.format == Format.ARENA,
        "now": now,
        "games_playing": selectors.boards_playing(tournament),
        "rounds": round_views(tournament, user) if started else [],
        "your_table_url": your_table_url,
        "your_game_over": your_game_over,
        "fragment_url": reverse("tournaments:detail", args=[tournament.pk])
        + "?fragment=1",
    }
