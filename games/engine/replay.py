"""``python -m games.engine.replay``: the replay command's old address, kept
because published rule examples and outside checks call it. The command is
``python -m joker.replay``."""

import sys

from joker.replay import main

if __name__ == "__main__":
    sys.exit(main())
