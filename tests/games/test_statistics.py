"""A player's statistics (games.statistics): the aggregates on made-up
games and reviews, and the API and player page counting only the games the
viewer may see."""

from __future__ import annotations

import pytest

from games.models import Game, GameReview
from games.statistics import aggregate, seat_facts
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tests.games.test_table_pages import japanese_game

# Two one-card deals of a 4-player game, seat 0's view. Deal 0: seat 0 bids
# 1, takes its trick with a joker played "high"; deal 1: bids 1, takes
# nothing (a hisht), plays a joker "low". One pulka, with seat 0's premium.
RECORD = {
    "deals": [
        {
            "hands": [["X1"], ["AS"], ["KS"], ["QS"]],
            "actions": [
                {"seat": 0, "bid": 1},
                {"seat": 1, "bid": 0},
                {"seat": 2, "bid": 0},
                {"seat": 3, "bid": 1},
                {"seat": 0, "card": "X1", "mode": "high"},
                {"seat": 1, "card": "AS"},
                {"seat": 2, "card": "KS"},
                {"seat": 3, "card": "QS"},
            ],
        },
        {
            "hands": [["X2"], ["AS"], ["KS"], ["QS"]],
            "actions": [
                {"seat": 1, "card": "AS"},
                {"seat": 2, "card": "KS"},
                {"seat": 3, "card": "QS"},
                {"seat": 0, "card": "X2", "mode": "low"},
            ],
        },
    ]
}
RESULT = {
    "deals": [
        {
            "cards": 1,
            "bids": [1, 0, 0, 1],
            "tricks": [1, 0, 0, 0],
            "trick_winners": [0],
        },
        {
            "cards": 1,
            "bids": [1, 0, 0, 0],
            "tricks": [0, 1, 0, 0],
            "trick_winners": [1],
        },
    ],
    "pulkas": [{"premium": [True, False, False, False]}],
}


def decision(deal: int, *, forced=False, loss=0.0, accuracy=100.0, grade=None):
    return {
        "deal": deal,
        "forced": forced,
        "loss": loss,
        "accuracy": accuracy,
        "grade": grade,
    }


REVIEW = {
    "decisions": [
        decision(0, forced=True),
        decision(0, loss=60.0, accuracy=30.0, grade="blunder"),
        decision(1, loss=0.0, accuracy=100.0),
        decision(1, loss=30.0, accuracy=50.0, grade="mistake"),
    ],
    "per_deal": [{"deal": 0, "decisions": 2}, {"deal": 1, "decisions": 2}],
}


def facts(game_id=1, review=REVIEW, similar=False):
    return seat_facts(
        game_id=game_id,
        category="joker",
        finished_at=None,
        record=RECORD,
        result=RESULT,
        seat=0,
        review=review,
        similar=similar,
    )


def test_one_game_s_bids_hishts_premiums_and_jokers():
    one = aggregate("joker", [facts(review=None)])
    assert (one["games"], one["deals"], one["games_reviewed"]) == (1, 2, 0)
    assert one["bids"]["made"] == 1 and one["bids"]["deals"] == 2
    assert one["bids"]["by_bid"] == [{"size": 1, "deals": 2, "made": 1}]
    assert one["bids"]["by_cards"] == [{"size": 1, "deals": 2, "made": 1}]
    assert one["hisht"] == {"bids": 2, "hishts": 1, "share": 50.0}
    assert one["premium"] == {"pulkas": 1, "premiums": 1, "share": 100.0}
    assert one["jokers"]["played"] == 2 and one["jokers"]["tricks"] == 1
    assert one["jokers"]["modes"]["high"] == 1 and one["jokers"]["modes"]["low"] == 1
    assert one["accuracy"] is None and one["loss_per_decision"] is None


def test_reviews_count_decisions_that_were_not_forced():
    both = aggregate("joker", [facts(1), facts(2, review=None), facts(3, similar=True)])
    assert both["games"] == 3 and both["games_reviewed"] == 2
    assert both["deals_reviewed"] == 4
    # Three free decisions a reviewed game: losses 60, 0, 30; accuracies
    # 30, 100, 50.
    assert both["decisions"] == 6
    assert both["loss_per_decision"] == 30.0
    assert both["accuracy"] == 60.0
    assert both["grades"] == {"inaccuracy": 0, "mistake": 2, "blunder": 2}
    assert both["similar_rating"]["games"] == 1
    assert both["similar_rating"]["accuracy"] == 60.0
    assert [point["game"] for point in both["trend"]] == [1, 3]


def test_japanese_joker_has_no_bids_or_premiums():
    japanese = facts(review=None)
    japanese.japanese = True
    japanese.bids = []
    out = aggregate("japanese", [japanese])
    assert "bids" not in out and "premium" not in out and "hisht" not in out


def finished_with_review(player, *, is_private=False) -> Game:
    # Target 21: the Japanese Joker category's preset.
    game = play_out(japanese_game(player, target=21, is_private=is_private).pk)
    assert game.status == Game.Status.FINISHED
    seat_review = {**REVIEW, "seat": 0, "unit": "tricks"}
    GameReview.objects.update_or_create(
        game=game,
        defaults={"status": GameReview.Status.DONE, "data": {"seats": [seat_review]}},
    )
    return game


@pytest.mark.django_db
def test_the_api_counts_the_games_the_viewer_may_see(client):
    player = UserFactory()
    finished_with_review(player)
    finished_with_review(player, is_private=True)
    url = f"/api/v1/players/{player.username}/statistics/"
    (seen,) = client.get(url).json()
    assert seen["category"] == "japanese"
    assert seen["games"] == 1 and seen["games_reviewed"] == 1
    assert seen["decisions"] == 3 and seen["accuracy"] == 60.0
    assert "bids" not in seen
    client.force_login(player)
    (own,) = client.get(url).json()
    assert own["games"] == 2 and own["games_reviewed"] == 2
    assert client.get("/api/v1/players/nobody-here/statistics/").status_code == 404


@pytest.mark.django_db
def test_a_game_being_played_counts_for_nothing(client):
    player = UserFactory()
    japanese_game(player, target=21)
    assert client.get(f"/api/v1/players/{player.username}/statistics/").json() == []


@pytest.mark.django_db
def test_the_player_page_shows_the_statistics(client):
    player = UserFactory()
    finished_with_review(player)
    page = client.get(f"/players/{player.username}/").content.decode()
    assert 'id="statistics"' in page
    assert "60%" in page


@pytest.mark.django_db
def test_a_games_facts_are_replayed_once_until_its_review_changes(monkeypatch):
    """The player page does not replay every record at each visit: a
    finished game's facts come from the cache, made again only when its
    review is done (or made again)."""
    from games import selectors, statistics

    player = UserFactory()
    game = play_out(japanese_game(player, target=21).pk)
    replayed = []
    real = selectors.game_record

    def counted(game):
        replayed.append(game.pk)
        return real(game)

    monkeypatch.setattr(selectors, "game_record", counted)
    (first,) = statistics.player_statistics(player, viewer=player)
    (again,) = statistics.player_statistics(player, viewer=player)
    assert replayed == [game.pk] and first == again
    assert first["games_reviewed"] == 0
    GameReview.objects.update_or_create(
        game=game,
        defaults={
            "status": GameReview.Status.DONE,
            "version": "v-test",
            "data": {"seats": [{**REVIEW, "seat": 0, "unit": "tricks"}]},
        },
    )
    (reviewed,) = statistics.player_statistics(player, viewer=player)
    assert replayed == [game.pk, game.pk]
    assert reviewed["games_reviewed"] == 1
