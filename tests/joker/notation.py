"""Card notation for engine tests: build deals and states from strings.

Cards are written as in records (``"AS KH 7D X1"``). A play is a card, and
for a joker its mode and, on the lead, its suit: ``"7C"``, ``"X1:high"``,
``"X2:low"``, ``"X1:take:S"``, ``"X2:give:H"``, ``"X1:nominal"``.

``mid_deal`` puts a game in the middle of a deal with the given hands, trump
and trick (built with ``dataclasses.replace`` on a fresh ``State``), ``play``
plays a sequence of plays by whoever is to move, and ``legal`` lists the
legal choices in the same notation.
"""

from __future__ import annotations

from dataclasses import replace

from joker import (
    Bid,
    Deal,
    NameTrump,
    PlayCard,
    Resign,
    State,
    apply,
    legal_actions,
    make_rules,
    new_game,
)
from joker.cards import DECK, parse_cards
from joker.state import PLAY

FOUR_PLAYER = ("georgian-club", "georgian-tvaladze", "live-games")
ALL_PROFILES = (*FOUR_PLAYER, "japanese")
CLASSIC = (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9)


def cards(text: str) -> tuple[str, ...]:
    """``"AS KH X1"`` -> ``("AS", "KH", "X1")``; every code must exist."""
    return tuple(parse_cards(text))


def hands_of(*texts: str) -> tuple[tuple[str, ...], ...]:
    return tuple(cards(text) for text in texts)


def columns_of(text: str) -> tuple[tuple[str, str], ...]:
    """``"7S/KS 9H/6D"`` -> ``(("7S", "KS"), ("9H", "6D"))``: face down/face up."""
    out = []
    for pair in text.split():
        down, up = pair.split("/")
        assert down in DECK and up in DECK, pair
        out.append((down, up))
    return tuple(out)


def parse_play(text: str, seat: int) -> PlayCard:
    """One play in notation, e.g. ``"X1:take:S"``, as ``seat``'s action."""
    parts = text.split(":")
    card = parts[0]
    mode = parts[1] if len(parts) > 1 else None
    suit = parts[2] if len(parts) > 2 else None
    return PlayCard(seat, card, mode, suit)


def token(action) -> str | int:
    """An action in notation: a play string, a bid number or a trump."""
    if isinstance(action, PlayCard):
        return ":".join(p for p in (action.card, action.mode, action.suit) if p)
    if isinstance(action, Bid):
        return action.bid
    if isinstance(action, NameTrump):
        return action.trump
    if isinstance(action, Resign):
        return "resign"
    raise TypeError(action)


def legal(state: State) -> set:
    """The legal choices of the seat to move, in notation."""
    return {token(action) for action in legal_actions(state)}


def rules(profile: str, **options):
    return make_rules(profile, options or None)


def deal_index_for(profile: str, cards_each: int, options: dict | None = None) -> int:
    """The first deal of the game in which each player gets ``cards_each``."""
    if profile == "japanese":
        return 0
    schedule = make_rules(profile, options).schedule
    return schedule.index(cards_each)


def mid_deal(
    profile: str,
    hands,
    trump: str,
    trick: str = "",
    leader: int = 0,
    *,
    options: dict | None = None,
    columns=None,
    tricks_done: int = 0,
    bids=None,
    deal_index: int | None = None,
    first_dealer: int | None = None,
) -> State:
    """A state in the play phase of a deal.

    ``hands`` are the cards each seat holds when the current trick starts
    (strings in notation), ``trick`` the plays already made to it, starting
    with ``leader``; those cards leave the hands. ``tricks_done`` earlier
    tricks are counted as taken by the leader. By default the deal is the
    first one of the game whose size matches the cards in hand, so that
    playing every card ends the deal. The earlier deals of the game have
    no results, so the deal must not be the last one of a pulka.
    """
    rules_ = make_rules(profile, options)
    hands = tuple(cards(h) if isinstance(h, str) else tuple(h) for h in hands)
    players = rules_.players
    assert len(hands) == players
    plays = trick.split()
    cols = ()
    if rules_.is_japanese:
        cols = tuple(
            columns_of(c) if isinstance(c, str) else tuple(c)
            for c in (columns or ("", ""))
        )
    if deal_index is None:
        if rules_.is_japanese:
            deal_index = 0
        else:
            # Cards each = cards held by the leader + tricks already played.
            size = len(hands[leader]) + tricks_done
            deal_index = rules_.schedule.index(size)
    if first_dealer is None:
        # The player left of the dealer (the declarer in Japanese Joker) led.
        offset = 0 if rules_.is_japanese else 1
        first_dealer = (leader - offset - deal_index) % players
    state = new_game(rules_, first_dealer)
    trick_plays = tuple(
        parse_play(text, (leader + i) % players) for i, text in enumerate(plays)
    )
    # Cards already on the table are no longer in the hands.
    for p in trick_plays:
        assert p.card in hands[p.seat], f"seat {p.seat} does not hold {p.card}"
    played = {p.card for p in trick_plays}
    hands = tuple(tuple(c for c in hand if c not in played) for hand in hands)
    tricks = [0] * players
    tricks[leader] = tricks_done
    if bids is None:
        bids = () if rules_.is_japanese else (0,) * players
    return replace(
        state,
        phase=PLAY,
        deal_index=deal_index,
        turn=(leader + len(trick_plays)) % players,
        hands=hands,
        columns=cols,
        trump=trump,
        bids=tuple(bids),
        tricks=tuple(tricks),
        trick_winners=(leader,) * tricks_done,
        trick=trick_plays,
        leader=leader,
    )


