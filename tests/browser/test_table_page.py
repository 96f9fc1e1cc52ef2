"""The live table page in Chromium, for each of the four rule set-ups: a
person plays a whole deal with the keyboard against three autopilots (one in
Japanese Joker), and the page shows what a player needs on the felt.

Checked for each: trump on the felt; every card of a trick at its player's
side; the last trick on demand with who played what; the premium tracker
after a deal with an exact and a missed bid; at 390x844 no horizontal scroll
on the table and, in the lobby, the open tables above the form. Screenshots
of the table at desktop and phone size go to var/screenshots/.
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import Game, Table
from games.services import tables
from tests.factories import DEFAULT_PASSWORD

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
DEAL_TIMEOUT = 150
PHONE = {"width": 390, "height": 844}

# (test id, profile, options): Georgian club rules with the classic deals,
# with nines, in pairs; and Japanese Joker.
SETUPS = [
    ("classic", "georgian-club", {"schedule": "classic"}),
    ("nines", "georgian-club", {"schedule": "nines"}),
    ("pairs", "georgian-club", {"schedule": "classic", "pairs": True}),
    # A Japanese deal scores at most 18, so with 31 to reach the game goes
    # on after deal 1, as the rest of the test needs.
    ("japanese", "japanese", {"target": 31}),
]


def open_table(read_db, profile: str, options: dict) -> tuple[str, int]:
    """A user at seat 0 of a new table, autopilots in the other seats: the
    game starts with the last of them. The user's name and the table."""

    def create():
        user = get_user_model().objects.create_user(
            username=f"kbd-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
        )
        table = tables.table_create(
            user=user, profile=profile, options=options, turn_seconds=120
        )
        for number in range(1, table.rules.players):
            tables.seat_add_bot(
                table_id=table.pk, user=user, number=number, bot="autopilot"
            )
        return user.username, table.pk

    return read_db(create)


def open_waiting_table(read_db) -> int:
    """Another player's table in the lobby, waiting, with a practice bot."""

    def create():
        host = get_user_model().objects.create_user(
            username=f"host-with-a-rather-long-name-{uuid.uuid4().hex[:6]}",
            password=DEFAULT_PASSWORD,
        )
        table = tables.table_create(user=host, profile="georgian-club")
        tables.seat_add_bot(table_id=table.pk, user=host, number=1, bot="practice")
        return table.pk

    return read_db(create)


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label(re.compile(r"^Username:?$")).fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # Signed in once the site has sent the player on (to the lobby): a page
    # opened next carries the session's cookie.
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.wait_for_load_state("load")


# Notes every card drawn in the trick on the felt: its seat, its card and
# the side of the felt it was drawn at.
WATCH_THE_FELT = """() => {
  window.feltPlays = [];
  const trick = document.querySelector("#trick");
  const seen = new Set();
  new MutationObserver(() => {
    for (const slot of trick.querySelectorAll(".slot")) {
      const card = slot.querySelector(".card").dataset.card;
      const pos = [...slot.classList].find((c) => c.startsWith("pos-"));
      const key = slot.dataset.seat + card;
      if (seen.has(key)) continue;
      seen.add(key);
      window.feltPlays.push({ seat: Number(slot.dataset.seat), card, pos });
    }
  }).observe(trick, { childList: true, subtree: true });
}"""

# What the page asks of the person now: the deal is over (a row in the
# scoresheet), a choice in the prompt (trump, bid, a joker's mode), or a card.
NEXT_STEP = """(deals) => {
  const rows = document.querySelectorAll("#scoresheet tr.deal-row");
  if (rows.length > deals) return "over";
  const prompt = document.querySelector("#prompt.yours");
  if (!prompt) return null;
  if (prompt.querySelector("button.choice:not([disabled])")) return "choice";
  if (document.querySelector("#live button.card.legal:not(.unusable)")) return "card";
  return null;
}"""

FOCUSED = """() => {
  const node = document.activeElement;
  return node ? {
    tag: node.tagName,
    card: node.dataset.card || null,
    legal: node.classList.contains("legal") && !node.classList.contains("unusable"),
    choice: node.classList.contains("choice"),
    label: node.getAttribute("aria-label") || node.textContent,
  } : null;
}"""


