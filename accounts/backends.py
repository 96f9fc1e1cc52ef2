"""The lockout check of django-axes, usable by ``aauthenticate`` too."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a login to a locked-out account or address before any
    password is checked. Axes gives only the synchronous method; the check
    is one quick query, so the asynchronous one simply runs it."""

    async def aauthenticate(self, request, **credentials):
        return await sync_to_async(self.authenticate)(request, **credentials)
