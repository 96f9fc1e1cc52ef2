"""A browser in Tbilisi sees a tournament's start in Tbilisi time: the page's
script keeps the browser's zone in a cookie (static/js/timezone.js) and the
server renders the next page in it (accounts.middleware)."""

from __future__ import annotations

import datetime as dt

from tests.tournaments.support import make_tournament

# 2027-03-05 14:00 UTC: 18:00 in Tbilisi (UTC+4).
STARTS = dt.datetime(2027, 3, 5, 14, 0, tzinfo=dt.UTC)


def test_a_browser_in_tbilisi_sees_tbilisi_time(
    transactional_db, read_db, browser, server
):
    def create() -> int:
        tournament = make_tournament()
        tournament.starts_at = STARTS
        tournament.save(update_fields=["starts_at"])
        return tournament.pk

    tournament_id = read_db(create)
    context = browser.new_context(
        base_url=server, locale="en-US", timezone_id="Asia/Tbilisi"
    )
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        # The first page has no cookie yet: it is rendered in UTC, and its
        # script writes the cookie. (The live part, the start time in it, is
        # fetched again as the page's socket opens, by then in Tbilisi time.)
        response = page.goto(f"/tournaments/{tournament_id}/")
        assert "14:00 (UTC)" in response.text()
        assert any(cookie["name"] == "pulka_tz" for cookie in context.cookies())

        page.reload()

        text = page.locator("main").inner_text()
        assert "18:00 (Asia/Tbilisi)" in text
        assert "(UTC)" not in text
    finally:
        context.close()
