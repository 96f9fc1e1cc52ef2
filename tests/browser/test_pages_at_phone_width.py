"""Every page of the site on a phone, in each of its four languages.

The pages come from the URL conf (a page added there and not listed here
fails ``test_every_page_of_the_url_conf_is_listed``), filled with the demo's
data (finished ranked games, tournaments, friends, coins), players with long
names, a Swiss tournament with a long name and a table in play whose first
trick is over. One Chromium, one context a language; each page is loaded
once, signed out and signed in, and looked at 360 and 390 px wide:

- the page does not scroll sideways, and no element sticks out of the screen
  (unless a box that scrolls sideways holds it, as the wide tables do);
- no word is broken inside: each word of each visible text sits on one line
  (a break at a hyphen is a break between words);
- on the table, the seats, trump, the trick and the last-trick button do not
  cover each other.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from tests.browser.test_table_on_a_phone import NEXT_STEP, tap_move
from tests.factories import DEFAULT_PASSWORD

# With PULKA_SCREENSHOT_DIR set, each page at 360 px is saved there.
SCREENSHOTS = (
    Path(os.environ["PULKA_SCREENSHOT_DIR"])
    if os.environ.get("PULKA_SCREENSHOT_DIR")
    else None
)
LANGUAGES = ["en", "ka", "ru", "tr"]
WIDTHS = [360, 390]
HEIGHT = 740
PLAYER = "nino"  # the demo's player with friends, games, coins and ratings

# Long names, as people choose them (32 characters at most).
LONG_NAMES = {
    "nino": "ნინო ჯავახიშვილი-გელაშვილი",
    "giorgi": "Константин Константинопольский",
    "tamar": "Tamar Kvaratskhelia-Tsereteli",
    "levan": "Levan Chkheidze Tsulukidze",
}

# The site's pages, by URL name: the arguments they are seen with (filled in
# from the data made), and whether a person who is signed out sees them.
PAGES = {
    "home": ({}, True),
    "accounts:signup": ({}, True),
    "accounts:login": ({}, True),
    "accounts:profile": ({}, False),
    "games:lobby": ({}, True),
    "games:invite": ({"invite_code": "invite_code"}, False),
    "games:table": ({"table_id": "table"}, True),
    "games:replay": ({"game_id": "game"}, True),
    "games:rules-index": ({}, True),
    "games:rules": ({"profile": "japanese"}, True),
    "ratings:leaderboard": ({}, True),
    "ratings:leaderboard-category": ({"category": "japanese"}, True),
    "ratings:player": ({"username": "player"}, True),
    "coins:wallet": ({}, False),
    "matchmaking:play": ({}, False),
    "tournaments:list": ({}, True),
    "tournaments:detail": ({"tournament_id": "tournament"}, True),
    "social:friends": ({}, False),
    "api:docs": ({}, True),
    # The browsable API's own pages: its root, and one answer of a signed-in
    # player's.
    "api:root": ({}, True),
    "api:me": ({}, False),
}

# What else the URL conf answers: forms' POST targets, data for scripts,
# fragments of a page, redirects, the API (its own pages are DRF's).
NOT_PAGES = {
    "health", "favicon", "set_language", "accounts:logout",
    "accounts:api_token_create", "accounts:api_token_revoke",
    "accounts:set_language", "games:lobby-tables", "games:table-create",
    "games:seat-leave", "games:seat-take", "games:seat-add-bot",
    "games:seat-remove-bot", "games:table-state", "games:record",
    "games:javascript-catalog", "matchmaking:join", "matchmaking:cancel",
    "tournaments:register", "tournaments:withdraw", "tournaments:next",
    "social:request",
    "social:request-answer", "social:unfriend", "social:block",
    "social:unblock", "social:invite", "social:invitation-answer",
}  # fmt: skip


def url_names(patterns=None, namespace: str = "") -> set[str]:
    """The names in the URL conf, outside the admin and the API (and its
    browsable pages' sign-in)."""
    names = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or ""
            if inner in ("admin", "rest_framework"):  # their own pages
                continue
            full = f"{namespace}:{inner}" if namespace and inner else inner or namespace
            names |= url_names(pattern.url_patterns, full)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)
    shown = ("api:docs", "api:root", "api:me")
    return {name for name in names if name in shown or not name.startswith("api")}


def test_every_page_of_the_url_conf_is_listed():
    assert url_names() == set(PAGES) | NOT_PAGES


