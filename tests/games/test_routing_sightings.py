"""A process back from the dead is a home again only once its peers have
seen it alive for ``routing.SETTLE_SECONDS`` (games.live.routing)."""

from games.live.routing import SETTLE_SECONDS, Sightings


def test_a_node_is_settled_once_seen_alive_long_enough():
    sightings = Sightings()
    assert sightings.settled({"a", "b"}, now=100.0) == set()
    assert sightings.settled({"a", "b"}, now=100.0 + SETTLE_SECONDS - 0.1) == set()
    assert sightings.settled({"a", "b"}, now=100.0 + SETTLE_SECONDS) == {"a", "b"}


def test_a_node_that_died_meanwhile_is_seen_anew():
    sightings = Sightings()
    sightings.settled({"a", "b"}, now=0.0)
    assert sightings.settled({"a"}, now=10.0) == {"a"}  # b died
    assert sightings.settled({"a", "b"}, now=11.0) == {"a"}  # b is back
    assert sightings.settled({"a", "b"}, now=11.0 + SETTLE_SECONDS) == {"a", "b"}
