from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoinsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "coins"
    verbose_name = _("Domino Coin")