def seed(read_db) -> dict:
    """The demo's data, long names and a table in play: the values the
    pages' URLs are filled in with."""

    def create():
        from django.contrib.auth import get_user_model

        from accounts.services import profile_update
        from demo.games import create_demo_data
        from demo.social import create_demo_friends
        from demo.tournaments import create_demo_tournaments
        from games.models import Game
        from games.services import tables
        from tests.factories import UserFactory
        from tournaments import services as tournaments

        User = get_user_model()
        create_demo_data()
        players = list(User.objects.filter(username__in=LONG_NAMES))
        create_demo_tournaments(players)
        create_demo_friends(players)
        for user in players:
            user.set_password(DEFAULT_PASSWORD)
            user.save(update_fields=["password"])
            profile_update(
                user=user, display_name=LONG_NAMES[user.username], language=""
            )
        nino = User.objects.get(username=PLAYER)
        # A table in play with practice bots; its deal goes on in the browser.
        table = tables.table_create(
            user=nino,
            profile="georgian-club",
            options={"schedule": "classic"},
            turn_seconds=120,
        )
        for number in range(1, 4):
            tables.seat_add_bot(table_id=table.pk, user=nino, number=number)
        # A private table of another player, to be joined by its invitation.
        levan = User.objects.get(username="levan")
        private = tables.table_create(user=levan, profile="japanese", is_private=True)
        # A started Swiss with a long name and long-named players.
        starts = timezone.now() + timedelta(hours=1)
        swiss = tournaments.tournament_create(
            name="Tbilisi Winter Open, the long-named Swiss tournament",
            category="japanese",
            format="swiss",
            rounds=3,
            short_match=True,
            starts_at=starts,
            entry_fee=0,
            min_players=2,
        )
        for number in range(4):
            rival = UserFactory(username=f"a-rather-long-player-name-{number}")
            tournaments.tournament_register(tournament_id=swiss.pk, user=rival)
        tournaments.tournament_register(tournament_id=swiss.pk, user=nino)
        tournaments.tournament_start(
            tournament_id=swiss.pk, now=starts + timedelta(seconds=1)
        )
        game = Game.objects.filter(
            table__seats__user=nino, status=Game.Status.FINISHED
        ).first()
        # The replay shows its review done, as the reviews' worker stores it
        # (at a small depth, to be quick), and the player page its
        # statistics.
        store_review(game)
        return {
            "table": table.pk,
            "invite_code": private.invite_code,
            "game": game.pk,
            "player": PLAYER,
            "tournament": swiss.pk,
        }

    return read_db(create)


def store_review(game) -> None:
    from games import selectors
    from games.models import GameReview, Seat
    from joker.review import review_game, version

    record = selectors.game_record(game)
    people = Seat.objects.filter(table_id=game.table_id, user__isnull=False)
    seats = [
        review_game(record, number, deals=20, seed=game.pk).to_json()
        for number in sorted(people.values_list("number", flat=True))
    ]
    GameReview.objects.update_or_create(
        game=game,
        defaults={
            "status": GameReview.Status.DONE,
            "version": version(),
            "data": {"seats": seats},
        },
    )


def page_urls(values: dict, signed_in: bool) -> list[str]:
    from django.urls import reverse

    urls = []
    for name, (kwargs, signed_out_too) in PAGES.items():
        if signed_in or signed_out_too:
            filled = {key: values.get(value, value) for key, value in kwargs.items()}
            urls.append(reverse(name, kwargs=filled))
    return urls


# The player's move now (as NEXT_STEP, though a deal is over already).
YOUR_MOVE = NEXT_STEP.replace(
    'if (document.querySelector("#scoresheet tr.deal-row")) return "over";', ""
)


def play_the_first_trick(page, table_id: int) -> None:
    """Play on until a trick is over and the move is the player's again, so
    that the table shows bids, tricks taken and the last trick."""
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    for _ in range(40):
        step = page.wait_for_function(YOUR_MOVE).json_value()
        if page.locator("#last-trick-button:enabled").count():
            return
        tap_move(page, step)
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')"
        )
    raise AssertionError("no trick was over after 40 moves")


