"""Test run: fast hashing, generous throttles, separate cache keys and queues.

The database, the cache and the broker follow DATABASE_URL and REDIS_URL like
every other setup; without them the tests use this checkout's embedded
PostgreSQL and Redis, which the test session starts (tests/conftest.py).
"""

from .base import *  # noqa: F403
from .base import CACHES, CHANNEL_LAYERS, DATABASES, REST_FRAMEWORK

DEBUG = False
SECRET_KEY = "test-only-key-not-secret"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Close connections after each request or consumer call: a connection kept
# open by a worker thread would stop the test database from being dropped.
DATABASES["default"]["CONN_MAX_AGE"] = 0

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"anon": "10000/minute", "user": "10000/minute"},
}

# Tests drive the sockets at machine speed; the socket limits' own tests
# set the production rates they check.
PULKA_SOCKET_RATE = 500
PULKA_SOCKET_BURST = 200

# Practice bots think for a fiftieth of a second a move (the easy one less,
# the strong one more), so that the games they fill move at test speed.
PULKA_PRACTICE_BOT_SECONDS = 0.02

# A test run must not touch the keys, channels and queues of a server running
# on the same Redis (a `make run` of this checkout, say).
CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": "pulka-test"}}
CHANNEL_LAYERS = {
    "default": {
        **CHANNEL_LAYERS["default"],
        "CONFIG": {**CHANNEL_LAYERS["default"]["CONFIG"], "prefix": "pulka-test"},
    },
}
CELERY_TASK_DEFAULT_QUEUE = "pulka-test"

# Serve static files from the finders, as in development; there is no
# collectstatic output in a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
