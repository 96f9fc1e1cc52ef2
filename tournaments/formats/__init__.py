"""Pure pairing, seating and payout rules for tournaments.

Nothing here touches the database: players are opaque hashable ids and every
function is deterministic given its inputs (and an explicit ``random.Random``
where randomness is wanted). Modules:

* :mod:`.swiss` -- Swiss pairings and standings for Japanese Joker (2 players);
* :mod:`.knockout` -- seeded single elimination for Japanese Joker;
* :mod:`.multitable` -- tables of four for Joker, with bot seats when needed;
* :mod:`.prizes` -- splitting a coin pool over final places.
"""
