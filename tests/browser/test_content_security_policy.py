"""Every kind of page works in Chromium under the site's Content-Security-
Policy (config.content_security): the table with its socket, the lobby,
quick play, a tournament, the admin, the API's docs (Swagger UI) and the
browsable API, each without a single violation reported, in the console or
as a ``securitypolicyviolation`` event."""

from __future__ import annotations

import uuid

from django.contrib.auth import get_user_model

from tests.factories import DEFAULT_PASSWORD
from tests.games.test_table_pages import japanese_game
from tests.tournaments.support import make_tournament

from .test_table_page import log_in

# Reports each violation to the test, from every document the page loads.
# (Playwright's init scripts run outside the page's policy.)
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"}` +
      ` on ${document.location.pathname}: ${event.sample}`
  );
});
"""


def watch(page) -> list[str]:
    """Violations and CSP messages of ``page`` from now on."""
    seen: list[str] = []
    page.expose_function("reportViolation", lambda text: seen.append(text))
    page.add_init_script(REPORT_VIOLATIONS)
    page.on(
        "console",
        lambda message: (
            seen.append(f"console: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    return seen


def visit(page, path: str, ready: str) -> None:
    """Load ``path`` and wait for ``ready`` (a selector) to show."""
    response = page.goto(path)
    assert response.status == 200, path
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.locator(ready).first.wait_for()


def test_the_pages_run_under_the_policy_without_a_violation(page, read_db):
    def setup():
        user = get_user_model().objects.create_superuser(
            username=f"csp-{uuid.uuid4().hex[:8]}", password=DEFAULT_PASSWORD
        )
        game = japanese_game(user)
        return user.username, user.pk, game.table_id, make_tournament().pk

    username, user_id, table_id, tournament_id = read_db(setup)
    violations = watch(page)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))

    # The browsable API's own login page, signed out.
    visit(page, "/api/v1/auth/login/", "form")
    log_in(page, username)
    visit(page, "/", "main")
    visit(page, "/lobby/", "#lobby-chat[data-socket='online']")
    visit(page, f"/tables/{table_id}/", "#hand .card")
    visit(page, "/play/", "main")
    visit(page, f"/tournaments/{tournament_id}/", "main")
    visit(page, f"/players/{username}/", "main")
    visit(page, "/ratings/", "main")
    visit(page, "/admin/", "#content")
    visit(page, "/admin/games/game/", "#result_list")
    visit(page, f"/admin/auth/user/{user_id}/change/", "#user_form")
    # Swagger UI, drawn by its scripts from the schema it fetches.
    visit(page, "/api/v1/docs/", ".swagger-ui .opblock")
    assert "Pulka API" in page.locator(".swagger-ui .info .title").inner_text()
    visit(page, "/api/v1/", ".response-info")
    visit(page, "/api/v1/players/", ".response-info")
    page.wait_for_timeout(500)  # late reports, if any

    print("VIOLATIONS", violations)
    assert violations == []
    assert page.js_errors == []
    # The sockets of the lobby, the table and the tournament opened, to the
    # site itself (quick play opens one only while its player waits).
    paths = {url.split("/", 3)[3] for url in sockets}
    assert {
        "ws/lobby/",
        # The table page speaks the game socket's protocol 2.
        f"ws/games/{read_db(lambda: _game_of(table_id))}/?protocol=2",
        f"ws/tournaments/{tournament_id}/",
    } <= paths


def _game_of(table_id: int) -> int:
    from games.models import Game

    return Game.objects.get(table_id=table_id).pk
