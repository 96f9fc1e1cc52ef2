"""Forms of the lobby: creating a table with a rule profile and its options,
or a ranked table with a rating category, a Domino Coin stake and how the
stake is settled."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models import Table
from games.services.tables import TURN_SECONDS_CHOICES
from games.settlement import DEFAULT_POINTS_PER_COIN, POINTS_PER_COIN_CHOICES
from games.stakes import STAKE_CHOICES
from joker import BadRecord, make_rules
from joker.rules import HISHT_CHOICES, JAPANESE_TARGETS, PROFILES
from ratings.categories import CATEGORY_CHOICES, DEFAULT_CATEGORY, preset

PROFILE_LABELS = {
    "georgian-club": _("Joker, Georgian club rules"),
    "georgian-tvaladze": _("Joker, Tvaladze rules"),
    "live-games": _("Joker, Live Games rules"),
    "japanese": _("Japanese Joker (2 players)"),
}

# The form fields that are options of each profile; the others are ignored.
PROFILE_OPTION_FIELDS = {
    "georgian-club": ("schedule", "hisht_penalty", "deductions", "pairs"),
    "georgian-tvaladze": (),
    "live-games": ("scoring",),
    "japanese": ("target",),
}
OPTION_FIELDS = tuple(
    name for names in PROFILE_OPTION_FIELDS.values() for name in names
)

SCHEDULE_CHOICES = [
    ("classic", _("Classic, 24 deals")),
    ("nines", _("Nines only, 16 deals")),
]
HISHT_LABELS = {
    "200": "200",
    "500": "500",
    "alternating": _("Alternating 200 and 500"),
    "dynamic": _("Dynamic"),
}
SCORING_CHOICES = [
    ("online", _("Online")),
    ("home-missing", _("Home: missing tricks")),
    ("home-bid", _("Home: bid")),
]


# The choices below are built once, when the module loads: their labels are
# lazy so that each request renders them in its own language (formatting a
# lazy string with ``%`` would fix it in the language active at import).


def _seconds_label(seconds: int) -> str:
    return ngettext("%(seconds)d second", "%(seconds)d seconds", seconds) % {
        "seconds": seconds
    }


def _stake_label(stake: int) -> str:
    if not stake:
        return gettext("No stake")
    return gettext("%(coins)d Domino Coin") % {"coins": stake}


def _rate_label(points: int) -> str:
    return ngettext("1 coin per point", "1 coin per %(points)d points", points) % {
        "points": points
    }


seconds_label = lazy(_seconds_label, str)
stake_label = lazy(_stake_label, str)
rate_label = lazy(_rate_label, str)


class TableCreateForm(forms.Form):
    """A profile, the options of that profile, the turn timer and privacy;
    or, for a ranked table, a rating category, a stake and its settlement
    (the pot to the winners, or by score at a rate of points per coin).

    Option fields of other profiles are ignored, so the form works without
    JavaScript (which only hides them). ``cleaned_data["options"]`` holds the
    options of the chosen profile, typed as ``Table.options`` stores them. A
    ranked table plays its category's preset: ``profile`` and ``options``
    are then the preset's, whatever the profile fields say.
    """

    profile = forms.ChoiceField(
        label=_("Game"),
        choices=[(name, PROFILE_LABELS[name]) for name in PROFILES],
        initial="georgian-club",
    )
    schedule = forms.ChoiceField(
        label=_("Deals"), choices=SCHEDULE_CHOICES, initial="classic"
    )
    hisht_penalty = forms.ChoiceField(
        label=_("Hisht penalty"),
        choices=[(value, HISHT_LABELS[value]) for value in HISHT_CHOICES],
        initial="200",
    )
    deductions = forms.BooleanField(label=_("Deductions"), required=False, initial=True)
    pairs = forms.BooleanField(label=_("Pairs"), required=False, initial=False)
    scoring = forms.ChoiceField(
        label=_("Scoring"), choices=SCORING_CHOICES, initial="online"
    )
    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=[(target, target) for target in JAPANESE_TARGETS],
        coerce=int,
        initial=21,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=[(s, seconds_label(s)) for s in TURN_SECONDS_CHOICES],
        coerce=int,
        initial=30,
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        help_text=_("Not listed in the lobby; players join with the invite link."),
        required=False,
    )
    ranked = forms.BooleanField(
        label=_("Ranked"),
        help_text=_(
            "Rated: people only, playing a category's standard rules, "
            "with an optional Domino Coin stake."
        ),
        required=False,
    )
    category = forms.ChoiceField(
        label=_("Category"),
        choices=CATEGORY_CHOICES,
        initial=DEFAULT_CATEGORY,
        required=False,
    )
    stake = forms.TypedChoiceField(
        label=_("Stake"),
        choices=[(stake, stake_label(stake)) for stake in STAKE_CHOICES],
        coerce=int,
        # Any value, not only a str as the stubs say.
        empty_value=0,  # type: ignore[arg-type]
        initial=0,
        required=False,
        help_text=_(
            "Each player's stake goes into escrow when the game starts. "
            "Domino Coin is a virtual coin, never money."
        ),
    )
    settlement = forms.ChoiceField(
        label=_("Settlement"),
        choices=Table.Settlement.choices,
        initial=Table.Settlement.POT,
        required=False,
        help_text=_(
            "The winners take the pot; or, by score, every two players settle "
            "the difference of their totals, and the stake is each player's "
            "deposit: the most anyone can lose."
        ),
    )
    points_per_coin = forms.TypedChoiceField(
        label=_("Rate"),
        choices=[(rate, rate_label(rate)) for rate in POINTS_PER_COIN_CHOICES],
        coerce=int,
        empty_value=DEFAULT_POINTS_PER_COIN,  # type: ignore[arg-type]
        initial=DEFAULT_POINTS_PER_COIN,
        required=False,
        help_text=_("Settled by score: the points of difference worth a coin."),
    )

    def selected_profile(self) -> str | None:
        """The profile named in the submitted data (or the initial one)."""
        if self.is_bound:
            value = self.data.get(self.add_prefix("profile"))
        else:
            value = self.initial.get("profile", self.fields["profile"].initial)
        return value if value in PROFILE_OPTION_FIELDS else None

    def full_clean(self):
        super().full_clean()
        if not self.is_bound:
            return
        # Errors of another profile's options do not count; a ranked table
        # has no options of its own.
        if self.cleaned_data.get("ranked"):
            relevant = ()
        else:
            relevant = PROFILE_OPTION_FIELDS.get(self.cleaned_data.get("profile"), ())
        for name in OPTION_FIELDS:
            if name not in relevant:
                self._errors.pop(name, None)
                self.cleaned_data.pop(name, None)

    def clean_settlement(self) -> str:
        return self.cleaned_data.get("settlement") or Table.Settlement.POT

    def clean(self):
        data = super().clean()
        by_score = data.get("settlement") == Table.Settlement.SCORE
        if data.get("ranked"):
            category = data.get("category") or DEFAULT_CATEGORY
            data["category"] = category
            data["profile"], data["options"] = preset(category)
            self._errors.pop("profile", None)
            if by_score and not data.get("stake") and "stake" not in self._errors:
                self.add_error(
                    "settlement",
                    forms.ValidationError(
                        _("Settlement by score needs a stake: each player's deposit.")
                    ),
                )
            return data
        if data.get("stake"):
            self.add_error(
                "stake", forms.ValidationError(_("Only ranked tables have stakes."))
            )
        if by_score:
            self.add_error(
                "settlement",
                forms.ValidationError(
                    _("Only ranked tables with a stake are settled by score.")
                ),
            )
        profile = data.get("profile")
        if profile is None:
            return data
        names = PROFILE_OPTION_FIELDS[profile]
        if any(name in self._errors for name in names):
            return data
        options = {name: data[name] for name in names}
        try:
            make_rules(profile, options)
        except BadRecord as error:
            raise forms.ValidationError(str(error), code="bad_options") from error
        data["options"] = options
        return data

    def option_fieldsets(self) -> list[dict]:
        """The option fields grouped by profile, for the template."""
        return [
            {
                "profile": profile,
                "label": PROFILE_LABELS[profile],
                "fields": [self[name] for name in names],
            }
            for profile, names in PROFILE_OPTION_FIELDS.items()
            if names
        ]
