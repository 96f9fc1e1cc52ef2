"""Fixtures for the quick-play tests."""

import pytest
from channels.layers import channel_layers


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer per test: channels_redis keeps asyncio locks that
    belong to the event loop that first waited on them."""
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def welcome_coins(settings):
    settings.PULKA_COINS_WELCOME = 1000
    settings.PULKA_HIGH_STAKE = 500
