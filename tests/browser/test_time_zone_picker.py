"""The time-zone picker on a phone, in Georgian: the zones are grouped by
region (the groups and the cities named in Georgian, from Babel's CLDR
data), a search box above the list keeps only the zones that match what is
typed (in Georgian or in English), and the zone found is saved with the
profile. The page stays within 360 px. The admin's profile form has the
same picker."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from tests.factories import DEFAULT_PASSWORD, StaffUserFactory

from .test_table_page import log_in

PHONE = {"width": 360, "height": 740}

# The option groups and how many of their options are shown.
SHOWN = """(select) => [...select.querySelectorAll("optgroup")]
  .filter((group) => !group.hidden)
  .map((group) => [group.label,
    [...group.children].filter((option) => !option.hidden)
      .map((option) => option.text)])"""


def player_in(read_db, language: str, staff: bool = False) -> str:
    def create():
        from django.contrib.auth import get_user_model

        if staff:
            user = StaffUserFactory(is_superuser=True)
        else:
            user = get_user_model().objects.create_user(
                username="zone-player", password=DEFAULT_PASSWORD
            )
        Profile.objects.update_or_create(user=user, defaults={"language": language})
        return user.username

    return read_db(create)


@pytest.mark.timeout(120)
def test_the_time_zone_picker_is_grouped_searchable_and_georgian_at_360(
    transactional_db, browser, server, read_db
):
    username = player_in(read_db, "ka")
    context = browser.new_context(
        base_url=server, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(30_000)
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, username)
        page.goto("/accounts/profile/")
        assert page.locator("html").get_attribute("lang") == "ka"
        select = page.locator("select[name=time_zone]")
        groups = select.evaluate(SHOWN)
        labels = [label for label, _ in groups]
        assert labels[:1] == ["აფრიკა"] and "აზია" in labels and "ევროპა" in labels
        asia = dict(groups)["აზია"]
        assert "თბილისი (Tbilisi)" in asia

        search = page.locator("input.zone-search")
        assert search.get_attribute("placeholder") == "სასაათო სარტყლის ძებნა"
        search.fill("თბილ")
        assert select.evaluate(SHOWN) == [["აზია", ["თბილისი (Tbilisi)"]]]
        assert select.input_value() == "Asia/Tbilisi"
        # English finds it too, whatever its case.
        search.fill("istanbul")
        found = dict(select.evaluate(SHOWN))
        assert found == {
            "აზია": ["სტამბოლი (Istanbul)"],
            "ევროპა": ["სტამბოლი (Istanbul)"],
        }
        search.fill("თბილ")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
        box = search.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360

        page.locator("form.form button[type=submit]").click()
        page.wait_for_load_state("load")
        assert read_db(
            lambda: Profile.objects.get(user__username=username).time_zone
        ) == ("Asia/Tbilisi")
        assert errors == []
    finally:
        context.close()


@pytest.mark.timeout(120)
def test_the_admin_profile_form_has_the_same_picker_in_turkish(
    transactional_db, page, read_db
):
    staff = player_in(read_db, "tr", staff=True)
    profile_id = read_db(lambda: Profile.objects.get(user__username=staff).pk)
    log_in(page, staff)
    page.goto(f"/admin/accounts/profile/{profile_id}/change/")
    select = page.locator("select[name=time_zone]")
    labels = [label for label, _ in select.evaluate(SHOWN)]
    assert "Avrupa" in labels and "Asya" in labels
    page.locator("input.zone-search").fill("tiflis")
    assert select.evaluate(SHOWN) == [["Asya", ["Tiflis (Tbilisi)"]]]
    assert page.js_errors == []
