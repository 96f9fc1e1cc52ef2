"""A request the database could not serve: PostgreSQL refusing connections
or down, or every connection of the process's pool busy past its timeout
(``config.connections``). Such a request is answered 503 with Retry-After,
not 500, and logged as one line rather than a traceback: it is an outage to
wait out, not a fault of the code.

Django turns an exception that escapes a view or a middleware into an
answer in one place, whoever raised it (a session read in a middleware as
well as a query in a view); that place calls the site's ``handler500``,
``server_error`` here, and logs the answer through ``django.request``,
whose records ``QuietUnavailable`` cuts down to a warning.
"""

from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views import defaults

from common.unavailable import DATABASE_UNAVAILABLE as UNAVAILABLE
from common.unavailable import first_line

RETRY_AFTER_SECONDS = 5


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's ``handler500``: 503 for a database that could not be
    reached, Django's own 500 page otherwise. Under /api/ the answer is
    worded as JSON by ``config.middleware.ApiAnswersJson``."""
    if not isinstance(sys.exc_info()[1], UNAVAILABLE):
        return defaults.server_error(request)
    response = HttpResponse(
        gettext("The site cannot reach its database just now. Try again in a moment."),
        content_type="text/plain; charset=utf-8",
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class QuietUnavailable(logging.Filter):
    """A request that met the database unavailable is logged as a one-line
    warning with the error's message, not an error with its traceback; so
    is the same answer worded again as JSON under /api/, which Django logs
    once more."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, UNAVAILABLE):
            record.msg = f"{record.msg} (database unavailable: %s)"
            record.args = (*(record.args or ()), first_line(error))
            record.exc_info = record.exc_text = None
        if isinstance(error, UNAVAILABLE) or getattr(record, "status_code", 0) == 503:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
