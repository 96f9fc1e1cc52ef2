"""An arena's page while it runs: its counts in the right grammatical number,
and the time it really started when the admin started it before its time;
and its tables, which name the arena's game, not a round."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.games.helpers import play_out
from tournaments import services
from tournaments.models import Board, Tournament

from .support import make_tournament, open_boards, players, register_all

pytestmark = pytest.mark.django_db


def arena_started_now(count: int) -> Tournament:
    """An arena of ``count`` players that staff started an hour early."""
    tournament = make_tournament(
        "japanese", format="arena", duration_minutes=30, starts_in=timedelta(hours=1)
    )
    register_all(tournament, players(count))
    services.tournament_start_now(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def page(tournament: Tournament, language: str = "en") -> str:
    client = Client()
    client.cookies["django_language"] = language
    url = reverse("tournaments:detail", args=[tournament.pk])
    return client.get(url).content.decode()


def test_one_game_is_counted_in_the_singular():
    tournament = arena_started_now(2)
    assert len(open_boards(tournament)) == 1

    content = page(tournament)

    assert "2 players are taking part." in content
    assert "1 game is being played." in content
    assert "1 games" not in content


@pytest.mark.parametrize(
    ("count", "players_text", "games_text"),
    [
        # Russian has three forms: 1 (21...), 2-4 (22-24...) and the rest.
        (2, "Участвуют 2 игрока.", "Идёт 1 игра."),
        (5, "Участвуют 5 игроков.", "Идут 2 игры."),
    ],
)
def test_russian_counts_take_their_plural_forms(count, players_text, games_text):
    tournament = arena_started_now(count)

    content = page(tournament, "ru")

    assert players_text in content
    assert games_text in content


def test_an_arena_started_early_shows_when_it_started():
    tournament = arena_started_now(2)
    started = timezone.localtime(tournament.started_at)
    planned = timezone.localtime(tournament.starts_at)
    assert planned - started > timedelta(minutes=59)

    content = page(tournament)

    assert f'Started <time datetime="{started.isoformat()}">' in content
    assert planned.isoformat() not in content


def test_the_running_list_shows_when_it_started():
    tournament = arena_started_now(2)
    started = timezone.localtime(tournament.started_at)

    content = Client().get(reverse("tournaments:list")).content.decode()

    running = content[content.index('id="running"') :]
    assert f'<time datetime="{started.isoformat()}">' in running
    assert timezone.localtime(tournament.starts_at).isoformat() not in content
    assert ">Started</th>" in running


def test_a_scheduled_tournament_shows_when_it_starts():
    tournament = make_tournament("japanese", format="arena", duration_minutes=30)
    planned = timezone.localtime(tournament.starts_at)

    content = page(tournament)

    assert f'Starts <time datetime="{planned.isoformat()}">' in content


def test_an_arena_table_names_its_game_not_a_round():
    tournament = arena_started_now(2)
    (first,) = open_boards(tournament)
    play_out(first.table.game.pk, frozenset())
    services.board_take_result(board_id=first.pk)
    (second,) = open_boards(tournament)
    assert second.number == 2
    client = Client()
    client.force_login(second.seats.first().entry.user)

    content = client.get(reverse("games:table", args=[second.table_id])).content
    text = content.decode()

    assert f"{tournament.name}, game 2" in text
    assert "round 1" not in text
    assert Board.objects.filter(round__tournament=tournament).count() == 2
