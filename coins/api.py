"""The signed-in player's wallet in the REST API, mounted at /api/v1/wallet/.

Only ever the requesting user's own wallet: no URL names another user.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from coins import selectors, services
from coins.models import Account, Entry

NOTICE = (
    "Domino Coin is a virtual coin for play. It is never money: it cannot be "
    "bought, sold or paid out."
)


class WalletSerializer(serializers.Serializer):
    balance = serializers.IntegerField(
        read_only=True, help_text="Coins in the wallet now."
    )
    coin = serializers.CharField(read_only=True, help_text='Always "Domino Coin".')
    notice = serializers.CharField(
        read_only=True, help_text="Domino Coin is never money."
    )


class WalletEntrySerializer(serializers.ModelSerializer):
    change = serializers.IntegerField(
        read_only=True,
        help_text="Coins into the wallet, or out of it as a negative number.",
    )
    balance_after = serializers.IntegerField(
        read_only=True, help_text="The wallet's balance right after this entry."
    )
    counterparty = serializers.ChoiceField(
        choices=Account.Kind.choices,
        read_only=True,
        help_text="The kind of the other account (never who owns it).",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "created_at",
            "reason",
            "change",
            "balance_after",
            "counterparty",
            "ref",
            "memo",
        ]
        read_only_fields = fields


class WalletView(APIView):
    """Return the signed-in player's Domino Coin balance."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: WalletSerializer})
    def get(self, request: Request) -> Response:
        wallet = services.wallet_of(request.user)
        data = {"balance": wallet.balance, "coin": "Domino Coin", "notice": NOTICE}
        return Response(WalletSerializer(data).data)


class WalletEntriesView(generics.ListAPIView):
    """List the signed-in player's ledger entries, newest first."""

    serializer_class = WalletEntrySerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return selectors.wallet_statement(services.wallet_of(self.request.user))


urlpatterns = [
    path("", WalletView.as_view(), name="wallet"),
    path("entries/", WalletEntriesView.as_view(), name="wallet-entries"),
]
