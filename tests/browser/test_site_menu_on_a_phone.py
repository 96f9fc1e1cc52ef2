"""The site's menu on a phone: at 360 px the header is the brand and a Menu
button (a disclosure button, aria-expanded), which opens every section of
the site, each link whole on the screen; it works by touch and by the
keyboard (Enter opens it, Escape closes it and gives the focus back). At
desktop width the links are in the header and the button is not shown."""

from __future__ import annotations

import pytest

from tests.browser.test_table_page import log_in

# Every section the header links to, signed in, by its address.
SECTIONS = [
    "/lobby/",
    "/play/",
    "/tournaments/",
    "/ratings/",
    "/coins/",
    "/friends/",
    "/api/v1/docs/",
    "/accounts/profile/",
]

# Each link of the header: its address, whether it is shown, and its box.
LINKS = """() => [...document.querySelectorAll(
  ".site-header nav a, .site-header nav button"
)].map((node) => {
  const box = node.getBoundingClientRect();
  return {
    href: node.getAttribute("href") || node.textContent.trim(),
    shown: node.checkVisibility() && box.width > 0,
    left: box.left, right: box.right, top: box.top, bottom: box.bottom,
    height: box.height,
    // The whole label is drawn: nothing of it is cut off.
    whole: node.scrollWidth <= node.clientWidth + 1,
  };
})"""


def make_player(read_db) -> str:
    def create():
        from django.contrib.auth import get_user_model

        from accounts.services import profile_update
        from tests.factories import DEFAULT_PASSWORD

        user = get_user_model().objects.create_user(
            username="menu-player", password=DEFAULT_PASSWORD
        )
        profile_update(
            user=user, display_name="Константин Константинопольский", language=""
        )
        return user.username

    return read_db(create)


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_the_menu_reaches_every_section_on_a_phone(browser, server, read_db):
    username = make_player(read_db)
    context = browser.new_context(
        base_url=server,
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        log_in(page, username)
        page.goto("/")
        button = page.locator("#menu-button")
        assert button.get_attribute("aria-expanded") == "false"
        assert button.get_attribute("aria-controls") == "site-nav"
        # Closed: only the brand and the button, on one line.
        assert not any(link["shown"] for link in page.evaluate(LINKS))
        header = page.locator(".site-header").bounding_box()
        assert header["height"] <= 60, header

        button.tap()
        assert button.get_attribute("aria-expanded") == "true"
        links = page.evaluate(LINKS)
        shown = [link["href"] for link in links if link["shown"]]
        assert shown == [link["href"] for link in links]
        for section in SECTIONS:
            assert section in shown, (section, shown)
        for link in links:
            assert link["left"] >= 0 and link["right"] <= 360, link
            assert link["whole"], link
            assert link["height"] >= 44, link
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360

        # A tap on a section goes there.
        page.locator(".site-header nav a[href='/coins/']").tap()
        page.wait_for_url("**/coins/")
        assert button.get_attribute("aria-expanded") == "false"

        # By the keyboard: Enter opens, Tab goes into the links, Escape
        # closes the menu and the focus is back on the button.
        button.focus()
        page.keyboard.press("Enter")
        assert button.get_attribute("aria-expanded") == "true"
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.closest('nav')?.id") == (
            "site-nav"
        )
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
        assert page.evaluate("() => document.activeElement.id") == "menu-button"
        assert not any(link["shown"] for link in page.evaluate(LINKS))
        page.keyboard.press("Space")
        assert button.get_attribute("aria-expanded") == "true"
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url("**/lobby/")

        # On a desktop's screen the links are in the header itself.
        page.set_viewport_size({"width": 1280, "height": 900})
        assert not button.is_visible()
        assert all(link["shown"] for link in page.evaluate(LINKS))
    finally:
        context.close()