CARD_NAME = re.compile(
    r"^((\d+|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)|joker)$"
)


def keyboard_move(page, step: str) -> str:
    """Make the move the page asks for with the keyboard alone: the turn's
    first choice has the focus; a card is reached with the arrow keys."""
    focused = page.evaluate(FOCUSED)
    if step == "choice":
        assert focused["choice"], f"the prompt's first choice has no focus: {focused}"
    else:
        # From the first card, right arrow until a card that may be played.
        page.keyboard.press("Home")
        for _ in range(40):
            focused = page.evaluate(FOCUSED)
            assert focused["card"], f"the focus left the cards: {focused}"
            if focused["legal"]:
                break
            page.keyboard.press("ArrowRight")
        assert focused["legal"], "no legal card reached with the arrow keys"
        # Read out as a card is named, never as a code like "J1".
        assert CARD_NAME.match(focused["label"]), focused
    page.keyboard.press("Enter")
    return focused["label"]


TRUMP_ON_FELT = """() => {
  const box = document.querySelector('#felt .felt-trump');
  return box && !box.hidden ? { trump: box.dataset.trump, text: box.innerText } : null;
}"""


def play_deal_by_keyboard(page, deals_before: int) -> tuple[list[str], dict]:
    """Play the deal to its end; the moves, and the trump the felt showed
    when the first card was due."""
    moves = []
    trump = None
    deadline = time.monotonic() + DEAL_TIMEOUT
    while time.monotonic() < deadline:
        left_ms = max(1000, (deadline - time.monotonic()) * 1000)
        step = page.wait_for_function(
            NEXT_STEP, arg=deals_before, timeout=left_ms
        ).json_value()
        if step == "over":
            return moves, trump
        if step == "card" and trump is None:
            trump = page.evaluate(TRUMP_ON_FELT)
        moves.append(f"{step}: {keyboard_move(page, step)}")
        # Wait for the move to be taken (a joker's first Enter only opens
        # its modes, which take the focus).
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')",
            timeout=30_000,
        )
    raise AssertionError(f"the deal did not end in {DEAL_TIMEOUT} s: {moves}")


def expected_position(seat: int, me: int, players: int) -> str:
    relative = (seat - me) % players
    sides = ["bottom", "top"] if players == 2 else ["bottom", "left", "top", "right"]
    return "pos-" + sides[relative]


