"""Signing up: a few accounts an hour from one address.

Each new account costs nothing and comes with the welcome coins, so one
address making dozens a minute is making puppets (docs/security.md,
"Sign-ups per address"). Sign-ups are counted from the profiles themselves,
by the keyed digest of the address they came from (``accounts.addresses``),
over the last hour: the answer can say exactly when the oldest of them
leaves the hour.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from accounts.addresses import address_digest
from accounts.models import Profile
from common.errors import ApplicationError

WINDOW = timedelta(hours=1)
# The first key of the PostgreSQL advisory locks taken here (the second is
# the address's): no other lock of the site's uses this pair space.
ADVISORY_LOCK_SPACE = 0x5167


class SignUpsPaused(ApplicationError):
    """Too many accounts were made from this address in the last hour."""

    code = "signups_paused"
    status = 429

    def __init__(self, retry_after: int):
        super().__init__(f"too many sign-ups from this address: wait {retry_after} s")
        self.retry_after = retry_after


def signup_wait_seconds(address: str, now=None) -> int:
    """Seconds before ``address`` may sign up again (0: now)."""
    digest = address_digest(address)
    if not digest:
        return 0
    now = now or timezone.now()
    joined = list(
        Profile.objects.filter(
            signup_address=digest, user__date_joined__gt=now - WINDOW
        )
        .order_by("-user__date_joined")
        .values_list("user__date_joined", flat=True)[
            : settings.PULKA_SIGNUPS_PER_ADDRESS
        ]
    )
    if len(joined) < settings.PULKA_SIGNUPS_PER_ADDRESS:
        return 0
    # Once the oldest of the last few leaves the hour, one more fits.
    return max(1, math.ceil((joined[-1] + WINDOW - now).total_seconds()))


def account_sign_up(*, form, password_hash: str, address: str):
    """Create the account of a valid ``SignUpForm`` signed up from
    ``address``, with its profile noting where it came from; raises
    ``SignUpsPaused`` (nothing created) past the limit of the address.

    Locking: a PostgreSQL advisory lock on the address's digest, held until
    the transaction ends, so that sign-ups from one address at once are
    counted one after the other."""
    digest = address_digest(address)
    with transaction.atomic():
        if digest:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)",
                    [ADVISORY_LOCK_SPACE, _lock_key(digest)],
                )
            wait = signup_wait_seconds(address)
            if wait:
                raise SignUpsPaused(wait)
        user = form.save_with(password_hash)
        profile, _ = Profile.objects.get_or_create(user=user)
        profile.signed_up = True
        profile.signup_address = digest
        profile.login_address = digest
        profile.save(update_fields=["signed_up", "signup_address", "login_address"])
        user.profile = profile
    return user


def _lock_key(digest: str) -> int:
    """A signed 32-bit key from the digest (advisory locks take int4)."""
    return int(digest[:8], 16) - 2**31
