"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path, re_path

from accounts import login
from config import views

# A database that could not be reached is a 503 (config.unavailable).
handler500 = "config.unavailable.server_error"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("health/", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The admin's and the browsable API's login pages, as the site's: they
    # check passwords off the shared thread and count failures (see
    # accounts.login). Listed before the apps that define the same paths.
    path("admin/login/", login.admin_login),
    path("api/v1/auth/login/", login.api_login),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("ratings.urls")),
    path("coins/", include("coins.urls")),
    path("play/", include("matchmaking.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("friends/", include("social.urls")),
    path("api/v1/", include("config.api")),
    # Sign-in pages for the browsable API.
    path("api/v1/auth/", include("rest_framework.urls")),
    # Last: whatever else is asked of the API is its JSON 404.
    re_path(r"^api/(?P<path>[\s\S]*)$", views.api_not_found),
]
