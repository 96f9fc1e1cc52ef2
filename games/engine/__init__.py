"""The rules engine's old address, kept for its command: the engine itself is
the top-level package ``joker``."""
