"""The lobby: open tables, creating a table, seats, private invitations.

Every change goes through ``games.services``; a refusal (``ApplicationError``)
becomes a message and changes nothing. The lobby page refreshes its table
list from ``lobby_tables`` whenever the lobby WebSocket says it changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.selectors import display_name
from common.errors import ApplicationError, refusal_message
from games import selectors, services
from games.forms import PROFILE_LABELS, TableCreateForm
from games.models import Seat, Table
from games.views.seat_ratings import (
    Ratings,
    SeatRating,
    ratings_for,
    seat_rating,
    table_category,
)
from ratings.categories import CATEGORIES
from ratings.elo import PROVISIONAL_GAMES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The lobby lists this many open public tables, newest first.
MAX_OPEN_TABLES = 50


@dataclass
class SeatRow:
    number: int
    name: str
    bot: str
    is_empty: bool
    is_you: bool
    rating: SeatRating | None = None


@dataclass
class TableRow:
    """A table as the lobby shows it to one user, with what they may do."""

    table: Table
    title: str
    summary: list[str]
    seats: list[SeatRow]
    taken: int
    is_open: bool
    you_seated: bool
    may_sit: bool
    may_add_bot: bool
    may_remove_bot: bool
    invite_url: str | None = None
    # The rating category the table's rules are the preset of, if any.
    category: str | None = None
    category_label: str = ""


# gettext_lazy under its own name: makemessages finds only the names it knows.
HISHT_SUMMARY = {
    "200": gettext_lazy("hisht 200"),
    "500": gettext_lazy("hisht 500"),
    "alternating": gettext_lazy("alternating hisht"),
    "dynamic": gettext_lazy("dynamic hisht"),
}


def options_summary(profile: str, options: dict) -> list[str]:
    """The options of a table in a few words each."""
    if profile == "georgian-club":
        return [
            _("Nines") if options.get("schedule") == "nines" else _("Classic deals"),
            str(HISHT_SUMMARY.get(options.get("hisht_penalty", ""), "")),
            _("deductions") if options.get("deductions") else _("no deductions"),
            _("pairs") if options.get("pairs") else _("no pairs"),
        ]
    if profile == "live-games":
        return {
            "online": [_("online scoring")],
            "home-missing": [_("home scoring, missing tricks")],
            "home-bid": [_("home scoring, bid")],
        }.get(options.get("scoring", ""), [])
    if profile == "japanese":
        return [_("to %(target)s") % {"target": options.get("target")}]
    return []


def _seat_name(seat: Seat) -> str:
    # Numbered as at the table ("Practice bot 3"), in the page's language.
    if seat.bot:
        return f"{Seat.Bot(seat.bot).label} {seat.number + 1}"
    if seat.user_id is None:
        return ""
    return display_name(seat.user)


def table_row(
    request: HttpRequest, table: Table, ratings: Ratings | None = None
) -> TableRow:
    """``ratings`` (``seat_ratings.ratings_for``) may be given when listing
    several tables; they are read for this table alone otherwise."""
    user = request.user
    signed_in = user.is_authenticated
    seats = list(table.seats.all())
    you_seated = signed_in and any(seat.user_id == user.pk for seat in seats)
    is_creator = signed_in and table.created_by_id == user.pk
    is_open = table.status == Table.Status.OPEN
    category = table_category(table)
    if ratings is None:
        ratings = ratings_for([table])
    invite_url = None
    if is_creator and table.is_private and is_open:
        invite_url = request.build_absolute_uri(
            reverse("games:invite", args=[table.invite_code])
        )
    return TableRow(
        table=table,
        title=str(PROFILE_LABELS.get(table.profile, table.profile)),
        summary=options_summary(table.profile, table.options),
        seats=[
            SeatRow(
                number=seat.number,
                name=_seat_name(seat),
                bot=seat.bot,
                is_empty=seat.is_empty,
                is_you=signed_in and seat.user_id == user.pk,
                rating=seat_rating(ratings, category, seat),
            )
            for seat in seats
        ],
        taken=sum(not seat.is_empty for seat in seats),
        is_open=is_open,
        you_seated=you_seated,
        may_sit=signed_in and is_open,
        # Ranked tables are played by people only.
        may_add_bot=is_open and (you_seated or is_creator) and not table.ranked,
        may_remove_bot=is_open and you_seated,
        invite_url=invite_url,
        category=category,
        category_label=str(CATEGORIES[category].label) if category else "",
    )


def table_rows(request: HttpRequest, tables) -> list[TableRow]:
    tables = list(tables)
    ratings = ratings_for(tables)
    return [table_row(request, table, ratings) for table in tables]


def _with_names(tables):
    # Seats, their players and the players' profiles in three queries.
    return tables.prefetch_related("seats__user__profile")


def _open_rows(request: HttpRequest) -> list[TableRow]:
    tables = _with_names(selectors.open_tables())
    if request.user.is_authenticated:
        # They are listed under the user's own tables.
        tables = tables.exclude(seats__user=request.user)
    return table_rows(request, tables[:MAX_OPEN_TABLES])


def _your_rows(request: HttpRequest) -> list[TableRow]:
    if not request.user.is_authenticated:
        return []
    user = request.user
    tables = _with_names(
        Table.objects.filter(
            Q(seats__user=user) | Q(created_by=user),
            status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .distinct()
        .order_by("-created_at")
    )
    return table_rows(request, tables)


def bot_choices() -> list[tuple[str, StrOrPromise]]:
    """The bots a player may seat, the practice bots by level first."""
    kinds = (Seat.Bot.PRACTICE, Seat.Bot.EASY, Seat.Bot.STRONG, Seat.Bot.AUTOPILOT)
    return [(kind.value, kind.label) for kind in kinds]


def _tables_context(request: HttpRequest) -> dict:
    return {
        "open_rows": _open_rows(request),
        "your_rows": _your_rows(request),
        "bot_choices": bot_choices(),
        "lobby_path": reverse("games:lobby"),
    }


def _render_lobby(request: HttpRequest, form: TableCreateForm) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {"form": form, **_tables_context(request)},
    )


@never_cache
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby page: open tables, the user's tables, and a new table form."""
    return _render_lobby(request, TableCreateForm())


