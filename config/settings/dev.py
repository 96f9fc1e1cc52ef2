"""Local development: debug on, static files served straight from the sources."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)

# Serve static files from the app and project folders without collectstatic,
# and pick up edits without a restart.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
