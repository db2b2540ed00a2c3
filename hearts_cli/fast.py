"""The fast playout path: whole rounds on bitmasks, for CPU players and benchmarks.

:class:`~hearts_cli.engine.Round` is the checked, step-by-step public API:
it keeps a history of :class:`~hearts_cli.engine.Trick` objects, seat views
and reasons. A search bot needs none of that; it wants to play a position to
the end thousands of times. This module plays the *same rules* (the legal
sets are those of ``Round.legal_mask`` at every position, which
``tests/test_fast.py`` checks card by card) on nothing but ints:

* :class:`Position` is a mid-round state a bot can build from what it knows
  (or from a :class:`Round` / :class:`SeatView` plus guessed hands);
* :func:`playout` plays a position to the end with a random policy (an
  inlined loop, the fast case) or with any ``policy(legal_mask, position)``;
* :func:`random_round` deals from a :class:`random.Random`, passes and plays
  a whole random round: the benchmark's unit of work.

Every random choice indexes the legal cards in canonical order with
``rng.getrandbits(26) * count >> 26`` (see :func:`pick_index`), so the same
generator drives this module and the engine to the same round. No I/O here: this is the engine layer.
See ``docs/speed.md`` for the API and the figures.
"""

from __future__ import annotations

import random
import sys
from array import array
from typing import Callable, Sequence

from .cards import HEARTS_MASK, SUIT_MASKS, mask_of
from .engine import Round, SeatView, score_round
from .rules import Direction, Rules

__all__ = [
    "Position", "Policy", "playout", "random_round", "deal", "random_pass",
    "random_card", "random_policy", "points_of", "pick_index",
    "shuffled_cards",
]

Policy = Callable[[int, "Position"], int]
"""``policy(legal_mask, position) -> card``: must return one of the legal cards."""

_BIT = tuple(1 << c for c in range(52))
_NOT_HEARTS = ((1 << 52) - 1) & ~HEARTS_MASK


def _suit_chunks(suit: int) -> tuple[tuple[int, ...], ...]:
    """For each 13-bit chunk of ``suit``, its cards (plain ints) in order."""
    out: list[tuple[int, ...]] = [()]
    for chunk in range(1, 8192):
        low = chunk & -chunk
        out.append((13 * suit + low.bit_length() - 1,) + out[chunk ^ low])
    return tuple(out)


# suit s, 13-bit chunk -> its cards: mask -> cards (and a random card) with no bit loop
_CHUNK_CARDS = tuple(_suit_chunks(s) for s in range(4))
_C0, _C1, _C2, _C3 = _CHUNK_CARDS


