"""Every format has its plug-in, and the one lookup finds it."""

from __future__ import annotations

import pytest

from tournaments.choices import Format
from tournaments.formats.plugins import (
    FORMATS,
    TournamentFormat,
    continuous_formats,
    format_of,
    formats_for,
)


def test_every_format_has_one_plugin_and_every_plugin_a_format():
    assert list(FORMATS) == list(Format.values)


@pytest.mark.parametrize("value", Format.values)
def test_the_lookup_finds_the_plugin_by_the_stored_value(value):
    plugin = format_of(value)
    assert isinstance(plugin, TournamentFormat)
    assert plugin.value == value


def test_the_formats_by_players_at_a_table():
    assert formats_for(2) == {Format.SWISS, Format.KNOCKOUT, Format.ARENA}
    assert formats_for(4) == {Format.MULTITABLE}


def test_only_the_arena_is_played_continuously():
    assert continuous_formats() == [Format.ARENA]
