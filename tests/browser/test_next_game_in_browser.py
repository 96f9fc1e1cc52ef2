"""After a tournament game, the table page's result says what comes next and
takes the player there, in Chromium.

Real throughout: the tournament services start the event, the live games
run on the server, each game's end reaches the worker's task, which pairs
or seats the next round and tells every page of the players over their
personal socket (/ws/me/); the players never leave their table pages.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from django.utils import timezone

from tournaments import services
from tournaments.models import Board, Entry, Tournament

from .test_other_pages_in_browser import new_player
from .test_table_on_a_phone import open_table_page

TABLE_URL = re.compile(r"/tables/(\d+)/$")


def table_of(url: str) -> int | None:
    found = TABLE_URL.search(url)
    return int(found.group(1)) if found else None


def new_context(browser, server):
    context = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, locale="en-US"
    )
    context.set_default_timeout(30_000)
    return context


def started(tournament_format: str, **fields) -> tuple[int, list[str], list[int]]:
    """A tournament of two new players, started: its id, the players'
    usernames and the tables of the first pairing (one)."""
    tournament = services.tournament_create(
        name=f"Next Cup {uuid.uuid4().hex[:6]}",
        category="japanese",
        format=tournament_format,
        short_match=True,
        starts_at=timezone.now() + timedelta(hours=1),
        entry_fee=10,
        min_players=2,
        turn_seconds=60,
        **fields,
    )
    players = [new_player(), new_player()]
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(
        tournament_id=tournament.pk, now=tournament.starts_at + timedelta(seconds=1)
    )
    tables = list(
        Board.objects.filter(round__tournament=tournament, table__isnull=False)
        .order_by("pk")
        .values_list("table_id", flat=True)
    )
    return tournament.pk, [p.username for p in players], tables


def resign(page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-btn").click()


def newest_table(tournament_id: int) -> int:
    return (
        Board.objects.filter(round__tournament_id=tournament_id, table__isnull=False)
        .order_by("-pk")
        .values_list("table_id", flat=True)
        .first()
    )


def test_an_arena_takes_both_players_from_the_result_to_their_next_game(
    transactional_db, browser, server, read_db
):
    """An arena of two games: both players stay on their table pages; each
    game's result takes them to the next pairing, and a player who is on the
    site but makes no move is not dropped as absent."""
    tournament_id, (first, second), (table_one,) = read_db(
        lambda: started("arena", duration_minutes=30)
    )
    contexts = [new_context(browser, server) for _ in range(2)]
    try:
        pages = [
            open_table_page(context, name, table_one)
            for context, name in zip(contexts, (first, second), strict=True)
        ]
        (page_one, errors_one), (page_two, errors_two) = pages

        resign(page_one)
        for page, _ in pages:
            page.locator("#result:not([hidden])").wait_for()
            page.locator("#result-next").get_by_text(
                re.compile(r"Your next game is on at table \d+\.")
            ).wait_for()
        for page, _ in pages:
            page.wait_for_url(lambda url: table_of(url) not in (None, table_one))
        table_two = read_db(lambda: newest_table(tournament_id))
        for page, _ in pages:
            assert int(TABLE_URL.search(page.url).group(1)) == table_two
            page.locator("#conn[data-state='online']").wait_for()

        # The arena's time is up while the second game is played: it ends
        # with that game. The first player makes no move of their own in it,
        # yet is on the site all along.
        def call_time():
            Tournament.objects.filter(pk=tournament_id).update(
                started_at=timezone.now() - timedelta(minutes=31)
            )

        read_db(call_time)
        resign(page_two)
        for page, _ in pages:
            page.locator("#result:not([hidden])").wait_for()
            page.locator("#result-next").get_by_text(
                "The tournament is over."
            ).wait_for()

        def outcome():
            tournament = Tournament.objects.get(pk=tournament_id)
            entries = dict(tournament.entries.values_list("user__username", "status"))
            return tournament.status, entries

        status, entries = read_db(outcome)
        assert status == Tournament.Status.FINISHED
        assert entries == {first: Entry.Status.PLAYING, second: Entry.Status.PLAYING}
        assert errors_one == [] and errors_two == []
    finally:
        for context in contexts:
            context.close()


def test_a_swiss_result_names_the_next_round_its_time_and_table(
    transactional_db, browser, server, read_db
):
    """A Swiss round's last game ends: the result names the next round, when
    it began and at which table, and takes the player there."""
    tournament_id, names, (table_one,) = read_db(lambda: started("swiss", rounds=2))
    contexts = [new_context(browser, server) for _ in names]
    try:
        # Both players stay on the site (the one who makes no move too).
        (page, errors), _ = [
            open_table_page(context, name, table_one)
            for context, name in zip(contexts, names, strict=True)
        ]
        resign(page)
        page.locator("#result:not([hidden])").wait_for()
        next_line = page.locator("#result-next")
        next_line.get_by_text(
            re.compile(r"Round 2 began at .+\(UTC\)\. Your game is at table \d+\.")
        ).wait_for()
        table_two = read_db(lambda: newest_table(tournament_id))
        assert f"table {table_two}." in next_line.inner_text()
        page.wait_for_url(re.compile(rf"/tables/{table_two}/$"))
        page.locator("#conn[data-state='online']").wait_for()
        assert errors == []
    finally:
        for context in contexts:
            context.close()