# What is wrong with the page as it is now laid out: a list of findings.
# ``width``: the phone's; a phone's browser widens its layout viewport (and
# innerWidth) to a page that is wider than the screen.
LAYOUT_FAULTS = """(width) => {
  const faults = [];
  const describe = (node) => {
    const id = node.id ? "#" + node.id : "";
    const cls = typeof node.className === "string" && node.className
      ? "." + node.className.trim().split(/\\s+/).join(".") : "";
    return node.tagName.toLowerCase() + id + cls;
  };
  const scrolling = document.scrollingElement.scrollWidth;
  if (scrolling > width) faults.push(`the page is ${scrolling} px wide`);
  // Inside a box that scrolls or clips sideways, sticking out is its business.
  const heldInside = (node) => {
    let up = node.parentElement;
    for (; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const visible = (node) =>
    node.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  for (const node of document.querySelectorAll("body *")) {
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const out = box.right > width + 0.5 || box.left < -0.5;
    if (out && visible(node) && !heldInside(node)) {
      const [left, right] = [Math.round(box.left), Math.round(box.right)];
      faults.push(`${describe(node)} reaches ${left}..${right}`);
    }
  }
  // Each word on one line. A word is a run of letters and digits; "a-b"
  // may break after its hyphen.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const broken = new Set();
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const parent = text.parentElement;
    if (!parent || parent.closest("script, style, template, option, select")) continue;
    if (!visible(parent)) continue;
    for (const match of text.data.matchAll(/[\\p{L}\\p{N}\\p{M}']{2,}/gu)) {
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const tops = new Set();
      for (const rect of range.getClientRects()) {
        if (rect.width > 0) tops.add(Math.round(rect.bottom));
      }
      if (tops.size > 1) broken.add(`"${match[0]}" in ${describe(parent)}`);
    }
  }
  for (const word of broken) faults.push(`${word} is broken across lines`);
  // The table: what a player reads on the felt covers nothing else of it.
  const felt = [...document.querySelectorAll(
    "#felt .seat, #felt .felt-trump, #last-trick-button, #trick .trick-caption"
  )].filter((node) => visible(node));
  const boxes = felt.map((node) => [node, node.getBoundingClientRect()]);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i];
      const [b, rb] = boxes[j];
      const apart = ra.right <= rb.left + 0.5 || rb.right <= ra.left + 0.5
        || ra.bottom <= rb.top + 0.5 || rb.bottom <= ra.top + 0.5;
      if (!apart) faults.push(`${describe(a)} and ${describe(b)} overlap`);
    }
  }
  return faults.slice(0, 12);
}"""


def look_at(page, url: str, label: str, faults: dict) -> None:
    response = page.goto(url)
    assert response.ok, (label, url, response.status)
    page.wait_for_load_state("load")
    if page.locator("#live #conn").count() and "signed in" in label:
        page.locator("#conn[data-state='online']").wait_for()
    if page.locator("#review-body").count():
        # The review panel, drawn from the API's answer.
        page.locator("#review-next-mistake").wait_for()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        # Let a layout that answers the width (a resize listener) settle.
        page.evaluate("() => new Promise(requestAnimationFrame)")
        found = page.evaluate(LAYOUT_FAULTS, width)
        if SCREENSHOTS and width == WIDTHS[0]:
            name = f"{label} {url}".strip("/").replace("/", "-").replace(" ", "-")
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
        if found:
            faults[f"{label} {url} at {width}"] = found


@pytest.mark.timeout(900)
@pytest.mark.django_db(transaction=True)
def test_every_page_fits_a_phone_in_every_language(browser, server, read_db):
    values = seed(read_db)
    if SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    faults: dict[str, list[str]] = {}
    for language in LANGUAGES:

        def choose(language=language):
            from django.contrib.auth import get_user_model

            from accounts.services import profile_set_language

            user = get_user_model().objects.get(username=PLAYER)
            profile_set_language(user=user, language=language)

        read_db(choose)
        context = browser.new_context(
            base_url=server,
            viewport={"width": WIDTHS[0], "height": HEIGHT},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="en-US",
        )
        context.set_default_timeout(30_000)
        host = server.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [
                {
                    "name": "django_language",
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        try:
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            for url in page_urls(values, signed_in=False):
                look_at(page, url, f"{language} signed out", faults)
            page.goto("/accounts/login/")
            page.locator("input[name=username]").fill(PLAYER)
            page.locator("input[name=password]").fill(DEFAULT_PASSWORD)
            page.locator("form input[name=password]").press("Enter")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
            if language == LANGUAGES[0]:
                play_the_first_trick(page, values["table"])
            for url in page_urls(values, signed_in=True):
                look_at(page, url, f"{language} signed in", faults)
            assert errors == [], (language, errors)
        finally:
            context.close()
    assert not faults, "\n".join(f"{where}: {found}" for where, found in faults.items())
