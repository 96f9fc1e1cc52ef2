"""URLs of the tournament pages."""

from django.urls import path

from tournaments import views
from tournaments.views.whats_next import next_game

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("tables/<int:table_id>/next/", next_game, name="next"),
]
