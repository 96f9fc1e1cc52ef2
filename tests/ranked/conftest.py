"""Fixtures of the ranked-play tests (the live-play ones, shared)."""

from tests.games.conftest import connect, fresh_channel_layer

__all__ = ["connect", "fresh_channel_layer"]
