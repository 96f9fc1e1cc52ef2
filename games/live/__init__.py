"""Live games, each owned by one server process.

A game being played lives in the memory of one ASGI process, its owner
(``owner.GameOwner``), which applies every action for it in order: the
players' moves, bot moves, timeouts, resignations and disconnect graces.
What a step is and what it changes is decided by ``game.LiveGame`` without
any I/O; ``journal`` makes it durable (one round trip for an ordinary
move); ``broadcast`` builds what each recipient is sent; ``timers`` keeps
the deadlines on the event loop; ``routing`` says which process the proxy
sends a game's sockets to (the one that should own it); ``leases`` names
the keys in Redis that say who owns what and which processes are alive;
``hall`` is the process's registry of the games it owns, with their leases;
``relay`` is the way messages reach an owner in another process, and which
process takes a game nobody owns; ``bot_pool`` runs the practice bots'
``thinking`` in processes of their own; ``local`` runs an owner in the
calling thread, for the steps made outside a server (a first deal, a game
called off, whole games played by a script).

Import direction: ``game`` < ``journal`` < ``broadcast`` < ``timers`` <
``thinking`` < ``bot_pool`` < ``owner`` < ``routing`` < ``leases`` <
``relay`` < ``hall`` | ``local``; the consumers call ``hall`` and its
``relay`` (and ``broadcast.encode``) only.
"""
