"""The operators' form for granting and removing coins."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

# Large enough for any real adjustment, small enough to catch a typo.
MAX_ADJUSTMENT = 1_000_000_000


class AdjustForm(forms.Form):
    amount = forms.IntegerField(label=_("Coins"), min_value=1, max_value=MAX_ADJUSTMENT)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Recorded in the ledger and shown to the player."),
    )
    # One key per form shown: sending the same form twice adjusts once.
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
