"""The replay and quick-play pages in Chromium: the modules they load run
without an error, the replay draws the scoresheet the live table draws, and
the quick-play page keeps its socket open with its pings.
"""

from __future__ import annotations

import uuid

from django.contrib.auth import get_user_model

from tests.factories import DEFAULT_PASSWORD
from tests.games.helpers import play_out
from tests.games.test_table_pages import japanese_game

from .test_table_page import SCREENSHOTS, log_in


def new_player():
    return get_user_model().objects.create_user(
        username=f"p-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
    )


def test_the_replay_steps_through_a_game_with_its_scoresheet(page, read_db):
    def finished_game():
        user = new_player()
        game = play_out(japanese_game(user, target=11).pk)
        return user.username, game.pk, len(game.engine_state().deals)

    username, game_id, deals = read_db(finished_game)
    log_in(page, username)
    page.goto(f"/games/{game_id}/replay/")
    sheet = page.locator("#replay-sheet")
    sheet.locator(".match-score").wait_for()
    # At the start nothing is given away: only the first deal's row, current.
    assert sheet.locator("tr.deal-row").count() == 0
    assert sheet.locator("tr.current-row").count() == 1

    page.locator("body").press("End")
    assert sheet.locator("tr.deal-row").count() == deals
    assert sheet.locator("tr.places-row").count() == 1
    assert "🏆 1" in sheet.locator("tr.places-row").inner_text()
    # No trump is written in words, the same as on the live table.
    trumps = sheet.locator("td.trump").all_inner_texts()
    assert "—" not in trumps and "∅" not in trumps

    page.locator("body").press("Home")
    page.locator("#next-step").click()
    assert page.locator("#replay-step").inner_text()
    assert page.js_errors == []


def test_quick_play_waits_with_its_socket(page, read_db):
    username = read_db(lambda: new_player().username)
    log_in(page, username)
    sent = []
    page.on(
        "websocket",
        lambda socket: socket.on("framesent", lambda frame: sent.append(frame)),
    )
    page.goto("/play/")
    page.locator("#quickplay-form").get_by_role("button", name="Join").click()
    waiting = page.locator("#quickplay[data-socket]")
    waiting.wait_for()
    # The page pings at once (to learn its status), then as often as the
    # pool asks to hear from a waiting player.
    every = float(waiting.get_attribute("data-ping-seconds"))
    page.wait_for_timeout(every * 1000 + 800)
    pings = [frame for frame in sent if '"ping"' in frame]
    assert len(pings) >= 2, sent
    assert page.js_errors == []


def test_the_live_table_in_georgian(page, server, read_db):
    """What the page's script writes is Georgian too: bots' names, trump,
    the seats' words; and no Mtavruli capital anywhere."""

    def game():
        user = new_player()
        return user.username, japanese_game(user).table_id

    username, table_id = read_db(game)
    log_in(page, username)
    page.context.add_cookies(
        [{"name": "django_language", "value": "ka", "url": server}]
    )
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    page.locator("#felt .felt-trump").wait_for()
    text = page.locator("body").inner_text()
    assert "ავტოპილოტი 2" in text
    assert "Autopilot" not in text
    assert "კოზირი" in text  # "Trump" on the felt
    assert [c for c in text if "\u1c90" <= c <= "\u1cbf"] == []
    assert page.js_errors == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "table-japanese-ka.png"), full_page=True)


def test_a_finished_table_shows_the_result_and_checks_the_deals(page, read_db):
    def finished_game():
        user = new_player()
        game = play_out(japanese_game(user, target=11).pk)
        return user.username, game.table_id

    username, table_id = read_db(finished_game)
    log_in(page, username)
    page.goto(f"/tables/{table_id}/")
    result = page.locator("#result")
    result.wait_for()
    assert page.locator("#places li").count() == 2
    # The page checks every deal against the commitments it was sent.
    page.locator("#fairness.ok").wait_for()
    assert "verified" in page.locator("#fairness").inner_text()
    assert page.locator("#last-trick-button").is_hidden()
    assert page.locator("#felt .felt-trump").is_hidden()
    assert page.js_errors == []
