"""A person registers for a tournament in Chromium and is taken to their
table when the first round is seated.

Real throughout: the tournament page and its form, the fee through the
ledger, the start service, the tournament's WebSocket on the server (fed
through the Redis channel layer by the process that started the round), and
the page's script following the player to the live table.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from django.utils import timezone

from coins import services as coins
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import BoardSeat, Tournament

from .test_play_in_browser import sign_up


def test_a_registered_player_is_sent_to_their_table(page, read_db, tmp_path):
    username = sign_up(page)

    def create() -> Tournament:
        tournament = services.tournament_create(
            name=f"Browser Cup {uuid.uuid4().hex[:6]}",
            category="japanese",
            format="swiss",
            rounds=1,
            short_match=True,
            starts_at=timezone.now() + timedelta(hours=1),
            entry_fee=25,
            min_players=2,
        )
        rival = UserFactory(username=f"rival-{uuid.uuid4().hex[:8]}")
        services.tournament_register(tournament_id=tournament.pk, user=rival)
        return tournament

    tournament = read_db(create)
    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Register for 25 Domino Coin").click()
    page.locator("li.message.success").get_by_text("You are registered.").wait_for()
    assert read_db(lambda: tournament.entries.filter(user__username=username).exists())
    wallet = read_db(
        lambda: coins.wallet_of(tournament.entries.get(user__username=username).user)
    )
    assert wallet.balance == coins.welcome_coins() - 25

    # The start happens elsewhere (here: this test's process, as beat's task
    # would); the page learns of the round over its socket and follows.
    def start() -> int:
        services.tournament_start(
            tournament_id=tournament.pk,
            now=tournament.starts_at + timedelta(seconds=1),
        )
        seat = BoardSeat.objects.select_related("board").get(
            board__round__tournament=tournament, entry__user__username=username
        )
        return seat.board.table_id

    table_id = read_db(start)
    page.wait_for_url(re.compile(rf"/tables/{table_id}/$"), timeout=20_000)
    page.locator("#live").wait_for()
    link = page.locator("a.tag-tournament")
    assert f"{tournament.name}, round 1" in link.inner_text()
    page.screenshot(path=str(tmp_path / "sent-to-table.png"), full_page=True)
    assert page.js_errors == []
