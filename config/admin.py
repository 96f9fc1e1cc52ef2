"""The site's admin: fields no admin page may filter, search or sort by.

(The read-only bases of records only ever looked at are in ``common.admin``.)

**Secret fields.** A model lists in ``SECRET_FIELDS`` the fields that hold
what its page hides (a game's hidden cards, say). A filter, a search or a
sort that reaches one, directly or across relations, would tell it apart
one answer at a time (``?hands__icontains=KD`` answering one row or none),
whatever the page shows. So every admin of the site refuses them, for
everybody, always: a query-string lookup is a 400
(``DisallowedModelAdminLookup``, raised when ``lookup_allowed`` says no),
and a ``search_fields``, ``list_filter``, ``date_hierarchy``, ``ordering``
or sortable ``list_display`` entry that reaches one fails the system checks
(``manage.py check``). ``SiteAdmin`` puts the guard on every model admin it
registers, the libraries' too.
"""

from __future__ import annotations

from django.contrib import admin
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F
from django.db.models.constants import LOOKUP_SEP

from common.admin import ModelAdminMixinBase


def secret_fields(model) -> tuple[str, ...]:
    return getattr(model, "SECRET_FIELDS", ())


def reaches_secret(model, path: str) -> bool:
    """Whether the lookup ``path`` (``game__state__icontains``) reads a secret
    field of ``model`` or of a model it leads to.

    The names are resolved as the ORM resolves them: a field's name or
    attname, a relation followed to its model; the first name that is not a
    field ends the path (what follows is a transform or a lookup).
    """
    for part in path.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if field.name in secret_fields(model):
            return True
        if not getattr(field, "path_infos", None):
            return False
        model = field.path_infos[-1].to_opts.model
    return False


def _relation_at_end(model, path: str):
    """The model ``path`` ends on when its last name is a relation, else None."""
    for part in path.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return None
        if not getattr(field, "path_infos", None):
            return None
        model = field.path_infos[-1].to_opts.model
    return model


def ordering_reaches_secret(model, ordering, seen=frozenset()) -> bool:
    """Whether sorting ``model`` by ``ordering`` (a name or path, ``F`` or
    another expression) reads a secret field. Sorting by a relation sorts by
    the related model's own ``Meta.ordering``, which is followed too."""
    if isinstance(ordering, F):
        ordering = ordering.name  # type: ignore[attr-defined]  # not in F's stub
    if not isinstance(ordering, str):
        return any(
            ordering_reaches_secret(model, node, seen)
            for node in ordering.flatten()
            if isinstance(node, F)
        )
    path = ordering.removeprefix("-")
    if reaches_secret(model, path):
        return True
    target = _relation_at_end(model, path)
    if target is None or target in seen:
        return False
    return any(
        ordering_reaches_secret(target, name, seen | {target})
        for name in target._meta.ordering
    )


class KeepsSecrets(ModelAdminMixinBase):
    """A model admin that never filters, searches or sorts by a secret field
    (the module's docstring)."""

    def lookup_allowed(self, lookup, value, request=None):
        if reaches_secret(self.model, lookup):
            return False
        first = lookup.split(LOOKUP_SEP, 1)[0]
        annotated = request is not None and (
            first in self.get_queryset(request).query.annotations
        )
        if annotated:
            # What an annotation computes cannot be told from its name: it
            # may read a secret field (no page filters by one).
            return False
        return super().lookup_allowed(lookup, value, request)

    def check(self, **kwargs):
        return [*super().check(**kwargs), *self._check_secrets()]

    def _check_secrets(self) -> list[checks.Error]:
        model, errors = self.model, []

        def refuse(option: str, name) -> None:
            errors.append(
                checks.Error(
                    f"{option} entry {name!r} reads a secret field of "
                    f"{model._meta.label} or of a model it leads to",
                    hint="Filter, search and sort by what the page may show; "
                    "SECRET_FIELDS are never looked up (config/admin.py).",
                    obj=self.__class__,
                    id="pulka.E001",
                )
            )

        for searched in self.search_fields:
            if reaches_secret(model, searched.lstrip("^=@")):
                refuse("search_fields", searched)
        for entry in self.list_filter:
            lookup = entry[0] if isinstance(entry, (list, tuple)) else entry
            # A SimpleListFilter's parameter is a lookup like any other.
            if isinstance(lookup, str) and reaches_secret(model, lookup):
                refuse("list_filter", lookup)
        if self.date_hierarchy and reaches_secret(model, self.date_hierarchy):
            refuse("date_hierarchy", self.date_hierarchy)
        for order in self.ordering or ():
            if ordering_reaches_secret(model, order):
                refuse("ordering", order)
        for column in self.list_display:
            if any(ordering_reaches_secret(model, o) for o in self._sorted_by(column)):
                refuse("list_display", column)
        return errors

    def _sorted_by(self, item) -> list:
        """What a list_display column shows or sorts by, as ChangeList reads
        it (``get_ordering_field``)."""
        if isinstance(item, str):
            try:
                self.model._meta.get_field(item)
            except FieldDoesNotExist:
                pass
            else:
                return [item]
            attribute = getattr(self, item, None) or getattr(self.model, item, None)
            if attribute is None:
                return [item] if LOOKUP_SEP in item else []
        else:
            attribute = item
        if isinstance(attribute, property):
            attribute = attribute.fget
        order = getattr(attribute, "admin_order_field", None)
        return [] if order is None else [order]


class SiteAdmin(admin.AdminSite):
    """The site's admin (``config.apps.SiteAdminConfig``): every model admin
    registered here keeps secret fields out of its lookups, those of Django's
    and the libraries' apps too."""

    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, KeepsSecrets):
            # As Django's own register does for options: a subclass made here.
            admin_class = type(
                admin_class.__name__,
                (KeepsSecrets, admin_class),
                {"__module__": admin_class.__module__},
            )
        super().register(model_or_iterable, admin_class, **options)
