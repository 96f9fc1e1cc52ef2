"""Test run: fast hashing, generous throttles, separate cache keys and queues.

The database, the cache and the broker follow DATABASE_URL and REDIS_URL like
every other setup; without them the tests use this checkout's embedded
PostgreSQL and Redis, which the test session starts (tests/conftest.py).
"""

import os

from common import redis_roles

from .base import *  # noqa: F403
from .base import (
    CHANNEL_LAYERS,
    DATABASES,
    PULKA_BROKER_URL,
    PULKA_REDIS_CACHE_URL,
    PULKA_REDIS_CHANNELS_URL,
    PULKA_REDIS_LIVE_URL,
    PULKA_RESULTS_URL,
    REDIS_URL,
    REST_FRAMEWORK,
)

DEBUG = False
SECRET_KEY = "test-only-key-not-secret"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# A commit in a test run need not wait for its WAL to reach the disk: a
# crash loses a test database, nothing else. (Each session's own setting;
# the server's, which a `make run` on the same server relies on, is left.)
# A DATABASE_URL with options of its own keeps them: the failover drill's
# (tests/ha) commits wait for the synchronous standby.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "options", "-c synchronous_commit=off"
)

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


# Under pytest-xdist each worker has a test database of its own (pytest-django
# suffixes the name with the worker's id) and here a Redis database of its
# own, on each role's server: worker gwN uses database N + 1, and the
# processes a worker starts inherit its PYTEST_XDIST_WORKER and so choose the
# same one. Pub/Sub channels are shared by every database of a server, so the
# channel layer's prefix names the worker too.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
TEST_PREFIX = f"pulka-test-{XDIST_WORKER}" if XDIST_WORKER else "pulka-test"
if XDIST_WORKER:
    _database = int(XDIST_WORKER.removeprefix("gw")) + 1

    def _own(value: str) -> str:
        return " ".join(
            redis_roles.with_database(url, _database)
            if redis_roles.names_redis(url)
            else url
            for url in redis_roles.urls(value)
        )

    REDIS_URL = _own(REDIS_URL)
    PULKA_REDIS_CHANNELS_URL = _own(PULKA_REDIS_CHANNELS_URL)
    PULKA_REDIS_CACHE_URL = _own(PULKA_REDIS_CACHE_URL)
    PULKA_REDIS_LIVE_URL = _own(PULKA_REDIS_LIVE_URL)
    # A broker the environment names is left as it is.
    if "CELERY_BROKER_URL" not in os.environ:
        PULKA_BROKER_URL = _own(PULKA_BROKER_URL)
    PULKA_RESULTS_URL = _own(PULKA_RESULTS_URL)

# A test run must not touch the keys, channels and queues of a server running
# on the same Redis (a `make run` of this checkout, say).
CACHES = {"default": redis_roles.cache(PULKA_REDIS_CACHE_URL, KEY_PREFIX=TEST_PREFIX)}
CHANNEL_LAYERS = {
    "default": {
        **CHANNEL_LAYERS["default"],
        "CONFIG": {
            **CHANNEL_LAYERS["default"]["CONFIG"],
            "hosts": redis_roles.layer_hosts(PULKA_REDIS_CHANNELS_URL),
            "prefix": TEST_PREFIX,
        },
    },
}
CELERY_BROKER_URL = redis_roles.celery_url(PULKA_BROKER_URL)
CELERY_BROKER_TRANSPORT_OPTIONS = redis_roles.celery_transport_options(PULKA_BROKER_URL)
CELERY_RESULT_BACKEND = redis_roles.celery_url(PULKA_RESULTS_URL)
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = redis_roles.celery_transport_options(
    PULKA_RESULTS_URL
)
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
