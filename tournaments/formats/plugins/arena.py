"""Arena (Japanese Joker): a fixed time in one round, each player paired
again as soon as they are free (``tournaments.formats.arena``;
``tournaments.services.arena`` plays it)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.formats import arena

from .base import (
    BoardLike,
    EntryLike,
    Row,
    SettingsLike,
    TournamentFormat,
    TournamentLike,
)
from .history import arena_history, by_id, entry_id, ranked_places

SENTENCE = gettext_lazy(
    "Arena: as soon as your game ends you are paired again with a free "
    "player close to you in the standings (not your last opponent while "
    "other games go on). A win scores 2 points, a draw 1; after two wins "
    "in a row every game counts double until one is not won. Ties are "
    "broken by the performance rating. A player who makes no move in a "
    "whole game is out."
)


class Arena(TournamentFormat):
    value = "arena"
    continuous = True
    tiebreak_keys = ("performance",)

    def tiebreak_labels(self) -> list[str]:
        return [_("Performance")]

    def rules(self, tournament: TournamentLike) -> list[str]:
        minutes = tournament.duration_minutes
        return [
            str(SENTENCE),
            ngettext(
                "Players are paired for %(minutes)d minute; games still being "
                "played then finish and count.",
                "Players are paired for %(minutes)d minutes; games still being "
                "played then finish and count.",
                minutes,
            )
            % {"minutes": minutes},
        ]

    def check_settings(self, settings: SettingsLike) -> dict[str, str]:
        if not 1 <= (settings.duration_minutes or 0) <= 600:
            return {"duration_minutes": "between 1 and 600 minutes"}
        return {}

    def standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        entry_of = by_id(entries)
        history = arena_history(boards)
        games_of: dict[Hashable, Sequence[arena.Game]] = {
            pk: [
                arena.Game(result, entry_of[opponent].rating or 0)
                for result, opponent in history.get(pk, [])
            ]
            for pk in entry_of
        }
        table = arena.standings(games_of)
        keys = [(s.points, s.performance) for s in table]
        return [
            Row(
                entry=entry_of[entry_id(s.player)],
                place=place,
                points=Fraction(s.points),
                # Shown whole: a performance rating is an estimate.
                tiebreaks=(Fraction(round(s.performance or 0)),),
                games=s.games,
                details={"streak": s.streak, "wins": s.wins},
            )
            for s, place in zip(table, ranked_places(keys), strict=True)
        ]


FORMAT = Arena()
