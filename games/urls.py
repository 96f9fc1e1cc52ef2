"""URLs of live play."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from games.views import lobby, rules, table

app_name = "games"

urlpatterns = [
    path("lobby/", lobby.lobby, name="lobby"),
    path("lobby/tables/", lobby.lobby_tables, name="lobby-tables"),
    path("tables/new/", lobby.table_create, name="table-create"),
    path("tables/join/<str:invite_code>/", lobby.invite, name="invite"),
    path("tables/<int:table_id>/leave/", lobby.seat_leave, name="seat-leave"),
    path(
        "tables/<int:table_id>/seats/<int:number>/take/",
        lobby.seat_take,
        name="seat-take",
    ),
    path(
        "tables/<int:table_id>/seats/<int:number>/bot/",
        lobby.seat_add_bot,
        name="seat-add-bot",
    ),
    path(
        "tables/<int:table_id>/seats/<int:number>/remove-bot/",
        lobby.seat_remove_bot,
        name="seat-remove-bot",
    ),
    path("tables/<int:table_id>/", table.table, name="table"),
    path("tables/<int:table_id>/state.json", table.table_state, name="table-state"),
    path("games/<int:game_id>/replay/", table.game_replay, name="replay"),
    path("games/<int:game_id>/record.json", table.game_record, name="record"),
    path("rules/", rules.rules, name="rules-index"),
    path("rules/<slug:profile>/", rules.rules, name="rules"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
