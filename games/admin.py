"""The operators' view of live play: tables, games and their records.

Games change only through the services, so the game pages here are
read-only; the records (events, deals) are append-only by design. The one
action, "Annul game", asks for confirmation and then calls
``games.services.annul.game_annul`` for each selected game.
"""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.errors import PlayError
from games.models import Ban, DealRecord, Game, GameEvent, Seat, Table
from games.services.annul import game_annul


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "bot", "left", "connections", "disconnected_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "profile",
        "status",
        "ranked",
        "stake",
        "settlement",
        "is_private",
        "turn_seconds",
        "created_by",
        "created_at",
    ]
    list_filter = ["profile", "status", "ranked", "settlement", "is_private"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    readonly_fields = ["invite_code", "created_at"]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "status",
        "ranked",
        "stake",
        "version",
        "cards_played",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "table__profile", "table__ranked"]
    list_select_related = ["table"]
    search_fields = ["id", "table__id", "table__seats__user__username"]
    date_hierarchy = "started_at"
    actions = ["annul_games"]

    @admin.display(description=_("ranked"), boolean=True)
    def ranked(self, game: Game) -> bool:
        return game.table.ranked

    @admin.display(description=_("stake"))
    def stake(self, game: Game) -> int:
        return game.table.stake

    def has_annul_permission(self, request) -> bool:
        return request.user.has_perm("games.annul_game")

    @admin.action(description=_("Annul game"), permissions=["annul"])
    def annul_games(self, request, queryset):
        games = list(queryset.select_related("table").order_by("pk"))
        if "apply" not in request.POST:
            context = {
                **self.admin_site.each_context(request),
                "title": _("Annul game"),
                "opts": self.model._meta,
                "games": games,
                "action": request.POST.get("action"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "games/admin/annul.html", context)
        annulled = already = 0
        for game in games:
            try:
                done = game_annul(game_id=game.pk, by=request.user)
            except PlayError as error:
                self.message_user(
                    request,
                    _("Game %(game)s was not annulled: %(reason)s.")
                    % {"game": game.pk, "reason": error},
                    messages.ERROR,
                )
                continue
            annulled += done
            already += not done
        if annulled:
            self.message_user(
                request,
                ngettext(
                    "%(count)d game annulled.", "%(count)d games annulled.", annulled
                )
                % {"count": annulled},
                messages.SUCCESS,
            )
        if already:
            self.message_user(
                request,
                ngettext(
                    "%(count)d game was annulled already.",
                    "%(count)d games were annulled already.",
                    already,
                )
                % {"count": already},
                messages.INFO,
            )
        return None


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "kind", "seat", "cause", "action", "created_at"]
    list_filter = ["kind", "cause"]
    search_fields = ["game__id"]
    list_select_related = ["game"]


@admin.register(DealRecord)
class DealRecordAdmin(ReadOnlyAdmin):
    list_display = ["game", "index", "commitment"]
    search_fields = ["game__id", "commitment"]


@admin.register(Ban)
class BanAdmin(ReadOnlyAdmin):
    """The record of bans; a ban is made with the users' "Ban player"."""

    list_display = ["user", "by", "created_at", "reason"]
    search_fields = ["user__username", "by__username", "reason"]
    list_select_related = ["user", "by"]
    date_hierarchy = "created_at"
