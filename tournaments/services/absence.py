"""Who is withdrawn for missing a game: a player who made no move of their
own in it (the timers played it) and who is not on the site now.

A player with any page of the site open (the table page of their finished
game included) holds a live personal socket, and so is present
(``social.presence``): they missed the game by not finding it, not by
leaving, and are kept in; their next game is shown to them on that page.
"""

from __future__ import annotations

import time

from social import presence
from tournaments.models import BoardSeat, Entry


def drop_absent(seats: list[BoardSeat]) -> None:
    """Withdraw the players of the absent ``seats`` who are not online."""
    absent = {s.entry_id for s in seats if s.absent and s.entry_id}
    if not absent:
        return
    users = dict(Entry.objects.filter(pk__in=absent).values_list("user_id", "pk"))
    online = presence.online_ids(users, now=time.time())
    away = [entry_id for user_id, entry_id in users.items() if user_id not in online]
    Entry.objects.filter(pk__in=away, status=Entry.Status.PLAYING).update(
        status=Entry.Status.DROPPED
    )
