"""Swiss (Japanese Joker): every round pairs players with the same or a
similar score (``tournaments.formats.swiss``)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.formats import swiss

from .base import (
    BoardLike,
    EntryLike,
    Group,
    RoundPlan,
    Row,
    TournamentFormat,
    TournamentLike,
)
from .history import by_id, entry_id, played_pairs, ranked_places, swiss_history

SENTENCE = gettext_lazy(
    "Swiss: every round pairs players with the same or a similar score, "
    "never the same two twice if it can be helped. A win scores 1 point, "
    "a draw half a point, a bye 1 point; ties are broken by Buchholz "
    "(the opponents' scores), then Sonneborn-Berger."
)


class Swiss(TournamentFormat):
    value = "swiss"
    shows_score_groups = True
    tiebreak_keys = ("buchholz", "sonneborn_berger")

    def tiebreak_labels(self) -> list[str]:
        return [_("Buchholz"), _("Sonneborn-Berger")]

    def rules(self, tournament: TournamentLike) -> list[str]:
        return [str(SENTENCE), self.rounds_sentence(tournament)]

    def standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        entry_of = by_id(entries)
        results, byes = swiss_history(boards)
        table = swiss.standings(results, byes, players=list(entry_of))
        keys = [s[1:] for s in table]
        games = dict.fromkeys(entry_of, 0)
        for a, b, _winner in results:
            games[a] += 1
            games[b] += 1
        for pk in byes:
            games[pk] += 1
        return [
            Row(
                entry=entry_of[entry_id(s.player)],
                place=place,
                points=s.score,
                tiebreaks=(s.buchholz, s.sonneborn_berger),
                games=games[entry_id(s.player)],
            )
            for s, place in zip(table, ranked_places(keys), strict=True)
        ]

    def plan_round(
        self,
        tournament: TournamentLike,
        number: int,
        in_play: Sequence[EntryLike],
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> RoundPlan:
        """The pairs, then the bye; and each player's points before the
        round with the float the pairing gives them."""
        results, byes = swiss_history(boards)
        ids = [entry.pk for entry in in_play]
        table = swiss.standings(results, byes, players=ids)
        ranked = [(entry_id(s.player), s.score) for s in table if s.player in set(ids)]
        pairs, bye = swiss.pair_round(ranked, (played_pairs(boards), byes))
        groups: list[Group] = [tuple(entry_id(p) for p in pair) for pair in pairs]
        if bye is not None:
            groups.append((entry_id(bye),))
        before = dict(ranked)
        scores: dict[Hashable, swiss.Score] = {pk: score for pk, score in ranked}
        floated = swiss.floats(scores, pairs, bye)
        return RoundPlan(
            groups=groups,
            score_groups={
                pk: (
                    Decimal(score.numerator) / score.denominator,
                    floated.get(pk, ""),
                )
                for pk, score in before.items()
            },
        )


FORMAT = Swiss()
