"""The game's words, explained: the one list of terms the rules page's
glossary shows and the table and the replay explain where they use them.

Each term has its name, its explanation, and the forms the site's own
sentences write it in (in each language: "ფულკა", "Пулька", "pulka"...), so
that the page's script can find the word in a translated notice and make it
tappable. The names, explanations and forms are translated in django.po
under the contexts "glossary" and "glossary forms".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from joker.rules import PROFILES

GEORGIAN = frozenset({"georgian-club", "georgian-tvaladze", "live-games"})
JAPANESE = frozenset({"japanese"})


@dataclass(frozen=True)
class Term:
    slug: str
    name: Promise
    explanation: Promise
    # Comma-separated: the words of the site's sentences that mean this term.
    forms: Promise
    # Signs that stand for the term on the scoresheet, the same in every
    # language; the number written after a sign goes with it ("−120").
    marks: tuple[str, ...] = ()
    # The rule profiles whose tables can show the term.
    profiles: frozenset[str] = frozenset(PROFILES)

    @property
    def anchor(self) -> str:
        return f"term-{self.slug}"

    def as_json(self) -> dict:
        return {
            "slug": self.slug,
            "name": str(self.name),
            "text": str(self.explanation),
            "forms": [word.strip() for word in str(self.forms).split(",")],
            "marks": list(self.marks),
            "anchor": self.anchor,
        }


def _term(
    slug, name, explanation, forms, marks=(), profiles=frozenset(PROFILES)
) -> Term:
    return Term(slug, name, explanation, forms, tuple(marks), frozenset(profiles))


# In the order the glossary lists them: from the deal to the score, then
# the joker, then Japanese Joker's own words.
TERMS: tuple[Term, ...] = (
    _term(
        "deal",
        pgettext_lazy("glossary", "Deal"),
        pgettext_lazy(
            "glossary",
            "One round of the game: the cards are dealt, everyone bids, and then "
            "every card is played out in tricks.",
        ),
        pgettext_lazy("glossary forms", "deal, deals"),
    ),
    _term(
        "dealer",
        pgettext_lazy("glossary", "Dealer"),
        pgettext_lazy(
            "glossary",
            "The player who deals the cards of a deal. The player after the dealer "
            "bids first and leads the first trick; the dealer bids last.",
        ),
        pgettext_lazy("glossary forms", "dealer"),
        profiles=GEORGIAN,
    ),
    _term(
        "pulka",
        pgettext_lazy("glossary", "Pulka"),
        pgettext_lazy(
            "glossary",
            "A quarter of a game of Joker: a run of deals after which premiums and "
            "deductions are counted.",
        ),
        pgettext_lazy("glossary forms", "pulka, pulkas"),
        profiles=GEORGIAN,
    ),
    _term(
        "trump",
        pgettext_lazy("glossary", "Trump"),
        pgettext_lazy(
            "glossary",
            "The suit that beats every other suit in a deal. A player who cannot "
            "follow the suit led must play a trump if they have one.",
        ),
        pgettext_lazy("glossary forms", "trump, trumps"),
    ),
    _term(
        "no-trump",
        pgettext_lazy("glossary", "No trump"),
        pgettext_lazy(
            "glossary",
            "A deal without a trump suit: each trick goes to the highest card of "
            "the suit led.",
        ),
        pgettext_lazy("glossary forms", "no trump"),
    ),
    _term(
        "turned",
        pgettext_lazy("glossary", "Turned card"),
        pgettext_lazy(
            "glossary",
            "In a deal of fewer than 9 cards each, the card after the last one "
            "dealt is turned face up: its suit is trump, and a turned joker means "
            "no trump.",
        ),
        pgettext_lazy("glossary forms", "turned"),
        profiles=GEORGIAN,
    ),
    _term(
        "bid",
        pgettext_lazy("glossary", "Bid"),
        pgettext_lazy(
            "glossary",
            "The number of tricks a player says they will take in a deal, said in "
            "turn before the first card. The dealer may not make the bid that "
            "would bring the total to the number of cards each player holds.",
        ),
        pgettext_lazy("glossary forms", "bid, bids"),
        profiles=GEORGIAN,
    ),
    _term(
        "pass",
        pgettext_lazy("glossary", "Pass"),
        pgettext_lazy(
            "glossary", "A bid of nothing: the player means to take no trick at all."
        ),
        pgettext_lazy("glossary forms", "pass"),
        profiles=GEORGIAN,
    ),
    _term(
        "trick",
        pgettext_lazy("glossary", "Trick"),
        pgettext_lazy(
            "glossary",
            "One card from each player, played in turn. The highest trump takes "
            "it; without a trump, the highest card of the suit led.",
        ),
        pgettext_lazy("glossary forms", "trick, tricks"),
    ),
    _term(
        "hisht",
        pgettext_lazy("glossary", "Hisht"),
        pgettext_lazy(
            "glossary",
            "A bid of at least one trick with no trick taken. It costs a penalty "
            "(200 points at most tables; the rules of each table say how much).",
        ),
        pgettext_lazy("glossary forms", "hisht"),
        profiles=GEORGIAN,
    ),
    _term(
        "premium",
        pgettext_lazy("glossary", "Premium"),
        pgettext_lazy(
            "glossary",
            "Earned by a player who makes every bid of a pulka: their best deal "
            "score of that pulka counts once more. The scoresheet marks it with ★.",
        ),
        pgettext_lazy("glossary forms", "premium"),
        marks=("★",),
        profiles=GEORGIAN,
    ),
    _term(
        "deduction",
        pgettext_lazy("glossary", "Deduction"),
        pgettext_lazy(
            "glossary",
            "When exactly one player earns the premium of a pulka, each other "
            "player loses their best deal score of that pulka. The scoresheet "
            "shows it with a minus.",
        ),
        pgettext_lazy("glossary forms", "deduction, deductions"),
        marks=("−",),
        profiles=GEORGIAN,
    ),
    _term(
        "shetenva",
        pgettext_lazy("glossary", "Shetenva"),
        pgettext_lazy(
            "glossary",
            "The bids of a deal add up to fewer than its tricks: the tricks left "
            "over must go to someone, so at least one player takes more than they "
            "bid.",
        ),
        pgettext_lazy("glossary forms", "shetenva"),
        profiles=GEORGIAN,
    ),
    _term(
        "tsaglejva",
        pgettext_lazy("glossary", "Tsaglejva"),
        pgettext_lazy(
            "glossary",
            "The bids of a deal add up to more than its tricks: there are not "
            "enough tricks for everyone, so at least one player takes fewer than "
            "they bid.",
        ),
        pgettext_lazy("glossary forms", "tsaglejva"),
        profiles=GEORGIAN,
    ),
    _term(
        "pairs",
        pgettext_lazy("glossary", "Pairs"),
        pgettext_lazy(
            "glossary",
            "A way to play in which partners sit opposite each other and their "
            "totals are added.",
        ),
        pgettext_lazy("glossary forms", "partner, pairs, teams"),
        profiles={"georgian-club"},
    ),
    _term(
        "joker",
        pgettext_lazy("glossary", "Joker"),
        pgettext_lazy(
            "glossary",
            "One of the two jokers that replace the black sixes. A joker may always "
            "be played, and its player says how it counts: take or give when it "
            "leads, high or low when it answers.",
        ),
        pgettext_lazy("glossary forms", "joker, jokers"),
    ),
    _term(
        "take",
        pgettext_lazy("glossary", "Take"),
        pgettext_lazy(
            "glossary",
            "A joker led with “take” names a suit: every other player must play "
            "their highest card of that suit, and the joker wins the trick unless "
            "it is trumped.",
        ),
        pgettext_lazy("glossary forms", "take"),
    ),
    _term(
        "give",
        pgettext_lazy("glossary", "Give"),
        pgettext_lazy(
            "glossary",
            "A joker led with “give” names a suit and counts as the lowest card of "
            "that suit, so it gives the trick away.",
        ),
        pgettext_lazy("glossary forms", "give"),
        profiles=GEORGIAN,
    ),
    _term(
        "high",
        pgettext_lazy("glossary", "High"),
        pgettext_lazy(
            "glossary",
            "A joker played high in answer to a lead takes the trick, unless a "
            "later joker is played high too.",
        ),
        pgettext_lazy("glossary forms", "high"),
    ),
    _term(
        "low",
        pgettext_lazy("glossary", "Low"),
        pgettext_lazy(
            "glossary",
            "A joker played low in answer to a lead gives the trick away.",
        ),
        pgettext_lazy("glossary forms", "low"),
        profiles=GEORGIAN,
    ),
    _term(
        "own-card",
        pgettext_lazy("glossary", "As its own card"),
        pgettext_lazy(
            "glossary",
            "At Live Games rules a joker may also be played as the six it replaces.",
        ),
        pgettext_lazy("glossary forms", "as its own card"),
        profiles={"live-games"},
    ),
    _term(
        "declarer",
        pgettext_lazy("glossary", "Declarer"),
        pgettext_lazy(
            "glossary",
            "In Japanese Joker, the player who names trump (or no trump) and leads "
            "the first trick of the deal.",
        ),
        pgettext_lazy("glossary forms", "declarer"),
        profiles=JAPANESE,
    ),
    _term(
        "columns",
        pgettext_lazy("glossary", "Columns"),
        pgettext_lazy(
            "glossary",
            "In Japanese Joker, each player's five columns on the table: a card "
            "face down under a card face up. From the second trick on, a face-up "
            "card may be played like a card in hand, and the card under it then "
            "goes to the hand.",
        ),
        pgettext_lazy("glossary forms", "columns"),
        profiles=JAPANESE,
    ),
    _term(
        "commitment",
        pgettext_lazy("glossary", "Deal hash"),
        pgettext_lazy(
            "glossary",
            "A fingerprint (SHA-256) of the deal's cards and a secret salt, given "
            "to every player before the first card. The salt is published after "
            "the game, so anyone can check that no deal was changed.",
        ),
        pgettext_lazy("glossary forms", "deal hash"),
    ),
)

BY_SLUG: dict[str, Term] = {term.slug: term for term in TERMS}


def terms_for(profile: str) -> list[Term]:
    """The terms a table of ``profile`` can show: its rules page lists them."""
    return [term for term in TERMS if profile in term.profiles]


def page_glossary(profile: str) -> dict:
    """The terms of a table's rules in the active language, for its page's
    script: each with the address of its entry in the rules page's glossary."""
    return {
        "url": reverse("games:rules", args=[profile]),
        "terms": [term.as_json() for term in terms_for(profile)],
    }
