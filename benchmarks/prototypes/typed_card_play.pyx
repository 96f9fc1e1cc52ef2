# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""PROTOTYPE, not used by the product: the classic game's card play
(``joker/bots/bitdeal.py``'s ``legal``, ``play`` and ``_to_trick``,
jokers included, face-up columns left out) typed for C: 64-bit masks in a
struct, and a random play loop in C, as OpenSpiel's ``evaluate_bots`` runs
its loop in C++. Built and timed by ``compiled_bitdeal.py``."""

from libc.stdint cimport uint64_t


cdef extern from *:
    int __builtin_ctzll(unsigned long long)
    int __builtin_clzll(unsigned long long)


cdef enum:
    X1 = 36
    X2 = 37
    JOKER_PLAY = 64
    TAKE = 0
    GIVE = 1
    HIGH = 2
    LOW = 3
    NOMINAL = 4
    MAX_PLAYS = 24

cdef uint64_t SUIT_MASK[4]
cdef uint64_t ABOVE[36]
cdef uint64_t JOKER_BITS = (<uint64_t>1 << X1) | (<uint64_t>1 << X2)
cdef int NOMINAL_BIT[2]

cdef int _s, _r, _b
for _s in range(4):
    SUIT_MASK[_s] = 0
    for _r in range(9):
        SUIT_MASK[_s] |= <uint64_t>1 << (_r * 4 + _s)
for _b in range(36):
    ABOVE[_b] = SUIT_MASK[_b % 4] & ~((<uint64_t>2 << _b) - 1)
NOMINAL_BIT[0] = 0
NOMINAL_BIT[1] = 3


cdef class Deal:
    cdef uint64_t hands[4]
    cdef uint64_t trumps, beat, rng
    cdef int players, trump, leader, played, suit, winner, done, total
    cdef bint taking
    cdef int tricks[4]
    cdef int lead_plays[2][MAX_PLAYS]
    cdef int n_lead[2]
    cdef int answer_plays[2][MAX_PLAYS]
    cdef int n_answer[2]

    @staticmethod
    def of(bitdeal, seed):
        """From a Python ``BitDeal`` of the classic game (no columns)."""
        cdef Deal d = Deal.__new__(Deal)
        cdef int j, k
        d.players = bitdeal.players
        for k in range(d.players):
            d.hands[k] = bitdeal.hands[k]
            d.tricks[k] = bitdeal.tricks[k]
        d.trump = bitdeal.trump
        d.trumps = bitdeal.trumps
        d.beat = bitdeal.beat
        d.leader = bitdeal.leader
        d.played = bitdeal.played
        d.suit = bitdeal.suit
        d.winner = bitdeal.winner
        d.done = bitdeal.done
        d.total = bitdeal.total
        d.taking = bitdeal.taking
        for j in range(2):
            d.n_lead[j] = len(bitdeal.lead_plays[j])
            for k in range(d.n_lead[j]):
                d.lead_plays[j][k] = bitdeal.lead_plays[j][k]
            d.n_answer[j] = len(bitdeal.answer_plays[j])
            for k in range(d.n_answer[j]):
                d.answer_plays[j][k] = bitdeal.answer_plays[j][k]
        d.rng = (<uint64_t>seed * 6364136223846793005ULL) | 1
        return d

    cpdef Deal copy(self, uint64_t seed):
        cdef Deal d = Deal.__new__(Deal)
        d.hands = self.hands
        d.tricks = self.tricks
        d.lead_plays = self.lead_plays
        d.answer_plays = self.answer_plays
        d.n_lead = self.n_lead
        d.n_answer = self.n_answer
        d.trumps, d.beat = self.trumps, self.beat
        d.players, d.trump, d.leader = self.players, self.trump, self.leader
        d.played, d.suit, d.winner = self.played, self.suit, self.winner
        d.done, d.total, d.taking = self.done, self.total, self.taking
        d.rng = (seed * 6364136223846793005ULL) | 1
        return d

    cdef int legal(self, int* out) noexcept:
        cdef int seat = (self.leader + self.played) % self.players
        cdef uint64_t available = self.hands[seat]
        cdef uint64_t ordinary = available & ~JOKER_BITS
        cdef uint64_t of_suit, trumps
        cdef int n = 0, k
        if self.played:
            of_suit = ordinary & SUIT_MASK[self.suit]
            if of_suit:
                if self.taking:
                    ordinary = <uint64_t>1 << (63 - __builtin_clzll(of_suit))
                else:
                    ordinary = of_suit
            else:
                trumps = ordinary & self.trumps
                if trumps:
                    ordinary = trumps
        while ordinary:
            out[n] = __builtin_ctzll(ordinary)
            n += 1
            ordinary &= ordinary - 1
        if available & JOKER_BITS:
            for k in range(2):
                if available >> (X1 + k) & 1:
                    if self.played:
                        for j in range(self.n_answer[k]):
                            out[n] = self.answer_plays[k][j]
                            n += 1
                    else:
                        for j in range(self.n_lead[k]):
                            out[n] = self.lead_plays[k][j]
                            n += 1
        return n

    cdef void play(self, int code) noexcept:
        cdef int seat = (self.leader + self.played) % self.players
        cdef int bit = code if code < JOKER_PLAY else X1 + (code - JOKER_PLAY >= 32)
        self.hands[seat] ^= <uint64_t>1 << bit
        self.to_trick(seat, code)
        if self.played == self.players:
            self.tricks[self.winner] += 1
            self.done += 1
            self.leader = self.winner
            self.played = 0

    cdef void to_trick(self, int seat, int code) noexcept:
        cdef bint leading = not self.played
        cdef int joker, mode, suit
        self.played += 1
        if code >= JOKER_PLAY:
            joker = code - JOKER_PLAY >= 32
            mode = (code - JOKER_PLAY) % 32 // 4
            suit = code % 4
            if mode == NOMINAL:
                code = NOMINAL_BIT[joker]
            elif mode == HIGH:
                self.winner = seat
                self.beat = 0
                return
            elif mode == LOW:
                return
            else:
                self.suit = suit
                self.taking = mode == TAKE
                self.winner = seat
                if mode == GIVE:
                    self.beat = SUIT_MASK[suit] | self.trumps
                elif suit == self.trump or self.trump < 0:
                    self.beat = 0
                else:
                    self.beat = self.trumps
                return
        if leading:
            self.suit = code % 4
            self.taking = False
        elif not (self.beat >> code & 1):
            return
        self.winner = seat
        self.beat = ABOVE[code] | (0 if code % 4 == self.trump else self.trumps)

    cdef inline uint64_t next_random(self) noexcept:
        # xorshift64
        self.rng ^= self.rng << 13
        self.rng ^= self.rng >> 7
        self.rng ^= self.rng << 17
        return self.rng

    cpdef int play_random(self):
        """Random legal cards to the end of the deal; the cards played."""
        cdef int codes[64]
        cdef int n, decisions = 0
        while self.done < self.total:
            n = self.legal(codes)
            self.play(codes[self.next_random() % n])
            decisions += 1
        return decisions

    # For the check against the Python module.

    def legal_codes(self):
        cdef int codes[64]
        cdef int n = self.legal(codes)
        return sorted(codes[k] for k in range(n))

    def play_code(self, int code):
        self.play(code)

    @property
    def finished(self):
        return self.done == self.total

    @property
    def tricks_taken(self):
        return [self.tricks[k] for k in range(self.players)]
