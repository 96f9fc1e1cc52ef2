"""Failed logins: locked per account-and-address pair, with a much higher
ceiling per address.

A lock per account alone lets anyone lock anyone out by guessing at their
account; a lock per address alone lets one guesser shut out everyone behind
the same address (a club's Wi-Fi, a phone carrier's NAT). So the lock is on
the pair: django-axes' lockout parameters ``[["username", "ip_address"]]``
with ``AXES_FAILURE_LIMIT`` failures. Guessing at one account from one
address locks that account from that address only; its owner still logs in
from elsewhere, and everyone else from the same address still logs in.

A guesser who tries a few passwords on each of many accounts from one
address is stopped by the ceiling per address (``PULKA_LOGIN_ADDRESS_FAILURES``).
Axes compares a single count with a single limit, so the ceiling cannot be a
second parameter set (its count would reach the pair's limit first). It is
this handler instead, axes' documented way to change how failures are
counted (``AXES_HANDLER``): it counts the same ``AccessAttempt`` rows by
address alone, each account's failures counted up to the pair's limit, so
that hammering one account, locked already, never adds up to the ceiling.
"""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.admin.models import DELETION, LogEntry
from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Least
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def address_failures(ip_address: str | None, since, per_account: int) -> int:
    """Failures from ``ip_address`` since ``since``, each account's counted
    up to ``per_account``."""
    if not ip_address:
        return 0
    accounts = (
        AccessAttempt.objects.filter(ip_address=ip_address, attempt_time__gte=since)
        .values("username")
        .annotate(failures=Sum("failures_since_start"))
    )
    # Aggregated over the per-account sums (Django makes it a subquery).
    total = accounts.aggregate(total=Sum(Least("failures", per_account)))["total"]
    return total or 0


class PairAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler whose count is the pair's failures, or the
    pair's limit once the address's (capped) failures reach the ceiling."""

    def get_failures(self, request, credentials=None) -> int:
        pair = super().get_failures(request, credentials)
        limit = get_failure_limit(request, credentials)
        if pair < limit and address_locked(request, limit):
            return limit
        return pair


def address_locked(request: HttpRequest, limit: int | None = None) -> bool:
    limit = limit or settings.AXES_FAILURE_LIMIT
    failures = address_failures(
        getattr(request, "axes_ip_address", None),
        get_cool_off_threshold(request),
        limit,
    )
    return failures >= settings.PULKA_LOGIN_ADDRESS_FAILURES


def retry_after_seconds(request: HttpRequest) -> int:
    """When a locked-out client may try again. Each attempt refused while
    locked counts as another failure and so starts the cool-off again: the
    whole cool-off from now."""
    return int(get_cool_off(request).total_seconds())


def locked_out(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """What axes answers a locked-out login with (``AXES_LOCKOUT_CALLABLE``):
    429 with ``Retry-After``; the API's JSON refusal under /api/, else a
    page saying what is locked and when to try again. (Axes calls it with
    the original response and the credentials, in either order: unused.)"""
    seconds = retry_after_seconds(request)
    minutes = max(1, round(seconds / 60))
    whole_address = address_locked(request)
    if request.path.startswith("/api/"):
        what = "this address" if whole_address else "this account from this address"
        response: HttpResponse = JsonResponse(
            {
                "code": "locked_out",
                "detail": f"too many failed logins to {what}: "
                f"try again in {seconds} seconds",
            },
            status=429,
        )
    else:
        limit = (
            settings.PULKA_LOGIN_ADDRESS_FAILURES
            if whole_address
            else settings.AXES_FAILURE_LIMIT
        )
        if whole_address:
            what = ngettext(
                "After %(limit)s wrong password from this address, logging in "
                "from it is paused.",
                "After %(limit)s wrong passwords from this address, logging in "
                "from it is paused.",
                limit,
            )
        else:
            what = ngettext(
                "After %(limit)s wrong password, logging in to this account "
                "from this address is paused.",
                "After %(limit)s wrong passwords, logging in to this account "
                "from this address is paused.",
                limit,
            )
        context = {
            "what": what % {"limit": limit},
            "minutes": minutes,
            "elsewhere": not whole_address,
        }
        response = render(request, "accounts/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def lockout_lift(
    *, by, ip_address: str, username: str | None = None, whole_address=False
) -> int:
    """An operator (``by``) lifts the lock of ``username`` from ``ip_address``,
    or (``whole_address``) every lock of the address, its ceiling included:
    the failures counted there are forgotten. Each is written to the admin's
    log first (``LogEntry``, in the admin's history), with who did it.
    Returns how many access attempts were forgotten."""
    if by is None:
        raise ValueError("lifting a lockout records the operator who did it")
    attempts = AccessAttempt.objects.filter(ip_address=ip_address)
    if whole_address:
        what = f"Lifted every lockout from {ip_address}"
    else:
        attempts = attempts.filter(username=username)
        what = f"Lifted the lockout of {username} from {ip_address}"
    with transaction.atomic():
        attempts = list(attempts.select_for_update())
        if not attempts:
            return 0
        LogEntry.objects.log_actions(
            user_id=by.pk,
            queryset=attempts,
            action_flag=DELETION,
            change_message=what,
        )
        AccessAttempt.objects.filter(pk__in=[a.pk for a in attempts]).delete()
    return len(attempts)
