"""URLs of the Domino Coin pages, mounted at /coins/."""

from django.urls import path

from coins import views

app_name = "coins"

urlpatterns = [
    path("", views.wallet, name="wallet"),
]
