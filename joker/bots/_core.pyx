# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The practice bot's playouts compiled to C: ``BitDeal``'s card play, the
autopilot's policy and bids, the bots' deal results and ``DealSampler``'s
dealing, on C structs, with whole batches of playouts run in one call.

Import it through ``joker.bots.core``, which refuses a missing or stale
build. The Python modules stay the reference this one is checked against
(``tests/joker/test_core_matches_engine.py``, ``joker.bots.check_core``):
every rule here is a line-for-line copy of theirs, and the numbers it
shares with them (the autopilot's trick values, the sampler's bid spread)
are read from them when the module loads.

What it reads from Python objects (a ``BitDeal``, a ``DealSampler``, a
``State``) it reads once per batch; in a batch only C runs, and the
caller's clock is read every ``check_every`` deals, not per playout.
"""

from libc.stdint cimport uint64_t, uint32_t
from libc.math cimport pow, fabs, exp, log, sqrt, INFINITY
from libc.stdlib cimport calloc, free, realloc

include "_core_digest.pxi"

from ..scoring import hisht_penalty
from . import autopilot as _autopilot
from . import bitsample as _bitsample
from . import montecarlo as _montecarlo
from . import results as _results
from .bits import GIVE as _GIVE, HIGH as _HIGH, LOW as _LOW, NOMINAL as _NOMINAL


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef enum:
    X1 = 36
    X2 = 37
    JOKER_PLAY = 64
    TAKE = 0
    GIVE = 1
    HIGH = 2
    LOW = 3
    NOMINAL = 4
    MAX_LEAD = 9  # take and give in 4 suits, and nominal
    MAX_ANSWER = 3  # high, low, nominal
    MAX_COLUMNS = 5
    MAX_LEGAL = 48
    MAX_SLOTS = 8
    MAX_POOL = 38
    MAX_DEPTH = 96  # plays in a walk down the search tree, at most

assert (_GIVE, _HIGH, _LOW, _NOMINAL) == (GIVE, HIGH, LOW, NOMINAL)

cdef uint64_t ONE = 1
cdef uint64_t SUIT_MASK[4]
cdef uint64_t ABOVE[36]
cdef uint64_t ACES = 0
cdef uint64_t KINGS = 0
cdef uint64_t JOKER_BITS = (ONE << X1) | (ONE << X2)
cdef int NOMINAL_BIT[2]
cdef int ACE = _autopilot.ACE
cdef int KING = _autopilot.KING

cdef int _s, _r, _b
for _s in range(4):
    SUIT_MASK[_s] = 0
    for _r in range(9):
        SUIT_MASK[_s] |= ONE << (_r * 4 + _s)
    ACES |= ONE << (ACE * 4 + _s)
    KINGS |= ONE << (KING * 4 + _s)
for _b in range(36):
    ABOVE[_b] = SUIT_MASK[_b % 4] & ~((ONE << (_b + 1)) - 1)
NOMINAL_BIT[0] = 0
NOMINAL_BIT[1] = 3


# -- a deal's card play (``bitdeal.BitDeal``) --------------------------------

ctypedef struct Deal:
    uint64_t hands[4]
    uint64_t ups[4]  # the face-up column cards of each seat (Japanese)
    int downs[4][MAX_COLUMNS]
    int upcards[4][MAX_COLUMNS]
    int ncols[4]
    uint64_t trumps
    uint64_t beat  # the ordinary cards that would take the trick now
    int players, japanese, trump, leader, played, suit, winner, taking
    int done, total
    int tricks[4]
    int bids[4]  # -1: not made
    # The profile's joker modes (bit sets) and each joker's plays.
    int lead_modes, answer_modes
    int lead_plays[2][MAX_LEAD]
    int n_lead[2]
    int answer_plays[2][MAX_ANSWER]
    int n_answer[2]


cdef inline int lowest(uint64_t mask) noexcept nogil:
    return __builtin_ctzll(mask)


cdef inline int highest(uint64_t mask) noexcept nogil:
    return 63 - __builtin_clzll(mask)


cdef inline int joker_code(int joker, int mode, int suit) noexcept nogil:
    return JOKER_PLAY + 32 * (joker - X1) + 4 * mode + suit


cdef inline int turn_of(Deal* d) noexcept nogil:
    return (d.leader + d.played) % d.players


cdef inline void set_trump(Deal* d, int trump) noexcept nogil:
    d.trump = trump
    d.trumps = SUIT_MASK[trump] if trump >= 0 else 0


cdef inline uint64_t available(Deal* d, int seat) noexcept nogil:
    # Face-up cards are played from the second trick on (Japanese).
    if d.done:
        return d.hands[seat] | d.ups[seat]
    return d.hands[seat]


cdef inline uint64_t ordinary_legal(Deal* d, uint64_t ordinary) noexcept nogil:
    cdef uint64_t of_suit, trumps
    if not d.played:
        return ordinary
    of_suit = ordinary & SUIT_MASK[d.suit]
    if of_suit:
        # After a joker led take, the highest card of the suit.
        return (ONE << highest(of_suit)) if d.taking else of_suit
    trumps = ordinary & d.trumps
    return trumps if trumps else ordinary


cdef int legal_codes(Deal* d, int* out) noexcept nogil:
    """The legal plays, ordinary cards by bit, then each joker's plays."""
    cdef int seat = turn_of(d), n = 0, i, j
    cdef uint64_t avail = available(d, seat)
    cdef uint64_t ordinary = ordinary_legal(d, avail & ~JOKER_BITS)
    while ordinary:
        out[n] = lowest(ordinary)
        n += 1
        ordinary &= ordinary - 1
    for i in range(2):
        if avail >> (X1 + i) & 1:
            if d.played:
                for j in range(d.n_answer[i]):
                    out[n] = d.answer_plays[i][j]
                    n += 1
            else:
                for j in range(d.n_lead[i]):
                    out[n] = d.lead_plays[i][j]
                    n += 1
    return n


cdef void from_column(Deal* d, int seat, int bit) noexcept nogil:
    """A face-up card played: its face-down card goes to the hand, and so
    does the last column's pair (a player never keeps one column)."""
    cdef int i, index = 0, n = d.ncols[seat]
    cdef uint64_t freed
    while d.upcards[seat][index] != bit:
        index += 1
    freed = ONE << d.downs[seat][index]
    for i in range(index, n - 1):
        d.downs[seat][i] = d.downs[seat][i + 1]
        d.upcards[seat][i] = d.upcards[seat][i + 1]
    n -= 1
    if n == 1:
        freed |= (ONE << d.downs[seat][0]) | (ONE << d.upcards[seat][0])
        n = 0
    d.ncols[seat] = n
    d.hands[seat] |= freed
    d.ups[seat] = 0
    for i in range(n):
        d.ups[seat] |= ONE << d.upcards[seat][i]


