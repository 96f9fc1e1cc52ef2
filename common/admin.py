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
# subscript): the bases below fit any model. ``ModelAdminMixinBase`` is the
# base of a mixin for model admins, for the type checker only.
if TYPE_CHECKING:
    ModelAdminBase = admin.ModelAdmin[Any]
    InlineBase = admin.TabularInline[Any, Any]
    ModelAdminMixinBase = admin.ModelAdmin[Any]
else:
    ModelAdminBase = admin.ModelAdmin
    InlineBase = admin.TabularInline
    ModelAdminMixinBase = object


class ReadOnlyAdmin(ReadOnly, ModelAdminBase):
    pass


class ReadOnlyInline(ReadOnly, InlineBase):
    extra = 0
    can_delete = False
    show_change_link = True
