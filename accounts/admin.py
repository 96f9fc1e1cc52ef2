"""Admin registrations of the accounts app, and the operators' user list.

Users get one extra action, "Ban player", which asks for a reason and calls
``accounts.bans.user_ban`` for each selected user. Axes' access
attempts (failed logins) get two, "Lift lockout of these accounts from these
addresses" and "Lift every lockout of these addresses", which call
``accounts.lockout.lockout_lift``: written to the admin's log. The ranked
games between accounts seen at one address (``accounts.farming``) are
listed, read-only, for operators to look into.
"""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import names, timezones
from accounts.bans import user_ban
from accounts.forms import refuse_name
from accounts.lockout import lockout_lift
from accounts.models import Ban, Profile, SharedAddress
from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError

User = get_user_model()


class ProfileAdminForm(forms.ModelForm):
    """A display name is refused here as on the profile page: one that
    looks like another player's name, or holds a hidden character. The time
    zone is the profile page's picker."""

    time_zone = forms.ChoiceField(
        label=_("time zone"), required=False, widget=timezones.ZoneSelect
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [
            ("", _("Automatic (from your browser)")),
            *timezones.zone_choices(),
        ]

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        user = self.cleaned_data.get("user") or getattr(self.instance, "user", None)
        if name:
            refuse_name(name, user=user)
        return name


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    form = ProfileAdminForm
    list_display = ["user", "display_name", "language", "signed_up"]
    list_filter = ["language", "signed_up"]
    search_fields = ["user__username", "display_name"]
    raw_id_fields = ["user"]
    # Digests, good only for comparing: the addresses themselves are not kept.
    readonly_fields = ["signup_address", "login_address"]

    def save_model(self, request, obj, form, change):
        # In the admin's transaction: the name is recorded as it looks, as
        # the profile page records it (accounts.services.profile_update).
        super().save_model(request, obj, form, change)
        names.names_claim(obj.user)


class SomeoneLeft(admin.SimpleListFilter):
    title = _("someone left the game")
    parameter_name = "left"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        # The result names the seats that left only when some did.
        if self.value() == "yes":
            return queryset.filter(game__result__has_key="left")
        if self.value() == "no":
            return queryset.exclude(game__result__has_key="left")
        return queryset


@admin.register(SharedAddress)
class SharedAddressAdmin(admin.ModelAdmin):
    """Ranked games between accounts seen at one address, for operators to
    look into (docs/security.md, "Farming"): annul a game in the games'
    admin, ban a player in the users'. Written only by the site."""

    list_display = [
        "created_at",
        "game_link",
        "player",
        "other",
        "same_signup_address",
        "same_login_address",
        "stake",
        "game_status",
    ]
    list_filter = [
        "same_signup_address",
        "same_login_address",
        SomeoneLeft,
        "game__status",
        "game__table__stake",
        "created_at",
    ]
    search_fields = ["player__username", "other__username"]
    list_select_related = ["game__table", "player", "other"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("Game"), ordering="game")
    def game_link(self, obj):
        url = reverse("admin:games_game_change", args=[obj.game_id])
        return format_html('<a href="{}">{}</a>', url, obj.game)

    @admin.display(description=_("stake"), ordering="game__table__stake")
    def stake(self, obj) -> int:
        return obj.game.table.stake

    @admin.display(description=_("status"), ordering="game__status")
    def game_status(self, obj) -> str:
        return obj.game.get_status_display()


class BanForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=_("Recorded with the ban, with your name."),
    )


class PlayerCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        name = super().clean_username()
        refuse_name(name, user=None)
        return name


class PlayerChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        refuse_name(name, user=self.instance)
        return name


class PlayerAdmin(UserAdmin):
    """Django's user admin with the "Ban player" action; a username that
    looks like another player's name is refused as on the sign-up page."""

    add_form = PlayerCreationForm
    form = PlayerChangeForm
    # Django's user admin has no actions of its own.
    actions = ["ban_players"]

    def has_ban_permission(self, request) -> bool:
        return request.user.has_perm("accounts.ban_user")

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
            return TemplateResponse(request, "accounts/admin/ban.html", context)
        banned = 0
        for user in users:
            try:
                user_ban(user=user, by=request.user, reason=form.cleaned_data["reason"])
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("%(user)s was not banned: %(reason)s.")
                    % {"user": user, "reason": error},
                    messages.WARNING,
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


class NewBanForm(forms.ModelForm):
    """A new ban from the bans list: whom and why. The operator is the
    signed-in one (``operator``, set by the admin); the ban is made by
    ``user_ban``, as the users' "Ban player" makes it."""

    operator = None

    class Meta:
        model = Ban
        fields = ["user", "reason"]

    def clean_user(self):
        user = self.cleaned_data["user"]
        if self.operator is not None and user.pk == self.operator.pk:
            raise forms.ValidationError(_("Operators cannot ban themselves."))
        if not user.is_active and user.bans.exists():
            raise forms.ValidationError(_("This player is banned already."))
        return user


@admin.register(Ban)
class BanAdmin(ReadOnlyAdmin):
    """The record of bans. A ban is made here ("Add") or with the users'
    "Ban player", both through ``accounts.bans.user_ban``; a ban once made
    is never edited."""

    list_display = ["user", "by", "created_at", "reason"]
    search_fields = ["user__username", "by__username", "reason"]
    list_select_related = ["user", "by"]
    date_hierarchy = "created_at"
    form = NewBanForm
    raw_id_fields = ["user"]

    def has_add_permission(self, request, obj=None):
        return request.user.has_perm("accounts.ban_user")

    def get_fields(self, request, obj=None):
        return (
            ["user", "reason"]
            if obj is None
            else ["user", "by", "created_at", "reason"]
        )

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"operator": request.user})

    def save_model(self, request, obj, form, change):
        ban = user_ban(
            user=form.cleaned_data["user"],
            by=request.user,
            reason=form.cleaned_data["reason"],
        )
        # The admin's message and log name the ban the service made.
        obj.pk = ban.pk
        obj.created_at = ban.created_at
        obj.by = ban.by
