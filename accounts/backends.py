"""Authentication backends: the lockout check, then the password.

Both work for ``aauthenticate`` too, without blocking: Django's own
asynchronous password check (``acheck_password``) hashes on the event loop
itself, which stalls every socket and async view of the process for as
long as a hash takes.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import make_password, verify_password
from django.db import connection


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a login to a locked-out account or address before any
    password is checked. Axes gives only the synchronous method; the check
    is one quick query, so the asynchronous one simply runs it."""

    async def aauthenticate(self, request, **credentials):
        return await sync_to_async(self.authenticate)(request, **credentials)


# Hashing touches no database and no thread-bound state, so it runs on two
# threads of its own: a burst of sign-ins then waits its turn there instead
# of filling the event loop's default threads, which other calls need at
# once (the presence of sockets, the cache), and the C allocator keeps at
# most two hashes' worth of memory (Argon2id's 19 MiB each) in its
# per-thread arenas.
_hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="password-hash")
hash_password = sync_to_async(make_password, thread_sensitive=False, executor=_hashing)
_verify_password = sync_to_async(
    verify_password, thread_sensitive=False, executor=_hashing
)


@sync_to_async  # on the request's thread, whose connection it is
def _give_connection_back() -> None:
    """Return the request's pooled connection while the password hashes.

    A hash takes tens of CPU milliseconds (hundreds for a password stored
    before Argon2id), and far longer on a busy machine; held meanwhile,
    the pool's few connections go to a burst of sign-ins and every other
    page waits for one, then fails. Closing a pooled connection hands it
    back; the next query takes one again. Without the pool, or inside a
    transaction, the connection stays.
    """
    if connection.settings_dict["OPTIONS"].get("pool") and not (
        connection.in_atomic_block
    ):
        connection.close()


class PasswordBackend(ModelBackend):
    """Django's ModelBackend; asynchronously, its password hashing runs on a
    worker thread, away from the event loop."""

    async def aauthenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = await users._default_manager.aget_by_natural_key(username)
        except users.DoesNotExist:
            user = None
        await _give_connection_back()
        if user is None:
            # Hash once anyway, as ModelBackend does, so that an unknown
            # username takes as long as a wrong password.
            await hash_password(password)
            return None
        correct, outdated = await _verify_password(password, user.password)
        if not correct:
            return None
        if not self.user_can_authenticate(user):
            if request is not None:
                # The right password for a closed account: the login page
                # tells this person why (accounts.login), nobody else.
                request.closed_account = user
            return None
        if outdated:
            # Stored with older hasher settings: store it afresh.
            user.password = await hash_password(password)
            await user.asave(update_fields=["password"])
        return user
