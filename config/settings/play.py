"""The settings of play: live games and their bots, the sockets' limits, the
chat and the tournaments' clock; part of every environment's settings
(``base`` takes them in), a module of their own beside the framework's."""

import os

from config import limits

from .environment import env

# Live play
# Seconds a bot waits before its move, so people can follow the table.
PULKA_BOT_MOVE_SECONDS = env.float("PULKA_BOT_MOVE_SECONDS", default=1.0)
# Seconds a disconnected player keeps the seat before leaving the game.
PULKA_DISCONNECT_GRACE_SECONDS = env.float("PULKA_DISCONNECT_GRACE_SECONDS", default=60)
# A move that arrives this many seconds after its deadline still counts
# (the network's lag); the timeout move is made when this is over too.
PULKA_MOVE_LAG_SECONDS = env.float("PULKA_MOVE_LAG_SECONDS", default=0.25)
# A live socket not heard from for this long is gone (clients ping every 5 s).
PULKA_SOCKET_SILENCE_SECONDS = env.float("PULKA_SOCKET_SILENCE_SECONDS", default=15)
# The web processes as the proxy names them ("web1:8000,web2:8000"), and
# this one's own: a game is owned where the proxy sends its sockets
# (games.live.routing). Empty: one process, where every game is at home.
PULKA_LIVE_NODES = env.list("PULKA_LIVE_NODES", default=[])
PULKA_LIVE_NODE = env.str("PULKA_LIVE_NODE", default="")
# Processes the practice bots think in, per server process: by default one
# per core this process may run on, so that the bots think their whole
# budget whenever the CPU is there (games.live.thinking).
PULKA_BOT_PROCESSES = env.int(
    "PULKA_BOT_PROCESSES", default=len(os.sched_getaffinity(0))
)
# The sweep hands a game over when it is this many seconds overdue or unowned.
PULKA_SWEEP_MARGIN_SECONDS = env.float("PULKA_SWEEP_MARGIN_SECONDS", default=5)
PULKA_SWEEP_EVERY_SECONDS = env.float("PULKA_SWEEP_EVERY_SECONDS", default=10)
# Thinking per move of a normal practice bot in the 4-player game, in
# seconds; the other levels and Japanese Joker take their share of it
# (games.live.thinking.budget_share).
PULKA_PRACTICE_BOT_SECONDS = env.float("PULKA_PRACTICE_BOT_SECONDS", default=0.02)
# Allow any turn timer (tests use short ones); tables offer a fixed list.
PULKA_ANY_TURN_SECONDS = env.bool("PULKA_ANY_TURN_SECONDS", default=False)
# Stakes from this many Domino Coin need a rating past its provisional games.
PULKA_HIGH_STAKE = env.int("PULKA_HIGH_STAKE", default=500)
# Largest WebSocket frame a client may send, in bytes (the ASGI server's
# limit too: uvicorn --ws-max-size).
PULKA_MAX_FRAME_BYTES = limits.MAX_FRAME_BYTES
# Messages a second one socket may send, with bursts of this many
# (games.socket_limits); sockets one user may have open at once.
PULKA_SOCKET_RATE = env.float("PULKA_SOCKET_RATE", default=10)
PULKA_SOCKET_BURST = env.int("PULKA_SOCKET_BURST", default=30)
PULKA_SOCKETS_PER_USER = env.int("PULKA_SOCKETS_PER_USER", default=8)
# Seconds a session closed for flooding may open no socket.
PULKA_SOCKET_FLOOD_PAUSE = env.int("PULKA_SOCKET_FLOOD_PAUSE", default=30)
# The chat (docs/chat.md): messages one player may send in so many seconds,
# in every room together; a socket refused for that so many times without a
# message passing is closed as a flood; characters a message may have.
PULKA_CHAT_MESSAGES = env.int("PULKA_CHAT_MESSAGES", default=5)
PULKA_CHAT_SECONDS = env.float("PULKA_CHAT_SECONDS", default=10)
PULKA_CHAT_FLOOD_CLOSE = env.int("PULKA_CHAT_FLOOD_CLOSE", default=10)
PULKA_CHAT_MAX_LENGTH = 300
# Messages the word filter masked within a day after which the author is
# muted, and for how many minutes.
PULKA_CHAT_OFFENCES = env.int("PULKA_CHAT_OFFENCES", default=3)
PULKA_CHAT_AUTO_MUTE_MINUTES = env.int("PULKA_CHAT_AUTO_MUTE_MINUTES", default=60)

# How often beat looks for tournaments to create, start or move on.
PULKA_TOURNAMENT_TICK_SECONDS = env.float("PULKA_TOURNAMENT_TICK_SECONDS", default=5.0)
