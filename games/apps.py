from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from accounts.bans import player_banned
        from coins.references import reference_namer_register
        from games.references import games_named
        from games.services import notify, tables
        from games.signals import game_ended

        # The ledger names a game's stakes through this.
        reference_namer_register("game", games_named)

        # A table that stops being played leaves the lobby's list.
        game_ended.connect(notify.lobby_on_game_end, dispatch_uid="lobby-game-end")
        # A banned player's seats at tables still waiting are freed with the ban.
        player_banned.connect(
            tables.free_the_seats_of_a_banned_player, dispatch_uid="ban-frees-seats"
        )