def seat_names(page) -> dict[int, str]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#felt .seat')]
             .map((s) => [s.dataset.seat,
                          s.querySelector('.seat-name-text').textContent]))"""
    )


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# The texts of the elements matching a selector that do not fit in them.
CUT_NAMES = """(selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.scrollWidth > node.clientWidth + 1)
  .map((node) => node.textContent)"""


def no_horizontal_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
    )


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("name", "profile", "options"), SETUPS, ids=[s[0] for s in SETUPS]
)
def test_a_whole_deal_by_keyboard(
    name, profile, options, page, browser, server, read_db
):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    username, table_id = open_table(read_db, profile, options)
    japanese = profile == "japanese"
    players = 2 if japanese else 4
    log_in(page, username)
    page.goto(f"/tables/{table_id}/")
    page.locator("#conn[data-state='online']").wait_for()
    page.evaluate(WATCH_THE_FELT)

    page.locator("#felt .felt-trump").wait_for()
    moves, trump = play_deal_by_keyboard(page, deals_before=0)
    assert any(move.startswith("card") for move in moves), moves
    assert page.js_errors == []

    # Trump was on the felt, big, while the cards were played: the deal's
    # trump as the scoresheet has it.
    sheet_trump = page.locator("#scoresheet tr.deal-row").first.locator("td.trump")
    assert trump is not None and trump["trump"] in ("S", "H", "D", "C", "none")
    assert sheet_trump.get_attribute("title") in trump["text"]
    assert trump["text"].startswith("Trump")

    # Every card of every trick was drawn at its player's side.
    plays = page.evaluate("() => window.feltPlays")
    assert len(plays) >= players, plays
    for play in plays:
        assert play["pos"] == expected_position(play["seat"], 0, players), play
    assert {play["seat"] for play in plays} == set(range(players))

    # The message that the deal is over has a line of its own: it covers
    # neither the hand nor the scoresheet.
    notice = page.locator("#notices")
    assert "Deal 1 is over" in notice.inner_text()
    box = notice.bounding_box()
    for other in ("#hand", "#scoresheet-box", "#felt"):
        assert not overlap(box, page.locator(other).bounding_box()), other

    # The last trick, on demand (the L key), with who played which card:
    # the deal's last cards on the felt.
    names = seat_names(page)
    page.locator("body").press("l")
    panel = page.locator("#last-trick")
    panel.wait_for()
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#last-trick .last-play')].map((p) => ({
             seat: Number(p.dataset.seat),
             card: p.querySelector('.card').dataset.card,
             name: p.querySelector('.last-play-name').textContent,
             pos: [...p.classList].find((c) => c.startsWith('pos-')),
           }))"""
    )
    last_on_felt = plays[-players:]
    assert sorted((p["seat"], p["card"]) for p in shown) == sorted(
        (p["seat"], p["card"]) for p in last_on_felt
    )
    for play in shown:
        assert play["name"] == names[str(play["seat"])]
        assert play["pos"] == expected_position(play["seat"], 0, players)
    assert re.search(r"Last trick: .+ took it", panel.inner_text())

    # The premium tracker after the deal: exact seats are still on course,
    # the others have lost it (every Georgian deal has a missed bid: the
    # dealer may not make the bids add up).
    if japanese:
        assert page.locator("#felt .seat-premium:not([hidden])").count() == 0
    else:
        exact = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#scoresheet tr.deal-row:first-child td.score')]
                 .map((td) => td.classList.contains('exact'))"""
        )
        assert len(exact) == 4 and not all(exact), exact
        marks = page.evaluate(
            """() => [...document.querySelectorAll('#felt .seat')]
                 .sort((a, b) => a.dataset.seat - b.dataset.seat)
                 .map((s) => s.querySelector('.seat-premium').className)"""
        )
        # The next deal's bidding waits for the person: nobody has played
        # a card of it yet, so only the finished deal counts.
        for seat, was_exact in enumerate(exact):
            assert ("exact" if was_exact else "missed") in marks[seat], (seat, marks)
        if options.get("pairs"):
            partner = page.locator("#felt .seat[data-seat='2'] .badge.partner")
            assert partner.inner_text() == "your partner"

    page.locator("body").press("l")
    page.screenshot(path=str(SCREENSHOTS / f"table-{name}-desktop.png"), full_page=True)

    # On a phone: the same table with no horizontal scroll, and the lobby
    # with the open tables above the form.
    phone = browser.new_context(
        base_url=server,
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        storage_state=page.context.storage_state(),
        locale="en-US",
    )
    try:
        mobile = phone.new_page()
        mobile.goto(f"/tables/{table_id}/")
        mobile.locator("#conn[data-state='online']").wait_for()
        mobile.locator("#felt .felt-trump").wait_for()
        assert no_horizontal_scroll(mobile)
        assert mobile.evaluate(CUT_NAMES, "#felt .seat-name-text, #scoresheet th") == []
        mobile.screenshot(
            path=str(SCREENSHOTS / f"table-{name}-phone.png"), full_page=True
        )
        waiting = open_waiting_table(read_db)
        mobile.goto("/lobby/")
        assert no_horizontal_scroll(mobile)
        mobile.screenshot(path=str(SCREENSHOTS / "lobby-phone.png"), full_page=True)
        card = mobile.locator(f"#table-{waiting}")
        assert "Practice bot 2" in card.inner_text()
        assert "Practice bot bot" not in card.inner_text()
        form_top = mobile.locator(".lobby-create").bounding_box()["y"]
        assert card.bounding_box()["y"] < form_top
        # Names in the lobby's seat lists are whole, not cut.
        assert mobile.evaluate(CUT_NAMES, ".tseat-name") == []
    finally:
        phone.close()

    game_status = read_db(lambda: Game.objects.get(table_id=table_id).status)
    assert game_status == Game.Status.PLAYING
    assert read_db(lambda: Table.objects.get(pk=table_id).profile) == profile
