"""The operators' view of the ledger.

Accounts and entries are read-only here: coins move only through
``coins.services``. Wallets have two actions, "Grant coins" and "Remove
coins", which ask for the amount and a reason and then call
``services.coins_adjust``, recording the operator.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from coins import services
from coins.errors import InsufficientCoins
from coins.forms import AdjustForm
from coins.models import Account, Entry
from coins.references import references_name
from common.admin import ReadOnlyAdmin


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "owner", "ref", "balance", "created_at"]
    list_filter = ["kind"]
    search_fields = ["owner__username", "ref"]
    list_select_related = ["owner"]
    fields = readonly_fields = (
        "kind",
        "owner",
        "ref",
        "balance",
        "created_at",
        "recent_entries",
    )
    actions = ["grant_coins", "remove_coins"]

    RECENT = 20

    @admin.display(description=_("recent entries"))
    def recent_entries(self, account: Account):
        entries = Entry.objects.filter(debit=account) | Entry.objects.filter(
            credit=account
        )
        recent = list(entries.order_by("-created_at", "-id")[: self.RECENT])
        named = references_name(entry.ref for entry in recent)
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    entry.created_at,
                    entry.amount if entry.credit_id == account.pk else -entry.amount,
                    entry.get_reason_display(),
                    _named_link(named[entry.ref]) if entry.ref in named else entry.ref,
                    entry.memo,
                )
                for entry in recent
            ),
        )
        return format_html("<table>{}</table>", rows) if rows else "-"

    def has_adjust_permission(self, request) -> bool:
        return request.user.has_perm("coins.adjust_coins")

    @admin.action(description=_("Grant coins"), permissions=["adjust"])
    def grant_coins(self, request, queryset):
        return self._adjust(request, queryset, sign=+1, title=_("Grant coins"))

    @admin.action(description=_("Remove coins"), permissions=["adjust"])
    def remove_coins(self, request, queryset):
        return self._adjust(request, queryset, sign=-1, title=_("Remove coins"))

    def _adjust(self, request, queryset, *, sign: int, title):
        wallets = list(
            queryset.filter(kind=Account.Kind.WALLET).select_related("owner")
        )
        if not wallets:
            self.message_user(
                request,
                _("Coins are granted and removed on wallets only."),
                messages.WARNING,
            )
            return None
        form = AdjustForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            self._apply(request, wallets, sign=sign, **form.cleaned_data)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            "form": form,
            "wallets": wallets,
            "skipped": queryset.exclude(kind=Account.Kind.WALLET).count(),
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "coins/admin/adjust.html", context)

    def _apply(self, request, wallets, *, sign, amount, reason, key):
        done = 0
        for wallet in wallets:
            try:
                services.coins_adjust(
                    user=wallet.owner,
                    amount=sign * amount,
                    reason_text=reason,
                    by=request.user,
                    key=f"admin:{key}:{wallet.pk}",
                )
            except InsufficientCoins as error:
                self.message_user(
                    request,
                    _("%(owner)s has only %(balance)s coins; nothing removed.")
                    % {"owner": wallet.owner, "balance": error.balance},
                    messages.WARNING,
                )
            else:
                done += 1
        if done:
            self.message_user(
                request,
                ngettext(
                    "%(count)d wallet adjusted.", "%(count)d wallets adjusted.", done
                )
                % {"count": done},
                messages.SUCCESS,
            )


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "created_at",
        "amount",
        "debit",
        "credit",
        "reason",
        "what",
        "created_by",
    ]
    list_filter = ["reason", "debit__kind", "credit__kind"]
    search_fields = [
        "idempotency_key",
        "ref",
        "memo",
        "debit__owner__username",
        "credit__owner__username",
    ]
    list_select_related = ["debit", "credit", "created_by"]
    date_hierarchy = "created_at"

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        # One query per kind of reference for the whole page, kept on the
        # page's entries (evaluated here, and shown from the same objects).
        named = references_name(entry.ref for entry in changelist.result_list)
        for entry in changelist.result_list:
            entry.named = named.get(entry.ref)
        return changelist

    @admin.display(description=_("reference"), ordering="ref")
    def what(self, entry: Entry):
        named = getattr(entry, "named", None)
        return _named_link(named) if named else entry.ref or "-"


def _named_link(named):
    return format_html('<a href="{}">{}</a>', named.url, named.label)
