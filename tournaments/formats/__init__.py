"""Pure pairing, seating and payout rules for tournaments.

Nothing here touches the database: in the rules players are opaque hashable
ids and every function is deterministic given its inputs (and an explicit
``random.Random`` where randomness is wanted); the plug-ins read the rows the
services loaded. Modules:

* :mod:`.swiss` -- Swiss pairings and standings for Japanese Joker (2 players);
* :mod:`.knockout` -- seeded single elimination for Japanese Joker;
* :mod:`.multitable` -- tables of four for Joker, with bot seats when needed;
* :mod:`.arena` -- a fixed time, each player paired again once free;
* :mod:`.prizes` -- splitting a coin pool over final places;
* :mod:`.plugins` -- each format as the rest of the site sees it (pairing,
  standings, settings checks, presentation, API fields) behind one
  interface, reading what the services loaded and writing nothing.
"""
