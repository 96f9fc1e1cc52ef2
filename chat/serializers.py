"""The chat's messages in the REST API: the shape the sockets send."""

from __future__ import annotations

from rest_framework import serializers

from chat import selectors
from chat.models import Message
from chat.phrases import PHRASES


class ChatAuthorSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The author's display name.")


class ChatMessageSerializer(serializers.Serializer):
    """A message: its free ``text``, or the key of a quick ``phrase`` (the
    other one empty), each reader showing a phrase in their own language."""

    id = serializers.IntegerField()
    room = serializers.ChoiceField(choices=Message.Room.choices)
    table = serializers.IntegerField(
        allow_null=True, help_text="The table's id; null in the lobby."
    )
    game = serializers.IntegerField(
        allow_null=True,
        help_text="The game being played when it was said; null in the lobby "
        "and while the table waited for its players.",
    )
    author = ChatAuthorSerializer()
    text = serializers.CharField(allow_blank=True)
    phrase = serializers.ChoiceField(choices=[("", "")] + list(PHRASES.items()))
    at = serializers.DateTimeField()

    def to_representation(self, instance):
        return selectors.payload(instance)


class GameChatFilterSerializer(serializers.Serializer):
    room = serializers.ChoiceField(
        choices=[Message.Room.PLAYERS, Message.Room.SPECTATORS],
        required=False,
        help_text="Only this room (default: every room you may read).",
    )
