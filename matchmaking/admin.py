"""The operators' view of quick play: who waits, and the matches made.

Read-only: pools change through ``matchmaking.services``. Waiting players
have one action, "Remove from the pool", which calls ``pool_cancel``.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError
from matchmaking import services
from matchmaking.models import Match, PoolEntry


@admin.register(PoolEntry)
class PoolEntryAdmin(ReadOnlyAdmin):
    list_display = ["user", "category", "stake", "rating", "joined_at", "seen_at"]
    list_filter = ["category", "stake"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    actions = ["remove_from_pool"]

    def has_remove_permission(self, request) -> bool:
        return request.user.has_perm("matchmaking.delete_poolentry")

    @admin.action(description=_("Remove from the pool"), permissions=["remove"])
    def remove_from_pool(self, request, queryset):
        removed = 0
        for entry in queryset.select_related("user"):
            try:
                services.pool_cancel(user=entry.user)
            except ApplicationError:
                continue  # matched or gone meanwhile
            removed += 1
        self.message_user(
            request,
            ngettext(
                "%(count)d player removed from the pool.",
                "%(count)d players removed from the pool.",
                removed,
            )
            % {"count": removed},
            # Nobody removed (all matched or gone meanwhile) is no success.
            messages.SUCCESS if removed else messages.WARNING,
        )


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "category", "stake", "table", "created_at"]
    list_filter = ["category", "stake"]
    search_fields = ["players__username"]
    fields = readonly_fields = (
        "category",
        "stake",
        "table",
        "players",
        "detail",
        "created_at",
    )
