"""The leaderboard page and the player's page."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from accounts import services as account_services
from games.rated import rated_result
from ratings import services
from tests.factories import UserFactory
from tests.ratings.helpers import rated, resigned_match

pytestmark = pytest.mark.django_db


def test_the_nav_links_to_the_ratings(client):
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("ratings:leaderboard")}"' in page


def test_the_leaderboard_has_a_tab_per_category(client):
    rated(1600, username="nino")
    rated(1550, category="japanese", username="giorgi")

    page = client.get("/ratings/").content.decode()

    for slug in ("joker", "joker-nines", "joker-pairs", "japanese"):
        assert f'href="/ratings/{slug}/"' in page
    assert 'aria-current="page" class="current">Joker<' in page
    assert 'href="/players/nino/"' in page
    assert "giorgi" not in page

    page = client.get("/ratings/japanese/").content.decode()
    assert 'href="/players/giorgi/"' in page and "nino" not in page


def test_an_unknown_category_is_not_found(client):
    assert client.get("/ratings/chess/").status_code == 404


def test_the_signed_in_player_sees_their_own_rank(client):
    rated(1700)
    you = rated(1600, games=3)
    client.force_login(you)

    page = client.get("/ratings/").content.decode()
    assert "You are number 2, rated 1600 after 3 rated games." in page
    assert '<tr class="you">' in page

    page = client.get("/ratings/japanese/").content.decode()
    assert "You have no rating in this category yet" in page


def test_an_empty_leaderboard(client):
    page = client.get("/ratings/joker-pairs/").content.decode()
    assert "Nobody has a rating in this category yet." in page


def test_the_player_page_charts_the_rating_history(client):
    a, b = UserFactory(username="nino"), UserFactory()
    account_services.profile_update(user=a, display_name="Nino B.", language="")
    for loser in (1, 1, 0):
        game = resigned_match([a, b], loser=loser)
        services.rating_apply_game(rated_result(game.pk))
    casual = resigned_match([a, b], ranked=False)

    response = client.get("/players/nino/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Nino B.</h1>" in page and "@nino" in page
    # One chart: the Japanese rating, from 1500 over three games.
    assert page.count("<svg") == 1
    points = re.search(r'<polyline class="line" points="([^"]+)"', page)[1]
    assert len(points.split()) == 4
    assert "Japanese Joker rating from 1500 to" in page
    # Recent games, newest first, with their rating changes and the casual one.
    assert f'href="/games/{casual.pk}/replay/"' in page
    assert page.index(f"/games/{casual.pk}/replay/") < page.index(
        f"/games/{game.pk}/replay/"
    )
    assert "unrated" in page
    assert "(+" in page and "(-" in page


def test_a_player_without_games(client):
    UserFactory(username="newcomer")
    page = client.get("/players/newcomer/").content.decode()
    assert "No rated games yet." in page and "No finished games yet." in page
    assert "<svg" not in page


def test_an_unknown_player_is_not_found(client):
    assert client.get("/players/nobody/").status_code == 404


def test_the_chart_layout():
    from ratings.views import line_chart

    chart = line_chart([1500, 1520, 1480, 1510])
    xs = [float(p.split(",")[0]) for p in chart.points.split()]
    ys = [float(p.split(",")[1]) for p in chart.points.split()]
    assert xs[0] == chart.left and xs[-1] == chart.right
    # Higher rating, higher on the page (smaller y); the extremes touch the
    # frame.
    assert min(ys) == ys[1] == chart.top and max(ys) == ys[2] == chart.bottom
    assert [v for _, v in chart.ticks] == [1480, 1500, 1520]
    # A flat line still gets a band of 20 points.
    flat = line_chart([1500, 1500])
    assert [v for _, v in flat.ticks] == [1490, 1500, 1510]


class _SvgNumbers(HTMLParser):
    """The attributes of the page's SVG elements that hold numbers."""

    NUMERIC = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height"}

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.values: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.depth += 1
        if not self.depth:
            return
        for name, value in attrs:
            if name in self.NUMERIC and not value.endswith("%"):
                self.values.append((name, value))
            elif name == "viewBox":
                self.values.extend((name, part) for part in value.split())
            elif name == "points":
                for pair in value.split():
                    self.values.extend((name, part) for part in pair.split(","))

    def handle_endtag(self, tag):
        if tag == "svg":
            self.depth -= 1


@pytest.mark.parametrize("lang", ["ru", "tr", "ka"])
def test_the_chart_coordinates_are_never_localized(client, lang):
    """Russian and Turkish write "176,0": SVG would read a comma as a separator."""
    a, b = UserFactory(username="nino"), UserFactory()
    for loser in (1, 0, 1):
        services.rating_apply_game(rated_result(resigned_match([a, b], loser=loser).pk))
    client.cookies["django_language"] = lang

    page = client.get("/players/nino/").content.decode()

    assert f'<html lang="{lang}">' in page
    parser = _SvgNumbers()
    parser.feed(page)
    assert len(parser.values) > 20
    assert [v for _, v in parser.values if not re.fullmatch(r"-?\d+(\.\d+)?", v)] == []
    for _, value in parser.values:
        float(value)


def test_the_leaderboard_opens_on_the_category_of_the_latest_rated_game(client):
    # Before any rated game: the default category.
    page = client.get("/ratings/").content.decode()
    assert 'aria-current="page" class="current">Joker<' in page

    game = resigned_match()
    services.rating_apply_game(rated_result(game.pk))

    page = client.get("/ratings/").content.decode()
    assert 'aria-current="page" class="current">Japanese Joker<' in page