def play(state: State, text: str) -> State:
    """Play each play of ``text`` in turn, by the seat to move."""
    for item in text.split():
        state = apply(state, parse_play(item, state.turn))
    return state


def last_winner(state: State) -> int:
    """The seat that took the most recent trick (also across a deal's end)."""
    if state.trick_winners:
        return state.trick_winners[-1]
    return state.deals[-1].trick_winners[-1]


def winner(profile: str, trump: str, trick: str, leader: int = 0, **kw) -> int:
    """Who takes ``trick`` when each seat holds just the card it plays."""
    plays = trick.split()
    rules_ = make_rules(profile, kw.get("options"))
    players = rules_.players
    assert len(plays) == players
    hands = [""] * players
    for i, item in enumerate(plays):
        hands[(leader + i) % players] = item.split(":")[0]
    if rules_.is_japanese:
        state = mid_deal(profile, hands, trump, leader=leader, tricks_done=1, **kw)
    else:
        state = mid_deal(profile, hands, trump, leader=leader, **kw)
    return last_winner(play(state, trick))


def deal_from(*hands: str, turned: str | None = None, columns=()) -> Deal:
    """A ``Deal`` from hands in notation (and columns ``"down/up ..."``)."""
    cols = tuple(columns_of(c) if isinstance(c, str) else c for c in columns)
    return Deal(hands_of(*hands), turned, cols)


def smallest(state: State):
    """A fixed policy: the legal action with the smallest notation."""
    return min(legal_actions(state), key=lambda a: str(token(a)))


def play_out(state: State, policy=smallest, stop=None) -> State:
    """Apply the policy's actions until the deal ends (or ``stop(state)``)."""
    index = state.deal_index
    while state.deal_index == index and legal_actions(state):
        if stop is not None and stop(state):
            break
        state = apply(state, policy(state))
    return state


def start_at(profile: str, deal_index: int, options=None, first_dealer: int = 0):
    """A game about to deal deal ``deal_index`` (earlier deals skipped).

    Only for tests that never reach the end of a pulka: the earlier deals
    have no results.
    """
    state = new_game(make_rules(profile, options), first_dealer)
    return replace(state, deal_index=deal_index)


# --- A scoring oracle written from RULES.md 2.7-2.9 ------------------------


def table_score(profile: str, options: dict, b: int, k: int, n: int, pulka: int):
    """One deal score from the tables of RULES.md 2.7 (``pulka`` 0-based)."""
    scoring = (options or {}).get("scoring", "online")
    if profile == "live-games" and scoring != "online":
        if k == b:
            return 5 if b == 0 else 10 * k
        if k > b:
            return k
        return -10 * (b - k) if scoring == "home-missing" else -10 * b
    if k == b == 0:
        return 50
    if k == b == n:
        return 50 + 50 * b if profile == "live-games" else 100 * b
    if k == b:
        return 50 + 50 * b
    if b > 0 and k == 0:
        if profile == "georgian-tvaladze":
            return 0
        if profile == "live-games":
            return -200
        penalty = str((options or {}).get("hisht_penalty", "200"))
        if penalty == "alternating":
            return -(200 if pulka in (0, 2) else 500)
        if penalty == "dynamic":
            return -100 * n
        return -int(penalty)
    return 10 * k


def pulka_outcome(profile: str, options: dict, deals):
    """(premium, bonus, deduction) of a pulka from its deal results (2.8)."""
    options = options or {}
    seats = range(4)
    premium = [all(d.tricks[s] == d.bids[s] for d in deals) for s in seats]
    best = [max(d.scores[s] for d in deals) for s in seats]
    if profile == "live-games" and options.get("scoring", "online") != "online":
        return premium, [0] * 4, [0] * 4
    bonus = [best[s] if premium[s] else 0 for s in seats]
    if profile == "georgian-tvaladze":
        deducting = False
    elif profile == "live-games":
        deducting = True
    else:
        deducting = options.get("deductions", True)
    losers = set()
    if deducting and options.get("pairs", False):
        teams = {s % 2 for s in seats if premium[s]}
        if len(teams) == 1:
            losers = {s for s in seats if s % 2 not in teams}
    elif deducting and sum(premium) == 1:
        losers = {s for s in seats if not premium[s]}
    deduction = [max(best[s], 0) if s in losers else 0 for s in seats]
    return premium, bonus, deduction
