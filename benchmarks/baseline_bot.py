"""Today's practice bot, frozen: ``IsmctsBot`` as it was at commit
``BASELINE`` (201fa42), for ``bot_strength.py``'s new-against-today
match-ups.

``load()`` extracts that commit's ``joker/`` (``git archive``) into a
temporary directory as a package of its own name, ``joker_baseline`` (the
engine's internal imports are relative, so it imports as a whole beside
today's ``joker``), and imports it. Nothing compiled is needed: at that
commit the bot's playouts are pure Python (``BitDeal``).

``BaselineBot`` drives it with its own engine in lockstep: before each move
the position is handed over in the engine's stored form (``codec``'s
``state_to_json`` of the new engine, ``state_from_json`` of the old one,
the deal's actions as ``action_to_json``), and its move comes back the same
way. The stored form is the server's, kept compatible across versions, so
the old bot never sees a new engine object. The hand-over is outside the
bot's own CPU time (``thinking``, measured by the old bot on the clock it is
given).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from joker.actions import action_from_json, action_to_json
from joker.codec import state_to_json

BASELINE = "201fa42"
NAME = "joker_baseline"
REPOSITORY = Path(__file__).resolve().parent.parent
_LOADED: dict = {}


def load(commit: str = BASELINE):
    """The ``joker`` package of ``commit``, imported as ``joker_baseline``."""
    if commit in _LOADED:
        return _LOADED[commit]
    root = Path(tempfile.mkdtemp(prefix="pulka-baseline-"))
    archive = root / "joker.tar"
    subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", "-o", str(archive), commit, "joker"],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(root, filter="data")
    (root / "joker").rename(root / NAME)
    sys.path.insert(0, str(root))
    package = importlib.import_module(NAME)
    _LOADED[commit] = package
    return package


class BaselineBot:
    """The frozen ``IsmctsBot`` behind today's bots' interface."""

    def __init__(self, **options):
        package = load()
        self.codec = importlib.import_module(f"{NAME}.codec")
        self.actions = importlib.import_module(f"{NAME}.actions")
        ismcts = importlib.import_module(f"{NAME}.bots.ismcts")
        self.bot = ismcts.IsmctsBot(**options)
        self.version = package.__name__

    @property
    def thinking(self) -> list[float]:
        return self.bot.thinking

    @property
    def iterations(self) -> list[int]:
        return self.bot.iterations

    def choose(self, state, deal_actions):
        old_state = self.codec.state_from_json(state_to_json(state))
        old_actions = [
            self.actions.action_from_json(action_to_json(a)) for a in deal_actions
        ]
        move = self.bot.choose(old_state, old_actions)
        return action_from_json(self.actions.action_to_json(move))
