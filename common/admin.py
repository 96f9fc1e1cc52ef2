"""Admin bases for records that are only ever looked at: ledgers, ratings,
game records and the like change only through their services (or not at
all), so their admin pages are read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnly:
    """No adding, changing or deleting here, only viewing."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# The admin's classes are generic in the stubs only (Django's own take no
# subscript): the records' admins below fit any model.
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
    _TabularInline = admin.TabularInline[Any, Any]
else:
    _ModelAdmin = admin.ModelAdmin
    _TabularInline = admin.TabularInline


class ReadOnlyAdmin(ReadOnly, _ModelAdmin):
    pass


class ReadOnlyInline(ReadOnly, _TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True
