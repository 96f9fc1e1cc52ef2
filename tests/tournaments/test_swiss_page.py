"""A Swiss tournament's page lists every round's pairing by score groups:
each player's points before the round, noted when it was paired, and who
floated up or down."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments.models import BoardSeat, Tournament

from .support import make_tournament, play_to_the_end, players, register_all, start_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_played_out():
    # Five players: every round has a bye, and in round 2 an odd score
    # group above the lowest, so some player floats whatever the results.
    tournament = make_tournament("japanese", name="Floaters Cup", rounds=3)
    register_all(tournament, players(5))
    assert start_now(tournament) == "started"
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def points_from_results(seats, before_round):
    """Each entry's points from the rounds before ``before_round``."""
    points = {}
    for seat in seats:
        if seat.board.round.number >= before_round:
            continue
        board = [s for s in seats if s.board_id == seat.board_id]
        if seat.board.is_bye or seat.won:
            gained = Decimal(1)
        elif any(s.won for s in board):
            gained = Decimal(0)
        else:
            gained = Decimal("0.5")  # a draw
        points[seat.entry_id] = points.get(seat.entry_id, Decimal(0)) + gained
    return points


def test_points_before_and_floats_are_noted_when_each_round_is_paired(
    five_played_out,
):
    seats = list(
        BoardSeat.objects.filter(board__round__tournament=five_played_out)
        .select_related("board__round")
        .order_by("board__round__number", "board__number", "number")
    )
    floats = 0
    for seat in seats:
        before = points_from_results(seats, seat.board.round.number)
        assert seat.points_before == before.get(seat.entry_id, 0)
        board = [s for s in seats if s.board_id == seat.board_id]
        if seat.board.is_bye:
            lowest = min(
                s.points_before
                for s in seats
                if s.board.round_id == seat.board.round_id
            )
            expected = "down" if seat.points_before > lowest else ""
        else:
            (other,) = [s for s in board if s.pk != seat.pk]
            expected = {1: "down", -1: "up", 0: ""}[
                (seat.points_before > other.points_before)
                - (seat.points_before < other.points_before)
            ]
        assert seat.floated == expected
        floats += seat.floated != ""
    # Round 2 always has a float: after two games and a bye, the groups left
    # once the bye goes to the lowest cannot all pair inside themselves
    # without a rematch (with two wins: three players on a point, and of the
    # two on none one takes the bye, so one of the three plays the other).
    assert floats >= 2


def test_the_page_shows_score_groups_and_floats(client, five_played_out):
    response = client.get(reverse("tournaments:detail", args=[five_played_out.pk]))
    content = response.content.decode()
    assert "↓ floated down to a lower score group" in content
    rounds = response.context["rounds"]
    assert [r.number for r in rounds] == [3, 2, 1]  # the latest first
    assert all(r.has_score_groups for r in rounds)
    # Round 1: everybody on 0, one score group.
    assert [b.group for b in rounds[-1].boards if b.group] == ["0"]
    seats = BoardSeat.objects.filter(board__round__tournament=five_played_out)
    for round_ in rounds:
        shown = [s for b in round_.boards for s in b.seats]
        noted = seats.filter(board__round__number=round_.number)
        assert sorted(s.floated for s in shown) == sorted(s.floated for s in noted)
        # Score groups from the highest down, each opened once.
        groups = [Decimal(b.group) for b in round_.boards if b.group]
        assert groups == sorted(set(groups), reverse=True)
    html_rounds = content.split('<div class="round">')[1:]
    assert len(html_rounds) == 3
    for html, round_ in zip(html_rounds, rounds, strict=True):
        labels = re.findall(r'<li class="score-group">Score group ([\d.]+)</li>', html)
        assert labels == [b.group for b in round_.boards if b.group]
        downs = sum(s.floated == "down" for b in round_.boards for s in b.seats)
        ups = sum(s.floated == "up" for b in round_.boards for s in b.seats)
        assert html.count('class="float float-down"') == downs
        assert html.count('class="float float-up"') == ups
        assert html.count('class="seat-points"') == sum(
            len(b.seats) for b in round_.boards
        )
    assert 'class="float float-down"' in content and 'class="float float-up"' in content
