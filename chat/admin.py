"""The chat for operators: reports with the conversation around each
reported message, and what to do about them (mute the author for a while,
ban them, or mark the report handled); the operators' mutes; the messages,
read-only. Every text a player wrote is shown escaped."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.bans import user_ban
from chat import services
from chat.models import ChatMute, Message, PersonalMute, Report
from chat.phrases import PHRASES
from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError


def _line(row: dict) -> str:
    return row["text"] or str(PHRASES.get(row["phrase"], row["phrase"]))


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "reporter", "author", "said", "room", "handled_at"]
    list_select_related = ["reporter", "message__author"]
    list_filter = [("handled_at", admin.EmptyFieldListFilter), "message__room"]
    search_fields = ["reporter__username", "message__author__username"]
    date_hierarchy = "created_at"
    fields = readonly_fields = (
        "reporter",
        "author",
        "said",
        "room",
        "table",
        "game",
        "reason",
        "created_at",
        "conversation_shown",
        "handled_at",
        "handled_by",
    )
    actions = ["mute_hour", "mute_day", "ban_authors", "mark_handled"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_mute_permission(self, request) -> bool:
        return request.user.has_perm("chat.add_chatmute")

    def has_ban_permission(self, request) -> bool:
        return request.user.has_perm("games.add_ban")

    @admin.display(description=_("author"))
    def author(self, report: Report):
        return report.message.author

    @admin.display(description=_("message"))
    def said(self, report: Report) -> str:
        return report.message.shown

    @admin.display(description=_("room"))
    def room(self, report: Report) -> str:
        return report.message.get_room_display()

    @admin.display(description=_("table"))
    def table(self, report: Report):
        return report.message.table_id or "-"

    @admin.display(description=_("game"))
    def game(self, report: Report):
        return report.message.game_id or "-"

    @admin.display(description=_("conversation"))
    def conversation_shown(self, report: Report):
        rows = [
            (
                "reported" if row["id"] == report.message_id else "",
                row["at"][:19].replace("T", " "),
                row["author"]["name"],
                _line(row),
            )
            for row in report.conversation
        ]
        return format_html(
            '<ol class="chat-conversation">{}</ol>',
            format_html_join(
                "",
                '<li class="{}"><time>{}</time> <strong>{}</strong>: '
                "<span>{}</span></li>",
                rows,
            ),
        )

    def _mute(self, request, queryset, minutes: int):
        now = timezone.now()
        authors = {report.message.author_id for report in queryset}
        for author_id in authors:
            services.chat_mute_create(
                user_id=author_id,
                minutes=minutes,
                by=request.user,
                reason=str(_("chat report")),
                now=now,
            )
        for report in queryset:
            services.report_handle(report_id=report.pk, by=request.user, now=now)
        self.message_user(
            request,
            ngettext(
                "%(count)d player muted.", "%(count)d players muted.", len(authors)
            )
            % {"count": len(authors)},
            messages.SUCCESS,
        )

    @admin.action(description=_("Mute the authors for an hour"), permissions=["mute"])
    def mute_hour(self, request, queryset):
        self._mute(request, queryset.select_related("message"), 60)

    @admin.action(description=_("Mute the authors for a day"), permissions=["mute"])
    def mute_day(self, request, queryset):
        self._mute(request, queryset.select_related("message"), 24 * 60)

    @admin.action(description=_("Ban the authors"), permissions=["ban"])
    def ban_authors(self, request, queryset):
        now = timezone.now()
        for report in queryset.select_related("message__author"):
            try:
                user_ban(
                    user=report.message.author,
                    by=request.user,
                    reason=f"chat report {report.pk}",
                    now=now,
                )
            except ApplicationError as error:
                self.message_user(request, str(error), messages.WARNING)
                continue
            services.report_handle(report_id=report.pk, by=request.user, now=now)

    @admin.action(description=_("Mark handled"), permissions=["change"])
    def mark_handled(self, request, queryset):
        now = timezone.now()
        for report in queryset:
            services.report_handle(report_id=report.pk, by=request.user, now=now)


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """Operators mute a player here too (and lift a mute by moving its end)."""

    list_display = ["user", "until", "reason", "by", "created_at"]
    list_select_related = ["user", "by"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    fields = ["user", "until", "reason", "by", "created_at"]
    readonly_fields = ["by", "created_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.by, obj.created_at = request.user, timezone.now()
        super().save_model(request, obj, form, change)


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "room",
        "table",
        "game",
        "author",
        "shown",
        "filtered",
    ]
    list_select_related = ["author"]
    list_filter = ["room", "filtered"]
    search_fields = ["author__username", "text"]
    date_hierarchy = "created_at"


@admin.register(PersonalMute)
class PersonalMuteAdmin(ReadOnlyAdmin):
    list_display = ["user", "muted", "created_at"]
    search_fields = ["user__username", "muted__username"]
