"""Tables of four (Joker): every round seats players by their standings,
bots filling the spare seats (``tournaments.formats.multitable``); a last
round may be a final table of the top four."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.formats import multitable

from .base import (
    BoardLike,
    EntryLike,
    Group,
    RoundPlan,
    Row,
    SettingsLike,
    TournamentFormat,
    TournamentLike,
)
from .history import by_id, multitable_results, played_pairs, ranked_places

SENTENCE = gettext_lazy(
    "Tables of four: every round seats players by their standings, four "
    "to a table (bots fill the spare seats), and each place at a table "
    "scores tournament points; ties are broken by the total game score."
)


class Multitable(TournamentFormat):
    value = "multitable"
    players_per_table = 4
    tiebreak_keys = ("score",)

    def tiebreak_labels(self) -> list[str]:
        return [_("Game score")]

    def rules(self, tournament: TournamentLike) -> list[str]:
        rules = [str(SENTENCE), self.rounds_sentence(tournament)]
        rules.append(
            _("Places at a table score %(points)s points (1st, 2nd, 3rd, 4th).")
            % {"points": ", ".join(str(p) for p in tournament.points_for_places)}
        )
        if tournament.final_table:
            rules.append(
                _(
                    "The last round is a final table of the top four, which "
                    "decides places 1 to 4."
                )
            )
        return rules

    def check_settings(self, settings: SettingsLike) -> dict[str, str]:
        errors = {}
        if settings.final_table:
            if (settings.rounds or 0) < 2:
                errors["rounds"] = "a final table needs at least one round before it"
            if (settings.min_players or 0) < 4:
                errors["min_players"] = "a final table needs at least four players"
        return errors

    def standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        rows = self.rounds_standings(tournament, boards, entries)
        if tournament.final_table:
            return _with_final_table(rows, boards)
        return rows

    def rounds_standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        """The standings by the rounds before any final table."""
        entry_of = by_id(entries)
        boards = [b for b in boards if not b.round.is_final_table]
        table = multitable.standings(
            multitable_results(boards), scheme=tournament.points_for_places
        )
        ranked = {s.player: s for s in table}
        order = [s.player for s in table] + [pk for pk in entry_of if pk not in ranked]
        keys = [
            (ranked[pk].points, ranked[pk].score) if pk in ranked else (-1, 0)
            for pk in order
        ]
        return [
            Row(
                entry=entry_of[pk],
                place=place,
                points=ranked[pk].points if pk in ranked else Fraction(0),
                tiebreaks=(ranked[pk].score,) if pk in ranked else (Fraction(0),),
                games=ranked[pk].tables if pk in ranked else 0,
            )
            for pk, place in zip(order, ranked_places(keys), strict=True)
            if pk in entry_of
        ]

    def plan_round(
        self,
        tournament: TournamentLike,
        number: int,
        in_play: Sequence[EntryLike],
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> RoundPlan:
        """Tables of four by the standings; the last round of a tournament
        with a final table seats its top four together."""
        is_final = tournament.final_table and number == tournament.rounds
        ids = {entry.pk for entry in in_play}
        rows = self.rounds_standings(tournament, boards, entries)
        order = [row.entry.pk for row in rows if row.entry.pk in ids]
        size = multitable.TABLE_SIZE
        if is_final:
            finalists = order[:size]
            final: Group = tuple(finalists) + (None,) * (size - len(finalists))
            return RoundPlan(groups=[final], is_final_table=True)
        tables = multitable.seat_round(order, played_pairs(boards))
        return RoundPlan(
            groups=[
                tuple(None if p is multitable.BOT else p for p in table)
                for table in tables
            ]
        )


def _with_final_table(rows: list[Row], boards: Sequence[BoardLike]) -> list[Row]:
    """The final table decides places 1-4; everyone else follows by the
    standings of the rounds before it."""
    final = [b for b in boards if b.round.is_final_table]
    if not final:
        return rows
    seats = [s for s in final[0].seats.all() if s.entry_id is not None]
    seats.sort(key=lambda s: s.place if s.place is not None else 99)
    finalist_keys = [s.place for s in seats]
    by_entry = {row.entry.pk: row for row in rows}
    result = []
    for seat, place in zip(seats, ranked_places(finalist_keys), strict=True):
        row = by_entry.pop(seat.entry_id)
        row.place = place
        row.note = "final table"
        result.append(row)
    rest = list(by_entry.values())
    keys = [(r.points, r.tiebreaks) for r in rest]
    finalists = len(result)
    for row, place in zip(rest, ranked_places(keys), strict=True):
        row.place = finalists + place
        result.append(row)
    return result


FORMAT = Multitable()
