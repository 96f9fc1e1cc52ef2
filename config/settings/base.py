"""Settings shared by every environment.

Everything that differs between a laptop, CI and a deployment comes from the
environment (every variable: docs/settings.md). With no DATABASE_URL or
REDIS_URL the project uses the embedded PostgreSQL and Redis of this checkout
(config/embedded.py): real servers, started by `make run` and the test
session, so every setup runs the code that production runs.
"""

import warnings
from datetime import timedelta

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from config import forwarded

from .database import *  # noqa: F403  (PostgreSQL: primary, pooler, replica)
from .environment import BASE_DIR, env
from .play import *  # noqa: F403
from .play import PULKA_SWEEP_EVERY_SECONDS, PULKA_TOURNAMENT_TICK_SECONDS
from .redis import *  # noqa: F403  (every Redis role's server)

# Core
SECRET_KEY = env("SECRET_KEY", default="insecure-local-only-key")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "config.apps.SiteAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "csp",
    "games",
    "ratings",
    "tournaments",
    "accounts",
    "coins",
    "matchmaking",
    "social",
    "chat",
    # Last: it seeds every app above (manage.py seed_demo).
    "demo",
]

MIDDLEWARE = [
    # First: it words the refusals of everything after it as JSON under /api/.
    "config.middleware.ApiAnswersJson",
    "django.middleware.security.SecurityMiddleware",
    # Every answer's Content-Security-Policy, error pages and static files
    # included (the policy is below).
    "config.content_security.ContentSecurityPolicy",
    "config.middleware.StaticFilesMiddleware",
    "config.middleware.RefuseNulCharacters",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as its documentation asks: it turns a locked-out login into the
    # lockout page.
    "axes.middleware.AxesMiddleware",
]

