"""Every refusal of the REST API as ``{"code", "detail"}`` JSON.

One exception handler for the whole API: a service's ``ApplicationError``
with its own code and status, and DRF's own refusals (authentication,
permission, a missing object, a method, bad input, throttling) with theirs;
bad input also lists what was wrong with each field under ``fields``.
Refusals made before any API view runs are worded the same way
(``config.middleware.ApiAnswersJson``, ``config.http_protocol``).

``API_ERRORS`` lists every code a client can be answered with under /api/.
The schema gives it as the ``code`` enum of ``Error`` (and each operation's
own refusals as a subset, ``refusal_serializer``), and a test produces each
one with a real request (tests/test_documented_errors.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, cast

from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import ApplicationError

# code: (HTTP status, when).
API_ERRORS: dict[str, tuple[int, str]] = {
    "invalid": (400, "bad input: `fields` says what is wrong with each field"),
    "parse_error": (
        400,
        "the body is not the JSON it says it is, or is nested too deep to read",
    ),
    "bad_request": (
        400,
        "the request could not be read: a NUL character in its address, too "
        "many query fields, a Host that is not served here, malformed HTTP, "
        "or an address of 64 KiB or more",
    ),
    "not_authenticated": (401, "neither a session nor a token"),
    "authentication_failed": (
        401,
        "the token is not valid, or its account is deactivated",
    ),
    "permission_denied": (
        403,
        "a change made with the session cookie without its CSRF token",
    ),
    "not_found": (404, "no such object, page or API address"),
    "method_not_allowed": (405, "the address does not take that method"),
    "not_acceptable": (406, "the Accept header names nothing the API answers"),
    "unsupported_media_type": (415, "a body in a content type the API does not read"),
    "already_waiting": (409, "quick play: already in a pool"),
    "not_waiting": (409, "quick play: in no pool"),
    "ranked_elsewhere": (409, "quick play: seated at another live ranked table"),
    "few_coins": (
        409,
        "fewer Domino Coin than the stake or the entry fee",
    ),
    "rating_needed": (
        409,
        "quick play: the stake needs an established rating (a high stake, "
        "or any stake of an account made by the sign-up page)",
    ),
    "closed": (409, "a tournament's registration is over"),
    "full": (409, "the tournament is full"),
    "registered": (409, "already registered for the tournament"),
    "not_registered": (409, "not registered for the tournament"),
    "not_finished": (409, "the tournament's results are published when it is over"),
    "blocked": (
        409,
        "friends: one of the two players has blocked the other (no friend "
        "request or invitation passes between them)",
    ),
    "yourself": (409, "friends: the player named is you"),
    "already_friends": (409, "friends: you are friends already"),
    "already_requested": (409, "friends: your request waits for an answer"),
    "not_friends": (409, "friends: you are not friends (only friends are invited)"),
    "not_seated": (409, "invitations: you have no seat at the table"),
    "no_free_seat": (409, "invitations: the table has no free seat, or its game began"),
    "already_seated": (409, "invitations: the friend is seated at the table already"),
    "invited_already": (409, "invitations: the friend's invitation there is open"),
    "invitation_over": (
        409,
        "invitations: answered, expired, withdrawn, or its seats are taken",
    ),
    "too_many_invitations": (429, "invitations: more than six in a minute"),
    "too_many_friend_requests": (
        429,
        "friends: more than 20 friend requests in an hour, or 3 to one player "
        "in a day (a request taken back counts)",
    ),
    "game_not_finished": (
        409,
        "rematch: the game is being played, or was called off or annulled; "
        "review: the game is being played (or asked to be made again)",
    ),
    "not_a_player": (
        409,
        "rematch, a review made again: you had no seat at the game",
    ),
    "review_current": (
        409,
        "review: made again only when it failed or is out of date; it is "
        "queued, being made, or made by the current version",
    ),
    "tournament_game": (409, "rematch: a tournament's games are not played again"),
    "rematch_agreed": (409, "rematch: you have agreed already"),
    "rematch_made": (409, "rematch: made already, its table is open"),
    "no_offer": (409, "rematch: no open offer to decline"),
    "rematch_refused": (
        409,
        "rematch: somebody may not take their seat at the new table (a seat "
        "at another ranked table, too few coins, a rating needed, a closed "
        "account): nothing was made and the offer lapsed",
    ),
    "throttled": (429, "too many requests: `Retry-After` says when to try again"),
    "locked_out": (
        429,
        "too many failed logins on the browsable API's login page: "
        "`Retry-After` says when to try again",
    ),
    "unavailable": (
        503,
        "the database cannot be reached just now (down, refusing connections, "
        "or all the server's connections busy): nothing was done; "
        "`Retry-After` says when to try again",
    ),
}


def code_field(codes: Iterable[str], **kwargs: Any) -> serializers.CharField:
    """A refusal's ``code``, given in the schema as the enum of ``codes``."""
    enum = {"type": "string", "enum": list(codes)}
    field_class = extend_schema_field(enum)(
        type("CodeField", (serializers.CharField,), {})
    )
    return cast(serializers.CharField, field_class(**kwargs))


def refusal_serializer(
    name: str, codes: list[str]
) -> type[serializers.Serializer[Any]]:
    """One operation's own refusals: ``{"code", "detail"}`` with ``codes``
    (kept as the class's ``codes``). The same name and codes give the same
    class, so that the schema names one component once."""
    return _refusal_serializer(name, tuple(codes))


@functools.cache
def _refusal_serializer(
    name: str, codes: tuple[str, ...]
) -> type[serializers.Serializer[Any]]:
    unknown = set(codes) - set(API_ERRORS)
    if unknown:
        raise ValueError(f"not in API_ERRORS: {sorted(unknown)}")
    listed = ", ".join(f"{code} ({API_ERRORS[code][1]})" for code in codes)
    fields = {
        "code": code_field(codes, help_text=f"One of: {listed}."),
        "detail": serializers.CharField(help_text="For people."),
        "__doc__": "A refusal: nothing was changed.",
        "codes": codes,
    }
    return type(name, (serializers.Serializer,), fields)


class ErrorSerializer(serializers.Serializer[Any]):
    """A refusal: nothing was changed."""

    code = code_field(
        API_ERRORS,
        help_text="Stable, for programs: "
        + "; ".join(
            f"`{code}` ({status}) {when}" for code, (status, when) in API_ERRORS.items()
        )
        + ".",
    )
    detail = serializers.CharField(help_text="For people.")
    # A declared field, which DRF's metaclass takes off the class: it does
    # not hide ``Serializer.fields`` as the stubs think.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Bad input (400): what is wrong with each field.",
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response({"code": exc.code, "detail": str(exc)}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # None: DRF answers its own exceptions only
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"": exc.detail}
        response.data = {
            "code": "invalid",
            "detail": "the request is not valid",
            "fields": {name: _texts(errors) for name, errors in fields.items()},
        }
    else:
        response.data = {"code": exc.default_code, "detail": str(exc.detail)}
    return response


def _texts(errors: object) -> list[str]:
    if isinstance(errors, dict):
        return [
            f"{key}: {text}" for key, value in errors.items() for text in _texts(value)
        ]
    if isinstance(errors, list):
        return [text for error in errors for text in _texts(error)]
    return [str(errors)]
