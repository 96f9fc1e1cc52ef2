"""Signing up, signing in and out, and the profile page."""

from __future__ import annotations

import math

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import alogin
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language
from rest_framework.authtoken.models import Token

from accounts import names, services, signups
from accounts.addresses import client_address
from accounts.backends import hash_password
from accounts.forms import NAME_REFUSALS, ProfileForm, SignUpForm
from accounts.selectors import language_of
from common.signed_in import signed_in_id


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(settings.LOGIN_REDIRECT_URL)


async def signup(request: HttpRequest) -> HttpResponse:
    """Asynchronous, so that hashing the new password holds no thread that
    other requests need (see ``accounts.backends``). An address past its
    sign-ups for the hour is answered 429 (``accounts.signups``)."""
    if (await request.auser()).is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    address = client_address(request)
    if request.method == "POST":
        # Asked first, so that a paused address costs no password hash; asked
        # again under the address's lock when the account is made.
        wait = await sync_to_async(signups.signup_wait_seconds)(address)
        if wait:
            return await sync_to_async(_signups_paused)(request, wait)
    user = None
    if request.method == "POST" and await sync_to_async(form.is_valid)():
        password_hash = await hash_password(form.cleaned_data["password1"])
        try:
            user = await sync_to_async(signups.account_sign_up)(
                form=form, password_hash=password_hash, address=address
            )
        except signups.SignUpsPaused as paused:
            return await sync_to_async(_signups_paused)(request, paused.retry_after)
        except names.NameTaken:
            # A look-alike signed up between the form's check and here.
            form.add_error("username", NAME_REFUSALS["name_taken"])
            user = None
    if user is not None:
        await alogin(request, user, backend="accounts.backends.PasswordBackend")
        messages.success(request, _("Welcome to Pulka!"))
        return redirect(_next_url(request))
    return await sync_to_async(render)(
        request,
        "accounts/signup.html",
        {"form": form, "next": request.POST.get("next") or request.GET.get("next")},
    )


def _signups_paused(request: HttpRequest, seconds: int) -> HttpResponse:
    """429 with ``Retry-After`` (RFC 6585, section 4): why, and when to try
    again."""
    limit = settings.PULKA_SIGNUPS_PER_ADDRESS
    response = render(
        request,
        "accounts/signups_paused.html",
        {
            "limit": limit,
            "minutes": max(1, math.ceil(seconds / 60)),
        },
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = services.profile_get_or_create(request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, user=request.user)
        try:
            updated = form.is_valid() and services.profile_update(
                user=request.user,
                display_name=form.cleaned_data["display_name"],
                language=form.cleaned_data["language"],
                time_zone=form.cleaned_data["time_zone"],
            )
        except names.NameTaken:
            # A look-alike was taken between the form's check and here.
            form.add_error("display_name", NAME_REFUSALS["name_taken"])
            updated = None
        if updated:
            response = redirect("accounts:profile")
            _remember_language(response, updated.language)
            # Said in the language just chosen, as the next page is; a blank
            # choice keeps the language this request is in.
            language = updated.language or translation.get_language()
            with translation.override(language):
                messages.success(request, _("Your profile is saved."))
            return response
    else:
        form = ProfileForm(
            initial={
                "display_name": current.display_name,
                "language": current.language,
                "time_zone": current.time_zone,
            },
            user=request.user,
        )
    return _profile_page(request, form)


def _profile_page(request: HttpRequest, form=None, new_token: str = "") -> HttpResponse:
    if form is None:
        current = services.profile_get_or_create(request.user)
        form = ProfileForm(
            initial={
                "display_name": current.display_name,
                "language": current.language,
                "time_zone": current.time_zone,
            },
            user=request.user,
        )
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "token": Token.objects.filter(user=signed_in_id(request)).first(),
            # Shown on this one answer only: it is not kept anywhere else
            # the page could show it again.
            "new_token": new_token,
        },
    )


@login_required
@require_POST
@never_cache
def api_token_create(request: HttpRequest) -> HttpResponse:
    """A new personal API token, shown once, on the page this answers with."""
    key = services.api_token_create(request.user)
    return _profile_page(request, new_token=key)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest) -> HttpResponse:
    if services.api_token_revoke(request.user):
        messages.success(request, _("Your API token is revoked: it works no more."))
    return redirect("accounts:profile")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The site's language switch: Django's, and for a signed-in user the
    choice is kept in the profile too (which would otherwise override it)."""
    language = request.POST.get("language", "")
    languages = {code for code, _ in settings.LANGUAGES}
    if request.user.is_authenticated and language in languages:
        if language_of(request.user) != language:
            services.profile_set_language(user=request.user, language=language)
    return django_set_language(request)


def _remember_language(response: HttpResponse, language: str) -> None:
    # Keep the language after signing out as well.
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
