"""The live table page, and replays and records of finished games."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.replica import replica_reads
from games import fairness, selectors
from games.glossary import page_glossary
from games.models import Game, Seat, Table
from games.views import lobby
from games.views.review_config import review_config
from games.views.seat_ratings import ratings_for, seat_rating, table_category
from joker.record import replay, result_json
from ratings.models import UnratedReason


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user"))


def _seat_of(seats: list[Seat], user) -> int | None:
    if not user.is_authenticated:
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.number
    return None


def _visible_table(request, table_id: int) -> tuple[Table, list[Seat], int | None]:
    """The table, its seats and the user's seat; a private table is shown only
    to its seated players (the WebSocket refuses anyone else too)."""
    table = get_object_or_404(Table, pk=table_id)
    seats = _seats(table)
    seat = _seat_of(seats, request.user)
    if table.is_private and seat is None:
        raise Http404("no such table")
    return table, seats, seat


def _rules_json(table: Table) -> dict:
    rules = table.rules
    return {
        "profile": rules.profile,
        "name": rules.name,
        "players": rules.players,
        "japanese": rules.is_japanese,
        "schedule": list(rules.schedule),
        "pulka_sizes": list(rules.pulka_sizes),
        "pairs": rules.pairs,
        "target": rules.target if rules.is_japanese else None,
    }


def _seat_ratings(table: Table, seats: list[Seat]) -> list[dict | None]:
    """Each seat's rating in the table's category, by seat number."""
    category = table_category(table)
    ratings = ratings_for([table])
    shown = (seat_rating(ratings, category, seat) for seat in seats)
    return [None if rating is None else rating.as_json() for rating in shown]


def _waiting_seats(seats: list[Seat]) -> list[dict]:
    return [
        {"number": seat.number, "name": seat.display_name, "bot": seat.bot}
        for seat in seats
    ]


@login_required
@never_cache
@require_GET
def table(request, table_id: int):
    """A table: its seats while it waits for players, then the live game."""
    table, seats, seat = _visible_table(request, table_id)
    game = Game.objects.filter(table=table).select_related("table").first()
    rules = _rules_json(table)
    if game is None:
        config = {
            "table": table.pk,
            "status": table.status,
            "you": seat,
            "state_url": reverse("games:table-state", args=[table.pk]),
            "ws_path": f"/ws/tables/{table.pk}/",
        }
        return render(
            request,
            "games/table.html",
            {
                "table": table,
                "rules": rules,
                "seats": _waiting_seats(seats),
                "row": lobby.table_row(request, table),
                "bot_choices": lobby.bot_choices(),
                "my_seat": seat,
                "waiting": True,
                "config": config,
            },
        )
    config = {
        "game": game.pk,
        "table": table.pk,
        "you": seat,
        "ws_path": f"/ws/games/{game.pk}/",
        "record_url": reverse("games:record", args=[game.pk]),
        "replay_url": reverse("games:replay", args=[game.pk]),
        "lobby_url": reverse("games:lobby"),
        "server_now": int(timezone.now().timestamp() * 1000),
        "rules": rules,
        "ranked": table.ranked,
        "stake": table.stake,
        # A tournament's table: its games are not played again (rematch).
        "managed": table.managed,
        "ratings": _seat_ratings(table, seats),
    }
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "game": game,
            "rules": rules,
            "my_seat": seat,
            "waiting": False,
            "config": config,
            "snapshot": selectors.snapshot(game, seats, seat),
            "glossary": page_glossary(table.profile),
        },
    )


@login_required
@never_cache
@require_GET
def table_state(request, table_id: int):
    """Whether a waiting table has started, for its page to poll."""
    table, seats, _ = _visible_table(request, table_id)
    game_id = Game.objects.filter(table=table).values_list("pk", flat=True).first()
    return JsonResponse(
        {
            "table": table.pk,
            "status": table.status,
            "game": game_id,
            "seats": _waiting_seats(seats),
        }
    )


def _game_over(request, game_id: int) -> tuple[Game, list[Seat]]:
    """A finished or aborted game the user may see. While a game is being
    played its record (every hand) is secret: 404."""
    game = get_object_or_404(
        Game.objects.select_related("table"),
        pk=game_id,
        status__in=[Game.Status.FINISHED, Game.Status.ABORTED, Game.Status.ANNULLED],
    )
    seats = _seats(game.table)
    if game.table.is_private and _seat_of(seats, request.user) is None:
        raise Http404("no such game")
    return game, seats


def _record(game: Game) -> dict:
    return selectors.game_record(game)


@require_GET
def game_replay(request, game_id: int):
    """Step through a finished game: every hand, bid, trick and score."""
    game, seats = _game_over(request, game_id)
    record = _record(game)
    result = result_json(replay(record).state)
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "table": game.table,
            "rules": _rules_json(game.table),
            "record": record,
            "result": result,
            "coin_nets": _coin_nets(game, seats),
            "rating": _rating_result(game, seats),
            "proofs": record.get("fairness", []),
            "check_script": fairness.CHECK_SCRIPT,
            "glossary": page_glossary(game.table.profile),
            "config": {
                "game": game.pk,
                "status": game.status,
                "names": [seat.display_name for seat in seats],
                "rules": _rules_json(game.table),
                "table_url": reverse("games:table", args=[game.table_id]),
                "record_url": reverse("games:record", args=[game.pk]),
                "review": review_config(game, seats, request.user),
            },
        },
    )


def _coin_nets(game: Game, seats: list[Seat]) -> list[dict] | None:
    """Each player's name and the Domino Coin they won or lost in the game
    (from the ledger); None unless it finished with a stake."""
    nets = selectors.game_coin_nets(game, seats)
    if nets is None:
        return None
    ordered = sorted(seats, key=lambda seat: seat.number)
    return [
        {"name": seat.display_name, "net": net, "shown": signed(net)}
        for seat, net in zip(ordered, nets, strict=True)
    ]


def _rating_result(game: Game, seats: list[Seat]) -> dict | None:
    """What the game did to the ratings, for the replay page: each rated
    player's name and change, or the reason it was not rated, in words;
    None when there is nothing to say (``selectors.game_rating``)."""
    rating = selectors.game_rating(game, seats)
    if rating is None:
        return None
    if not rating["rated"]:
        return {"rated": False, "reason": UnratedReason(rating["reason"]).label}
    ordered = sorted(seats, key=lambda seat: seat.number)
    return {
        "rated": True,
        "changes": [
            {**change, "name": seat.display_name, "shown": signed(change["delta"])}
            for seat, change in zip(ordered, rating["changes"], strict=True)
            if change is not None
        ],
    }


def signed(coins: int) -> str:
    """+12, −30 (a minus sign) or 0."""
    if coins > 0:
        return f"+{coins}"
    if coins < 0:
        return f"\u2212{-coins}"
    return "0"


@require_GET
@replica_reads
def game_record(request, game_id: int):
    """The game record (RECORD.md) of a finished game, as a download."""
    game, _ = _game_over(request, game_id)
    body = json.dumps(_record(game), indent=1)
    response = HttpResponse(body, content_type="application/json")
    filename = f"pulka-game-{game.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
