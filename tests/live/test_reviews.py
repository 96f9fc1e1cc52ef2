"""The deal reviews' worker (``python -m config.review_worker``) as
``make run`` starts it: it takes the review a finished game queued, at the
lowest CPU priority, and stores it; the site's other worker never takes
it."""

from __future__ import annotations

import sys
import time

import psutil
import pytest

from config.review_worker import NICENESS
from games.models import Game, GameReview
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tests.games.test_table_pages import japanese_game
from tests.live.conftest import start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_reviews_worker_makes_a_finished_game_s_review(live_env, log_dir):
    game = play_out(japanese_game(UserFactory()).pk)
    assert game.status == Game.Status.FINISHED
    # Sent to the reviews queue when the game's last step committed.
    assert GameReview.objects.get(game=game).status == GameReview.Status.QUEUED
    process = start(
        "reviews", [sys.executable, "-m", "config.review_worker"], live_env, log_dir
    )
    try:
        deadline = time.monotonic() + 90
        review = GameReview.objects.get(game=game)
        while review.status != GameReview.Status.DONE:
            assert time.monotonic() < deadline, process.log_tail()
            assert review.status != GameReview.Status.FAILED, review.error
            process.check_alive()
            time.sleep(0.2)
            review.refresh_from_db()
        assert [seat["seat"] for seat in review.data["seats"]] == [0]
        worker = psutil.Process(process.proc.pid)
        assert worker.nice() == NICENESS
        assert all(child.nice() == NICENESS for child in worker.children())
    finally:
        process.stop()
