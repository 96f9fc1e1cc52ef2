"""Which tables are rated, and in which category."""

import pytest

from ratings.categories import CATEGORIES, category_of, preset


@pytest.mark.parametrize(
    ("profile", "options", "category"),
    [
        ("georgian-club", {}, "joker"),
        ("georgian-club", None, "joker"),
        (
            "georgian-club",
            {
                "schedule": "classic",
                "hisht_penalty": "200",
                "deductions": True,
                "pairs": False,
            },
            "joker",
        ),
        # The engine's alias for the penalty normalises to the same preset.
        ("georgian-club", {"hisht_penalty": 200}, "joker"),
        ("georgian-club", {"schedule": "nines"}, "joker-nines"),
        ("georgian-club", {"pairs": True}, "joker-pairs"),
        ("georgian-club", {"pairs": True, "schedule": "classic"}, "joker-pairs"),
        ("japanese", {"target": 21}, "japanese"),
        ("japanese", {}, "japanese"),
        ("japanese", {"target": "21"}, "japanese"),
    ],
)
def test_presets_are_ranked(profile, options, category):
    assert category_of(profile, options) == category


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("georgian-club", {"hisht_penalty": "500"}),
        ("georgian-club", {"deductions": False}),
        ("georgian-club", {"schedule": "nines", "pairs": True}),
        ("georgian-club", {"schedule": "nines", "hisht_penalty": "dynamic"}),
        ("georgian-tvaladze", {}),
        ("live-games", {}),
        ("japanese", {"target": 11}),
        ("japanese", {"target": 31}),
        # Not valid at all.
        ("georgian-club", {"schedule": "tens"}),
        ("georgian-club", {"colour": "red"}),
        ("poker", {}),
        ("japanese", "21"),
    ],
)
def test_anything_else_is_unranked(profile, options):
    assert category_of(profile, options) is None


def test_every_preset_is_its_own_category():
    for slug in CATEGORIES:
        profile, options = preset(slug)
        assert category_of(profile, options) == slug


def test_preset_spells_out_every_option():
    assert preset("joker") == (
        "georgian-club",
        {
            "schedule": "classic",
            "hisht_penalty": "200",
            "deductions": True,
            "pairs": False,
        },
    )
    assert preset("joker-nines")[1]["schedule"] == "nines"
    assert preset("joker-pairs")[1]["pairs"] is True
    assert preset("japanese") == ("japanese", {"target": 21})
    with pytest.raises(KeyError):
        preset("chess")


def test_a_preset_is_a_copy():
    preset("joker")[1]["pairs"] = True
    assert preset("joker")[1]["pairs"] is False


def test_players_and_pairs():
    assert [CATEGORIES[s].players for s in CATEGORIES] == [4, 4, 4, 2]
    assert [CATEGORIES[s].pairs for s in CATEGORIES] == [False, False, True, False]
