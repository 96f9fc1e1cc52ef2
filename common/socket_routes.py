"""A socket's URL route, typed for Channels' ``URLRouter``.

Django's ``path`` and ``re_path`` are typed for views (a request in, a
response out); Channels routes ASGI applications (a consumer's
``as_asgi()``) with the same functions, and its ``URLRouter`` takes the
routes they make as ASGI ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.urls import path, re_path

if TYPE_CHECKING:
    from channels.routing import _ExtendedURLPattern as SocketRoute


def socket_path(route: str, application: Any, *, regex: bool = False) -> SocketRoute:
    """``path(route, application)`` (``re_path`` with ``regex``), for an
    ASGI application."""
    make = re_path if regex else path
    return cast("SocketRoute", make(route, application))
