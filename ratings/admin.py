"""The operators' view of ratings.

Ratings are the sum of their changes, so nothing here edits either: a game's
changes are undone only by reverting the game (``services.rating_revert_game``),
which the action on rating changes does.
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError
from ratings import services
from ratings.models import Rating, RatingChange


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
