"""What the settings read: the environment, and an optional .env file in the
repository root for local overrides (what is already set in the environment
wins)."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
