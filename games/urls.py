"""URLs of live play."""

from django.urls import path

from games.views import lobby, table

app_name = "games"

urlpatterns = [
    path("lobby/", lobby.lobby, name="lobby"),
    path("tables/<int:table_id>/", table.table, name="table"),
]
