"""URLs of the tournament pages."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
]
