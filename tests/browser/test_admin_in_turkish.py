"""The admin in Turkish, as Chromium draws it: Django's admin CSS upper-cases
column headings, and on a page in Turkish the browser upper-cases with
Turkish rules, so an English heading such as "finished at" came out as
"FİNİSHED AT". No heading of a Turkish admin page is re-cased."""

from __future__ import annotations

from accounts.models import Profile
from tests.factories import StaffUserFactory
from tests.tournaments.support import make_tournament

from .test_table_page import log_in


def test_turkish_admin_headings_are_drawn_as_written(page, read_db):
    def turkish_operator():
        user = StaffUserFactory(is_superuser=True)
        Profile.objects.update_or_create(user=user, defaults={"language": "tr"})
        return user.username

    staff = read_db(turkish_operator)
    read_db(lambda: make_tournament("japanese").pk)
    log_in(page, staff)
    page.goto("/admin/tournaments/tournament/")
    page.wait_for_selector("#result_list")
    assert page.locator("html").get_attribute("lang") == "tr"
    headings = page.eval_on_selector_all(
        "#result_list thead th, #changelist-filter h2, #changelist-filter h3",
        "cells => cells.map(c => [c.innerText.trim(), c.textContent.trim()])",
    )

    assert headings
    for drawn, written in headings:
        assert drawn == written
