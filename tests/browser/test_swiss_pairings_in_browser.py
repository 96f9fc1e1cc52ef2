"""A 32-player Swiss tournament played to its end, then read in Chromium:
every round's pairing by score groups, with the floats marked.

The games are played in this process through the live-play services (each
move a second before its deadline, as the tournament tests do), so the page
shows what real play left in the database.

Thirty-two players with decisive games keep every score group even (each
splits in half), so nobody need float. As in real events, one player stops
coming: a leader makes no move in round 4 and is withdrawn, which leaves an
odd score group above the lowest in round 5, and a float there."""

from __future__ import annotations

import pytest

from tests.tournaments.support import (
    make_tournament,
    play_round,
    players,
    register_all,
    start_now,
)
from tournaments.models import Board, BoardSeat, Tournament
from tournaments.standings import standings

ROUNDS = 5


@pytest.mark.slow
def test_a_finished_32_player_swiss_shows_its_pairings_with_floats(
    page, read_db, tmp_path
):
    def play() -> tuple[int, dict]:
        tournament = make_tournament(
            "japanese", name="Thirty-Two Swiss", rounds=ROUNDS, entry_fee=0
        )
        register_all(tournament, players(32))
        assert start_now(tournament) == "started"
        for _ in range(3):
            play_round(tournament)
        leader = standings(tournament)[0].entry.user_id
        play_round(tournament, absent=frozenset({leader}))
        play_round(tournament)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        seats = BoardSeat.objects.filter(board__round__tournament=tournament)
        boards = Board.objects.filter(round__tournament=tournament)
        counts = {
            number: (
                boards.filter(round__number=number).count(),
                seats.filter(board__round__number=number).count(),
                seats.filter(board__round__number=number, floated="down").count(),
                seats.filter(board__round__number=number, floated="up").count(),
            )
            for number in range(1, ROUNDS + 1)
        }
        return tournament.pk, counts

    tournament_id, counts = read_db(play)
    assert counts[ROUNDS][1] == 31  # the leader was withdrawn
    page.goto(f"/tournaments/{tournament_id}/")
    page.get_by_role("heading", name="Final results").wait_for()
    rounds = page.locator("div.round")
    assert rounds.count() == ROUNDS
    for i in range(ROUNDS):
        round_ = rounds.nth(i)
        number = ROUNDS - i  # the latest round first
        assert round_.locator("h3").inner_text().startswith(f"Round {number}")
        boards, seats, downs, ups = counts[number]
        assert round_.locator("li.board").count() == boards
        assert round_.locator(".seat-points").count() == seats
        assert round_.locator(".float-down").count() == downs
        assert round_.locator(".float-up").count() == ups
        groups = round_.locator("li.score-group")
        if number == 1:
            assert groups.all_inner_texts() == ["Score group 0"]
        else:
            assert groups.count() > 1
    # Somebody floats: if nobody did by round 4, round 5 has an odd score
    # group above the lowest (the withdrawn leader's).
    assert any(downs and ups for _, _, downs, ups in counts.values())
    first_float = page.locator(".float-down").first
    first_float.scroll_into_view_if_needed()
    assert first_float.is_visible()
    assert first_float.get_attribute("title") == "floated down"
    page.screenshot(path=str(tmp_path / "swiss-32-pairings.png"), full_page=True)
    first_float.locator("xpath=ancestor::div[@class='round']").screenshot(
        path=str(tmp_path / "swiss-32-round-with-floats.png")
    )
    assert page.js_errors == []
