"""The operators' view of ratings.

Ratings are the sum of their changes, so nothing here edits either: a game's
changes are undone only by reverting the game (``services.rating_revert_game``),
which the action on rating changes does, or by annulling it in the games'
admin. The lopsided pairs are a report of the changes, pairs of accounts one
of which keeps gaining from the other, each with its games to annul.
"""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError
from ratings import selectors, services
from ratings.categories import CATEGORIES, CATEGORY_CHOICES
from ratings.models import LopsidedPair, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = [
        "user",
        "category",
        "rating",
        "games",
        "provisional",
        "peak",
        "updated_at",
    ]
    list_filter = ["category"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    ordering = ["category", "-rating", "id"]

    @admin.display(boolean=True, description=_("provisional"))
    def provisional(self, obj: Rating) -> bool:
        return obj.provisional


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "game",
        "user",
        "category",
        "before",
        "delta",
        "after",
    ]
    list_filter = ["category"]
    search_fields = ["user__username", "=game__id"]
    list_select_related = ["user", "game"]
    date_hierarchy = "created_at"
    actions = ["revert_games"]

    @admin.action(
        description=_("Revert the rated games of the selected changes"),
        permissions=["revert"],
    )
    def revert_games(self, request, queryset):
        game_ids = sorted(set(queryset.values_list("game_id", flat=True)))
        reverted = 0
        for game_id in game_ids:
            try:
                services.rating_revert_game(game_id=game_id)
            except ApplicationError as error:
                # Each game is its own transaction: the others still go.
                self.message_user(
                    request,
                    _("Game %(game)s was not reverted: %(reason)s.")
                    % {"game": game_id, "reason": error},
                    messages.WARNING,
                )
                continue
            reverted += 1
        if reverted:
            self.message_user(
                request,
                ngettext(
                    "Reverted the ratings of %(count)d game.",
                    "Reverted the ratings of %(count)d games.",
                    reverted,
                )
                % {"count": reverted},
                messages.SUCCESS,
            )

    def has_revert_permission(self, request) -> bool:
        return request.user.is_superuser


# The windows the lopsided pairs are looked for in, in days; the first is
# the page's own.
WINDOWS = [
    (30, _("the last 30 days")),
    (7, _("the last 7 days")),
    (90, _("the last 90 days")),
    (365, _("the last year")),
]


class LopsidedPairsFilter(forms.Form):
    """The report's filters, from its address: a window and a category."""

    days = forms.TypedChoiceField(
        label=_("window"), choices=WINDOWS, coerce=int, required=False
    )
    category = forms.ChoiceField(
        label=_("category"), choices=[("", ""), *CATEGORY_CHOICES], required=False
    )

    def filters(self) -> tuple[int, str]:
        """The window in days and the category ("" for every one)."""
        return (
            self.cleaned_data["days"] or WINDOWS[0][0],
            self.cleaned_data["category"],
        )


@admin.register(LopsidedPair)
class LopsidedPairAdmin(ReadOnlyAdmin):
    """Pairs of accounts one of which kept gaining rating from the other
    (``selectors.lopsided_pairs``; docs/ratings.md, "Lopsided pairs"). A
    page of its own rather than a list of rows: each pair is worked out from
    the rating changes. Each pair links to both accounts and to its games in
    the games' admin; an operator who may annul games annuls them there,
    through its own action and confirmation."""

    def get_urls(self):
        opts = self.opts
        return [
            path(
                "",
                self.admin_site.admin_view(self.changelist_view),
                name=f"{opts.app_label}_{opts.model_name}_changelist",
            ),
        ]

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = LopsidedPairsFilter(request.GET)
        valid = form.is_valid()
        days, category = form.filters() if valid else (WINDOWS[0][0], "")
        since = timezone.now() - timedelta(days=days)
        pairs = selectors.lopsided_pairs(since=since, category=category or None)
        may_annul = request.user.has_perm("games.annul_game")
        context = {
            **self.admin_site.each_context(request),
            **(extra_context or {}),
            "title": self.opts.verbose_name_plural.capitalize(),
            "opts": self.opts,
            "form": form,
            "pairs": [self._row(pair, may_annul) for pair in pairs] if valid else [],
            "windows": self._choices(request, "days", days, WINDOWS),
            "categories": self._choices(
                request, "category", category, [("", _("All")), *CATEGORY_CHOICES]
            ),
            "least_games": selectors.LOPSIDED_GAMES,
            "share": round(100 * selectors.LOPSIDED_SHARE),
            "annul_url": reverse("admin:games_game_changelist"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(
            request,
            "ratings/admin/lopsided_pairs.html",
            context,
            status=200 if valid else 400,
        )

    @staticmethod
    def _row(pair: selectors.PairGains, may_annul: bool) -> dict:
        games = reverse("admin:games_game_changelist")
        ids = ",".join(str(game_id) for game_id in pair.game_ids)
        return {
            "pair": pair,
            "category": CATEGORIES[pair.category].label,
            "gainer_url": reverse("admin:auth_user_change", args=[pair.gainer_id]),
            "loser_url": reverse("admin:auth_user_change", args=[pair.loser_id]),
            "games_url": f"{games}?{urlencode({'id__in': ids})}",
            "share_of_points": round(100 * pair.share_of_points),
            "may_annul": may_annul,
        }

    @staticmethod
    def _choices(request, name: str, chosen, choices) -> list[dict]:
        """A filter's choices as the admin's own filters show them: links to
        this page with the one choice changed, the chosen one marked."""
        out = []
        for value, label in choices:
            query = request.GET.copy()
            query[name] = value
            out.append(
                {
                    "label": label,
                    "selected": str(value) == str(chosen),
                    "query": f"?{query.urlencode()}",
                }
            )
        return out
