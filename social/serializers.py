"""The social API's request and answer bodies (social.api)."""

from __future__ import annotations

from rest_framework import serializers

USERNAME_HELP = "A player's username."


class PlayerNameSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name shown at tables.")


class TablePlaceSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="table")
    playing = serializers.BooleanField(
        help_text="Its game is on; false while it waits for players."
    )
    url = serializers.CharField(help_text="The table's page.")


class FriendSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    name = serializers.CharField()
    online = serializers.BooleanField(
        help_text="The friend has a page of the site open."
    )
    table = TablePlaceSerializer(
        source="place",
        allow_null=True,
        help_text="The table the friend is seated at, waiting or in play; "
        "null for none, or a private table you have no seat at.",
    )


class FriendRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()


class FriendRequestsSerializer(serializers.Serializer):
    received = FriendRequestSerializer(many=True, help_text="Waiting for your answer.")
    sent = FriendRequestSerializer(many=True, help_text="Waiting for theirs.")


class UsernameSerializer(serializers.Serializer):
    username = serializers.CharField(
        min_length=1, max_length=150, trim_whitespace=False, help_text=USERNAME_HELP
    )


class RequestResultSerializer(serializers.Serializer):
    result = serializers.ChoiceField(
        choices=["requested", "friends"],
        help_text="friends: the player had asked you already, so you are friends now.",
    )


class BlockSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    url = serializers.CharField(help_text="The table's page.")
    profile = serializers.CharField(help_text="The table's rule profile.")
    ranked = serializers.BooleanField()
    stake = serializers.IntegerField(help_text="Domino Coin per seat (never money).")
    sender = PlayerNameSerializer(source="from")
    to = PlayerNameSerializer()
    expires_at = serializers.DateTimeField()


class InvitationsSerializer(serializers.Serializer):
    received = InvitationSerializer(many=True)
    sent = InvitationSerializer(many=True)


class InvitationCreateSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    username = serializers.CharField(
        min_length=1, max_length=150, trim_whitespace=False, help_text="The friend's."
    )


class AcceptedSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    url = serializers.CharField(help_text="The table's page: go there.")
