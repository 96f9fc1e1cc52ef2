"""A finished game's review on its replay page, on a phone (360 x 740) in
each of the site's languages: the panel fits the width, shows the decision
on screen with its ranked choices, and "Next mistake" moves the replay to
the seat's next graded decision. A review still being made shows its
progress and appears by itself once done. The player page's statistics fit
too.

The review is real: a Japanese Joker game whose person played at random
(so that it has mistakes to find), reviewed by ``joker.review.review_game``
at a small depth and stored as the reviews' worker stores it.

With PULKA_SCREENSHOT_DIR set, the panel and the statistics are saved there.
"""

from __future__ import annotations

import os
import random
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from tests.browser.test_pages_at_phone_width import HEIGHT, LANGUAGES, LAYOUT_FAULTS
from tests.browser.test_table_page import log_in
from tests.factories import DEFAULT_PASSWORD

SCREENSHOTS = (
    Path(os.environ["PULKA_SCREENSHOT_DIR"])
    if os.environ.get("PULKA_SCREENSHOT_DIR")
    else None
)
WIDTH = 360
# Few sampled deals: quick, and a random player's blunders are far beyond
# the noise even so.
DEPTH = 60


def played_at_random(user, seed: int):
    """A Japanese Joker game (the category's target, 21) against the
    autopilot, the person's moves chosen at random, played to its end."""
    from games.live.local import Due, owner_of
    from games.models import Game
    from joker import legal_actions
    from joker.actions import action_to_json
    from tests.games.test_table_pages import japanese_game

    game = japanese_game(user, target=21)
    pick = random.Random(seed)

    def decide(live):
        seat = live.to_move
        if seat.played_by_bot:
            return Due(live.deadline + timedelta(seconds=1))
        action = action_to_json(pick.choice(legal_actions(live.state)))
        return live.decide_play(
            action.pop("seat"),
            action,
            expected_version=live.version,
            client_id=uuid.uuid4().hex,
            now=live.deadline - timedelta(seconds=1),
        )

    with owner_of(game.pk) as table:
        table.play_out(decide)
    return Game.objects.get(pk=game.pk)


def store_review(game) -> dict:
    """The game's review made and stored as the worker does; the person's."""
    from games import selectors
    from games.models import GameReview
    from joker.review import review_game, version

    seat = review_game(
        selectors.game_record(game), 0, deals=DEPTH, seed=game.pk
    ).to_json()
    GameReview.objects.update_or_create(
        game=game,
        defaults={
            "status": GameReview.Status.DONE,
            "version": version(),
            "data": {"seats": [seat]},
        },
    )
    return seat


def setup() -> dict:
    from tests.factories import UserFactory

    user = UserFactory(username="reviewed")
    older = played_at_random(user, seed=1)
    store_review(older)
    game = played_at_random(user, seed=2)
    seat = store_review(game)
    graded = [d for d in seat["decisions"] if d["grade"]]
    assert len(graded) >= 2, "a random player's game has mistakes to find"
    return {"user": user.username, "game": game.pk, "graded": graded}