@never_cache
@require_GET
def lobby_tables(request: HttpRequest) -> HttpResponse:
    """Only the table lists, for the lobby page to swap in when they change."""
    return render(request, "games/_lobby_tables.html", _tables_context(request))


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            table = services.table_create(
                user=request.user,
                profile=data["profile"],
                options=data["options"],
                turn_seconds=data["turn_seconds"],
                is_private=data["is_private"],
                ranked=data["ranked"],
                stake=data["stake"],
                settlement=data["settlement"],
                points_per_coin=data["points_per_coin"],
            )
        except ApplicationError as error:
            if error.code in SEAT_REFUSALS:
                messages.error(
                    request,
                    _seat_refusal(error, data["stake"]),
                )
            else:
                form.add_error(
                    None,
                    _seat_refusal(error),
                )
        else:
            return redirect("games:table", table_id=table.pk)
    return _render_lobby(request, form)


# Why a seat at a ranked table was refused, in the player's language.
SEAT_REFUSALS = {
    "few_coins": gettext_lazy(
        "The stake at this table is %(stake)s Domino Coin, and your wallet holds fewer."
    ),
    "rating_needed": gettext_lazy(
        "A stake of %(stake)s Domino Coin needs an established rating: "
        "%(games)s rated games in this category."
    ),
    "ranked_elsewhere": gettext_lazy(
        "You already have a seat at another ranked table. Finish or leave "
        "that one first."
    ),
    "ranked_no_bots": gettext_lazy("Ranked tables are played by people only."),
}


def _seat_refusal(error: ApplicationError, stake: int | None = None) -> str:
    return refusal_message(error, SEAT_REFUSALS, stake=stake, games=PROVISIONAL_GAMES)


def _stake_of(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("stake", flat=True).first()


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the form was on (``next``), or the lobby."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("games:lobby")


@login_required
@require_POST
def seat_take(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    try:
        services.seat_take(
            table_id=table_id,
            user=request.user,
            number=number,
            invite_code=request.POST.get("invite") or None,
        )
    except ApplicationError as error:
        messages.error(
            request,
            _seat_refusal(error, _stake_of(table_id)),
        )
        return _back(request)
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
def seat_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        services.seat_leave(table_id=table_id, user=request.user)
    except ApplicationError as error:
        messages.error(
            request,
            _seat_refusal(error),
        )
        return _back(request)
    messages.info(request, _("You left the table."))
    return redirect("games:lobby")


@login_required
@require_POST
def seat_add_bot(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    try:
        services.seat_add_bot(
            table_id=table_id,
            user=request.user,
            number=number,
            bot=request.POST.get("bot", Seat.Bot.PRACTICE),
        )
    except ApplicationError as error:
        messages.error(
            request,
            _seat_refusal(error, _stake_of(table_id)),
        )
        return _back(request)
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
def seat_remove_bot(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    try:
        services.seat_remove_bot(table_id=table_id, user=request.user, number=number)
    except ApplicationError as error:
        messages.error(
            request,
            _seat_refusal(error),
        )
        return _back(request)
    return redirect("games:table", table_id=table_id)


@never_cache
@require_GET
def invite(request: HttpRequest, invite_code: str) -> HttpResponse:
    """A table reached by its invite link (how a private table is joined)."""
    table = get_object_or_404(_with_names(Table.objects.all()), invite_code=invite_code)
    return render(
        request,
        "games/invite.html",
        {
            "row": table_row(request, table),
            "invite_code": invite_code,
            "bot_choices": bot_choices(),
        },
    )
