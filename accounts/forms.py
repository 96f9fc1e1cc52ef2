"""Forms of the accounts pages."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import names, timezones
from accounts.models import DISPLAY_NAME_MAX_LENGTH
from common.text_filters import label_from_verbose_name


class SignUpForm(UserCreationForm):
    """A username and a password, twice; nothing else is asked."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self._meta.model._meta.get_field("username")
        label_from_verbose_name(self, "username", username.verbose_name)

    def clean_username(self) -> str:
        name = super().clean_username()
        refuse_name(name, user=None)
        return name

    def save_with(self, password_hash: str):
        """Save the new player with their password already hashed (by the
        view, off the shared thread: see ``accounts.backends``)."""
        user = forms.ModelForm.save(self, commit=False)
        user.password = password_hash
        user.save()
        return user


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Shown at tables instead of your username. Leave empty to use it."),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("Automatic (from your browser)")), *settings.LANGUAGES],
        required=False,
    )

    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        help_text=_("Tournament and game times are shown in this zone."),
        widget=timezones.ZoneSelect,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["time_zone"].choices = [
            ("", _("Automatic (from your browser)")),
            *timezones.zone_choices(),
        ]

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        if name:
            refuse_name(name, user=self.user)
        return name


def refuse_name(name: str, *, user) -> None:
    """A form's error for a name ``user`` (None: a new player) may not take:
    one with a hidden character, or looking like another player's name
    (``accounts.names``). The sign-up, the profile and the admin's forms
    refuse names with it."""
    try:
        names.check_name(name, user=user)
    except names.NameHidden as error:
        raise forms.ValidationError(
            NAME_REFUSALS["name_hidden"], code="hidden"
        ) from error
    except names.NameTaken as error:
        raise forms.ValidationError(
            NAME_REFUSALS["name_taken"], code="taken"
        ) from error


NAME_REFUSALS = {
    "name_taken": _("Another player already goes by this name."),
    "name_hidden": _(
        "A name may not hold invisible characters or text-direction marks."
    ),
}