cdef void to_trick(Deal* d, int seat, int code) noexcept nogil:
    """The trick with this play added: demanded suit, winner and the
    ordinary cards that would beat it now (RULES.md 2.4-2.6, 3.3)."""
    cdef int leading = not d.played, joker, mode, suit
    d.played += 1
    if code >= JOKER_PLAY:
        joker = X1 + (code - JOKER_PLAY >= 32)
        mode = (code - JOKER_PLAY) % 32 // 4
        suit = code % 4
        if mode == NOMINAL:
            code = NOMINAL_BIT[joker - X1]  # from here on its own six
        elif mode == HIGH:
            d.winner = seat
            d.beat = 0
            return
        elif mode == LOW:
            return
        else:  # take or give, always on the lead
            d.suit = suit
            d.taking = mode == TAKE
            d.winner = seat
            if mode == GIVE:
                d.beat = SUIT_MASK[suit] | d.trumps
            elif suit == d.trump or d.trump < 0:
                d.beat = 0  # only a high joker takes it
            else:
                d.beat = d.trumps
            return
    if leading:
        d.suit = code % 4
        d.taking = 0
    elif not (d.beat >> code & 1):
        return
    d.winner = seat
    d.beat = ABOVE[code] | (0 if code % 4 == d.trump else d.trumps)


cdef void play(Deal* d, int code) noexcept nogil:
    """Play a legal code (not checked: it comes from ``legal_codes`` or the
    autopilot)."""
    cdef int seat = turn_of(d)
    cdef int bit = code if code < JOKER_PLAY else X1 + (code - JOKER_PLAY >= 32)
    cdef uint64_t card = ONE << bit
    if d.hands[seat] & card:
        d.hands[seat] ^= card
    else:
        from_column(d, seat, bit)
    to_trick(d, seat, code)
    if d.played == d.players:
        d.tricks[d.winner] += 1
        d.done += 1
        d.leader = d.winner
        d.played = 0


# -- the autopilot's card play (``BitDeal.autopilot_move``) ------------------

cdef inline int cheapest(Deal* d, uint64_t cards) noexcept nogil:
    """The lowest card, a side suit's before any trump."""
    cdef uint64_t side = cards & ~d.trumps
    return lowest(side if side else cards)


cdef inline int dearest(Deal* d, uint64_t cards) noexcept nogil:
    """The highest card, a trump before any side suit's."""
    cdef uint64_t trumps = cards & d.trumps
    return highest(trumps if trumps else cards)


cdef int longest_suit(uint64_t ordinary) noexcept nogil:
    """The suit with the most cards; ties to the first suit."""
    cdef int suit, best = 0, most = -1, count
    for suit in range(4):
        count = __builtin_popcountll(ordinary & SUIT_MASK[suit])
        if count > most:
            best, most = suit, count
    return best


cdef int lead_move(Deal* d, uint64_t ordinary, uint64_t jokers, int joker, int want) noexcept nogil:
    cdef uint64_t aces
    if want:
        aces = ordinary & ACES
        if aces:
            # The trump ace first: it cannot lose to an ordinary card.
            if d.trump >= 0 and aces >> (32 + d.trump) & 1:
                return 32 + d.trump
            return lowest(aces)
        if jokers and d.lead_modes >> TAKE & 1:
            return joker_code(
                joker, TAKE, d.trump if d.trump >= 0 else longest_suit(ordinary)
            )
    if ordinary:
        return cheapest(d, ordinary)
    if not want and d.lead_modes >> GIVE & 1:
        # Only jokers: give in a side suit.
        return joker_code(joker, GIVE, 1 if d.trump == 0 else 0)
    if d.lead_modes >> NOMINAL & 1:
        return joker_code(joker, NOMINAL, 0)
    return d.lead_plays[joker - X1][0]


cdef int autopilot_move(Deal* d) noexcept nogil:
    cdef int seat = turn_of(d)
    cdef int want = d.japanese or d.bids[seat] != d.tricks[seat]
    cdef uint64_t avail = available(d, seat)
    cdef uint64_t jokers = avail & JOKER_BITS
    cdef int joker = X1 if jokers >> X1 & 1 else X2
    cdef uint64_t ordinary, chosen
    if not d.played:
        return lead_move(d, avail & ~JOKER_BITS, jokers, joker, want)
    ordinary = ordinary_legal(d, avail & ~JOKER_BITS)
    if want:
        chosen = ordinary & d.beat
        if chosen:
            return cheapest(d, chosen)
        if jokers and d.answer_modes >> HIGH & 1:
            return joker_code(joker, HIGH, 0)
        if ordinary:
            return cheapest(d, ordinary)
    else:
        chosen = ordinary & ~d.beat
        if chosen:
            return dearest(d, chosen)
        if jokers and d.answer_modes >> LOW & 1:
            return joker_code(joker, LOW, 0)
        if ordinary:
            return dearest(d, ordinary)
    return d.answer_plays[joker - X1][0]


cdef void play_out(Deal* d) noexcept nogil:
    """Finish the deal with the autopilot policy for every seat."""
    while d.done < d.total:
        play(d, autopilot_move(d))


# -- the autopilot's bids on masks (``bitsample.estimate_tricks``) -----------

cdef double TRUMP_VALUE[9]
cdef double SIDE_ACE = _autopilot.SIDE_ACE
cdef double SIDE_ACE_NO_TRUMP = _autopilot.SIDE_ACE_NO_TRUMP
cdef double SIDE_KING = _autopilot.SIDE_KING
cdef double SIDE_KING_NO_TRUMP = _autopilot.SIDE_KING_NO_TRUMP
cdef double LONG_TRUMP = _autopilot.LONG_TRUMP
for _r in range(9):
    TRUMP_VALUE[_r] = _autopilot.TRUMP_VALUE[_r]

# Each card's share of the estimate, per trump (none first) and deal size.
cdef double CARD_VALUE[5][19][40]


cdef void _card_values(int trump, int cards, double* values):
    cdef int unseen = 36 - cards, bit, rank, suit
    cdef double out_of_play = 0.0
    if unseen:
        out_of_play = max(0.0, 1.0 - 3.0 * cards / unseen)
    for bit in range(40):
        values[bit] = 0.0
    for bit in range(36):
        rank, suit = bit // 4, bit % 4
        if suit == trump:
            values[bit] = max(TRUMP_VALUE[rank], pow(out_of_play, ACE - rank))
        elif rank == ACE:
            values[bit] = SIDE_ACE_NO_TRUMP if trump < 0 else SIDE_ACE
    values[X1] = values[X2] = 1.0


cdef int _trump, _cards
for _trump in range(-1, 4):
    for _cards in range(19):
        _card_values(_trump, _cards, CARD_VALUE[_trump + 1][_cards])


cdef double estimate_tricks(uint64_t hand, int trump, int cards) noexcept nogil:
    """``bitsample.estimate_tricks``, in its order of additions: each byte of
    the hand from its highest card down, then the bytes from the lowest."""
    cdef double* values = CARD_VALUE[trump + 1][cards]
    cdef double estimate = 0.0, part, side_king
    cdef int byte, trumps
    cdef uint64_t bits, kings, king
    for byte in range(5):
        bits = hand >> (8 * byte) & 255
        part = 0.0
        while bits:
            part = part + values[8 * byte + highest(bits)]
            bits &= ~(ONE << highest(bits))
        estimate = estimate + part if byte else part
    if trump >= 0:
        trumps = __builtin_popcountll(hand & SUIT_MASK[trump])
        if trumps > 3:
            estimate += LONG_TRUMP * (trumps - 3)
        kings = hand & KINGS & ~SUIT_MASK[trump]
        side_king = SIDE_KING
    else:
        kings = hand & KINGS
        side_king = SIDE_KING_NO_TRUMP
    while kings:
        king = kings & (~kings + 1)
        kings ^= king
        if __builtin_popcountll(hand & SUIT_MASK[lowest(king) % 4]) >= 2:
            estimate += side_king
    return min(estimate, <double>cards)


