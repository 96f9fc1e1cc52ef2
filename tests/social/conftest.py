"""Fixtures of the social tests."""

import pytest
from channels.layers import channel_layers


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Every test its own channel layer (channels_redis keeps asyncio locks
    of the event loop first waiting on them; each test has a new loop)."""
    channel_layers.backends.clear()
