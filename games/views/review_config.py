"""What the replay page's review panel is told (docs/review.md, "On the
site"): where to ask for the review, whose seats it covers, which to show
first and whether the viewer may have it made again. The review itself is
fetched by the page from the API, so that a review still being made shows
its progress and then appears without a reload."""

from __future__ import annotations

from django.urls import reverse

from games import reviews
from games.models import Game, GameReview, Seat
from joker.review import version


def review_config(game: Game, seats: list[Seat], user) -> dict | None:
    """None when the page shows no review: a game not played to its end (a
    game being played never reaches the replay page, and has no review
    anywhere), or one without a review (called off, bots only)."""
    if game.status != Game.Status.FINISHED:
        return None
    if not GameReview.objects.filter(game=game).exists():
        return None
    people = sorted(
        (seat for seat in seats if seat.user_id is not None),
        key=lambda seat: seat.number,
    )
    own = next(
        (s.number for s in people if user.is_authenticated and s.user_id == user.pk),
        None,
    )
    return {
        "url": reverse("api:game-review", args=[game.pk]),
        "seats": [{"seat": s.number, "name": s.display_name} for s in people],
        # The viewer's own decisions first; a spectator sees the first
        # person's.
        "seat": own if own is not None else (people[0].number if people else None),
        "can_request": reviews.may_request(game, user),
        "version": version(),
    }
