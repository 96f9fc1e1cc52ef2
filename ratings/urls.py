"""URLs of the ratings pages."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.leaderboard, name="leaderboard"),
    path("ratings/<slug:category>/", views.leaderboard, name="leaderboard-category"),
    path("players/<str:username>/", views.player, name="player"),
]