class _Facts:
    """What the loops need from a :class:`Rules`, as plain locals-friendly values."""

    __slots__ = ("rules", "n", "hand_size", "pass_count", "in_play", "forbidden",
                 "free_hearts", "queen_breaks", "lowest_club", "penalty", "moon",
                 "pt_d", "pt_h", "pt_s", "points", "offsets", "followers", "labels",
                 "spans", "seat_tables", "kitty_table")

    def __init__(self, rules: Rules):
        self.rules = rules
        n = self.n = rules.players
        self.hand_size = rules.hand_size
        self.pass_count = rules.pass_count
        self.in_play = [c for c in range(52) if rules.in_play_mask >> c & 1]
        self.forbidden = rules.first_trick_forbidden
        self.free_hearts = rules.hearts_break == "free"
        self.queen_breaks = rules.hearts_break == "heart_or_queen"
        self.lowest_club = rules.first_lead == "lowest_club"
        self.penalty = rules.penalty_mask
        self.moon = rules.moon != "off"
        self.points = pts = rules.points
        # clubs never score, so three 8192-entry tables price any mask
        self.pt_d, self.pt_h, self.pt_s = (_chunk_table(pts, s) for s in (1, 2, 3))
        self.offsets = {d: d.receiver(0, n) for d in Direction}
        self.followers = tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))
        # the deal: label j (a seat, or n for the kitty) goes with the j-th card in play
        h = rules.hand_size
        m = len(self.in_play)
        self.labels = bytes(j // h if j < n * h else n for j in range(m))
        # cut points to re-insert the removed cards (as 0xff) into 52 positions
        cuts = [c - i for i, c in enumerate(sorted(rules.removed))]
        self.spans = tuple(zip([0] + cuts, cuts + [m])) if cuts else ()
        self.seat_tables = tuple(_label_table(s) for s in range(n))
        self.kitty_table = _label_table(n)


def _label_table(label: int) -> bytes:
    """A ``bytes.translate`` table: ``label`` to ``"1"``, anything else to ``"0"``."""
    return bytes(b"1"[0] if i == label else b"0"[0] for i in range(256))


_TABLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _chunk_table(points: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """Points of every 13-bit chunk of ``suit`` (shared between rule sets)."""
    key = (suit,) + points[13 * suit:13 * suit + 13]
    table = _TABLES.get(key)
    if table is None:
        vals = key[1:]
        if not any(vals):
            table = (0,) * 8192
        else:
            lst = [0] * 8192
            for chunk in range(1, 8192):
                low = chunk & -chunk
                lst[chunk] = lst[chunk ^ low] + vals[low.bit_length() - 1]
            table = tuple(lst)
        _TABLES[key] = table
    return table


_FACTS: dict[int, _Facts] = {}


def _facts(rules: Rules) -> _Facts:
    # keyed by identity (cheap); the Rules object is kept alive by the entry
    f = _FACTS.get(id(rules))
    if f is None or f.rules is not rules:
        f = _FACTS[id(rules)] = _Facts(rules)
    return f


def points_of(rules: Rules, mask: int) -> int:
    """Points of a set of cards under ``rules`` (as the engine adds them up)."""
    f = _facts(rules)
    return f.pt_d[mask >> 13 & 8191] + f.pt_h[mask >> 26 & 8191] + f.pt_s[mask >> 39 & 8191]


PICK_BITS = 26


def pick_index(rng: random.Random, count: int) -> int:
    """The random-choice protocol of this module: ``getrandbits(26) * count >> 26``.

    Uniform in ``range(count)`` to within ``count / 2**26`` (26 bits keep the
    product a one-digit int, which makes it cheaper than
    ``int(random() * count)``). To replay a playout through the engine, pick
    from ``legal_cards()`` with this.
    """
    return rng.getrandbits(PICK_BITS) * count >> PICK_BITS


def random_card(mask: int, rng: random.Random) -> int:
    """A random card of a non-empty mask, by :func:`pick_index` over its cards in order."""
    t = _C0[mask & 8191] + _C1[mask >> 13 & 8191] + _C2[mask >> 26 & 8191] + _C3[mask >> 39]
    return int(t[rng.getrandbits(PICK_BITS) * len(t) >> PICK_BITS])


def random_policy(rng: random.Random) -> Policy:
    """The random policy as a policy function (``playout(pos, rng)`` inlines it)."""
    def policy(legal: int, position: "Position") -> int:
        return random_card(legal, rng)
    return policy


# ---------------------------------------------------------------- positions


class Position:
    """A round in its play phase, as bare ints: enough to play it to the end.

    ``hands[s]`` is seat ``s``'s mask; ``trick`` the cards of the trick in
    progress (led by ``leader``); ``first_trick`` is True until a trick is
    complete; ``kitty`` is the mask of a kitty still waiting for the first
    trick's winner (0 otherwise); ``taken`` and ``points`` are what each seat
    has won so far (kitty included); ``scores`` are the game totals before the
    round (only the ``shooter_choice`` moon looks at them).
    """

    __slots__ = ("rules", "hands", "trick", "leader", "hearts_broken", "first_trick",
                 "kitty", "taken", "points", "scores", "_f")

    def __init__(self, rules: Rules, hands: Sequence[int], *, leader: int,
                 trick: Sequence[int] = (), hearts_broken: bool = False,
                 first_trick: bool = True, kitty: int = 0,
                 taken: Sequence[int] | None = None, points: Sequence[int] | None = None,
                 scores: Sequence[int] | None = None):
        n = rules.players
        self.rules = rules
        self._f = _facts(rules)
        self.hands = list(hands)
        self.trick = [int(c) for c in trick]
        self.leader = leader
        self.hearts_broken = hearts_broken
        self.first_trick = first_trick
        self.kitty = kitty
        self.taken = list(taken) if taken is not None else [0] * n
        self.points = list(points) if points is not None else [0] * n
        self.scores = tuple(scores) if scores is not None else (0,) * n

    @classmethod
    def start(cls, rules: Rules, hands: Sequence[int], *, kitty: int = 0, dealer: int = 0,
              scores: Sequence[int] | None = None) -> "Position":
        """The first lead of a round whose hands (after any pass) are ``hands``."""
        n = rules.players
        if rules.first_lead == "any":
            leader = (dealer + 1) % n
        else:
            low = _lowest_lead(hands)
            leader = next(s for s in range(n) if hands[s] >> low & 1)
        return cls(rules, hands, leader=leader, kitty=kitty, scores=scores)

    @classmethod
    def from_round(cls, rnd: Round) -> "Position":
        """The engine's round as it stands (it must be in its play phase)."""
        if rnd.turn is None or rnd.leader is None or rnd.phase.value != "play":
            raise ValueError("only a round in its play phase can be played out")
        return cls(rnd.rules, rnd.hands, leader=rnd.leader, trick=rnd.trick,
                   hearts_broken=rnd.hearts_broken, first_trick=not rnd.tricks,
                   kitty=0 if rnd.kitty_taken else rnd.kitty_mask,
                   taken=rnd.taken, points=rnd.points, scores=rnd.scores_before)

    @classmethod
    def from_view(cls, view: SeatView, hands: Sequence[int], kitty: int = 0) -> "Position":
        """A seat's view completed with guessed ``hands`` for every seat (the
        seat's own included) and, before the first trick is over, a guessed kitty."""
        if view.leader is None:
            raise ValueError("only a view of the play phase can be played out")
        n = view.rules.players
        taken = [0] * n
        for tr in view.tricks:
            taken[tr.winner] |= mask_of(tr.cards) | mask_of(tr.kitty)
        return cls(view.rules, hands, leader=view.leader, trick=view.trick,
                   hearts_broken=view.hearts_broken, first_trick=not view.tricks,
                   kitty=kitty if not view.tricks else 0, taken=taken,
                   points=view.points, scores=view.scores)

    def copy(self) -> "Position":
        new = object.__new__(Position)
        new.rules = self.rules
        new._f = self._f
        new.hands = list(self.hands)
        new.trick = list(self.trick)
        new.leader = self.leader
        new.hearts_broken = self.hearts_broken
        new.first_trick = self.first_trick
        new.kitty = self.kitty
        new.taken = list(self.taken)
        new.points = list(self.points)
        new.scores = self.scores
        return new

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self._f.n

    @property
    def over(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    def legal_mask(self) -> int:
        """The legal cards of the seat to move: the rules of ``Round.legal_mask``."""
        f = self._f
        trick = self.trick
        hand = self.hands[(self.leader + len(trick)) % f.n]
        if trick:
            legal = hand & SUIT_MASKS[trick[0] // 13]
            if not legal:
                legal = hand
                if self.first_trick and f.forbidden:
                    legal = hand & ~f.forbidden or hand
            return legal
        if self.first_trick:
            if f.lowest_club:
                return 1 << _lowest_lead(self.hands)
            if f.forbidden:
                hand = hand & ~f.forbidden or hand
        if not self.hearts_broken and not f.free_hearts:
            return hand & _NOT_HEARTS or hand
        return hand

    def play(self, card: int) -> None:
        """Play a legal card for the seat to move (unchecked, like ``play_unchecked``)."""
        f = self._f
        n = f.n
        trick = self.trick
        seat = (self.leader + len(trick)) % n
        c = int(card)
        self.hands[seat] &= ~(1 << c)
        if not self.hearts_broken and (26 <= c < 39 or (c == 49 and f.queen_breaks)):
            self.hearts_broken = True
        trick.append(c)
        if len(trick) < n:
            return
        led = trick[0] // 13
        best = 0
        tm = 0
        for i, x in enumerate(trick):
            tm |= 1 << x
            if x // 13 == led and x > trick[best]:
                best = i
        winner = (self.leader + best) % n
        if self.first_trick:
            tm |= self.kitty
            self.kitty = 0
            self.first_trick = False
        self.taken[winner] |= tm
        self.points[winner] += f.pt_d[tm >> 13 & 8191] + f.pt_h[tm >> 26 & 8191] + f.pt_s[tm >> 39]
        self.trick = []
        self.leader = winner

    def result(self) -> tuple[int, ...]:
        """Scores of the finished round, with the moon and the J♦ as ``score_round``."""
        return _score(self._f, self.taken, self.points, self.scores)


def _lowest_lead(hands: Sequence[int]) -> int:
    """The card that leads under ``lowest_club``: the lowest club held, else the lowest card."""
    held = 0
    for m in hands:
        held |= m
    pool = held & 8191 or held
    return (pool & -pool).bit_length() - 1


def _score(f: _Facts, taken: Sequence[int], points: Sequence[int],
           scores: Sequence[int]) -> tuple[int, ...]:
    if f.moon:
        pm = f.penalty
        for t in taken:
            if t & pm == pm:
                return score_round(f.rules, taken, points, scores).scores
    return tuple(points)


# ---------------------------------------------------------------- playing out


def playout(pos: Position, rng: random.Random, policy: Policy | None = None) -> tuple[int, ...]:
    """Play ``pos`` to the end (it is changed: pass a copy to keep it) and return the scores.

    With no ``policy`` every seat plays a random legal card (:func:`pick_index`)
    in an inlined loop; otherwise ``policy(legal_mask, pos)`` chooses each
    card, with ``pos`` up to date (``pos.turn`` is the seat to move).
    """
    if policy is not None:
        while not pos.over:
            pos.play(policy(pos.legal_mask(), pos))
        return pos.result()
    grb = rng.getrandbits
    while pos.trick:  # finish a trick in progress the plain way
        legal = pos.legal_mask()
        t = _C0[legal & 8191] + _C1[legal >> 13 & 8191] + _C2[legal >> 26 & 8191] + _C3[legal >> 39]
        pos.play(t[grb(PICK_BITS) * len(t) >> PICK_BITS])
    f = pos._f
    new = [0] * f.n
    pos.kitty, pos.hearts_broken, pos.first_trick, pos.leader = _tricks(
        f, pos.hands, new, pos.leader, pos.hearts_broken, pos.first_trick, pos.kitty, grb)
    taken, points = pos.taken, pos.points
    pd, ph, ps = f.pt_d, f.pt_h, f.pt_s
    for s, m in enumerate(new):
        if m:
            taken[s] |= m
            points[s] += pd[m >> 13 & 8191] + ph[m >> 26 & 8191] + ps[m >> 39]
    return _score(f, taken, points, pos.scores)


def _tricks(f: _Facts, hands: list[int], taken: list[int], leader: int, broken: bool,
            first: bool, kitty: int, grb: Callable[[int], int]) -> tuple[int, bool, bool, int]:
    """Random play from a trick boundary to the end: the hot loop.

    ``hands`` and ``taken`` are changed in place; returns the new kitty,
    hearts-broken flag, first-trick flag and leader. It is
    :meth:`Position.legal_mask` and :meth:`Position.play` unrolled (the tests
    hold them equal): hearts are marked broken once per trick, since only the
    next lead can care.
    """
    forbidden = f.forbidden
    not_forbidden = ~forbidden
    free = f.free_hearts
    breakers = HEARTS_MASK | (1 << 49) if f.queen_breaks else HEARTS_MASK
    followers = f.followers
    c0, c1, c2, c3 = _C0, _C1, _C2, _C3
    chunks = _CHUNK_CARDS
    bit = _BIT
    suits = SUIT_MASKS
    nh = _NOT_HEARTS
    for _ in range(hands[leader].bit_count()):
        # ---- the lead
        hand = hands[leader]
        if first and f.lowest_club:
            c = _lowest_lead(hands)
            grb(PICK_BITS)  # the draw a caller of legal_cards() makes for a forced lead
        else:
            if first and forbidden:
                legal = hand & not_forbidden or hand
            else:
                legal = hand
            if not broken and not free:
                legal = legal & nh or legal
            t = c0[legal & 8191] + c1[legal >> 13 & 8191] + c2[legal >> 26 & 8191] + c3[legal >> 39]
            c = t[grb(PICK_BITS) * len(t) >> PICK_BITS]
        tm = bit[c]
        hands[leader] = hand ^ tm
        led = c // 13
        shift = 13 * led
        sm = suits[led]
        table = chunks[led]
        best = c
        winner = leader
        # ---- the others, in turn
        for seat in followers[leader]:
            hand = hands[seat]
            follow = hand & sm
            if follow:
                t = table[follow >> shift]
                c = t[grb(PICK_BITS) * len(t) >> PICK_BITS]
                if c > best:
                    best = c
                    winner = seat
            else:
                if first and forbidden:
                    hand_ok = hand & not_forbidden or hand
                    t = c0[hand_ok & 8191] + c1[hand_ok >> 13 & 8191] + c2[hand_ok >> 26 & 8191] + c3[hand_ok >> 39]
                else:
                    t = c0[hand & 8191] + c1[hand >> 13 & 8191] + c2[hand >> 26 & 8191] + c3[hand >> 39]
                c = t[grb(PICK_BITS) * len(t) >> PICK_BITS]
            b = bit[c]
            hands[seat] = hand ^ b
            tm |= b
        if not broken and tm & breakers:
            broken = True
        if first:
            tm |= kitty
            kitty = 0
            first = False
        taken[winner] |= tm
        leader = winner
    return kitty, broken, first, leader


# ---------------------------------------------------------------- whole rounds

_LOW = 0 if sys.byteorder == "little" else 7  # where a native 8-byte int keeps its low byte


def _arrange(rng: random.Random, payload: bytes) -> bytes:
    """``payload`` in uniformly random order, in C: sort random 64-bit keys whose
    low byte is the payload (56 random bits decide; a tie is a 1-in-10**13 event)."""
    keys = bytearray(rng.randbytes(8 * len(payload)))
    keys[_LOW::8] = payload
    return array("Q", sorted(memoryview(keys).cast("Q").tolist())).tobytes()[_LOW::8]


def shuffled_cards(rng: random.Random, cards: bytes = bytes(range(52))) -> bytes:
    """The cards in random order (the same random work as :func:`deal`): one
    ``randbytes`` call and one sort; about twice as fast as ``rng.shuffle``."""
    return _arrange(rng, cards)


def deal(rules: Rules, rng: random.Random) -> tuple[list[int], int]:
    """Random hands (masks, seat by seat) and kitty mask, from ``rng`` (not a game code).

    Rather than shuffling cards, it shuffles seat labels (``hand_size`` of
    each seat's number, then the kitty's): label ``j`` goes with the ``j``-th
    card in play. Each seat's mask is then read off with ``translate`` and
    ``int(..., 2)``; no Python-level loop over cards.
    """
    f = _facts(rules)
    seats = _arrange(rng, f.labels)
    if f.spans:
        seats = b"\xff".join([seats[a:b] for a, b in f.spans])
    seats = seats[::-1]  # card 51 first: the most significant digit
    return [int(seats.translate(t), 2) for t in f.seat_tables], int(seats.translate(f.kitty_table), 2)


def random_pass(rules: Rules, hands: list[int], direction: Direction,
                rng: random.Random) -> list[int]:
    """Every seat (0 first) passes ``pass_count`` random cards; returns the hands after.

    Each card is ``held.pop(pick_index(rng, len(held)))`` from the seat's
    cards still held, in canonical order: what a caller of
    ``Round.pass_cards`` would do with ``hand(seat)``.
    """
    f = _facts(rules)
    n = f.n
    off = f.offsets[direction]
    if not off:
        return list(hands)
    grb = rng.getrandbits
    k = f.pass_count
    out = list(hands)
    for s in range(n):
        h = hands[s]
        held = list(_C0[h & 8191] + _C1[h >> 13 & 8191] + _C2[h >> 26 & 8191] + _C3[h >> 39])
        p = 0
        for _ in range(k):
            p |= 1 << held.pop(grb(PICK_BITS) * len(held) >> PICK_BITS)
        out[s] ^= p
        out[(s + off) % n] |= p
    return out


def random_round(rules: Rules, rng: random.Random, direction: Direction | str | None = None,
                 dealer: int = 0, scores: Sequence[int] | None = None) -> tuple[int, ...]:
    """Deal, pass, play and score one random round; returns the scores.

    The draws, in order: the direction when ``direction`` is None
    (``cycle[pick_index(rng, len(cycle))]`` over the rule set's pass cycle,
    like the pass-direction chance node of OpenSpiel's Hearts), :func:`deal`,
    :func:`random_pass`, then one :func:`pick_index` per card played, as
    :func:`playout` from the first lead would make them.
    """
    if direction is None:
        cycle = rules.pass_cycle
        direction = cycle[pick_index(rng, len(cycle))]
    f = _facts(rules)
    hands, kitty = deal(rules, rng)
    if f.offsets[direction]:
        hands = random_pass(rules, hands, direction, rng)
    n = f.n
    if f.lowest_club:
        low = _lowest_lead(hands)
        leader = 0
        while not hands[leader] >> low & 1:
            leader += 1
    else:
        leader = (dealer + 1) % n
    taken = [0] * n
    _tricks(f, hands, taken, leader, False, True, kitty, rng.getrandbits)
    pd, ph, ps = f.pt_d, f.pt_h, f.pt_s
    points = [pd[m >> 13 & 8191] + ph[m >> 26 & 8191] + ps[m >> 39] for m in taken]
    return _score(f, taken, points, scores if scores is not None else (0,) * n)
