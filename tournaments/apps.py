from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from coins.references import reference_namer_register
        from tournaments import signals  # noqa: F401 - connects the receivers
        from tournaments.references import tournaments_named

        # The ledger names a tournament's pool through this.
        reference_namer_register("tournament", tournaments_named)
