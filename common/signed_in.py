"""The signed-in user of a view that lets only such a user in."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request


def signed_in_id(request: HttpRequest | Request) -> int:
    """The user's id, for a view behind ``login_required`` or DRF's
    ``IsAuthenticated`` (an anonymous user never gets this far)."""
    user_id = request.user.pk
    assert user_id is not None, "a view for signed-in users only"
    return user_id
