"""The operators' view of live play: tables, games and their records.

Games change only through the services, so the game pages here are
read-only; the records (events, deals) are append-only by design. The one
action, "Annul game", asks for confirmation and then calls
``games.services.annul.game_annul`` for each selected game.

While a game is played, its hidden cards (the state, each deal's hands,
columns and salt: the models' ``SECRET_FIELDS``) are not shown here, to
staff and superusers alike. The permission ``games.view_live_hands``, given
explicitly (a superuser does not have it by default), shows them for
investigations, and every such page is written to the audit log
(``HandsRead``), listed here too. The change page is the one page that shows
them: no list shows those fields, and no page filters, searches or sorts by
them, for anybody (``config.admin.KeepsSecrets``).
"""

from datetime import timedelta

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.models import Permission
from django.db.models import Q
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.admin import ReadOnlyAdmin
from common.errors import ApplicationError
from games.models import DealRecord, Game, GameEvent, HandsRead, Seat, Table
from games.selectors import bot_load
from games.services.annul import game_annul

# The window of bot moves the game events' list sums up.
BOT_LOAD_WINDOW = timedelta(hours=1)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = readonly_fields = (
        "number",
        "user",
        "bot",
        "left",
    )
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


def may_see_live_hands(user) -> bool:
    """Granted to the user or a group of theirs, never implied: a superuser
    has every other permission, but not this one unless it is given."""
    return (
        Permission.objects.filter(
            codename="view_live_hands", content_type__app_label="games"
        )
        .filter(Q(user=user) | Q(group__user=user))
        .exists()
    )


class SecretWhilePlaying:
    """Leaves the model's ``SECRET_FIELDS`` off the page of an object whose
    game is being played, unless the operator may see live hands; then
    records the read."""

    def game_of(self, obj) -> Game:
        raise NotImplementedError

    def what_of(self, obj) -> str:
        raise NotImplementedError

    def _live(self, obj) -> bool:
        return obj is not None and self.game_of(obj).status == Game.Status.PLAYING

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if self._live(obj) and not may_see_live_hands(request.user):
            return [name for name in fields if name not in self.model.SECRET_FIELDS]
        return fields

    def render_change_form(
        self, request, context, add=False, change=False, form_url="", obj=None
    ):
        if self._live(obj) and may_see_live_hands(request.user):
            HandsRead.objects.create(
                game=self.game_of(obj), by=request.user, what=self.what_of(obj)
            )
        return super().render_change_form(
            request, context, add=add, change=change, form_url=form_url, obj=obj
        )


@admin.register(Game)
class GameAdmin(SecretWhilePlaying, ReadOnlyAdmin):
    def game_of(self, game: Game) -> Game:
        return game

    def what_of(self, game: Game) -> str:
        return "game"

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
            except ApplicationError as error:
                self.message_user(
                    request,
                    _("Game %(game)s was not annulled: %(reason)s.")
                    % {"game": game.pk, "reason": error},
                    messages.WARNING,
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
    list_display = [
        "game",
        "version",
        "kind",
        "seat",
        "cause",
        "action",
        "thinking_ms",
        "budget_ms",
        "cut_short",
        "created_at",
    ]
    list_filter = ["kind", "cause", "cut_short"]
    search_fields = ["game__id"]
    list_select_related = ["game"]

    def changelist_view(self, request, extra_context=None):
        """Above the list: the share of the last hour's bot moves that were
        given less than their level's thinking budget."""
        load = bot_load(timezone.now() - BOT_LOAD_WINDOW)
        return super().changelist_view(
            request, {**(extra_context or {}), "bot_load": load}
        )


@admin.register(DealRecord)
class DealRecordAdmin(SecretWhilePlaying, ReadOnlyAdmin):
    list_display = ["game", "index", "commitment"]
    search_fields = ["game__id", "commitment"]
    list_select_related = ["game"]

    def game_of(self, record: DealRecord) -> Game:
        return record.game

    def what_of(self, record: DealRecord) -> str:
        return f"deal {record.index + 1}"


@admin.register(HandsRead)
class HandsReadAdmin(ReadOnlyAdmin):
    """Who saw the hidden cards of a game being played, and when."""

    list_display = ["at", "by", "game", "what"]
    list_filter = ["at"]
    search_fields = ["by__username", "game__id"]
    list_select_related = ["by", "game"]
