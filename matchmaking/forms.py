"""The quick-play form: a category and a stake."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.stakes import STAKE_CHOICES
from ratings.categories import CATEGORY_CHOICES, DEFAULT_CATEGORY


def stake_label(stake: int) -> str:
    if not stake:
        return str(_("No stake"))
    # "Domino Coin" is a name: never translated.
    return ngettext_lazy("%(count)s Domino Coin", "%(count)s Domino Coin", stake) % {
        "count": stake
    }


class QuickPlayForm(forms.Form):
    category = forms.ChoiceField(
        label=_("Game"), choices=CATEGORY_CHOICES, initial=DEFAULT_CATEGORY
    )
    stake = forms.TypedChoiceField(
        label=_("Stake"),
        coerce=int,
        initial=0,
        help_text=_(
            "Every player puts the stake into the pot; the winners share it. "
            "Stakes of %(high)s and more need an established rating."
        ),
    )

    bots = forms.BooleanField(
        label=_("Practice bots fill the table after a short wait"),
        required=False,
        initial=True,
        help_text=_(
            "Joker for four without a stake: after %(seconds)s seconds the "
            "table starts with whoever is waiting and practice bots."
        ),
    )
    bots_rated = forms.BooleanField(
        label=_("Count a game with bots for my rating"),
        required=False,
        initial=False,
        help_text=_("Each bot counts as a player of its level's fixed rating."),
    )

    def __init__(self, *args, high_stake: int, bot_wait: int, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["stake"]).choices = [
            (stake, stake_label(stake)) for stake in STAKE_CHOICES
        ]
        self.fields["stake"].help_text = self.fields["stake"].help_text % {
            "high": high_stake
        }
        self.fields["bots"].help_text = self.fields["bots"].help_text % {
            "seconds": bot_wait
        }
