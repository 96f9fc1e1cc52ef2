"""How a client keeps a seat's view from the updates it is sent.

An update carries the public events of each step and the seat's
``position`` after them (``view.position``). ``follow`` applies both to the
view the seat had and gives the view ``view(state, seat)`` would give now:
the tests hold it to that over whole games of every profile, and the table
page's script (static/js/game/follow.js) does the same, step for step.
"""

from __future__ import annotations

from .jsontypes import JsonObject

# The fields of a view that only mean something while a deal is played.
_DEAL_FIELDS: JsonObject = {"dealer": None, "cards": None, "tricks": []}


def follow(
    view: JsonObject, steps: list[JsonObject], position: JsonObject
) -> JsonObject:
    """The view after ``steps`` (each ``{"version", "events"}``), ending at
    ``position``."""
    out = {**view, "bids": list(view["bids"]), "tricks": list(view["tricks"])}
    out["trick"] = list(view["trick"])
    out["deals"] = list(view["deals"])
    out["pulkas"] = list(view["pulkas"])
    for step in steps:
        for event in step["events"]:
            _apply(out, event)
    out.pop("legal", None)
    out.pop("next_deal", None)
    out.update(position)
    if position["phase"] in ("deal", "over"):
        out.update(_DEAL_FIELDS)
        out["trick"] = []
    return out


def _apply(view: JsonObject, event: JsonObject) -> None:
    kind = event["type"]
    if kind == "deal":
        players = view["players"]
        view.update(
            deal=event["deal"],
            dealer=event["dealer"],
            cards=event["cards"],
            turned=event["turned"],
            trump=event["trump"],
            bids=[] if view["profile"] == "japanese" else [None] * players,
            tricks=[0] * players,
            trick=[],
            trick_number=0,
        )
    elif kind == "trump":
        view["trump"] = event["trump"]
    elif kind == "bid":
        view["bids"][event["seat"]] = event["bid"]
    elif kind == "card":
        view["trick"] = [*view["trick"], _without_type(event)]
    elif kind == "trick":
        view["trick"] = []
        view["tricks"][event["winner"]] += 1
        view["trick_number"] += 1
    elif kind == "deal_over":
        view["deals"].append(event["result"])
        view.update(
            deal=event["deal"] + 1, trump=None, turned=None, bids=[], trick_number=0
        )
    elif kind == "pulka_over":
        view["pulkas"].append(_without_type(event))
    elif kind == "game_over":
        view["places"] = event["places"]


def _without_type(event: JsonObject) -> JsonObject:
    return {key: value for key, value in event.items() if key != "type"}
