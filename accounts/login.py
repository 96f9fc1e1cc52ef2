"""Logging in on the site, the admin and the browsable API, without holding
up everyone else.

Checking a password is slow on purpose (tens of milliseconds of CPU,
accounts/hashers.py; hundreds for a password stored before). Under ASGI
every synchronous view runs on one shared thread, so a synchronous login
view makes every other page wait while it hashes; a burst of wrong
passwords slows the whole site. These views are asynchronous and
use ``aauthenticate``, whose password check runs on a thread of its own
(``acheck_password``), so the shared thread stays free.

The same check in all three places: django-axes counts the failures per
account-and-address pair, and per address, and past a limit answers with
the lockout page without checking any password (``accounts.lockout``).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME, aauthenticate, alogin
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.debug import sensitive_post_parameters

from accounts.bans import closed_account_error
from common.text_filters import label_from_verbose_name


class _CheckedByTheView:
    """A login form that checks only its fields: the view checks the
    password itself, asynchronously."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        label_from_verbose_name(self, "username", self.username_field.verbose_name)

    def clean(self):
        return self.cleaned_data


class LoginForm(_CheckedByTheView, AuthenticationForm):
    pass


class AdminLoginForm(_CheckedByTheView, AdminAuthenticationForm):
    pass


def _next_url(request: HttpRequest, default: str) -> str:
    target = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(
        REDIRECT_FIELD_NAME, ""
    )
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(default)


async def _log_in(request: HttpRequest, form_class, default_next: str):
    """The bound form and, on success, the redirect after logging in."""
    if request.method != "POST":
        return form_class(request), None
    form = form_class(request, data=request.POST)
    if not form.is_valid():
        return form, None
    user = await aauthenticate(
        request,
        username=form.cleaned_data["username"],
        password=form.cleaned_data["password"],
    )
    if user is None:
        closed = getattr(request, "closed_account", None)
        if closed is not None:
            form.add_error(None, await sync_to_async(closed_account_error)(closed))
        else:
            form.add_error(None, form.get_invalid_login_error())
        return form, None
    try:
        form.confirm_login_allowed(user)
    except ValidationError as refusal:
        form.add_error(None, refusal)
        return form, None
    await alogin(request, user)
    return form, HttpResponseRedirect(_next_url(request, default_next))


def _page(
    template: str, form_class, default_next: str, context_of=None, already_in=None
):
    already_in = already_in or (lambda user: user.is_authenticated)

    @sensitive_post_parameters()
    @csrf_protect
    @never_cache
    async def view(request: HttpRequest) -> HttpResponse:
        user = await request.auser()
        if request.method == "GET" and already_in(user):
            return HttpResponseRedirect(_next_url(request, default_next))
        form, done = await _log_in(request, form_class, default_next)
        if done is not None:
            return done

        # Rendering reads the session and the user: synchronous, and quick.
        def page() -> HttpResponse:
            context = {
                "form": form,
                "next": request.POST.get(REDIRECT_FIELD_NAME)
                or request.GET.get(REDIRECT_FIELD_NAME, ""),
            }
            if context_of is not None:
                context.update(context_of(request))
            return render(request, template, context)

        return await sync_to_async(page)()

    return view


def _admin_context(request: HttpRequest) -> dict:
    return {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }


site_login = _page("accounts/login.html", LoginForm, settings.LOGIN_REDIRECT_URL)
admin_login = _page(
    "admin/login.html",
    AdminLoginForm,
    "admin:index",
    context_of=_admin_context,
    already_in=lambda user: user.is_active and user.is_staff,
)
_browsable_api_login = _page("rest_framework/login.html", LoginForm, "api:root")

# What the browsable API's login page reads: the form its page posts.
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
NOT_FOR_PROGRAMS = (
    "this address is the browsable API's login page, a form for people in a "
    "browser; a program signs in with a personal token, made on the "
    "player's profile page and sent as the header 'Authorization: Token <key>'"
)


@csrf_exempt  # The page itself is CSRF-protected (_page); this answer changes nothing.
async def api_login(request: HttpRequest) -> HttpResponse:
    """The browsable API's login page. A program posting JSON here (taking
    it for a login endpoint) is told, in the API's error format, what the
    page is for and how the API is signed in to, rather than meeting the
    page's CSRF refusal."""
    if request.method == "POST" and request.content_type not in FORM_TYPES:
        return JsonResponse(
            {"code": "unsupported_media_type", "detail": NOT_FOR_PROGRAMS},
            status=415,
        )
    return await _browsable_api_login(request)
