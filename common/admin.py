"""Admin bases for records that are only ever looked at: ledgers, ratings,
game records and the like change only through their services (or not at
all), so their admin pages are read-only."""

from __future__ import annotations

from django.contrib import admin


class ReadOnly:
    """No adding, changing or deleting here, only viewing."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True
