"""The operators' view of live play: tables, games and their records.

Games change only through the services, so the game pages here are
read-only; the records (events, deals) are append-only by design.
"""

from django.contrib import admin

from games.models import DealRecord, Game, GameEvent, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "bot", "left", "connections", "disconnected_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "profile",
        "status",
        "is_private",
        "turn_seconds",
        "created_by",
        "created_at",
    ]
    list_filter = ["profile", "status", "is_private"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    readonly_fields = ["invite_code", "created_at"]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "status",
        "version",
        "cards_played",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "table__profile"]
    search_fields = ["id", "table__id", "table__seats__user__username"]
    date_hierarchy = "started_at"


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "kind", "seat", "cause", "action", "created_at"]
    list_filter = ["kind", "cause"]
    search_fields = ["game__id"]
    list_select_related = ["game"]


@admin.register(DealRecord)
class DealRecordAdmin(ReadOnlyAdmin):
    list_display = ["game", "index", "commitment"]
    search_fields = ["game__id", "commitment"]