# The Content-Security-Policy of every answer (django-csp, OWASP's Content
# Security Policy Cheat Sheet): scripts, styles, images, fonts and
# connections from the site alone, with no inline script, style or style
# attribute anywhere (the pages' scripts and styles are static files); no
# plugins; no <base> elsewhere; forms posted to the site alone; no page
# framed by any other. The socket origin of each request is added to
# connect-src (config.content_security). Pages that need more say so
# themselves (config.api: the API's docs page).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Failed logins (site, admin and the API's login page alike) are counted per
# account-and-address pair: PULKA_LOGIN_FAILURES wrong passwords for one
# account from one address lock that pair for PULKA_LOGIN_COOLOFF_MINUTES,
# with no password checked meanwhile; the account's owner elsewhere and the
# address's other users are not locked. An address whose failures over all
# its accounts reach PULKA_LOGIN_ADDRESS_FAILURES (each account's counted up
# to PULKA_LOGIN_FAILURES) is locked as a whole (accounts/lockout.py says why
# that takes a handler). Operators lift a lock with the admin's "Lift
# lockout" actions on the access attempts (Axes), which the admin's log keeps.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.LockoutBackend",
    "accounts.backends.PasswordBackend",
]
AXES_FAILURE_LIMIT = env.int("PULKA_LOGIN_FAILURES", default=5)
AXES_COOLOFF_TIME = timedelta(
    minutes=env.float("PULKA_LOGIN_COOLOFF_MINUTES", default=15)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "accounts.lockout.PairAndAddressHandler"
PULKA_LOGIN_ADDRESS_FAILURES = env.int("PULKA_LOGIN_ADDRESS_FAILURES", default=100)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out"
# Accounts the sign-up page makes from one address in an hour; past it the
# page answers 429 with Retry-After (accounts/signups.py).
PULKA_SIGNUPS_PER_ADDRESS = env.int("PULKA_SIGNUPS_PER_ADDRESS", default=5)

# The address is the connection's, as config.forwarded leaves it.
AXES_CLIENT_IP_CALLABLE = "config.forwarded.client_address"

# Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as IP
# addresses and networks ("172.30.56.10,10.0.0.0/8"). Empty: nobody's, and
# a client is the address its connection comes from (config.forwarded).
PULKA_TRUSTED_PROXIES = forwarded.proxy_networks(
    env.list("PULKA_TRUSTED_PROXIES", default=[])
)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # capfirst that leaves Georgian without Mtavruli capitals.
            "builtins": ["common.text_filters", "config.time_filters"],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The first stores every new password; the others verify older ones
# (accounts/hashers.py says why Argon2id and at what cost).
PASSWORD_HASHERS = [
    "accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalization
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ka", _("Georgian")),
    ("ru", _("Russian")),
    ("tr", _("Turkish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Each language's one date and time format (config/formats/<language>).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# Static files, served by WhiteNoise in every environment.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise is synchronous; under ASGI Django streams its file responses from
# a worker thread and warns about it on every file. That is correct, only a bit
# slower, and static files sit behind a cache or CDN in a real deployment.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    module="django.core.handlers.asgi",
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

# Celery. Tasks always go through a broker and a real worker: eager mode would
# run them inline and ignore countdowns, which is exactly what timers rely on.
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 60 * 60
CELERY_TASK_TIME_LIMIT = 5 * 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# The schedule in the database (django-celery-beat), sent by one beat of
# however many run (config.beat), which saves each run just before it sends
# it so that a standby taking over does not send it again.
CELERY_BEAT_SCHEDULER = "config.beat:OneBeatScheduler"
# Task modules outside the installed apps (autodiscovery covers the apps).
CELERY_IMPORTS = ["config.tasks"]
# Deal reviews (docs/review.md) go to a queue of their own, which a worker of
# its own takes at the lowest CPU priority; the other tasks stay on the
# default queue.
REVIEW_QUEUE = "reviews"
# Sampled deals a decision is judged on; None: joker.review's default.
REVIEW_DEALS: int | None = None
# A player's requests to make an out-of-date or failed review again (each
# costs the reviews' worker a whole game): DRF's rate notation.
REVIEW_REQUEST_RATE = env("API_THROTTLE_REVIEW_REQUEST", default="6/hour")
CELERY_TASK_ROUTES = {"games.tasks.review": {"queue": REVIEW_QUEUE}}

# REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so that an anonymous request is answered with 401 and a
        # WWW-Authenticate header rather than a bare 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_PAGINATION_CLASS": "common.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("API_THROTTLE_ANON", default="60/minute"),
        "user": env("API_THROTTLE_USER", default="600/minute"),
    },
    # The throttles tell clients apart by the connection's address, as
    # config.forwarded leaves it; DRF's default (None) reads X-Forwarded-For
    # whole, from anybody, so a new header each request was a new client.
    "NUM_PROXIES": 0,
    # Request bodies are JSON only. With form encodings too, DRF reads an
    # empty form value of an optional field as "not given" and applies its
    # default, so a malformed body could be taken for a valid one.
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.PulkaAutoSchema",
    "EXCEPTION_HANDLER": "common.api_errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pulka API",
    "DESCRIPTION": "Joker and Japanese Joker: tables, results, ratings, tournaments.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI assets come from drf-spectacular-sidecar, so the docs page
    # works without reaching a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {"quiet_unavailable": {"()": "config.unavailable.QuietUnavailable"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # A request that met the database unavailable: a warning, one line.
        "django.request": {"filters": ["quiet_unavailable"]},
        # Axes logs every login at INFO; failures and lockouts are warnings.
        "axes": {"level": "WARNING"},
    },
}

CELERY_BEAT_SCHEDULE = {
    "sweep-lost-timers": {
        "task": "games.tasks.sweep",
        "schedule": PULKA_SWEEP_EVERY_SECONDS,
    },
    # Quick play: seat the groups that the pools allow (matchmaking.services).
    "matchmaking-tick": {
        "task": "matchmaking.tasks.tick",
        "schedule": 2.0,
        # A tick still queued when the next is due is dropped, not run late
        # (django-celery-beat reads "expire_seconds", not "expires").
        "options": {"expire_seconds": 2},
    },
    # Tournaments: recurring ones created, due ones started, results taken in.
    "tournaments-tick": {
        "task": "tournaments.tasks.tick",
        "schedule": PULKA_TOURNAMENT_TICK_SECONDS,
        "options": {"expire_seconds": PULKA_TOURNAMENT_TICK_SECONDS},
    },
    # Deal reviews whose task was lost, sent again (games.reviews).
    "send-queued-reviews": {
        "task": "games.tasks.send_queued_reviews",
        "schedule": 10 * 60,
    },
    # Domino Coin: the daily top-up of low wallets (keyed per user and day).
    "refill-wallets": {
        "task": "coins.tasks.refill_all",
        "schedule": 60 * 60,
    },
}
