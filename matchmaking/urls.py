"""URLs of the quick-play page, mounted at /play/."""

from django.urls import path

from matchmaking import views

app_name = "matchmaking"

urlpatterns = [
    path("", views.play, name="play"),
    path("join/", views.join, name="join"),
    path("cancel/", views.cancel, name="cancel"),
]
