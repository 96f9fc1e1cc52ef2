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
``commands`` are what an owner is told (a player's move, a resignation, a
sync, a reload...), each a type, read once from a socket's frame or a
channel-layer message; ``registry`` holds the owners a process has, live
and just finished; ``hall`` is the process's keeper of the games it owns,
with their leases; ``relay`` is the way commands reach an owner in another
process, and which process takes a game nobody owns; ``outside`` is how
Celery tasks and the site's services reach owners; ``probe`` notices a
stalled channel layer and syncs the sockets it may have cut off; ``bot_pool`` runs the
practice bots' ``thinking`` in processes of their own; ``local`` runs an
owner in the calling thread, for the steps made outside a server (a first
deal, a game called off, whole games played by a script).

Import direction: ``commands`` < ``game`` < ``journal`` < ``broadcast`` <
``timers`` < ``thinking`` < ``bot_pool`` < ``owner`` < ``registry`` <
``routing`` < ``leases`` < ``relay`` < ``hall`` | ``outside`` < ``local``.
An owner knows its hall only as ``owner.OwnersHall``, a relay its hall as
``relay.RelaysHall`` and the owners there as ``registry.Owners``
(``typing.Protocol`` each), so no one reads another's inner state. The
consumers call ``hall`` and its ``relay``, with ``commands`` (and
``broadcast.encode``) only. ``steps`` (the frozen steps and their events)
and ``presence`` (who is at the table, the disconnect graces) serve the
game and the owner.
"""
