"""Lopsided pairs: accounts one of which keeps gaining rating from the other,
found in the rating changes and listed for the operators in the admin
(docs/ratings.md, "Lopsided pairs")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.rated import rated_result
from ratings import services
from ratings.models import Rating, RatingChange
from ratings.selectors import LOPSIDED_GAMES, lopsided_pairs
from tests.factories import UserFactory
from tests.ratings.helpers import resigned_match

pytestmark = pytest.mark.django_db

URL = "/admin/ratings/lopsidedpair/"


def rated_matches(winner, loser, times: int) -> list[Game]:
    """``times`` rated Japanese Joker matches ``loser`` resigns to ``winner``."""
    games = []
    for _ in range(times):
        game = resigned_match([winner, loser], loser=1)
        assert services.rating_apply_game(rated_result(game.pk))
        games.append(game)
    return games


def a_month_ago():
    return timezone.now() - timedelta(days=30)


@pytest.fixture
def farmed():
    """``main`` won all of its games against ``puppet``; ``nino`` and
    ``eka``, an honest rivalry, won four each of eight; ``gio`` beat ``dato``
    in all his games, but too few of them to tell."""
    users = {
        name: UserFactory(username=name)
        for name in ("main", "puppet", "nino", "eka", "gio", "dato")
    }
    games = rated_matches(users["main"], users["puppet"], LOPSIDED_GAMES + 1)
    for _ in range(4):
        rated_matches(users["nino"], users["eka"], 1)
        rated_matches(users["eka"], users["nino"], 1)
    rated_matches(users["gio"], users["dato"], LOPSIDED_GAMES - 1)
    return users, games


def test_a_farmed_pair_is_found_and_an_honest_rivalry_is_not(farmed):
    users, games = farmed

    pairs = lopsided_pairs(since=a_month_ago())

    assert [(p.gainer, p.loser) for p in pairs] == [("main", "puppet")]
    pair = pairs[0]
    assert (pair.category, pair.games, pair.gains) == (
        "japanese",
        LOPSIDED_GAMES + 1,
        LOPSIDED_GAMES + 1,
    )
    main = Rating.objects.get(user=users["main"], category="japanese")
    assert pair.points == main.rating - 1500
    assert pair.share_of_points == 1
    assert pair.game_ids == tuple(game.pk for game in games)


def test_one_game_lost_in_ten_still_lists_the_pair_and_one_in_five_does_not():
    main, puppet = UserFactory(username="main"), UserFactory(username="puppet")
    rated_matches(main, puppet, 9)
    rated_matches(puppet, main, 1)

    assert [(p.gainer, p.games, p.gains) for p in lopsided_pairs(
        since=a_month_ago()
    )] == [("main", 10, 9)]  # fmt: skip

    rated_matches(puppet, main, 2)  # 9 of 12

    assert lopsided_pairs(since=a_month_ago()) == []


def test_the_window_and_the_category_narrow_the_search(farmed):
    later = timezone.now() + timedelta(seconds=1)

    assert lopsided_pairs(since=later) == []
    assert lopsided_pairs(since=a_month_ago(), category="joker") == []
    assert len(lopsided_pairs(since=a_month_ago(), category="japanese")) == 1


def test_annulled_games_are_no_longer_counted(farmed, staff_user):
    from games.services.annul import game_annul

    _, games = farmed
    for game in games[:2]:
        game_annul(game_id=game.pk, by=staff_user)

    assert lopsided_pairs(since=a_month_ago()) == []
    assert not RatingChange.objects.filter(game__in=games[:2]).exists()


# The admin


def test_the_page_lists_the_pair_with_its_accounts_and_games(
    client, staff_user, farmed
):
    users, games = farmed
    client.force_login(staff_user)

    answer = client.get(URL)

    assert answer.status_code == 200
    page = answer.content.decode()
    assert page.count('class="lopsided-pair"') == 1
    assert 'data-gainer="main" data-loser="puppet"' in page
    for user in (users["main"], users["puppet"]):
        assert reverse("admin:auth_user_change", args=[user.pk]) in page
    ids = "%2C".join(str(game.pk) for game in games)
    assert f"/admin/games/game/?id__in={ids}" in page
    assert "eka" not in page and "dato" not in page
    # The games' list the link opens shows those games and no others.
    listed = client.get(f"/admin/games/game/?id__in={ids}")
    assert {game.pk for game in listed.context["cl"].result_list} == {
        game.pk for game in games
    }


def test_the_pairs_games_are_annulled_through_the_games_admin(
    client, staff_user, farmed
):
    users, games = farmed
    client.force_login(staff_user)
    page = client.get(URL).content.decode()
    assert 'value="annul_games"' in page
    selected = [str(game.pk) for game in games]

    confirm = client.post(
        "/admin/games/game/", {"action": "annul_games", "_selected_action": selected}
    )
    assert confirm.status_code == 200
    assert not Game.objects.filter(status=Game.Status.ANNULLED).exists()
    client.post(
        "/admin/games/game/",
        {"action": "annul_games", "_selected_action": selected, "apply": "1"},
    )

    assert Game.objects.filter(status=Game.Status.ANNULLED).count() == len(games)
    assert not Rating.objects.filter(user=users["main"]).exists()
    assert 'class="lopsided-pair"' not in client.get(URL).content.decode()


def test_staff_who_may_only_view_see_the_pairs_but_no_annul_button(client, farmed):
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_lopsidedpair"))
    client.force_login(viewer)

    page = client.get(URL).content.decode()

    assert 'data-gainer="main"' in page
    assert 'value="annul_games"' not in page


def test_the_page_is_refused_to_anyone_but_staff_allowed_to_see_it(client, farmed):
    assert client.get(URL)["Location"].startswith("/admin/login/")
    client.force_login(UserFactory())
    assert client.get(URL)["Location"].startswith("/admin/login/")
    client.force_login(UserFactory(is_staff=True))
    assert client.get(URL).status_code == 403


def test_filters_narrow_the_page_and_a_bad_one_is_refused(client, staff_user, farmed):
    client.force_login(staff_user)

    joker = client.get(URL, {"category": "joker", "days": 7}).content.decode()
    refused = client.get(URL, {"days": "3"})

    assert 'class="lopsided-pair"' not in joker
    assert refused.status_code == 400
    assert 'class="errornote"' in refused.content.decode()
    assert 'class="lopsided-pair"' not in refused.content.decode()
