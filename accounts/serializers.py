"""A player as the REST API shows them wherever one is named."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from accounts.selectors import display_name


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField(source="get_username")
    display_name = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    def get_display_name(self, user) -> str:
        return display_name(user)

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, user) -> str:
        return reverse(
            "api:player-detail",
            args=[user.get_username()],
            request=self.context.get("request"),
        )
