"""Knockout (Japanese Joker): seeded single elimination
(``tournaments.formats.knockout``); the winner of each match goes through
until one player is left."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.choices import EntryStatus, TournamentStatus
from tournaments.formats import knockout

from .base import (
    BoardLike,
    EntryLike,
    Group,
    RoundPlan,
    Row,
    SeatLike,
    TournamentFormat,
    TournamentLike,
)

SENTENCE = gettext_lazy(
    "Knockout: players are seeded by rating; the winner of each match goes "
    "through and the loser is out, until one player is left."
)


class Knockout(TournamentFormat):
    value = "knockout"
    shows_points = False

    def rules(self, tournament: TournamentLike) -> list[str]:
        if tournament.started_at is None:
            # A knockout's rounds are counted at the start, from its field.
            rounds = _("The number of rounds depends on the number of players.")
        else:
            rounds = self.rounds_sentence(tournament)
        return [str(SENTENCE), rounds]

    def rounds_at_start(self, players: int) -> int | None:
        return max(1, math.ceil(math.log2(players)))

    def standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        """Still in, best seed first, then the knocked out, latest round
        first; a player knocked out in a round shares the place with the
        others who fell there (losers of the semi-finals are 3rd, of the
        quarter-finals 5th)."""
        last_round: dict[int | None, int] = {}
        for board in boards:
            for seat in board.seats.all():
                last_round[seat.entry_id] = board.round.number
        total = tournament.rounds
        still_in = [e for e in entries if e.status != EntryStatus.ELIMINATED]
        out = [e for e in entries if e.status == EntryStatus.ELIMINATED]
        out.sort(key=lambda e: (-last_round.get(e.pk, 0), e.seed or 0))
        rows = []
        if tournament.status == TournamentStatus.FINISHED and len(still_in) == 1:
            rows.append(Row(entry=still_in[0], place=1))
        else:
            rows += [Row(entry=e, place=1) for e in still_in]
        for entry in out:
            fell_in = last_round.get(entry.pk, 1)
            rows.append(Row(entry=entry, place=2 ** (total - fell_in) + 1))
        for row in rows:
            row.games = sum(
                1 for b in boards for s in b.seats.all() if s.entry_id == row.entry.pk
            )
            row.note = "" if row.entry.status != EntryStatus.ELIMINATED else "out"
        return rows

    def plan_round(
        self,
        tournament: TournamentLike,
        number: int,
        in_play: Sequence[EntryLike],
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> RoundPlan:
        """The bracket's matches in order, each holding only the players
        still in play: one player is a bye, none an empty slot (both
        withdrawn). The board numbers keep the bracket, so every match
        stays in place."""
        if number == 1:
            matches = knockout.bracket([entry.pk for entry in in_play])
        else:
            out = {e.pk for e in entries if e.status == EntryStatus.ELIMINATED}
            played, through = [], set()
            for board in boards:
                if board.round.number != number - 1:
                    continue
                seats = list(board.seats.all())
                ids = [s.entry_id for s in seats] + [None, None]
                played.append((ids[0], ids[1]))
                through |= {s.entry_id for s in seats if s.entry_id not in out}
            matches = knockout.next_round(played, through)
        playing = {entry.pk for entry in in_play}
        groups: list[Group] = [
            tuple(p for p in match if p in playing) for match in matches
        ]
        return RoundPlan(groups=groups)

    def knocked_out(
        self, seats: Sequence[SeatLike], entries: Sequence[EntryLike]
    ) -> list[int]:
        """Per two-player board, the entry that does not go through: the
        loser; after a draw or a game called off, the lower seed."""
        seed = {entry.pk: entry.seed for entry in entries}
        by_board: dict[int, list[SeatLike]] = {}
        for seat in seats:
            by_board.setdefault(seat.board_id, []).append(seat)
        losers: list[int] = []
        for pair in by_board.values():
            if len(pair) != 2:
                continue
            winners = [s for s in pair if s.won]
            if len(winners) == 1:
                losers += [s.entry_id for s in pair if not s.won and s.entry_id]
            else:
                lower = max(pair, key=lambda s: seed.get(s.entry_id or 0) or 0)
                if lower.entry_id is not None:
                    losers.append(lower.entry_id)
        return losers


FORMAT = Knockout()
