from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from games.consumers import riders
        from social import notify

        from .selectors import has_muted
        from .sockets import LobbyChat, TableChat, WaitingTableChat

        # A player muted in the chat sends no notice of a friend request.
        notify.silence_when(has_muted)
        # The chat rides on the games' table and lobby sockets.
        riders.ride(riders.TABLE, TableChat)
        riders.ride(riders.WAITING, WaitingTableChat)
        riders.ride(riders.LOBBY, LobbyChat)
