"""Site pages and the health endpoint."""

import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView
from kombu.exceptions import OperationalError as KombuOperationalError

from config.celery import app as celery_app


class HomeView(TemplateView):
    template_name = "home.html"


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not healthy"
        return {"status": "error", "vendor": connection.vendor, "error": str(exc)}
    return {"status": "ok", "vendor": connection.vendor}


def check_cache() -> dict:
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    key = f"health:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", timeout=10)
        ok = cache.get(key) == "ok"
        cache.delete(key)
    except Exception as exc:
        return {"status": "error", "backend": backend, "error": str(exc)}
    return {"status": "ok" if ok else "error", "backend": backend}


def check_broker() -> dict:
    with celery_app.connection_for_write() as conn:
        transport = conn.transport_cls
        try:
            conn.ensure_connection(max_retries=1, timeout=2)
        except (KombuOperationalError, OSError) as exc:
            return {"status": "error", "transport": transport, "error": str(exc)}
    return {"status": "ok", "transport": transport}


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Report whether the database, cache and broker answer right now."""
    checks = {
        "database": check_database(),
        "cache": check_cache(),
        "broker": check_broker(),
    }
    healthy = all(check["status"] == "ok" for check in checks.values())
    body = {
        "status": "ok" if healthy else "error",
        **checks,
        "channel_layer": {
            "backend": str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(
                ".", 1
            )[-1]
        },
        "live": live_games(),
    }
    return JsonResponse(body, status=200 if healthy else 503)


def live_games() -> dict:
    """This process's share of the live games: its node name, the games it
    owns, the messages it sent through the channel layer to reach an owner
    or a socket in another process (none while every game's sockets reach
    their owner), and its practice bots' moves of the last minutes with
    the share given less than their level's thinking budget."""
    from games.live.bot_pool import LOAD
    from games.live.hall import owned_games
    from games.live.sinks import HOPS

    return {
        "node": settings.PULKA_LIVE_NODE,
        "owned": owned_games(),
        **HOPS,
        "bots": LOAD.summary(),
    }


@csrf_exempt  # a refusal whatever was sent, the same for every method
def api_not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Any /api/ address that names nothing (an id that is not a number, a
    misspelt path): the API's JSON refusal, not the site's HTML 404 page."""
    return JsonResponse(
        {"code": "not_found", "detail": f"no such API address: {request.path}"},
        status=404,
    )


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the
    static one (with its cache-busting name in production)."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))
