"""The operators' view of tournaments: set them up here, watch them run.

Operators edit the settings of recurring tournaments, and of tournaments
until they start (the model's ``clean`` checks them). Everything after that
comes from the games through ``tournaments.services``, so entries, rounds and
boards are read-only. Three actions call the services: "Start now" (at
once, before the start time, after a confirmation page; still refused below
the minimum number of players), "Start now if due" and "Cancel with
refunds" (which asks for a reason first). A refusal is a warning, never a success.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, Q
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from coins import services as coins

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec
from common.admin import ReadOnlyAdmin, ReadOnlyInline
from common.errors import ApplicationError
from tournaments import services
from tournaments.models import Board, BoardSeat, Entry, Round, Schedule, Tournament

SETTINGS_FIELDSETS: _FieldsetSpec = [
    (_("Game"), {"fields": ["name", "category", "format", "short_match", "rated"]}),
    (
        _("Rounds"),
        {
            "fields": [
                "rounds",
                "duration_minutes",
                "final_table",
                "points_for_places",
                "turn_seconds",
            ]
        },
    ),
    (
        _("Players and coins"),
        {"fields": ["min_players", "max_players", "entry_fee", "prize_split"]},
    ),
]
SETTINGS_FIELDS = [
    name for fieldset in SETTINGS_FIELDSETS for name in fieldset[1]["fields"]
]


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "category",
        "format",
        "time_of_day",
        "weekdays",
        "entry_fee",
        "max_players",
        "active",
    ]
    list_filter = ["active", "category", "format"]
    search_fields = ["name"]
    fieldsets = [
        (
            _("When"),
            {"fields": ["time_of_day", "weekdays", "create_ahead_hours", "active"]},
        ),
        *SETTINGS_FIELDSETS,
    ]


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = readonly_fields = (
        "user",
        "status",
        "seed",
        "rating",
        "place",
        "prize",
        "registered_at",
    )
    ordering = ["place", "seed", "registered_at"]


class RoundInline(ReadOnlyInline):
    model = Round
    fields = readonly_fields = (
        "number",
        "status",
        "is_final_table",
        "boards",
        "started_at",
    )
    show_change_link = False

    @admin.display(description=_("boards"))
    def boards(self, round_: Round) -> int:
        return round_.boards.count()


class CancelForm(forms.Form):
    reason = forms.CharField(
        label=_("Why (shown to the players)"), max_length=200, required=False
    )


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "category",
        "format",
        "status",
        "starts_at",
        "entry_fee",
        "players",
        "current_round",
    ]
    list_filter = ["status", "category", "format"]
    search_fields = ["name", "entries__user__username"]
    date_hierarchy = "starts_at"
    ordering = ["-starts_at"]
    inlines = [EntryInline, RoundInline]
    actions = ["start_now", "start_if_due", "cancel_with_refunds"]
    progress_fields = (
        "status",
        "pool",
        "current_round",
        "started_at",
        "finished_at",
        "cancel_reason",
        "schedule",
    )
    fieldsets = [
        (None, {"fields": ["starts_at"]}),
        *SETTINGS_FIELDSETS,
        (_("Progress"), {"fields": progress_fields}),
    ]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                _players=Count(
                    "entries",
                    filter=~Q(entries__status=Entry.Status.WITHDRAWN),
                    distinct=True,
                )
            )
        )

    def get_inlines(self, request, obj):
        # A new tournament has no entries or rounds to show.
        return self.inlines if obj is not None else []

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            # A new tournament takes registrations; it has no progress yet.
            return self.fieldsets[:-1]
        return self.fieldsets

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        if obj.status != Tournament.Status.SCHEDULED:
            # A tournament under way plays by the settings it started with.
            return ["starts_at", *SETTINGS_FIELDS, *self.progress_fields]
        if obj.entries.exists():
            # Refunds give back what each player paid; a new fee would make
            # the field pay different amounts.
            return ["entry_fee", *self.progress_fields]
        return self.progress_fields

    def get_actions(self, request):
        actions = super().get_actions(request)
        # A tournament with entries holds their fees; it is cancelled, not deleted.
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.entries.exists():
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description=_("players"), ordering="_players")
    def players(self, tournament: Tournament) -> int:
        return tournament._players

    @admin.display(description=_("pool (Domino Coin)"))
    def pool(self, tournament: Tournament) -> int:
        return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)

    @admin.action(description=_("Start now"), permissions=["change"])
    def start_now(self, request, queryset):
        tournaments = list(queryset.order_by("starts_at", "pk"))
        if "apply" not in request.POST:
            context = {
                **self.admin_site.each_context(request),
                "title": _("Start now"),
                "opts": self.model._meta,
                "tournaments": tournaments,
                "action": request.POST.get("action"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(
                request, "tournaments/admin/start_now.html", context
            )
        started = 0
        for tournament in tournaments:
            try:
                services.tournament_start_now(tournament_id=tournament.pk)
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("%(name)s did not start: %(reason)s.")
                    % {"name": tournament, "reason": error},
                    messages.WARNING,
                )
            else:
                started += 1
        if started:
            self.message_user(
                request,
                ngettext(
                    "%(count)d tournament started.",
                    "%(count)d tournaments started.",
                    started,
                )
                % {"count": started},
                messages.SUCCESS,
            )
        return None

    @admin.action(description=_("Start now if due"), permissions=["change"])
    def start_if_due(self, request, queryset):
        now = timezone.now()
        outcomes = {"started": 0, "cancelled": 0, None: 0}
        for tournament in queryset.order_by("starts_at", "pk"):
            try:
                outcome = services.tournament_start(
                    tournament_id=tournament.pk, now=now
                )
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("%(name)s did not start: %(reason)s.")
                    % {"name": tournament, "reason": error},
                    messages.WARNING,
                )
                continue
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if outcomes["started"]:
            self.message_user(
                request,
                ngettext(
                    "%(count)d tournament started.",
                    "%(count)d tournaments started.",
                    outcomes["started"],
                )
                % {"count": outcomes["started"]},
                messages.SUCCESS,
            )
        if outcomes["cancelled"]:
            self.message_user(
                request,
                ngettext(
                    "%(count)d tournament had too few players and was cancelled; "
                    "the fees went back.",
                    "%(count)d tournaments had too few players and were cancelled; "
                    "the fees went back.",
                    outcomes["cancelled"],
                )
                % {"count": outcomes["cancelled"]},
                messages.WARNING,
            )
        if outcomes[None]:
            self.message_user(
                request,
                ngettext(
                    "%(count)d tournament was not due or not waiting to start.",
                    "%(count)d tournaments were not due or not waiting to start.",
                    outcomes[None],
                )
                % {"count": outcomes[None]},
                messages.WARNING,
            )

    def has_cancel_permission(self, request) -> bool:
        return request.user.has_perm("tournaments.cancel_tournament")

    @admin.action(description=_("Cancel with refunds"), permissions=["cancel"])
    def cancel_with_refunds(self, request, queryset):
        tournaments = list(queryset.order_by("starts_at", "pk"))
        form = CancelForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": _("Cancel with refunds"),
                "opts": self.model._meta,
                "form": form,
                "tournaments": tournaments,
                "action": request.POST.get("action"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "tournaments/admin/cancel.html", context)
        done = 0
        for tournament in tournaments:
            try:
                services.tournament_cancel(
                    tournament_id=tournament.pk, reason=form.cleaned_data["reason"]
                )
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("%(name)s was not cancelled: %(reason)s.")
                    % {"name": tournament, "reason": error},
                    messages.WARNING,
                )
            else:
                done += 1
        if done:
            self.message_user(
                request,
                ngettext(
                    "%(count)d tournament cancelled; every fee in its pool went back.",
                    "%(count)d tournaments cancelled; every fee in their pools "
                    "went back.",
                    done,
                )
                % {"count": done},
                messages.SUCCESS,
            )
        return None


class BoardSeatInline(ReadOnlyInline):
    model = BoardSeat
    fields = readonly_fields = (
        "number",
        "entry",
        "place",
        "score",
        "won",
        "absent",
    )
    show_change_link = False


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = [
        "tournament",
        "user",
        "status",
        "seed",
        "rating",
        "place",
        "prize",
        "registered_at",
    ]
    list_filter = ["status"]
    search_fields = ["user__username", "tournament__name"]
    list_select_related = ["tournament", "user"]


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "round", "number", "table", "is_bye", "finished"]
    list_filter = ["finished", "is_bye"]
    search_fields = ["round__tournament__name", "seats__entry__user__username"]
    list_select_related = ["round", "table"]
    inlines = [BoardSeatInline]
