from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from social import notify

        from .selectors import has_muted

        # A player muted in the chat sends no notice of a friend request.
        notify.silence_when(has_muted)