def phone(browser, server, language: str):
    context = browser.new_context(
        base_url=server,
        viewport={"width": WIDTH, "height": HEIGHT},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.set_default_timeout(30_000)
    host = server.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    return context


def fits(page) -> list[str]:
    return page.evaluate(LAYOUT_FAULTS, WIDTH)


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
def test_the_review_panel_on_a_phone_in_every_language(browser, server, read_db):
    data = read_db(setup)
    first, second = data["graded"][0], data["graded"][1]
    if SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        context = phone(browser, server, language)
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.goto("/accounts/login/")
            page.locator("input[name=username]").fill(data["user"])
            page.locator("input[name=password]").fill(DEFAULT_PASSWORD)
            page.locator("form input[name=password]").press("Enter")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)

            page.goto(f"/games/{data['game']}/replay/")
            jump = page.locator("#review-next-mistake")
            jump.wait_for()
            # From the game's start, the first graded decision; then the next.
            for target in (first, second):
                jump.click()
                hash_ = f"#deal-{target['deal'] + 1}-step-{target['number'] + 1}"
                page.wait_for_function(f"() => location.hash === '{hash_}'")
                detail = page.locator("#review-detail")
                assert f"grade-{target['grade']}" in detail.get_attribute("class")
                # The choices' expected results: the first table (a decision
                # in the last tricks has a second, hindsight's, below it).
                expected = detail.locator(".review-choices").first
                assert expected.locator("tbody tr").count() == len(
                    target["alternatives"]
                )
                assert expected.locator("tr.made").count() == 1
            page.locator("#review").scroll_into_view_if_needed()
            assert fits(page) == [], language
            if SCREENSHOTS:
                page.locator("#review").screenshot(
                    path=str(SCREENSHOTS / f"review-{language}.png")
                )

            page.goto(f"/players/{data['user']}/")
            statistics = page.locator("#statistics")
            statistics.locator(".accuracy-chart polyline").wait_for()
            assert fits(page) == [], language
            if SCREENSHOTS:
                statistics.screenshot(
                    path=str(SCREENSHOTS / f"statistics-{language}.png")
                )
            assert errors == [], (language, errors)
        finally:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_a_review_being_made_shows_its_progress_then_itself(page, read_db):
    def queued():
        from games.models import GameReview
        from tests.factories import UserFactory

        user = UserFactory()
        game = played_at_random(user, seed=3)
        GameReview.objects.filter(game=game).update(status=GameReview.Status.RUNNING)
        return user.username, game.pk

    username, game_id = read_db(queued)
    log_in(page, username)
    page.goto(f"/games/{game_id}/replay/")
    page.locator(".review-status.review-running").wait_for()

    def done():
        from games.models import Game

        store_review(Game.objects.get(pk=game_id))

    read_db(done)
    # The page asks again by itself, every few seconds.
    page.locator("#review-next-mistake").wait_for(timeout=15_000)
    assert page.locator(".review-status").count() == 0
    assert page.js_errors == []


@pytest.mark.django_db(transaction=True)
def test_an_out_of_date_review_is_made_again_on_request(page, read_db):
    def outdated():
        from games.models import GameReview
        from tests.factories import UserFactory

        user = UserFactory()
        game = played_at_random(user, seed=4)
        store_review(game)
        GameReview.objects.filter(game=game).update(version="0-older")
        return user.username, game.pk

    username, game_id = read_db(outdated)
    log_in(page, username)
    page.goto(f"/games/{game_id}/replay/")
    page.locator("#review-again").click()
    # Queued again: the progress line replaces the old review.
    page.locator(".review-status.review-queued").wait_for()

    def status():
        from games.models import GameReview

        return GameReview.objects.get(game_id=game_id).status

    assert read_db(status) == "queued"
    assert page.js_errors == []


@pytest.mark.django_db(transaction=True)
def test_the_games_result_opens_the_review_in_view(page, read_db):
    """ "Review my play" on the game's result opens the replay page with the
    review in view, and stepping through the replay asks for the review
    no more (it was asked for once)."""

    def made():
        from tests.factories import UserFactory

        user = UserFactory()
        game = played_at_random(user, seed=4)
        store_review(game)
        return user.username, game.pk, game.table_id

    username, game_id, table_id = read_db(made)
    log_in(page, username)
    asked = []
    page.on(
        "request",
        lambda request: (
            asked.append(request.url) if "/review/" in request.url else None
        ),
    )
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"/tables/{table_id}/")
    page.locator("#result-review").click()
    page.wait_for_url(f"**/games/{game_id}/replay/**")
    page.locator("#review-next-mistake").wait_for()
    top = page.evaluate(
        "() => document.querySelector('#review').getBoundingClientRect().top"
    )
    assert -2 <= top < HEIGHT / 2, top
    for _ in range(3):
        page.locator("#next-step").click()
    assert len(asked) == 1, asked
    assert page.js_errors == []