cdef int choose_bid(uint64_t hand, int trump, int cards, int forbidden) noexcept nogil:
    """The allowed bid nearest the estimate; ties go to the lower bid."""
    cdef double estimate = estimate_tricks(hand, trump, cards), gap, best_gap = INFINITY
    cdef int bid, best = 0
    for bid in range(cards + 1):
        if bid == forbidden:
            continue
        gap = fabs(bid - estimate)
        if gap < best_gap:
            best, best_gap = bid, gap
    return best


cdef void finish_bidding(Deal* d, int seat, int dealer) noexcept nogil:
    """The later seats' bids, to the dealer, as the autopilot bids them."""
    cdef int forbidden, s, made
    while seat != dealer:
        seat = (seat + 1) % d.players
        forbidden = -1
        if seat == dealer:
            made = 0
            for s in range(d.players):
                if d.bids[s] >= 0:
                    made += d.bids[s]
            forbidden = d.total - made
        d.bids[seat] = choose_bid(d.hands[seat], d.trump, d.total, forbidden)


cdef void all_bids(Deal* d, int dealer) noexcept nogil:
    """Every seat's autopilot bid under the deal's trump."""
    cdef int s, first = (dealer + 1) % d.players
    for s in range(d.players):
        d.bids[s] = -1
    d.bids[first] = choose_bid(d.hands[first], d.trump, d.total, -1)
    finish_bidding(d, first, dealer)


cdef int choose_trump(int* visible, int n) noexcept nogil:
    """``autopilot.choose_trump``: the suit most held among the visible
    cards, ties by the higher cards, then the suit order; -1 (none) only
    without an ordinary card."""
    cdef int suit, i, count, ranks, best = -1, best_count = 0, best_ranks = 0
    for suit in range(4):
        count = ranks = 0
        for i in range(n):
            if visible[i] < X1 and visible[i] % 4 == suit:
                count += 1
                ranks += visible[i] // 4 + 1
        if count and (count > best_count or (count == best_count and ranks > best_ranks)):
            best, best_count, best_ranks = suit, count, ranks
    return best


# -- random numbers: xoshiro256** seeded by splitmix64 -----------------------

ctypedef struct Rng:
    uint64_t s[4]


