"""Test run: fast hashing, generous throttles, separate cache keys and queues.

The database, the cache and the broker follow DATABASE_URL and REDIS_URL like
every other setup; without them the tests use this checkout's embedded
PostgreSQL and Redis, which the test session starts (tests/conftest.py).
"""

import os
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from config import embedded

from .base import *  # noqa: F403
from .base import (
    CACHES,
    CELERY_BROKER_URL,
    CHANNEL_LAYERS,
    DATABASES,
    REDIS_LAYER_HOST,
    REDIS_URL,
    REST_FRAMEWORK,
)

DEBUG = False
SECRET_KEY = "test-only-key-not-secret"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# A commit in a test run need not wait for its WAL to reach the disk: a
# crash loses a test database, nothing else. (Each session's own setting;
# the server's, which a `make run` on the same server relies on, is left.)
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Generous throttles; a test of throttling starts a server with its own
# (DRF reads the rates once, when its throttles are imported).
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "10000/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "10000/minute"),
    },
}

# Tests drive the sockets at machine speed; the socket limits' own tests
# set the production rates they check.
PULKA_SOCKET_RATE = 500
PULKA_SOCKET_BURST = 200

# Practice bots think for a fiftieth of a second a move (the easy one less,
# the strong one more), so that the games they fill move at test speed.
PULKA_PRACTICE_BOT_SECONDS = 0.02


def redis_database(url: str, number: int) -> str:
    """`url` (a REDIS_URL) with its database number set to `number`: the path
    of ``redis://host:port/N``, the ``db`` parameter of ``unix:///socket``."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query), db=str(number))
        return f"unix://{parts.path}?{urlencode(query)}"
    return urlunsplit(parts._replace(path=f"/{number}"))


# Under pytest-xdist each worker has a test database of its own (pytest-django
# suffixes the name with the worker's id) and here a Redis database of its
# own: worker gwN uses database N + 1, and the processes a worker starts
# inherit its PYTEST_XDIST_WORKER and so choose the same one. Pub/Sub
# channels are shared by every database of a server, so the channel layer's
# prefix names the worker too.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
TEST_PREFIX = f"pulka-test-{XDIST_WORKER}" if XDIST_WORKER else "pulka-test"
if XDIST_WORKER:
    REDIS_URL = redis_database(REDIS_URL, int(XDIST_WORKER.removeprefix("gw")) + 1)
    if "CELERY_BROKER_URL" not in os.environ:
        CELERY_BROKER_URL = embedded.celery_url(REDIS_URL)
    CELERY_RESULT_BACKEND = embedded.celery_url(REDIS_URL)

# A test run must not touch the keys, channels and queues of a server running
# on the same Redis (a `make run` of this checkout, say).
CACHES = {
    "default": {**CACHES["default"], "LOCATION": REDIS_URL, "KEY_PREFIX": TEST_PREFIX}
}
CHANNEL_LAYERS = {
    "default": {
        **CHANNEL_LAYERS["default"],
        "CONFIG": {
            **CHANNEL_LAYERS["default"]["CONFIG"],
            "hosts": [{**REDIS_LAYER_HOST, "address": REDIS_URL}],
            "prefix": TEST_PREFIX,
        },
    },
}
CELERY_TASK_DEFAULT_QUEUE = "pulka-test"
REVIEW_QUEUE = "pulka-test-reviews"
# Reviews made in tests judge their decisions on few deals, to be quick.
REVIEW_DEALS = 100
# Generous, as the other rates here; the throttle's test sets its own.
REVIEW_REQUEST_RATE = "10000/minute"
CELERY_TASK_ROUTES = {"games.tasks.review": {"queue": REVIEW_QUEUE}}

# Serve static files from the finders, as in development; there is no
# collectstatic output in a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
