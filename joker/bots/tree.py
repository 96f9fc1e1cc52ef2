"""The search tree of the practice bot's card play (``IsmctsBot``): one
ISMCTS iteration, progressive widening, UCB with availability counts."""

from __future__ import annotations

import math
import random

from .bitdeal import BitDeal

# UCB exploration constant, for results scaled to about [-1, 1].
EXPLORATION = 0.5
# Visits before a tree node tries a move other than the autopilot's (see
# ``widened``).
WIDENING = 16


def iterate(sim: BitDeal, node: Node, rng: random.Random, results) -> float:
    """One ISMCTS iteration below ``node``, whose action ``sim`` has played:
    select down the tree by UCB among the children legal in this deal, add
    one node, play out with the autopilot policy and back the result up.
    Returns the result for the seat that played ``node``'s action.

    The tree widens progressively: a node's first child is the autopilot's
    move (in each sampled deal, where it differs), and a node gets one
    other move to try only as its visits grow (``widened``). At a few
    dozen deals per move the search is then about a flat Monte Carlo over
    the autopilot's playouts, which is strong; a bigger budget opens up the
    alternatives where they are visited most. (Trying every move of every
    seat at once, as plain UCB does, spends a small budget on random play
    below the root and was clearly weaker in bot_strength.py.)"""
    path = [node]
    while not sim.finished:
        children = node.children
        action = sim.autopilot_move()
        legal = None
        if action not in children:
            expand = True
        elif len(children) < widened(node.visits):
            legal = sim.legal()
            untried = [a for a in legal if a not in children]
            expand = bool(untried)
            if expand:
                action = rng.choice(untried)
        else:
            expand = False
        if expand:
            child = children[action] = Node(action, sim.turn)
            sim.play(action)
            path.append(child)
            break
        if len(children) == 1:
            node = children[action]  # the autopilot's move, the only child
            node.available += 1
        else:
            if legal is None:
                legal = sim.legal()
            tried = [a for a in legal if a in children]
            for action in tried:
                children[action].available += 1
            node = select(node, tried)
        sim.play(node.action)
        path.append(node)
    sim.play_out()
    outcome = results(sim)
    for node in path:
        node.visits += 1
        node.total += outcome[node.seat]
    return outcome[path[0].seat]


def widened(visits: int) -> int:
    """How many children a node with this many visits may have: one more
    at WIDENING, 4 x WIDENING, 9 x WIDENING visits, and so on."""
    return 1 + math.isqrt(visits // WIDENING)


class Node:
    __slots__ = ("action", "seat", "children", "visits", "total", "available")

    def __init__(self, action, seat):
        self.action = action
        self.seat = seat  # the seat that made ``action``
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1


def select(node: Node, legal) -> Node:
    """UCB over the children legal in this deal, with availability counts."""
    best, best_value = None, -math.inf
    for action in legal:
        child = node.children[action]
        value = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if value > best_value:
            best, best_value = child, value
    return best
