"""The game's words explained, on a phone (360x740, touch) in each of the
four languages: the rules page has a glossary with an entry for every term
(in Georgian script on the Georgian page), and at a table in play a tap on
a term (shetenva or tsaglejva in the bar, "deal" in the notice of a deal's
end, trump in the scoresheet, or Enter on it) opens its explanation, whole
on the screen, with no sideways scroll.
"""

from __future__ import annotations

import re
import time

import pytest
from django.utils import translation

from games.glossary import BY_SLUG, terms_for
from tests.browser.test_table_page import open_table
from tests.factories import DEFAULT_PASSWORD

LANGUAGES = ["en", "ka", "ru", "tr"]
PHONE = {"width": 360, "height": 740}
GEORGIAN = re.compile(r"[\u10d0-\u10ff]")
DEAL_TIMEOUT = 120

# The explanation's popover: open or not, its text, and whether it and the
# page fit the screen.
TIP = """() => {
  const tip = document.querySelector("#term-tip");
  if (!tip) return null;
  const r = tip.getBoundingClientRect();
  const root = document.documentElement;
  return {
    open: tip.matches(":popover-open"),
    text: tip.textContent,
    link: tip.querySelector("a") ? tip.querySelector("a").getAttribute("href") : null,
    box: { x: r.x, y: r.y, right: r.right, bottom: r.bottom },
    viewport: { width: window.innerWidth, height: window.innerHeight },
    sideways: root.scrollWidth > root.clientWidth,
  };
}"""

# What the page asks of the person now, as in test_table_on_a_phone.
NEXT_STEP = """() => {
  if (document.querySelector("#scoresheet tr.deal-row")) return "over";
  const prompt = document.querySelector("#prompt.yours");
  if (!prompt) return null;
  if (prompt.querySelector("button.choice:not([disabled])")) return "choice";
  if (document.querySelector("#hand button.card.legal:not(.unusable)")) return "card";
  return null;
}"""


def explanation(language: str, slug: str) -> str:
    with translation.override(language):
        return str(BY_SLUG[slug].explanation)


def check_tip(page, language: str, slug: str) -> None:
    """The popover is open with the term's explanation and a link to its
    glossary entry, inside the screen, and nothing scrolls sideways."""
    page.wait_for_function(
        "() => document.querySelector('#term-tip:popover-open')", timeout=5_000
    )
    tip = page.evaluate(TIP)
    assert explanation(language, slug) in tip["text"], (language, slug, tip)
    assert tip["link"].endswith(f"#term-{slug}"), tip
    box, viewport = tip["box"], tip["viewport"]
    assert box["x"] >= 0 and box["right"] <= viewport["width"] + 0.5, (slug, tip)
    assert box["y"] >= 0 and box["bottom"] <= viewport["height"] + 0.5, (slug, tip)
    assert not tip["sideways"], (language, slug)


def close_tip(page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => !document.querySelector('#term-tip:popover-open')", timeout=5_000
    )


def phone(browser, server: str, language: str):
    context = browser.new_context(
        base_url=server,
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.set_default_timeout(30_000)
    host = server.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    return context


def check_rules_page(page, language: str) -> set[str]:
    """The glossary's entries on the rules page: their anchors."""
    page.goto("/rules/georgian-club/")
    entries = page.eval_on_selector_all(
        "#glossary dl dt[id]",
        "(nodes) => nodes.map((n) => ({ id: n.id, name: n.textContent.trim(),"
        " text: n.nextElementSibling.textContent.trim() }))",
    )
    anchors = {entry["id"] for entry in entries}
    assert anchors == {term.anchor for term in terms_for("georgian-club")}
    for entry in entries:
        slug = entry["id"].removeprefix("term-")
        assert entry["text"] == explanation(language, slug)
        if language == "ka":
            assert GEORGIAN.search(entry["name"]), entry
    assert not page.evaluate(
        "() => document.documentElement.scrollWidth"
        " > document.documentElement.clientWidth"
    )
    return anchors


def tap_move(page, step: str) -> None:
    if step == "choice":
        page.locator("#prompt button.choice:not([disabled])").first.tap()
    else:
        page.locator("#hand button.card.legal:not(.unusable)").first.tap()
    page.wait_for_function(
        "() => !document.querySelector('#prompt .waiting')"
        " || !document.querySelector('#prompt.yours')",
        timeout=30_000,
    )


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_s_words_are_explained_on_a_phone(language, browser, server, read_db):
    # Classic deals: the first deal is one card each.
    username, table_id = open_table(read_db, "georgian-club", {"schedule": "classic"})

    def choose():
        from django.contrib.auth import get_user_model

        from accounts.services import profile_set_language

        user = get_user_model().objects.get(username=username)
        profile_set_language(user=user, language=language)

    read_db(choose)
    context = phone(browser, server, language)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        anchors = check_rules_page(page, language)

        page.goto("/accounts/login/")
        page.locator("input[name=username]").fill(username)
        page.locator("input[name=password]").fill(DEFAULT_PASSWORD)
        page.locator("form input[name=password]").press("Enter")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(f"/tables/{table_id}/")
        page.locator("#conn[data-state='online']").wait_for()

        tapped_bar = False
        deadline = time.monotonic() + DEAL_TIMEOUT
        while True:
            assert time.monotonic() < deadline, "the first deal did not end"
            step = page.wait_for_function(NEXT_STEP, timeout=60_000).json_value()
            if step == "over":
                break
            if step == "card" and not tapped_bar:
                # Every bid is in: the bar says shetenva or tsaglejva.
                term = page.locator("#bar-table button.term")
                slug = term.get_attribute("data-term")
                assert slug in ("shetenva", "tsaglejva")
                term.tap()
                check_tip(page, language, slug)
                close_tip(page)
                tapped_bar = True
            tap_move(page, step)
        assert tapped_bar

        # The notice of the deal's end names the deal.
        notice_term = page.locator("#notices.show button.term[data-term='deal']")
        notice_term.tap()
        check_tip(page, language, "deal")
        close_tip(page)

        # The scoresheet's trump column, by a tap and by the keyboard, once
        # the next deal waits for the player (the table is still).
        page.wait_for_function(
            "() => document.querySelector('#prompt.yours button.choice')"
        )
        sheet_term = page.locator("#scoresheet th button.term[data-term='trump']")
        sheet_term.tap()
        check_tip(page, language, "trump")
        close_tip(page)
        sheet_term.focus()
        page.keyboard.press("Enter")
        check_tip(page, language, "trump")
        close_tip(page)

        # Every term the table shows has its entry in the glossary.
        shown = set(
            page.eval_on_selector_all(
                "button.term", "(nodes) => nodes.map((n) => n.dataset.term)"
            )
        )
        assert {"deal", "trump"} <= shown
        assert {f"term-{slug}" for slug in shown} <= anchors
        assert errors == []
    finally:
        context.close()
