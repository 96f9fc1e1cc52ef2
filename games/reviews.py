"""Deal reviews of finished games (docs/review.md), made in the background.

When a game is played to its end, its review is queued in the game's last
transaction (a ``GameReview`` row, ``queued``) and, once that commits, a
task is sent to the reviews queue (``settings.REVIEW_QUEUE``), which
a worker of its own takes at a low CPU priority: reviews wait while the
node is busy, and never take the CPU from live play. The task (``make``)
reviews every seat a person held, with ``joker.review``, and stores the
result with the version that made it.

A game being played has no review: its hidden cards are still secret.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.utils import InterfaceError, OperationalError
from django.utils import timezone

from common.errors import NotAllowed
from games import selectors
from games.ended import GameEnded
from games.models import Game, GameReview, Seat
from games.services.rematch import GameNotFinished, NotAPlayer
from joker.review import review_game, version

logger = logging.getLogger(__name__)

TASK = "games.tasks.review"
# A review queued this long ago and not begun is sent again (its task was
# lost: the broker was out of reach, was restarted empty, or failed over
# before the message reached its replica).
RESEND_AFTER = timedelta(minutes=10)
# A review running this long was left by a worker that died in it (a whole
# game's review takes about a minute of a core): it is sent again. Made
# twice, it comes out the same (seeded by the game), so a slow one sent
# again costs only the work.
RUNNING_AT_MOST = timedelta(hours=1)
RESEND_AT_MOST = 100


class ReviewCurrent(NotAllowed):
    """Made again only when it can come out otherwise: a review done by the
    current version, or one queued or running, is left as it is."""

    code = "review_current"


def out_of_date(review: GameReview) -> bool:
    """Done by another version of the review or the bot (docs/review.md)."""
    return review.status == GameReview.Status.DONE and review.version != version()


def may_request(game: Game, user) -> bool:
    """The game's players and staff may have its review made again."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Seat.objects.filter(table_id=game.table_id, user=user).exists()


def request_again(*, game: Game, user) -> GameReview:
    """Queue a finished game's review again, for one of its players or
    staff, when it is out of date or failed; the task is sent once the
    queueing commits. Raises ``GameNotFinished`` for a game being played,
    ``NotAPlayer`` and ``ReviewCurrent``; ``GameReview.DoesNotExist`` when
    the game has none (called off, bots only)."""
    if game.status == Game.Status.PLAYING:
        raise GameNotFinished("the game is being played: no review until it ends")
    if not may_request(game, user):
        raise NotAPlayer("only the game's players may have its review made again")
    with transaction.atomic():
        review = GameReview.objects.select_for_update().get(game_id=game.pk)
        if not (review.status == GameReview.Status.FAILED or out_of_date(review)):
            raise ReviewCurrent("the review is queued, running or up to date")
        review.status = GameReview.Status.QUEUED
        review.error = ""
        review.save(update_fields=["status", "error", "updated_at"])
        transaction.on_commit(lambda: send(game.pk))
    return review


def queue_on_end(event: GameEnded) -> None:
    """In the game's last transaction: a finished game with a person at the
    table gets its review queued (an aborted game has nothing to review)."""
    if not event.finished:
        return
    if not Seat.objects.filter(table_id=event.table_id, user__isnull=False).exists():
        return
    GameReview.objects.get_or_create(game_id=event.game_id)


def send_on_end(event: GameEnded) -> None:
    """After the commit: the review's task sent to the reviews queue. A
    broker out of reach loses nothing of the game: the review stays queued
    and is sent again by ``send_queued``."""
    if event.finished:
        send(event.game_id)


def send(game_id: int) -> bool:
    try:
        current_app.send_task(TASK, args=[game_id], queue=settings.REVIEW_QUEUE)
    except Exception as error:  # the broker's errors are many kinds
        logger.warning("review of game %s not sent (%s); still queued", game_id, error)
        return False
    return True


def send_queued() -> int:
    """Beat: the reviews queued long ago and never begun, and those left
    running by a worker that died, sent again; how many were sent."""
    now = timezone.now()
    stale = GameReview.objects.filter(
        Q(status=GameReview.Status.QUEUED, updated_at__lt=now - RESEND_AFTER)
        | Q(status=GameReview.Status.RUNNING, updated_at__lt=now - RUNNING_AT_MOST)
    ).order_by("updated_at")
    sent = 0
    for game_id in list(stale.values_list("game_id", flat=True)[:RESEND_AT_MOST]):
        if not send(game_id):
            break
        GameReview.objects.filter(game_id=game_id).update(updated_at=now)
        sent += 1
    return sent


def make(game_id: int) -> str:
    """Review a finished game's seats held by people and store it; the
    status it ends in. A review already done by this version is kept."""
    with transaction.atomic():
        review = GameReview.objects.select_for_update().filter(game_id=game_id).first()
        if review is None:
            # The game is gone (deleted with its review) since its task was
            # sent: nothing to review.
            logger.info("review of game %s: no such review any more", game_id)
            return "gone"
        if review.status == GameReview.Status.DONE and review.version == version():
            return review.status
        review.status = GameReview.Status.RUNNING
        review.save(update_fields=["status", "updated_at"])
    game = Game.objects.select_related("table").get(pk=game_id)
    try:
        if game.status == Game.Status.PLAYING:
            raise ValueError("the game is being played")
        record = selectors.game_record(game)
        seats = Seat.objects.filter(table_id=game.table_id, user__isnull=False)
        numbers = sorted(seats.values_list("number", flat=True))
        # The game's id seeds it: made again, the review is the same.
        deals = settings.REVIEW_DEALS
        reviews = [
            review_game(record, n, deals=deals, seed=game_id).to_json() for n in numbers
        ]
    except (OperationalError, InterfaceError):
        # The database out of reach is no fault of the review: the task is
        # run again (the site's task class, config.task_retries) and finds
        # the review not done.
        raise
    except Exception as error:
        logger.exception("review of game %s failed", game_id)
        review.status = GameReview.Status.FAILED
        review.error = f"{type(error).__name__}: {error}"
        review.save(update_fields=["status", "error", "updated_at"])
        return review.status
    review.status = GameReview.Status.DONE
    review.version = version()
    review.data = {"seats": reviews}
    review.error = ""
    review.save(update_fields=["status", "version", "data", "error", "updated_at"])
    return review.status