cdef void seed_rng(Rng* r, uint64_t seed) noexcept nogil:
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += 0x9E3779B97F4A7C15ULL
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        r.s[i] = z ^ (z >> 31)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t next_u64(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl(r.s[3], 45)
    return result


cdef inline double uniform(Rng* r) noexcept nogil:
    """A double in [0, 1)."""
    return (next_u64(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int below(Rng* r, int n) noexcept nogil:
    """A uniform integer in [0, n), without modulo bias (Lemire)."""
    cdef uint64_t m = (next_u64(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m, threshold
    if low < <uint32_t>n:
        threshold = <uint32_t>(-n) % <uint32_t>n
        while low < threshold:
            m = (next_u64(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <int>(m >> 32)


cdef inline void shuffle(Rng* r, int* items, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = below(r, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


# -- a deal from Python and back ---------------------------------------------

cdef void deal_of(Deal* d, object bitdeal) except *:
    """A ``BitDeal`` as a C deal."""
    cdef int s, i, j
    d.players = bitdeal.players
    d.japanese = bitdeal.japanese
    set_trump(d, bitdeal.trump)
    for s in range(4):
        d.hands[s] = d.ups[s] = 0
        d.ncols[s] = d.tricks[s] = 0
        d.bids[s] = -1
    for s in range(d.players):
        d.hands[s] = bitdeal.hands[s]
        d.tricks[s] = bitdeal.tricks[s]
    for s, own in enumerate(bitdeal.columns):
        d.ncols[s] = len(own)
        for i, (down, up) in enumerate(own):
            d.downs[s][i] = down
            d.upcards[s][i] = up
            d.ups[s] |= ONE << up
    for s, bid in enumerate(bitdeal.bids):
        d.bids[s] = -1 if bid is None else bid
    d.leader = bitdeal.leader
    d.played = bitdeal.played
    d.suit = bitdeal.suit
    d.winner = bitdeal.winner
    d.beat = bitdeal.beat
    d.taking = bitdeal.taking
    d.done = bitdeal.done
    d.total = bitdeal.total
    d.lead_modes = sum(1 << mode for mode in bitdeal.lead_modes)
    d.answer_modes = sum(1 << mode for mode in bitdeal.answer_modes)
    for j in range(2):
        d.n_lead[j] = len(bitdeal.lead_plays[j])
        for i in range(d.n_lead[j]):
            d.lead_plays[j][i] = bitdeal.lead_plays[j][i]
        d.n_answer[j] = len(bitdeal.answer_plays[j])
        for i in range(d.n_answer[j]):
            d.answer_plays[j][i] = bitdeal.answer_plays[j][i]


cdef class CoreDeal:
    """One C deal driven from Python, a step at a time: for the checks
    against ``BitDeal`` and the engine, not for speed."""

    cdef Deal d

    @staticmethod
    def of(bitdeal):
        cdef CoreDeal deal = CoreDeal.__new__(CoreDeal)
        deal_of(&deal.d, bitdeal)
        return deal

    def copy(self):
        cdef CoreDeal deal = CoreDeal.__new__(CoreDeal)
        deal.d = self.d
        return deal

    @property
    def turn(self):
        return turn_of(&self.d)

    @property
    def finished(self):
        return self.d.done == self.d.total

    @property
    def winner(self):
        return self.d.winner

    @property
    def trump(self):
        return self.d.trump

    @property
    def tricks(self):
        return [self.d.tricks[s] for s in range(self.d.players)]

    @property
    def bids(self):
        return [None if b < 0 else b for b in self.d.bids[: self.d.players]]

    @property
    def hands(self):
        return [self.d.hands[s] for s in range(self.d.players)]

    @property
    def columns(self):
        if not self.d.japanese:
            return []
        return [
            [(self.d.downs[s][i], self.d.upcards[s][i]) for i in range(self.d.ncols[s])]
            for s in range(self.d.players)
        ]

    def legal(self):
        cdef int codes[MAX_LEGAL]
        cdef int n = legal_codes(&self.d, codes)
        return [codes[i] for i in range(n)]

    def autopilot_move(self):
        return autopilot_move(&self.d)

    def play(self, int code):
        """Play a code, checked to be legal (this is the checking side)."""
        if code not in self.legal():
            raise ValueError(f"play {code} is not legal here")
        play(&self.d, code)

    def name_trump(self, int trump):
        set_trump(&self.d, trump)

    def all_bids(self, int dealer):
        all_bids(&self.d, dealer)

    def bids_after(self, bids, int seat, int bid, int dealer):
        for s in range(self.d.players):
            self.d.bids[s] = -1 if bids[s] is None else bids[s]
        self.d.bids[seat] = bid
        finish_bidding(&self.d, seat, dealer)

    def play_out(self):
        """Finish with the autopilot's moves in C; the moves made."""
        moves = []
        cdef int code
        while self.d.done < self.d.total:
            code = autopilot_move(&self.d)
            moves.append(code)
            play(&self.d, code)
        return moves


def core_estimate_tricks(uint64_t hand, int trump, int cards):
    return estimate_tricks(hand, trump, cards)


def core_choose_bid(uint64_t hand, int trump, int cards, int forbidden=-1):
    return choose_bid(hand, trump, cards, forbidden)


def core_choose_trump(bits):
    cdef int visible[18]
    for i, bit in enumerate(bits):
        visible[i] = bit
    return choose_trump(visible, len(bits))


# -- a deal's result for each seat (``results.Scorers``) ---------------------

cdef double OPPONENT_WEIGHT = _results.OPPONENT_WEIGHT

cdef enum:
    SCORE_JAPANESE = 0
    SCORE_PREMIUMS = 1
    SCORE_SIDES = 2
    HOME_NONE = 0
    HOME_MISSING = 1
    HOME_BID = 2

ctypedef struct Scoring:
    int kind, players, cards, hisht, home, full_take_bonus, deductions
    double scale
    # Premiums: the chance of keeping a premium, who is on it, best scores.
    double keep
    int on[4]
    int has_best[4]
    double best[4]
    # Sides (pairs, home scoring): each seat's side, its premium weights.
    int side[4][2]
    int n_side[4]
    int has_weight[4]
    double weight_best[4]
    double weight_chance[4]
    double opponent_weight


cdef int deal_score(Scoring* sc, int bid, int took) noexcept nogil:
    """``scoring.deal_score`` for this deal."""
    if sc.home != HOME_NONE:
        if took == bid:
            return 5 if bid == 0 else 10 * took
        if took > bid:
            return took
        if sc.home == HOME_MISSING:
            return -10 * (bid - took)
        return -10 * bid
    if took == bid:
        if bid == 0:
            return 50
        if bid == sc.cards and sc.full_take_bonus:
            return 100 * bid
        return 50 + 50 * bid
    if took == 0:
        return -sc.hisht
    return 10 * took


cdef void premiums(Scoring* sc, int* bids, int* tricks, double* values) noexcept nogil:
    """``results.Premiums``, in its order of operations."""
    cdef int s, other, third, n = sc.players
    cdef int points[4]
    cdef double best[4]
    cdef double keeps[4]
    cdef double alone, chance
    cdef int any_keep = 0
    for s in range(n):
        points[s] = deal_score(sc, bids[s], tricks[s])
        best[s] = points[s] if not sc.has_best[s] else max(<double>points[s], sc.best[s])
        keeps[s] = sc.keep if sc.on[s] and tricks[s] == bids[s] else 0.0
        any_keep |= keeps[s] != 0.0
    for s in range(n):
        values[s] = points[s] + keeps[s] * best[s]
    if sc.deductions and any_keep:
        for s in range(n):
            if best[s] <= 0 or keeps[s] == 1.0:
                continue
            alone = 0.0
            for other in range(n):
                if other == s or not keeps[other]:
                    continue
                chance = keeps[other]
                for third in range(n):
                    if third != s and third != other:
                        chance *= 1.0 - keeps[third]
                alone += chance
            values[s] -= (1.0 - keeps[s]) * alone * best[s]


cdef double side_score(Scoring* sc, int seat, int* bids, int* tricks) noexcept nogil:
    """``MonteCarloBot``'s value of the deal for ``seat``."""
    cdef double value = 0.0
    cdef int i, s, points, theirs = 0, n_others = 0, in_side
    for i in range(sc.n_side[seat]):
        s = sc.side[seat][i]
        points = deal_score(sc, bids[s], tricks[s])
        value += points
        if sc.has_weight[s] and tricks[s] == bids[s]:
            value += sc.weight_chance[s] * max(sc.weight_best[s], <double>points)
    if sc.opponent_weight:
        for s in range(sc.players):
            in_side = 0
            for i in range(sc.n_side[seat]):
                in_side |= sc.side[seat][i] == s
            if not in_side:
                theirs += deal_score(sc, bids[s], tricks[s])
                n_others += 1
        value -= sc.opponent_weight * theirs / n_others * sc.n_side[seat]
    return value


cdef void score_deal(Scoring* sc, int* bids, int* tricks, double* out) noexcept nogil:
    """Each seat's result, about -1 to 1 (``results.Scorers``)."""
    cdef int s, n = sc.players
    cdef double values[4]
    cdef double total, share
    if sc.kind == SCORE_JAPANESE:
        out[0] = (tricks[0] - tricks[1]) / 18.0
        out[1] = (tricks[1] - tricks[0]) / 18.0
        return
    if sc.kind == SCORE_PREMIUMS:
        premiums(sc, bids, tricks, values)
        share = OPPONENT_WEIGHT / (n - 1)
        total = 0.0
        for s in range(n):
            total = total + values[s]
        for s in range(n):
            out[s] = (values[s] - share * (total - values[s])) / sc.scale
        return
    for s in range(n):
        out[s] = side_score(sc, s, bids, tricks) / sc.scale


cdef void scoring_of(Scoring* sc, object state) except *:
    """The results ``results.Scorers(state)`` gives, as C data."""
    cdef int s
    rules = state.rules
    scorers = _results.Scorers(state)
    sc.players = rules.players
    sc.cards = state.cards_each
    if scorers.japanese:
        sc.kind = SCORE_JAPANESE
        return
    pulka = rules.pulka_of(state.deal_index)
    sc.scale = scorers.scale
    sc.hisht = hisht_penalty(rules, state.cards_each, pulka)
    sc.home = {"online": HOME_NONE, "home-missing": HOME_MISSING, "home-bid": HOME_BID}[
        rules.scoring
    ]
    sc.full_take_bonus = rules.full_take_bonus
    if scorers.premiums is not None:
        sc.kind = SCORE_PREMIUMS
        sc.keep = scorers.premiums.keep
        sc.deductions = scorers.premiums.deductions
        for s in range(sc.players):
            sc.on[s] = scorers.premiums.on[s]
            best = scorers.premiums.best[s]
            sc.has_best[s] = best is not None
            sc.best[s] = 0.0 if best is None else best
        return
    # Each seat as ``MonteCarloBot`` values it, premiums and a share of the
    # others' scores included.
    sc.kind = SCORE_SIDES
    sc.opponent_weight = _results.OPPONENT_WEIGHT
    for s in range(sc.players):
        side = [s, (s + 2) % 4] if rules.pairs else [s]
        sc.n_side[s] = len(side)
        for i, member in enumerate(side):
            sc.side[s][i] = member
        sc.has_weight[s] = 0
    weights = _montecarlo.MonteCarloBot._premium_weights(state, range(sc.players))
    for s, (best, chance) in weights.items():
        sc.has_weight[s] = 1
        sc.weight_best[s] = best
        sc.weight_chance[s] = chance


# -- sampled deals (``bitsample.DealSampler``) and batches of playouts -------

cdef enum:
    SLOT_HAND = 0
    SLOT_COLUMNS = 1
    SLOT_DOWN = 2

# What a candidate of a batch is.
KINDS = {"trump": 0, "bid": 1, "card": 2, "none": 3}
cdef double BID_SPREAD = _bitsample.BID_SPREAD
cdef int INFER_TRIES = _bitsample.INFER_TRIES
cdef int SAMPLE_TRIES = _montecarlo.SAMPLE_TRIES


# -- the search tree of card play (``Playouts.search``) ---------------------
#
# One tree over the plays seen from the root (every play is public in
# Joker), shared by all sampled deals: a node is a play after the plays of
# its parents, whoever made it. Each sampled deal walks down the plays that
# are legal on it, so a node also counts how often it was legal
# (``avail``): information-set MCTS (Cowling, Powley and Whitehouse 2012,
# single observer), every seat choosing by its own result.

ctypedef struct Node:
    int code  # the play that leads here
    int mover  # the seat that made it
    int child  # the first child, -1: none
    int sibling  # the next child of the same parent, -1: none
    double visits, avail
    double total  # the mover's results summed over the visits


ctypedef struct Tree:
    Node* nodes
    int n, capacity


cdef int add_node(Tree* t, int parent, int code, int mover) noexcept nogil:
    """A new child of ``parent`` (-1: the root); -1 when memory runs out."""
    cdef Node* grown
    cdef Node* node
    cdef int capacity
    if t.n == t.capacity:
        capacity = 2 * t.capacity if t.capacity else 1024
        grown = <Node*>realloc(t.nodes, capacity * sizeof(Node))
        if grown == NULL:
            return -1
        t.nodes, t.capacity = grown, capacity
    node = &t.nodes[t.n]
    node.code, node.mover, node.child = code, mover, -1
    node.visits = node.total = 0.0
    node.avail = 1.0  # legal on the deal it was added on
    node.sibling = -1
    if parent >= 0:
        node.sibling = t.nodes[parent].child
        t.nodes[parent].child = t.n
    t.n += 1
    return t.n - 1


cdef int child_of(Tree* t, int parent, int code) noexcept nogil:
    cdef int c = t.nodes[parent].child
    while c >= 0 and t.nodes[c].code != code:
        c = t.nodes[c].sibling
    return c


cdef class Playouts:
    """``Playouts(sampler, seed)``: playouts of deals sampled as
    ``sampler`` (a ``DealSampler``) samples them, for the seat to move,
    scored as ``results.Scorers`` scores them; ``compare`` runs a batch."""

    cdef Deal template
    cdef Scoring scoring
    cdef Rng rng
    cdef int seat, dealer, n_pool, n_slots, spare, limited
    cdef int pool[MAX_POOL]
    cdef int slot_kind[MAX_SLOTS]
    cdef int slot_seat[MAX_SLOTS]
    cdef int slot_size[MAX_SLOTS]
    cdef uint64_t known[4]
    cdef int ups[4][MAX_COLUMNS]
    # The pool grouped by the places that may hold each card (voids shown).
    cdef int n_groups
    cdef int group_start[MAX_POOL + 1]
    cdef int group_all[MAX_POOL]
    cdef int card_bit[MAX_POOL]
    cdef int card_ok[MAX_POOL][MAX_SLOTS]
    cdef int card_n_ok[MAX_POOL]
    # The other seats' bids made, to prefer the deals that fit them.
    cdef int n_bidders
    cdef int bidder_seat[4]
    cdef int bidder_bid[4]
    cdef uint64_t bidder_played[4]
    cdef int state_bids[4]
    # The deal's plays so far (4-player game), to weigh sampled deals by
    # how likely the other seats' plays were under the autopilot policy.
    cdef int n_plays, first_leader
    cdef int play_seat[40]
    cdef int play_codes[40]
    cdef double play_miss
    # One deal's cards by place (the spare last), while it is dealt.
    cdef int places[MAX_SLOTS + 1][MAX_POOL]
    cdef int counts[MAX_SLOTS + 1]
    # The search's results for the seat to move so far, for its spread.
    cdef double sums, squares

    def __init__(self, sampler, uint64_t seed):
        cdef int s, i, n
        state = sampler.state
        self.seat = sampler.seat
        self.dealer = state.dealer
        deal_of(&self.template, sampler.template)
        scoring_of(&self.scoring, state)
        seed_rng(&self.rng, seed)
        self.n_pool = len(sampler.pool)
        for i, bit in enumerate(sampler.pool):
            self.pool[i] = bit
        self.n_slots = len(sampler.slots)
        kinds = {"hand": SLOT_HAND, "columns": SLOT_COLUMNS, "down": SLOT_DOWN}
        for i, (kind, s, size) in enumerate(sampler.slots):
            self.slot_kind[i] = kinds[kind]
            self.slot_seat[i] = s
            self.slot_size[i] = size
        self.spare = sampler.spare
        for s in range(4):
            self.known[s] = 0
            self.state_bids[s] = -1
        for s, hand in enumerate(sampler.hands):
            self.known[s] = hand
        for s, own in enumerate(sampler.ups):
            for i, up in enumerate(own):
                self.ups[s][i] = up
        for s, bid in enumerate(state.bids):
            self.state_bids[s] = -1 if bid is None else bid
        self.limited = sampler.groups is not None
        self.n_groups = 0
        n = 0
        if self.limited:
            for group in sampler.groups:
                self.group_start[self.n_groups] = n
                self.group_all[self.n_groups] = len(group[0][1]) == self.n_slots
                self.n_groups += 1
                for bit, ok in group:
                    self.card_bit[n] = bit
                    self.card_n_ok[n] = len(ok)
                    for i, slot in enumerate(ok):
                        self.card_ok[n][i] = slot
                    n += 1
        self.group_start[self.n_groups] = n
        self.n_plays = len(sampler.plays)
        self.first_leader = sampler.plays[0][0] if sampler.plays else 0
        for i, (s, code) in enumerate(sampler.plays):
            self.play_seat[i] = s
            self.play_codes[i] = code
        self.play_miss = _bitsample.PLAY_MISS
        self.n_bidders = len(sampler.bidders)
        for i, (s, bid, played) in enumerate(sampler.bidders):
            self.bidder_seat[i] = s
            self.bidder_bid[i] = bid
            self.bidder_played[i] = played

    # -- dealing -------------------------------------------------------------

    cdef bint deal_limited(self) noexcept nogil:
        """The pool dealt under the known voids, the most constrained cards
        first (``DealSampler._deal_limited``); False when it gets stuck."""
        cdef int room[MAX_SLOTS + 1]
        cdef int order[MAX_POOL]
        cdef int g, i, k, n, c, total, chosen, spare = self.n_slots
        cdef double pick
        for i in range(self.n_slots):
            room[i] = self.slot_size[i]
            self.counts[i] = 0
        room[spare] = self.spare
        self.counts[spare] = 0
        for g in range(self.n_groups):
            n = self.group_start[g + 1] - self.group_start[g]
            for i in range(n):
                order[i] = self.group_start[g] + i
            shuffle(&self.rng, order, n)
            if self.group_all[g]:
                # Cards any place may hold: the room left, in a random order.
                k = 0
                for i in range(spare + 1):
                    while room[i]:
                        self.places[i][self.counts[i]] = self.card_bit[order[k]]
                        self.counts[i] += 1
                        room[i] -= 1
                        k += 1
                return True
            for k in range(n):
                c = order[k]
                total = room[spare]
                for i in range(self.card_n_ok[c]):
                    total += room[self.card_ok[c][i]]
                if not total:
                    return False
                pick = uniform(&self.rng) * total
                chosen = spare
                for i in range(self.card_n_ok[c]):
                    pick -= room[self.card_ok[c][i]]
                    if pick < 0:
                        chosen = self.card_ok[c][i]
                        break
                room[chosen] -= 1
                self.places[chosen][self.counts[chosen]] = self.card_bit[c]
                self.counts[chosen] += 1
        return True

    cdef bint deal_cards(self, Deal* d) noexcept nogil:
        """A deal with every hidden place dealt from the pool; False when
        the shown voids could not be kept (then the pool is dealt at random,
        as ``DealSampler`` does)."""
        cdef int shuffled[MAX_POOL]
        cdef int i, k, t, s, start, dealt = 0
        if self.limited:
            for t in range(SAMPLE_TRIES):
                if self.deal_limited():
                    dealt = 1
                    break
        if not dealt:
            for i in range(self.n_pool):
                shuffled[i] = self.pool[i]
            shuffle(&self.rng, shuffled, self.n_pool)
            start = 0
            for i in range(self.n_slots):
                self.counts[i] = self.slot_size[i]
                for k in range(self.counts[i]):
                    self.places[i][k] = shuffled[start + k]
                start += self.counts[i]
        d[0] = self.template
        for s in range(4):
            d.hands[s] = self.known[s]
        for i in range(self.n_slots):
            s = self.slot_seat[i]
            if self.slot_kind[i] == SLOT_HAND:
                for k in range(self.counts[i]):
                    d.hands[s] |= ONE << self.places[i][k]
            elif self.slot_kind[i] == SLOT_COLUMNS:
                d.ncols[s] = self.counts[i] // 2
                for k in range(d.ncols[s]):
                    d.downs[s][k] = self.places[i][2 * k]
                    d.upcards[s][k] = self.places[i][2 * k + 1]
            else:
                d.ncols[s] = self.counts[i]
                for k in range(self.counts[i]):
                    d.downs[s][k] = self.places[i][k]
                    d.upcards[s][k] = self.ups[s][k]
        for s in range(4):
            d.ups[s] = 0
            for k in range(d.ncols[s]):
                d.ups[s] |= ONE << d.upcards[s][k]
        return dealt or not self.limited

    cdef double play_likelihood(self, Deal* d) noexcept nogil:
        """How likely the other seats' plays so far were on this deal, each
        the autopilot's move or (``play_miss``) another: the deal replayed
        from its first trick, every seat's played cards back in its hand."""
        cdef Deal start = d[0]
        cdef double likelihood = 1.0
        cdef int i, s, code
        for i in range(self.n_plays):
            code = self.play_codes[i]
            start.hands[self.play_seat[i]] |= ONE << (
                code if code < JOKER_PLAY else X1 + (code - JOKER_PLAY >= 32)
            )
        for s in range(4):
            start.tricks[s] = 0
        start.done = start.played = 0
        start.leader = self.first_leader
        for i in range(self.n_plays):
            code = self.play_codes[i]
            if self.play_seat[i] != self.seat and autopilot_move(&start) != code:
                likelihood *= self.play_miss
            play(&start, code)
        return likelihood

    cdef void sample(self, Deal* d) noexcept nogil:
        """One deal; with bids made, one whose bids fit (``DealSampler.sample``),
        and with cards played, one whose plays were likely (``play_likelihood``)."""
        cdef Deal best
        cdef double misfit, best_misfit = INFINITY, gap, fit
        cdef int t, i, s
        cdef bint kept
        if not self.n_bidders and not self.n_plays:
            self.deal_cards(d)
            return
        for t in range(INFER_TRIES):
            kept = self.deal_cards(d)
            misfit = 0.0
            for i in range(self.n_bidders):
                s = self.bidder_seat[i]
                gap = estimate_tricks(
                    d.hands[s] | self.bidder_played[i], d.trump, d.total
                ) - self.bidder_bid[i]
                misfit += gap * gap
            misfit /= BID_SPREAD * BID_SPREAD
            fit = exp(-misfit / 2)
            if self.n_plays:
                fit *= self.play_likelihood(d)
            if not kept:
                fit = 0.0  # a deal that breaks a shown void only as a last resort
            if uniform(&self.rng) < fit:
                return
            # The best fit of the tries when none is accepted.
            if -fit < best_misfit:
                best, best_misfit = d[0], -fit
        d[0] = best

    def sample_deal(self):
        """One sampled deal, as a ``CoreDeal`` (for the checks)."""
        cdef CoreDeal deal = CoreDeal.__new__(CoreDeal)
        self.sample(&deal.d)
        return deal

    def likelihood(self, CoreDeal deal):
        """``play_likelihood`` of a deal (for the checks)."""
        return self.play_likelihood(&deal.d)

    # -- results ---------------------------------------------------------------

    def score(self, bids, tricks):
        """Each seat's result of a deal ending with these bids and tricks."""
        cdef int b[4]
        cdef int t[4]
        cdef double out[4]
        cdef int s
        for s in range(self.scoring.players):
            b[s] = -1 if not bids or bids[s] is None else bids[s]
            t[s] = tricks[s]
        score_deal(&self.scoring, b, t, out)
        return [out[s] for s in range(self.scoring.players)]

    # -- batches -----------------------------------------------------------------

    cdef void start(self, Deal* d, int kind, int candidate) noexcept nogil:
        """The playout's first step: the candidate trump, bid or card."""
        cdef int s
        if kind == 0:
            set_trump(d, candidate)
            if not d.japanese:
                all_bids(d, self.dealer)
        elif kind == 1:
            for s in range(d.players):
                d.bids[s] = self.state_bids[s]
            d.bids[self.seat] = candidate
            finish_bidding(d, self.seat, self.dealer)
        elif kind == 2:
            play(d, candidate)

    def compare(
        self,
        str kind,
        candidates,
        long deals,
        timer=None,
        double deadline=INFINITY,
        int check_every=16,
        bint stop_early=False,
        int solve=0,
    ):
        """Up to ``deals`` sampled deals, each played out once per candidate
        (a trump by index, -1 for none; a bid; a card's play code; ``none``:
        the deal as it stands, one candidate ignored): the summed results
        for the seat to move, one per candidate, and the deals played.
        ``timer()`` is read every ``check_every`` deals, and the batch ends
        once it reaches ``deadline``.

        ``stop_early`` (Japanese Joker) ends the batch once the leading
        candidate is ahead of the next beyond doubt on their paired
        results (``decided``). ``solve``: in the last ``solve`` tricks the
        playout plays every seat's best move on the open cards (``solve``)
        instead of the autopilot's."""
        cdef int k = KINDS[kind], n = len(candidates), c, i, j
        cdef int codes[64]
        cdef double totals[64]
        cdef double values[64]
        cdef double out[4]
        cdef double* pairs = NULL
        cdef long done = 0
        cdef Deal deal, sim
        if not 0 < n <= 64:
            raise ValueError("between 1 and 64 candidates")
        if check_every < 1:
            raise ValueError("check_every must be at least 1")
        if solve < 0:
            raise ValueError("solve counts tricks: 0 or more")
        for c in range(n):
            codes[c] = candidates[c]
            totals[c] = 0.0
        if stop_early and n > 1:
            # Sums of the paired differences and of their squares, i < j.
            pairs = <double*>calloc(2 * n * n, sizeof(double))
            if pairs == NULL:
                raise MemoryError()
        try:
            while done < deals:
                if timer is not None and done % check_every == 0 and done:
                    if timer() >= deadline:
                        break
                with nogil:
                    self.sample(&deal)
                    for c in range(n):
                        sim = deal
                        self.start(&sim, k, codes[c])
                        finish(&self.scoring, &sim, solve, self.seat, out)
                        values[c] = out[self.seat]
                        totals[c] += values[c]
                    if pairs != NULL:
                        for i in range(n):
                            for j in range(i + 1, n):
                                pairs[2 * (i * n + j)] += values[i] - values[j]
                                pairs[2 * (i * n + j) + 1] += (values[i] - values[j]) * (
                                    values[i] - values[j]
                                )
                done += 1
                if pairs != NULL and decided(totals, pairs, n, done):
                    break
        finally:
            free(pairs)
        return [totals[c] for c in range(n)], done

    cdef int walk(
        self,
        Tree* tree,
        Deal* d,
        int n,
        int solve,
        double exploration,
        double spread,
        int kind,
    ) noexcept nogil:
        """One walk down ``tree`` on the deal ``d`` (a copy: it is played
        on) and its result added to the nodes passed; -1 when memory runs
        out. The root's ``n`` children are the candidates (of ``kind``, as
        ``start`` makes them), each walked once first; below them every
        legal play on this deal is a child."""
        cdef int codes[MAX_LEGAL]
        cdef int fresh[MAX_LEGAL]
        cdef int path[MAX_DEPTH]
        cdef double out[4]
        cdef int k, i, c, node = -1, best, code, mover, depth = 0, untried
        cdef double score, best_score
        cdef Node* kid
        while True:
            if node < 0:
                k = n
                for i in range(n):
                    codes[i] = tree.nodes[i].code
                mover = self.seat
            else:
                k = legal_codes(d, codes)
                mover = turn_of(d)
            best, best_score, untried = -1, -INFINITY, 0
            for i in range(k):
                c = i if node < 0 else child_of(tree, node, codes[i])
                if c < 0 or tree.nodes[c].visits == 0:
                    fresh[untried] = codes[i] if c < 0 else -1 - c
                    untried += 1
                    continue
                kid = &tree.nodes[c]
                kid.avail += 1.0
                score = kid.total / kid.visits + exploration * spread * sqrt(
                    log(kid.avail) / kid.visits
                )
                if score > best_score:
                    best, best_score = c, score
            if untried:
                # The autopilot's play first, else one at random; a trump
                # or bid at the root in the candidates' order.
                code = autopilot_move(d) if node >= 0 or kind == 2 else -1
                for i in range(untried):
                    c = fresh[i]
                    if code < 0 or (c if c >= 0 else tree.nodes[-1 - c].code) == code:
                        break
                else:
                    c = fresh[below(&self.rng, untried)]
                if c >= 0:
                    c = add_node(tree, node, c, mover)
                    if c < 0:
                        return -1
                else:
                    c = -1 - c
                best = c
            if node < 0:
                self.start(d, kind, tree.nodes[best].code)
            else:
                play(d, tree.nodes[best].code)
            path[depth] = best
            depth += 1
            node = best
            if (
                untried
                or d.done >= d.total
                or d.total - d.done <= solve
                or depth == MAX_DEPTH
            ):
                break
        finish(&self.scoring, d, solve, self.seat, out)
        for i in range(depth):
            kid = &tree.nodes[path[i]]
            kid.visits += 1.0
            kid.total += out[kid.mover]
        self.sums += out[self.seat]
        self.squares += out[self.seat] * out[self.seat]
        return 0

    def search(
        self,
        candidates,
        long deals,
        timer=None,
        double deadline=INFINITY,
        int check_every=16,
        int solve=0,
        double exploration=1.0,
        int walks=1,
        str kind="card",
    ):
        """Card play by a search tree (``Tree``) over up to ``deals``
        sampled deals, ``walks`` walks down the tree on each (a deal costs
        several walks to sample): each walk plays, at every node, the best
        play by the upper confidence bound of the seat to move among the
        plays legal on its deal (``exploration`` standard deviations of the
        results seen, times the usual square root), adds the first play
        not yet in the tree (the autopilot's if it is one), plays the rest
        out as ``compare`` does (``solve``: the last tricks on open cards)
        and adds every seat's result to the nodes it passed. The
        candidates' visits and summed results, and the deals played.

        ``kind``: the candidates are plays (``card``), or trumps or bids as
        ``compare`` plays them (the later bids the autopilot's), the plays
        after them searched in the tree below each."""
        cdef int n = len(candidates), c, r, k = KINDS[kind]
        cdef long done = 0, walked = 0
        cdef double spread, mean
        cdef bint failed = False
        cdef Deal deal, sim
        cdef Tree tree
        if not 0 < n <= MAX_LEGAL:
            raise ValueError(f"between 1 and {MAX_LEGAL} candidates")
        if check_every < 1 or walks < 1:
            raise ValueError("check_every and walks must be at least 1")
        if solve < 0:
            raise ValueError("solve counts tricks: 0 or more")
        tree.nodes, tree.n, tree.capacity = NULL, 0, 0
        self.sums = self.squares = 0.0
        try:
            for c in range(n):
                if add_node(&tree, -1, candidates[c], self.seat) < 0:
                    raise MemoryError()
            while done < deals and not failed:
                if timer is not None and done % check_every == 0 and done:
                    if timer() >= deadline:
                        break
                with nogil:
                    self.sample(&deal)
                    for r in range(walks):
                        spread = 1.0
                        if walked > 1:
                            mean = self.sums / walked
                            spread = sqrt(max(self.squares / walked - mean * mean, 0.0))
                        sim = deal
                        if self.walk(&tree, &sim, n, solve, exploration, spread + 1e-9, k) < 0:
                            failed = True
                            break
                        walked += 1
                done += 1
            if failed:
                raise MemoryError()
            return (
                [tree.nodes[c].visits for c in range(n)],
                [tree.nodes[c].total for c in range(n)],
                done,
            )
        finally:
            free(tree.nodes)


cdef double DECIDED_Z = 3.0
cdef int DECIDED_AFTER = 8
cdef int DECIDED_EVERY = 4


cdef bint decided(double* totals, double* pairs, int n, long done) noexcept nogil:
    """Whether the leader is ahead of the runner-up beyond doubt: by
    ``DECIDED_Z`` standard errors of their paired differences, over at
    least ``DECIDED_AFTER`` deals (checked every ``DECIDED_EVERY``)."""
    cdef int c, first = 0, second = -1, i, j
    cdef double mean, variance, total, squares, sign
    if done < DECIDED_AFTER or done % DECIDED_EVERY:
        return False
    for c in range(1, n):
        if totals[c] > totals[first]:
            second, first = first, c
        elif second < 0 or totals[c] > totals[second]:
            second = c
    i, j, sign = (first, second, 1.0) if first < second else (second, first, -1.0)
    total = sign * pairs[2 * (i * n + j)]
    squares = pairs[2 * (i * n + j) + 1]
    mean = total / done
    variance = (squares - total * mean) / (done - 1)
    return mean * mean * done >= DECIDED_Z * DECIDED_Z * variance and (
        mean > 0 or variance <= 1e-12
    )


# -- the last tricks on open cards -------------------------------------------


cdef void finish(Scoring* sc, Deal* d, int solve, int seat, double* out) noexcept nogil:
    """The deal played out, the last ``solve`` tricks by ``solve_open``,
    and every seat's result in ``out``."""
    while d.done < d.total and d.total - d.done > solve:
        play(d, autopilot_move(d))
    if d.done < d.total:
        solve_open(sc, d, out)
    else:
        score_deal(sc, d.bids, d.tricks, out)


cdef int moves_in_order(Deal* d, int* codes) noexcept nogil:
    """The legal codes, the autopilot's move first."""
    cdef int n = legal_codes(d, codes), first = autopilot_move(d), i
    for i in range(n):
        if codes[i] == first:
            codes[i] = codes[0]
            codes[0] = first
            break
    return n


cdef void solve_open(Scoring* sc, Deal* d, double* out) noexcept nogil:
    """Every seat's result when each plays, on open cards, the move best
    for itself (max^n: in the 4-player game each seat for itself, in
    Japanese Joker the two opposed); ties go to the autopilot's move, then
    to the first legal one."""
    cdef int codes[MAX_LEGAL]
    cdef int n, i, s, seat
    cdef double values[4]
    cdef double best = -INFINITY
    cdef Deal child
    if d.done == d.total:
        score_deal(sc, d.bids, d.tricks, out)
        return
    seat = turn_of(d)
    n = moves_in_order(d, codes)
    for i in range(n):
        child = d[0]
        play(&child, codes[i])
        solve_open(sc, &child, values)
        if values[seat] > best:
            best = values[seat]
            for s in range(d.players):
                out[s] = values[s]


def solve_deal(Playouts playouts, CoreDeal deal):
    """The moves ``solve_open`` makes from this deal to its end, scored as
    ``playouts`` scores (for the checks: they are replayed through the
    engine)."""
    cdef double out[4]
    cdef int codes[MAX_LEGAL]
    cdef int n, i, seat, best_code
    cdef double best
    cdef Deal child
    moves = []
    while deal.d.done < deal.d.total:
        seat = turn_of(&deal.d)
        n = moves_in_order(&deal.d, codes)
        best, best_code = -INFINITY, codes[0]
        for i in range(n):
            child = deal.d
            play(&child, codes[i])
            solve_open(&playouts.scoring, &child, out)
            if out[seat] > best:
                best, best_code = out[seat], codes[i]
        moves.append(best_code)
        play(&deal.d, best_code)
    return moves


# -- whole random deals, for the engine's speed ------------------------------

def random_deals(rules, long deals, uint64_t seed):
    """``deals`` deals of ``rules``' profile from the dealing to the last
    card, every decision (trump, bids, cards) uniformly random among the
    legal ones, the whole loop in C: (deals, decisions)."""
    from .bitdeal import _joker_rules

    cdef Deal d
    cdef Rng rng
    cdef int deck[38]
    cdef int codes[MAX_LEGAL]
    cdef int schedule[64]
    cdef int named[64]
    cdef int n_schedule, i, s, k, n, dealer = 0, first, turned, made, forbidden, bid
    cdef long done = 0, decisions = 0
    cdef int players = rules.players, japanese = rules.is_japanese
    seed_rng(&rng, seed)
    lead_modes, answer_modes, lead_plays, answer_plays = _joker_rules(
        rules.lead_modes, rules.answer_modes
    )
    d.lead_modes = sum(1 << mode for mode in lead_modes)
    d.answer_modes = sum(1 << mode for mode in answer_modes)
    for k in range(2):
        d.n_lead[k] = len(lead_plays[k])
        for i in range(d.n_lead[k]):
            d.lead_plays[k][i] = lead_plays[k][i]
        d.n_answer[k] = len(answer_plays[k])
        for i in range(d.n_answer[k]):
            d.answer_plays[k][i] = answer_plays[k][i]
    n_schedule = len(rules.schedule) or 1
    for i in range(n_schedule):
        schedule[i] = rules.cards_in_deal(i)
        named[i] = rules.trump_is_named(i)
    # The deck: every ordinary card but the sixes the jokers replace.
    k = 0
    for i in range(38):
        if i != 0 and i != 3:
            deck[k] = i
            k += 1
    with nogil:
        while done < deals:
            n = schedule[done % n_schedule]
            shuffle(&rng, deck, 36)
            d.players = players
            d.japanese = japanese
            d.total = n
            d.played = d.suit = d.winner = d.taking = 0
            d.beat = 0
            d.done = 0
            for s in range(4):
                d.hands[s] = d.ups[s] = 0
                d.ncols[s] = d.tricks[s] = 0
                d.bids[s] = -1
            first = dealer if japanese else (dealer + 1) % players
            if japanese:
                for s in range(2):
                    for i in range(8):
                        d.hands[s] |= ONE << deck[8 * s + i]
                    d.ncols[s] = 5
                    for i in range(5):
                        d.downs[s][i] = deck[16 + 10 * s + 2 * i]
                        d.upcards[s][i] = deck[16 + 10 * s + 2 * i + 1]
                        d.ups[s] |= ONE << d.upcards[s][i]
            else:
                for s in range(4):
                    for i in range(n):
                        d.hands[s] |= ONE << deck[n * s + i]
            if named[done % n_schedule]:
                set_trump(&d, below(&rng, 5) - 1)
                decisions += 1
            else:
                # The turned card: the next of the deck, or the dealer's last.
                turned = deck[4 * n] if n < 9 else deck[n * dealer + n - 1]
                set_trump(&d, -1 if turned >= X1 else turned % 4)
            if not japanese:
                made = 0
                for k in range(4):
                    s = (first + k) % 4
                    forbidden = n - made if s == dealer else -1
                    bid = below(&rng, n if 0 <= forbidden <= n else n + 1)
                    if 0 <= forbidden <= bid:
                        bid += 1
                    d.bids[s] = bid
                    made += bid
                    decisions += 1
            d.leader = first
            while d.done < d.total:
                k = legal_codes(&d, codes)
                play(&d, codes[below(&rng, k)])
                decisions += 1
            dealer = (dealer + 1) % players
            done += 1
    return done, decisions
