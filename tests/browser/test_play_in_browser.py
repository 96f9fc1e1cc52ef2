"""A person plays the first deal of a Georgian Joker game in Chromium.

Everything is real: the sign-up and lobby pages, the live table over its
WebSocket, three autopilot bots moved by a Celery worker, the scoresheet.
The person's every move is a click; the database then confirms that the moves
were theirs (not the autopilot's, on a timeout) and that the page showed the
deal's score.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from games.models import Game, GameEvent, Table

# Seat 0 is the creator's: the person's column in the scoresheet.
MY_SEAT = 0
DEAL_TIMEOUT = 60


def label(text: str) -> re.Pattern:
    """A form label as Django renders it ("Password:")."""
    return re.compile(rf"^{re.escape(text)}:?$")


def sign_up(page) -> str:
    username = f"player-{uuid.uuid4().hex[:8]}"
    password = f"Pw-{uuid.uuid4().hex}"
    page.goto("/accounts/signup/")
    page.get_by_label(label("Username")).fill(username)
    page.get_by_label(label("Password")).fill(password)
    page.get_by_label(label("Password confirmation")).fill(password)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/lobby/$"))
    return username


def create_table(page) -> int:
    """A Georgian club table with the classic schedule, from the lobby."""
    page.get_by_label(label("Game")).select_option("georgian-club")
    page.get_by_label(label("Deals")).select_option("classic")
    page.get_by_label(label("Time per move")).select_option("60")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


def seat_autopilot(page, table_id: int) -> None:
    """From the lobby, an autopilot in the first free seat of the table."""
    page.goto("/lobby/")
    card = page.locator(f"#table-{table_id}")
    free_seat = card.locator("li.tseat-free").first
    free_seat.get_by_label("Bot").select_option(label="Autopilot")
    free_seat.get_by_role("button", name="Add bot").click()
    page.wait_for_url(re.compile(rf"/tables/{table_id}/$"))


# What the page asks of the person now, read from what table.js draws: a
# finished deal in the scoresheet, a joker's modes, bids, or legal cards.
NEXT_STEP = """() => {
  if (document.querySelector("#scoresheet tr.deal-row")) return "over";
  const prompt = document.querySelector("#prompt.yours");
  if (!prompt) return null;
  if (prompt.querySelector(".joker-choices button:not([disabled])")) return "joker";
  if (prompt.querySelector("button.bid:not([disabled])")) return "bid";
  if (document.querySelector("#hand button.card.legal:not([disabled])")) return "card";
  return null;
}"""


# Notes every seat position whose card is drawn in the trick on the felt.
# Set once: had the page reloaded, the notes would be gone.
WATCH_THE_FELT = """() => {
  window.feltSeats = new Set();
  const trick = document.querySelector("#trick");
  new MutationObserver(() => {
    for (const slot of trick.querySelectorAll(".slot")) {
      window.feltSeats.add([...slot.classList].find((c) => c.startsWith("pos-")));
    }
  }).observe(trick, { childList: true, subtree: true });
}"""


def play_first_deal(page) -> list[str]:
    """Click through the first deal; the moves made, in order."""
    moves = []
    deadline = time.monotonic() + DEAL_TIMEOUT
    while time.monotonic() < deadline:
        left_ms = max(1000, (deadline - time.monotonic()) * 1000)
        step = page.wait_for_function(NEXT_STEP, timeout=left_ms).json_value()
        if step == "over":
            return moves
        if step == "bid":
            target = (
                page.locator("#prompt")
                .get_by_role("button")
                .filter(has_text=re.compile(r"^\d+$"))
            )
        elif step == "joker":
            target = page.locator("#prompt .joker-choices").get_by_role("button")
        else:
            target = page.locator("#hand button.card.legal:not([disabled])")
        target = target.first
        name = target.get_attribute("aria-label") or target.inner_text()
        target.click()
        moves.append(f"{step}: {name}")
        # A move shows "Sending your move…" until the server's update
        # arrives; a joker's first click only opens its modes.
        page.wait_for_function(
            "() => !document.querySelector('#prompt').textContent"
            ".includes('Sending your move')",
            timeout=30_000,
        )
    raise AssertionError(f"the first deal did not end in {DEAL_TIMEOUT} s: {moves}")


def recorded(table_id: int):
    """The table, its seats' bots, the game's state, and the causes of the
    person's actions in the first deal."""
    table = Table.objects.select_related("created_by").get(pk=table_id)
    bots = list(table.seats.order_by("number").values_list("bot", flat=True))
    game = Game.objects.get(table=table)
    causes = []
    for event in GameEvent.objects.filter(game=game).order_by("version"):
        if event.kind == GameEvent.Kind.DEAL and event.action["deal"] > 0:
            break
        if event.seat == MY_SEAT and event.kind == GameEvent.Kind.ACTION:
            causes.append(event.cause)
    return table, bots, game.engine_state(), causes


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_a_person_plays_the_first_deal_by_clicking(page, worker, read_db, tmp_path):
    started = time.monotonic()
    screenshot = tmp_path / "table.png"
    try:
        username = sign_up(page)
        table_id = create_table(page)
        page.get_by_text("The game starts as soon as all 4 seats are taken").wait_for()
        for _ in range(3):
            seat_autopilot(page, table_id)

        # The third bot starts the game: the table page is now the live table.
        page.locator("#live").wait_for()
        page.locator("#conn[data-state='online']").wait_for()
        assert "(you)" in page.locator(".seat.me .seat-name").inner_text()
        assert "Deal 1 of 24" in page.locator("#bar-deal").inner_text()
        page.evaluate(WATCH_THE_FELT)

        moves = play_first_deal(page)
        # The bots' cards came to the felt as they were played, with no
        # reload: the notes taken since the deal began hold all four seats.
        felt_seats = page.evaluate("() => [...window.feltSeats].sort()")

        row = page.locator("#scoresheet tr.deal-row").first
        cells = row.locator("td")
        assert cells.nth(0).inner_text() == "1"  # the deal's number
        assert cells.nth(1).inner_text() == "1"  # one card each
        my_cell = cells.nth(3 + MY_SEAT)
        shown_bid_tricks = my_cell.locator(".bt").inner_text()
        shown_score = int(my_cell.locator(".pts").inner_text())
        totals = page.locator("#scoresheet tr.totals-row td.score")
        assert totals.count() == 4
        shown_total = int(totals.nth(MY_SEAT).inner_text())
        page.screenshot(path=str(screenshot), full_page=True)
    except BaseException:
        try:
            page.screenshot(path=str(screenshot), full_page=True)
            print(f"\nscreenshot (failure): {screenshot}")
        except Exception as error:
            print(f"\nno screenshot: {error}")
        raise
    print(f"\nscreenshot: {screenshot}")
    print(f"played in {time.monotonic() - started:.1f} s: {moves}")

    assert page.js_errors == []
    assert len(felt_seats) == 4, felt_seats

    # What the page showed is what the server recorded.
    table, bots, state, causes = read_db(lambda: recorded(table_id))
    assert table.created_by.username == username
    assert bots == ["", "autopilot", "autopilot", "autopilot"]
    deal = state.deals[0]
    assert deal.cards == 1
    assert shown_bid_tricks == f"{deal.bids[MY_SEAT]}/{deal.tricks[MY_SEAT]}"
    assert shown_score == deal.scores[MY_SEAT]
    assert shown_total == state.totals[MY_SEAT]
    # The person's bid and card were clicks, not the autopilot on a timeout.
    assert causes == [GameEvent.Cause.PLAYER] * 2, causes
