"""URLs of live play."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from games.views import lobby, table

app_name = "games"

urlpatterns = [
    path("lobby/", lobby.lobby, name="lobby"),
    path("tables/<int:table_id>/", table.table, name="table"),
    path("tables/<int:table_id>/state.json", table.table_state, name="table-state"),
    path("games/<int:game_id>/replay/", table.game_replay, name="replay"),
    path("games/<int:game_id>/record.json", table.game_record, name="record"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
