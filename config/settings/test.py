"""Test run: fast hashing, generous throttles, separate cache keys and queues.

The database, the cache and the broker still follow DATABASE_URL and
REDIS_URL, so CI exercises PostgreSQL and Redis while a bare checkout tests
against SQLite and the serverless stand-ins.
"""

from .base import *  # noqa: F403
from .base import (
    CACHES,
    DATABASES,
    REDIS_CHANNEL_LAYER,
    REDIS_LAYER_HOST,
    REDIS_URL,
    REST_FRAMEWORK,
    VAR_DIR,
    celery_filesystem_options,
)

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

# A test run must not touch the keys, channels and queues of a server running
# on the same Redis or in the same checkout.
CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": "pulka-test"}}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_CHANNEL_LAYER,
            "CONFIG": {"hosts": [REDIS_LAYER_HOST], "prefix": "pulka-test"},
        },
    }
else:
    CELERY_DATA_DIR = VAR_DIR / "celery-test"
    CELERY_BROKER_TRANSPORT_OPTIONS = celery_filesystem_options(CELERY_DATA_DIR)
    CELERY_RESULT_BACKEND = f"file://{CELERY_DATA_DIR / 'results'}"
CELERY_TASK_DEFAULT_QUEUE = "pulka-test"

# Serve static files from the finders, as in development; there is no
# collectstatic output in a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
