"""Admin registrations of the accounts app, and the operators' user list.

Users get one extra action, "Ban player", which asks for a reason and calls
``games.services.bans.user_ban`` for each selected user. Axes' access
attempts (failed logins) get two, "Lift lockout of these accounts from these
addresses" and "Lift every lockout of these addresses", which call
``accounts.lockout.lockout_lift``: written to the admin's log.
"""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.lockout import lockout_lift
from accounts.models import Profile
from config.errors import ApplicationError
from games.services.bans import user_ban

User = get_user_model()


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "language"]
    list_filter = ["language"]
    search_fields = ["user__username", "display_name"]
    raw_id_fields = ["user"]


class BanForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=_("Recorded with the ban, with your name."),
    )


class PlayerAdmin(UserAdmin):
    """Django's user admin with the "Ban player" action."""

    actions = [*(UserAdmin.actions or []), "ban_players"]

    def has_ban_permission(self, request) -> bool:
        return request.user.has_perm("games.ban_user")

    @admin.action(description=_("Ban player"), permissions=["ban"])
    def ban_players(self, request, queryset):
        users = list(queryset.order_by("username"))
        form = BanForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": _("Ban player"),
                "opts": self.model._meta,
                "form": form,
                "players": users,
                "action": request.POST.get("action"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "games/admin/ban.html", context)
        banned = 0
        for user in users:
            try:
                user_ban(user=user, by=request.user, reason=form.cleaned_data["reason"])
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("%(user)s was not banned: %(reason)s.")
                    % {"user": user, "reason": error},
                    messages.ERROR,
                )
            else:
                banned += 1
        if banned:
            self.message_user(
                request,
                ngettext(
                    "%(count)d player banned.", "%(count)d players banned.", banned
                )
                % {"count": banned},
                messages.SUCCESS,
            )
        return None


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)


class LockoutAdmin(AccessAttemptAdmin):
    """Axes' failed logins, with actions that lift a lockout (audited)."""

    actions = [*AccessAttemptAdmin.actions, "lift_pairs", "lift_addresses"]

    @admin.action(
        description=_("Lift lockout of these accounts from these addresses"),
        permissions=["delete"],
    )
    def lift_pairs(self, request, queryset):
        pairs = set(queryset.values_list("username", "ip_address"))
        for username, ip_address in sorted(pairs, key=str):
            lockout_lift(by=request.user, username=username, ip_address=ip_address)
        self._lifted(request, len(pairs))

    @admin.action(
        description=_("Lift every lockout of these addresses"),
        permissions=["delete"],
    )
    def lift_addresses(self, request, queryset):
        addresses = set(queryset.values_list("ip_address", flat=True))
        for ip_address in sorted(addresses, key=str):
            lockout_lift(by=request.user, ip_address=ip_address, whole_address=True)
        self._lifted(request, len(addresses))

    def _lifted(self, request, count: int) -> None:
        self.message_user(
            request,
            ngettext("%(count)d lockout lifted.", "%(count)d lockouts lifted.", count)
            % {"count": count},
            messages.SUCCESS,
        )


if admin.site.is_registered(AccessAttempt):
    admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, LockoutAdmin)
