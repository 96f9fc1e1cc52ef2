"""URLs of the accounts pages, mounted at /accounts/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import login, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", login.site_login, name="login"),
    # Django's LogoutView accepts POST only.
    path("logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.api_token_create, name="api_token_create"),
    path("profile/token/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("language/", views.set_language, name="set_language"),
]
