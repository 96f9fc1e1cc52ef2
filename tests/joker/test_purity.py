"""The engine is a library of its own: no web framework comes in with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "channels", "celery", "rest_framework", "redis", "kombu")


def test_importing_the_engine_loads_no_framework():
    script = (
        "import sys, pkgutil, importlib, joker as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'joker.'):\n"
        "    if not m.name.endswith('.replay'): importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_engine_sources_import_no_framework():
    engine = REPO_ROOT / "joker"
    sources = sorted(engine.rglob("*.py"))
    assert engine / "game.py" in sources, "the engine's sources are not where looked"
    for path in sources:
        text = path.read_text()
        for name in FORBIDDEN:
            assert f"import {name}" not in text, path
            assert f"from {name}" not in text, path
