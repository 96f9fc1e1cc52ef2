"""How the ledger names a tournament's pool (``tournament:<id>``): the
tournament by its name, linked to its page."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from coins.references import Named
from tournaments.models import Tournament


def tournaments_named(ids: list[int]) -> dict[int, Named]:
    return {
        pk: Named(
            _("Tournament “%(name)s”") % {"name": name},
            reverse("tournaments:detail", args=[pk]),
        )
        for pk, name in Tournament.objects.filter(pk__in=ids).values_list("pk", "name")
    }
