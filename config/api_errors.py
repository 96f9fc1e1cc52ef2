"""Every refusal of the REST API as ``{"code", "detail"}`` JSON.

One exception handler for the whole API: a service's ``ApplicationError``
with its own code and status, and DRF's own refusals (authentication,
permission, a missing object, a method, bad input, throttling) with theirs;
bad input also lists what was wrong with each field under ``fields``. The
schema lists these answers for every operation (``config.api_schema``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import ApplicationError


class ErrorSerializer(serializers.Serializer):
    """A refusal: nothing was changed."""

    code = serializers.CharField(
        help_text="Stable, for programs: e.g. not_found, not_authenticated, "
        "permission_denied, invalid, closed, full, few_coins."
    )
    detail = serializers.CharField(help_text="For people.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Bad input (400): what is wrong with each field.",
    )


def exception_handler(exc, context):
    if isinstance(exc, ApplicationError):
        return Response({"code": exc.code, "detail": str(exc)}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
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


def _texts(errors) -> list[str]:
    if isinstance(errors, dict):
        return [
            f"{key}: {text}" for key, value in errors.items() for text in _texts(value)
        ]
    if isinstance(errors, list):
        return [text for error in errors for text in _texts(error)]
    return [str(errors)]
