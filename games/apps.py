from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.services import notify
        from games.signals import game_ended

        # A table that stops being played leaves the lobby's list.
        game_ended.connect(notify.lobby_on_game_end, dispatch_uid="lobby-game-end")
