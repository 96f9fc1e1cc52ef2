"""The result of a ranked game says what it did to each rating, or why it
did nothing: live, as the game ends over the socket, and again on reload.

The player in Chromium resigns with the table's own button, so the result
arrives as the game's last snapshot on the live socket.
"""

from __future__ import annotations

import pytest

from accounts.services import profile_get_or_create
from games import services as games
from games.models import Game
from ratings.categories import preset
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tests.ranked.helpers import established, ranked_game

from .test_table_page import log_in


def resign_in_the_page(page, table_id: int) -> None:
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-btn").click()
    page.locator("#result").wait_for()


def place_of(page, name: str):
    return page.locator("#places li").filter(has_text=name)


def test_a_ranked_game_against_a_person_shows_each_rating_change(page, read_db):
    def game():
        users = [established("japanese"), established("japanese")]
        game = ranked_game("japanese", users=users)
        return [u.username for u in users], game.table_id

    (winner, loser), table_id = read_db(game)
    log_in(page, loser)

    resign_in_the_page(page, table_id)

    for shown in ("live", "reloaded"):
        place_of(page, winner).locator(".rating-change").wait_for()
        assert place_of(page, winner).locator(".rating-change").inner_text() == (
            "Rating 1600 → 1610 (+10)"
        ), shown
        assert place_of(page, loser).locator(".rating-change").inner_text() == (
            "Rating 1600 → 1590 (\u221210)"
        ), shown
        assert page.locator("#result-rating").is_hidden()
        page.reload()
    # At a phone's width the longer line still fits.
    page.set_viewport_size({"width": 360, "height": 800})
    place_of(page, loser).locator(".rating-change").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.js_errors == []


def with_a_bot():
    """A ranked Japanese table of a person and a bot, not rated with bots."""
    user = UserFactory()
    profile, options = preset("japanese")
    table = games.table_create_seated(
        profile=profile,
        options=options,
        turn_seconds=30,
        players=[user, None],
        created_by=user,
        ranked=True,
        rated_with_bots=False,
        managed=False,
        bot="practice",
    )
    return user.username, table.pk


def a_new_account_against_an_established_one():
    newcomer = UserFactory()
    profile = profile_get_or_create(newcomer)
    profile.signed_up = True
    profile.save(update_fields=["signed_up"])
    game = ranked_game("japanese", users=[established("japanese"), newcomer])
    return newcomer.username, game.table_id


def a_new_account_that_let_its_time_run_out():
    """Played to its end, the new account's every turn run out, the
    established one playing its own: the result comes with the page."""
    newcomer, table_id = a_new_account_against_an_established_one()
    game = Game.objects.get(table_id=table_id)
    play_out(game.pk, absent=frozenset({game.table.seats.get(number=1).user_id}))
    return newcomer, table_id


def test_a_game_a_new_account_let_run_out_says_why(page, read_db):
    username, table_id = read_db(a_new_account_that_let_its_time_run_out)
    log_in(page, username)

    page.goto(f"/tables/{table_id}/")

    note = page.locator("#result-rating")
    note.wait_for()
    assert note.inner_text() == (
        "Not rated: a new account, its rating still provisional, let its time "
        "run out on a quarter of its turns or more, which counts as leaving the "
        "game."
    )
    assert page.locator("#places .rating-change").count() == 0
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (with_a_bot, "a seat was played by a bot"),
        (
            a_new_account_against_an_established_one,
            "a new account, its rating still provisional, left the game, and "
            "a game such an account leaves moves nobody's rating",
        ),
    ],
    ids=["bot-seat", "new-account-left"],
)
def test_a_ranked_game_left_unrated_says_why(page, read_db, make, reason):
    username, table_id = read_db(make)
    log_in(page, username)

    resign_in_the_page(page, table_id)

    for shown in ("live", "reloaded"):
        note = page.locator("#result-rating")
        note.wait_for()
        assert note.inner_text() == f"Not rated: {reason}.", shown
        assert page.locator("#places .rating-change").count() == 0
        page.reload()
    status = read_db(lambda: Game.objects.get(table_id=table_id).status)
    assert status == Game.Status.FINISHED
    assert page.js_errors == []
