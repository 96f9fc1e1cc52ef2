from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.bans import player_banned
        from coins.references import reference_namer_register
        from common.bus import AFTER_COMMIT, IN_TRANSACTION
        from games import reviews, stakes
        from games.ended import game_ended
        from games.references import games_named
        from games.services import notify, tables

        # The ledger names a game's stakes through this.
        reference_namer_register("game", games_named)

        # A game's end settles its stakes and ratings with its last step,
        # and the table that stops being played leaves the lobby's list.
        game_ended.subscribe(stakes.settle_ended, when=IN_TRANSACTION)
        game_ended.subscribe(notify.lobby_on_game_end, when=AFTER_COMMIT)
        # A finished game's deal review is queued with its last step and
        # sent to the reviews' worker once that commits.
        game_ended.subscribe(reviews.queue_on_end, when=IN_TRANSACTION)
        game_ended.subscribe(reviews.send_on_end, when=AFTER_COMMIT)
        # A banned player's seats at tables still waiting are freed with the ban.
        player_banned.connect(
            tables.free_the_seats_of_a_banned_player, dispatch_uid="ban-frees-seats"
        )
