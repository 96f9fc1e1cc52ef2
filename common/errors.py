"""The one base of every refusal the site makes.

A service that refuses a request raises an ``ApplicationError`` (or one of
its kinds) before it changes anything. Its ``code`` is stable: clients,
pages and tests go by it, never by the message. The API answers every
refusal as ``{"code", "detail"}`` with the error's ``status``
(``common.api_errors``); the live sockets send the code in an ``error``
frame; pages turn it into a sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ApplicationError(Exception):
    """A request refused; nothing was changed."""

    code = "refused"
    # The HTTP status the API answers with.
    status = 409

    def __init__(self, message: str = "", code: str | None = None):
        super().__init__(message or self.code)
        if code:
            self.code = code


class NotFound(ApplicationError):
    code = "not_found"
    status = 404


class Forbidden(ApplicationError):
    """Not for this account at all (an inactive one)."""

    code = "forbidden"
    status = 403


class NotAllowed(ApplicationError):
    """Not allowed now, in the state things are in."""

    code = "not_allowed"


def refusal_message(
    error: ApplicationError, sentences: Mapping[str, StrOrPromise], **values: object
) -> str:
    """What a page says of a refusal: the sentence ``sentences`` has for its
    code (a mapping of codes to translatable texts with ``%(name)s`` places
    for ``values``), or a general one with the error's own message."""
    from django.utils.translation import gettext

    text = sentences.get(error.code)
    if text is not None:
        return str(text) % values
    return gettext("That did not work: %(reason)s.") % {"reason": error}
