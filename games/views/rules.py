"""The rules page: how each rule profile is played, as the engine plays it
(joker: rules.py, bidding.py, tricks.py, scoring.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.forms import PROFILE_LABELS
from games.glossary import terms_for
from joker import make_rules
from joker.rules import PROFILES

DEFAULT_PROFILE = "georgian-club"


@require_GET
def rules(request: HttpRequest, profile: str = DEFAULT_PROFILE) -> HttpResponse:
    """The rules of one profile, with links to the others."""
    if profile not in PROFILES:
        raise Http404("no such rules")
    return render(
        request,
        "games/rules.html",
        {
            "profile": profile,
            "rules": make_rules(profile),
            "profiles": [(name, PROFILE_LABELS[name]) for name in PROFILES],
            "title": PROFILE_LABELS[profile],
            "glossary": terms_for(profile),
        },
    )
