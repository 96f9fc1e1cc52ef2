"""What a client does with the table's messages, as docs/protocol.md says:
a ``sync`` is the whole snapshot; an ``update`` is applied to the snapshot
held (its events followed, its position taken), unless it skips a version,
when only a ``sync`` can catch up."""

from __future__ import annotations

from joker.follow import follow


class Gap(Exception):
    """An update that does not follow the snapshot held: ask for a sync."""


def take(snapshot: dict | None, message: dict) -> dict | None:
    """The snapshot after ``message`` (a ``sync`` or an ``update``)."""
    if message["type"] == "sync":
        return message
    if snapshot is None:
        raise Gap("an update before any sync")
    if message["version"] <= snapshot["version"]:
        return snapshot  # crossed a sync that already had it
    steps = message["events"]
    if not steps or steps[0]["version"] != snapshot["version"] + 1:
        raise Gap(f"at version {snapshot['version']}, an update from {steps}")
    seats = [dict(seat) for seat in snapshot["seats"]]
    commitments = list(snapshot["commitments"])
    for step in steps:
        for event in step["events"]:
            if event["type"] == "resign":
                seats[event["seat"]]["left"] = True
            elif event["type"] == "rejoin":
                seats[event["seat"]].update(left=False, left_cause="", rejoining=False)
            elif event["type"] == "deal" and event.get("commitment"):
                commitments.append(event["commitment"])
    return {
        **snapshot,
        "type": "update",
        "version": message["version"],
        "status": message["status"],
        "deadline": message["deadline"],
        "events": steps,
        "seats": seats,
        "commitments": commitments,
        "view": follow(snapshot["view"], steps, message["position"]),
    }
