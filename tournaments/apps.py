from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from coins.references import reference_namer_register
        from common.bus import AFTER_COMMIT
        from games.ended import game_ended
        from tournaments.references import tournaments_named
        from tournaments.subscribers import take_in_the_result

        # A tournament game's end is taken in once it has committed.
        game_ended.subscribe(take_in_the_result, when=AFTER_COMMIT)

        # The ledger names a tournament's pool through this.
        reference_namer_register("tournament", tournaments_named)
