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

Every random choice of a card to play indexes the legal cards in canonical
order with ``rng.getrandbits(26) * count >> 26`` (see :func:`pick_index`),
so the same generator drives this module and the engine to the same round.
No I/O here: this is the engine layer. See ``docs/speed.md`` for the API,
the random protocol and the figures.
"""

from __future__ import annotations

import random
import struct
import sys
from typing import Callable, Sequence

from .cards import HEARTS_MASK, SUIT_MASKS, mask_of
from .engine import Round, SeatView, score_round
from .rules import Direction, FirstLead, HeartsBreak, Moon, Rules

__all__ = [
    "Position", "Policy", "playout", "random_round", "deal", "deal_with_passes",
    "random_pass", "random_card", "random_policy", "points_of", "pick_index",
    "shuffled_cards", "playout_steps", "StepPolicy",
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



# ---------------------------------------------------------------- rule facts


class _Facts:
    """What the loops need from a :class:`Rules`, as plain locals-friendly values."""

    __slots__ = ("rules", "n", "hand_size", "pass_count", "in_play", "forbidden",
                 "free_hearts", "queen_breaks", "lowest_club", "low", "penalty", "moon",
                 "pt_d", "pt_h", "pt_s", "points", "offsets", "followers", "cycle",
                 "labels", "spans", "key_bits", "key_mask", "key_fix", "key_pack",
                 "hand_tables", "cycle_tables", "dealt_tables", "pass_tables", "kitty_table",
                 "zeros", "play", "round_")

    def __init__(self, rules: Rules):
        self.rules = rules
        n = self.n = rules.players
        h = self.hand_size = rules.hand_size
        k = self.pass_count = rules.pass_count
        self.in_play = [c for c in range(52) if rules.in_play_mask >> c & 1]
        self.forbidden = rules.first_trick_forbidden
        self.free_hearts = rules.hearts_break is HeartsBreak.FREE
        self.queen_breaks = rules.hearts_break is HeartsBreak.HEART_OR_QUEEN
        self.lowest_club = rules.first_lead is FirstLead.LOWEST_CLUB
        # with no kitty every card in play is held: the first lead is known in advance
        clubs = rules.in_play_mask & SUIT_MASKS[0] or rules.in_play_mask
        self.low = (clubs & -clubs).bit_length() - 1 if not rules.kitty_size else None
        self.penalty = rules.penalty_mask
        self.moon = rules.moon is not Moon.OFF
        self.points = pts = rules.points
        # clubs never score, so three 8192-entry tables price any mask
        self.pt_d, self.pt_h, self.pt_s = (_chunk_table(pts, s) for s in (1, 2, 3))
        self.offsets = {d: d.receiver(0, n) for d in Direction}
        self.followers = tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))
        self.cycle = rules.pass_cycle
        # The deal (see _deal_string): a shuffle of labels, one per card in play:
        # seat s keeps its `h - k` cards labelled s and passes its `k` labelled
        # n + s; the kitty's are labelled 2n.
        m = len(self.in_play)
        self.labels = bytes([s for s in range(n) for _ in range(h - k)]
                            + [n + s for s in range(n) for _ in range(k)]
                            + [2 * n] * (m - n * h))
        # the shuffled labels are read with int(..., 2): position j is card 51 - j,
        # so a removed card c is a 0xff put back at position 51 - c
        cuts = [p - i for i, p in enumerate(sorted(51 - c for c in rules.removed))]
        self.spans = tuple(zip([0] + cuts, cuts + [m])) if cuts else ()
        self.key_bits, self.key_mask, self.key_fix, self.key_pack = _sort_keys(self.labels)
        # seat r's hand after a pass with offset o: its own kept cards and its sender's passed ones
        self.hand_tables = {d: tuple(_label_table(r, n + (r - o) % n) for r in range(n))
                            for d, o in self.offsets.items()}
        self.cycle_tables = tuple(self.hand_tables[d] for d in self.cycle)
        self.dealt_tables = self.hand_tables[Direction.NONE]
        self.pass_tables = tuple(_label_table(n + s) for s in range(n))
        self.kitty_table = _label_table(2 * n) if m > n * h else None
        self.zeros = (0,) * n
        _compile_loops(self)  # self.play and self.round_


def _label_table(*labels: int) -> bytes:
    """A ``bytes.translate`` table: ``labels`` to ``"1"``, anything else to ``"0"``."""
    return bytes(b"1"[0] if i in labels else b"0"[0] for i in range(256))


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
        if rules.first_lead is FirstLead.ANY:
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



StepPolicy = Callable[[int, int, int, int, "Position"], int]
"""``policy(legal_mask, seat, win_card, win_seat, position) -> card`` (see :func:`playout_steps`)."""


def playout_steps(pos: Position, policy: StepPolicy) -> tuple[int, ...]:
    """Like ``playout(pos, rng, policy)`` with a cheaper, richer hook, for search bots.

    ``policy(legal, seat, win_card, win_seat, pos)`` is called once per card:
    ``seat`` is the seat to move, ``win_card``/``win_seat`` what wins the trick
    in progress so far (both ``-1`` at a lead, so a lead is also the news that
    a trick was completed). ``pos.hands``, ``pos.trick``, ``pos.leader``,
    ``pos.taken``, ``pos.points``, ``pos.kitty``, ``pos.first_trick`` and
    ``pos.hearts_broken`` are up to date when it is called. The legality and
    the trick logic are :meth:`Position.legal_mask` and :meth:`Position.play`
    inlined (``tests/test_fast.py`` holds them equal). ``pos`` is changed.
    """
    f = pos._f
    n = f.n
    hands, taken, points, trick = pos.hands, pos.taken, pos.points, pos.trick
    forbidden = f.forbidden
    free = f.free_hearts
    qb = f.queen_breaks
    lowest = f.lowest_club
    pd, ph, ps = f.pt_d, f.pt_h, f.pt_s
    suits = SUIT_MASKS
    nh = _NOT_HEARTS
    leader = pos.leader
    broken = pos.hearts_broken
    first = pos.first_trick
    wc = ws = -1
    tm = 0
    led = 0
    for i, x in enumerate(trick):  # a trick in progress
        tm |= 1 << x
        if not i:
            led = x // 13
        if x // 13 == led and x > wc:
            wc, ws = x, (leader + i) % n
    while True:
        k = len(trick)
        if k:
            seat = (leader + k) % n
            hand = hands[seat]
            legal = hand & suits[led]
            if not legal:
                legal = hand & ~forbidden or hand if first and forbidden else hand
        else:
            seat = leader
            hand = hands[seat]
            if not hand:
                break
            if first and lowest:
                legal = 1 << _lowest_lead(hands)
            else:
                legal = hand & ~forbidden or hand if first and forbidden else hand
                if not broken and not free:
                    legal = legal & nh or legal
        c = policy(legal, seat, wc, ws, pos)
        b = 1 << c
        hands[seat] = hand & ~b
        if not broken and (26 <= c < 39 or (c == 49 and qb)):
            broken = pos.hearts_broken = True
        trick.append(c)
        tm |= b
        if not k:
            led = c // 13
            wc, ws = c, seat
        elif c > wc and c // 13 == led:
            wc, ws = c, seat
        if k + 1 == n:
            if first:
                tm |= pos.kitty
                pos.kitty = 0
                first = pos.first_trick = False
            taken[ws] |= tm
            points[ws] += pd[tm >> 13 & 8191] + ph[tm >> 26 & 8191] + ps[tm >> 39]
            trick.clear()
            leader = pos.leader = ws
            wc = ws = -1
            tm = 0
    return _score(f, taken, points, pos.scores)


# ---------------------------------------------------------------- the generated loops
#
# The hot loop works on *suit chunks*: S<u>[s] is the 13-bit chunk of suit u
# in seat s's hand (bit r: the card of rank index r). Following suit, the
# common play, is then one list index, one table index and one pick, with no
# shift. The code is generated once per rule set (_loop_source): the n - 1
# followers of a trick are straight-line code, and each rule option either is
# in the text or is not, so nothing a rule set has decided is tested at run
# time. Cards taken out of a chunk and added to a trick are disjoint, so the
# loop subtracts and adds (specialized int bytecodes) where it means ^ and |.
# Two functions share the trick code: `play` (from a trick boundary of a
# Position) and `round_` (a whole random round: deal string to scores).


def _rank_chunks() -> tuple[tuple[int, ...], ...]:
    """For each 13-bit chunk, its rank bits (``1 << r``), lowest first."""
    out: list[tuple[int, ...]] = [()]
    for chunk in range(1, 8192):
        low = chunk & -chunk
        out.append((low,) + out[chunk ^ low])
    return tuple(out)


_RANKS = _rank_chunks()                          # chunk -> its rank bits in order
_COUNT = tuple(len(t) for t in _RANKS)           # chunk -> how many cards
_SUIT = tuple(c // 13 for c in range(52))        # card -> suit
_RBIT = tuple(1 << c % 13 for c in range(52))    # card -> its bit in its suit's chunk
_SHIFT = (0, 13, 26, 39)

_FOLLOW = """\
f = col[{s}]
if f:
    b = R[f][grb(26) * N[f] >> 26]
    col[{s}] = f - b
    tl += b
    if b > best:
        best = b
        w = {s}
else:
{discard}"""

_DISCARD = """\
    t = C0[S0[{s}]] + C1[S1[{s}]] + C2[S2[{s}]] + C3[S3[{s}]]
    c = t[grb(26) * len(t) >> 26]
    COL[SU[c]][{s}] -= RB[c]
    dm += B[c]
"""

_DISCARD_FIRST = """\
    h = S0[{s}] | S1[{s}] << 13 | S2[{s}] << 26 | S3[{s}] << 39
    h = h & NF or h
    t = C0[h & 8191] + C1[h >> 13 & 8191] + C2[h >> 26 & 8191] + C3[h >> 39]
    c = t[grb(26) * len(t) >> 26]
    COL[SU[c]][{s}] -= RB[c]
    dm += B[c]
"""

_TRICK = """\
led = SU[c]
best = tl = RB[c]
col = COL[led]
col[L] -= tl
dm = 0
w = L
{seats} = FOL[L]
{followers}\
T[w] += (tl << SH[led]) + dm
L = w
"""

_FIRST_LEAD_LOWEST = """\
c = low
grb(26)  # the draw a caller of legal_cards() makes for a forced lead
"""

_FIRST_LEAD_ANY = """\
h = S0[L] | S1[L] << 13 | S2[L] << 26 | S3[L] << 39
h = h & NF or h
{hearts}\
t = C0[h & 8191] + C1[h >> 13 & 8191] + C2[h >> 26 & 8191] + C3[h >> 39]
c = t[grb(26) * len(t) >> 26]
"""

# from a trick boundary: the first trick (if it is still to come), tricks
# while hearts are unbroken (leads avoid hearts), then the rest
_BODY = """\
if first and left:
    left -= 1
{first_lead}{first_trick}\
    T[w] += kitty
    kitty = 0
    if not broken and ({breaks}):
        broken = True
if not broken:
    while left:
        left -= 1
        t = {unbroken_lead}
        c = t[grb(26) * len(t) >> 26]
{trick_a}\
        if {breaks}:
            broken = True
            break
for _ in range(left):
    t = C0[S0[L]] + C1[S1[L]] + C2[S2[L]] + C3[S3[L]]
    c = t[grb(26) * len(t) >> 26]
{trick_b}\
"""

_CONSTANTS = ("C0=C0, C1=C1, C2=C2, C3=C3, R=R, N=N, SU=SU, RB=RB, B=B, SH=SH, FOL=FOL, "
              "BRK=BRK, NF=NF, NH=NH, len=len")

_PLAY = """\
def play(hands, T, L, left, first, broken, kitty, grb, low, {constants}):
    {unpack} = hands
{chunks}\
    COL = (S0, S1, S2, S3)
{body}\
    return L, broken, kitty
"""

_ROUND = """\
def round_(grb, tables, dealer, scores, {constants}, KB=KB, KM=KM, KF=KF, ORDER=ORDER,
           PACK=PACK, LOW=LOW, SPANS=SPANS, KT=KT, INPLAY=INPLAY, PD=PD, PH=PH, PS=PS, PM=PM, MOON=MOON,
           lowest_lead=lowest_lead):
    keys = memoryview((grb(KB) & KM | KF).to_bytes(KB >> 3, ORDER)).cast("d").tolist()
    keys.sort()
    s = PACK(*keys)[LOW::8]
{spans}\
    {tables} = tables
    kitty = {kitty}
{hands}\
{chunks}\
    COL = (S0, S1, S2, S3)
{leader}\
    T = [0] * {n}
    left = {hand_size}
    first = True
    broken = False
{body}\
    {unpack} = T
{moon}\
    return ({points})
"""


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


def _loop_source(f: "_Facts") -> str:
    """The source of ``play`` and ``round_`` for the rule set of ``f``."""
    n = f.n
    seats = [f"s{i}" for i in range(1, n)]
    hs = [f"h{i}" for i in range(n)]
    ts = [f"t{i}" for i in range(n)]

    def trick(discard: str) -> str:
        followers = "".join(_FOLLOW.format(s=s, discard=discard.format(s=s)) for s in seats)
        return _TRICK.format(seats=", ".join(seats) + ("," if n == 2 else ""), followers=followers)

    breaks = "led == 2 or dm and dm & BRK"
    if f.queen_breaks:
        breaks = "led == 2 or led == 3 and tl & 1024 or dm and dm & BRK"
    hearts = "" if f.free_hearts else "if not broken:\n    h = h & NH or h\n"
    first_lead = _FIRST_LEAD_LOWEST if f.lowest_club else _FIRST_LEAD_ANY.format(hearts=hearts)
    body = _BODY.format(
        first_lead=_indent(first_lead, 4),
        first_trick=_indent(trick(_DISCARD_FIRST if f.forbidden else _DISCARD), 4),
        breaks=breaks,
        unbroken_lead=("C0[S0[L]] + C1[S1[L]] + C2[S2[L]] + C3[S3[L]]" if f.free_hearts else
                       "C0[S0[L]] + C1[S1[L]] + C3[S3[L]] or C2[S2[L]]"),
        trick_a=_indent(trick(_DISCARD), 8),
        trick_b=_indent(trick(_DISCARD), 4),
    )
    chunks = "".join(f"    S{u} = [{', '.join(f'{h}{x}' for h in hs)}]\n"
                     for u, x in enumerate((" & 8191", " >> 13 & 8191", " >> 26 & 8191", " >> 39")))
    play = _PLAY.format(constants=_CONSTANTS, unpack=", ".join(hs), chunks=chunks,
                        body=_indent(body, 4))
    if not f.lowest_club:
        leader = f"    L = (dealer + 1) % {n}\n    low = 0\n"
    elif f.low is not None:  # every card in play is held: the lowest is known
        held = "{h} & 1" if f.low == 0 else "{h} >> low & 1"
        leader = "    low = LOWCARD\n" + "".join(
            f"    {'el' if i else ''}if {held.format(h=h)}:\n        L = {i}\n"
            for i, h in enumerate(hs[:-1])) + f"    else:\n        L = {n - 1}\n"
    else:
        leader = (f"    low = lowest_lead(({', '.join(hs)},))\n    L = 0\n"
                  f"    while not ({', '.join(hs)},)[L] >> low & 1:\n        L += 1\n")
    moon = ""
    if f.moon:
        moon = (f"    if {' or '.join(f'{t} & PM == PM' for t in ts)}:\n"
                f"        return MOON(T, scores)\n")
    round_ = _ROUND.format(
        constants=_CONSTANTS,
        spans="    s = b\"\\xff\".join([s[a:b] for a, b in SPANS])\n" if f.spans else "",
        tables=", ".join(f"x{i}" for i in range(n)) + ("," if n == 1 else ""),
        # the last hand is what the others and the kitty leave of the cards in play
        hands="".join(f"    h{i} = int(s.translate(x{i}), 2)\n" for i in range(n - 1))
        + f"    h{n - 1} = INPLAY - {' - '.join(hs[:-1])} - kitty\n",
        kitty="int(s.translate(KT), 2)" if f.kitty_table else "0",
        chunks=chunks, leader=leader, n=n, hand_size=f.hand_size, body=_indent(body, 4),
        unpack=", ".join(ts), moon=moon,
        points=", ".join(f"PD[{t} >> 13 & 8191] + PH[{t} >> 26 & 8191] + PS[{t} >> 39]" for t in ts)
        + ("," if n == 1 else ""),
    )
    return play + "\n\n" + round_


_CODE: dict[str, object] = {}


def _compile_loops(f: "_Facts") -> None:
    """Make ``f.play`` and ``f.round_`` (the code is shared by rule sets that read the same)."""
    source = _loop_source(f)
    code = _CODE.get(source)
    if code is None:
        code = _CODE[source] = compile(source, "<hearts_cli.fast generated loops>", "exec")
    rules = f.rules

    def moon(taken: list[int], scores: Sequence[int]) -> tuple[int, ...]:
        points = [f.pt_d[m >> 13 & 8191] + f.pt_h[m >> 26 & 8191] + f.pt_s[m >> 39] for m in taken]
        return score_round(rules, taken, points, scores).scores

    space = {
        "C0": _C0, "C1": _C1, "C2": _C2, "C3": _C3, "R": _RANKS, "N": _COUNT, "SU": _SUIT,
        "RB": _RBIT, "B": _BIT, "SH": _SHIFT, "NH": _NOT_HEARTS, "NF": ~f.forbidden,
        "FOL": f.followers,
        "BRK": HEARTS_MASK | (1 << 49 if f.queen_breaks else 0),  # what breaks hearts
        "KB": f.key_bits, "KM": f.key_mask, "KF": f.key_fix, "ORDER": _ORDER, "PACK": f.key_pack,
        "LOW": _LOW, "SPANS": f.spans, "KT": f.kitty_table, "LOWCARD": f.low,
        "INPLAY": f.rules.in_play_mask,
        "PD": f.pt_d, "PH": f.pt_h, "PS": f.pt_s, "PM": f.penalty, "MOON": moon,
        "lowest_lead": _lowest_lead,
    }
    exec(code, space)
    f.play = space["play"]
    f.round_ = space["round_"]


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
    hands = pos.hands
    left = hands[pos.leader].bit_count()
    if not left:
        return pos.result()
    low = _lowest_lead(hands) if pos.first_trick and f.lowest_club else 0
    new = [0] * f.n
    pos.leader, pos.hearts_broken, pos.kitty = f.play(
        hands, new, pos.leader, left, pos.first_trick, pos.hearts_broken, pos.kitty, grb, low)
    pos.first_trick = False
    pos.hands = [0] * f.n
    taken, points = pos.taken, pos.points
    pd, ph, ps = f.pt_d, f.pt_h, f.pt_s
    for s, m in enumerate(new):
        if m:
            taken[s] |= m
            points[s] += pd[m >> 13 & 8191] + ph[m >> 26 & 8191] + ps[m >> 39]
    return _score(f, taken, points, pos.scores)


# ---------------------------------------------------------------- the deal
#
# A deal is a shuffle of labels (see _Facts.labels), done in C: every label
# becomes the low byte of a random 8-byte key, the keys are sorted, and the
# labels read back in key order. The keys are read as doubles (the top byte
# fixed at 0x3f, so every key is a positive normal double, and doubles sort as
# their bit patterns do): a list of floats sorts about twice as fast as one
# of two-digit ints. 48 random bits decide the order: a tie (which the labels
# would break) is a 1-in-2*10**11 event per deal.

_ORDER = sys.byteorder
_LOW = 0 if _ORDER == "little" else 7  # where a native double keeps its low byte


def _sort_keys(payload: bytes) -> tuple[int, int, int, Callable[..., bytes]]:
    """``(bits, mask, fix, pack)`` to shuffle ``payload``: keys are
    ``getrandbits(bits) & mask | fix`` as native doubles; ``pack`` writes them back."""
    if _LOW == 0:
        words = [(bytes([b]) + bytes(6) + b"\x3f", b"\x00" + b"\xff" * 6 + b"\x00") for b in payload]
    else:
        words = [(b"\x3f" + bytes(6) + bytes([b]), b"\x00" + b"\xff" * 6 + b"\x00") for b in payload]
    fix = int.from_bytes(b"".join(w[0] for w in words), _ORDER)
    mask = int.from_bytes(b"".join(w[1] for w in words), _ORDER)
    return 64 * len(payload), mask, fix, struct.Struct(f"{len(payload)}d").pack


_KEYS: dict[bytes, tuple[int, int, int, Callable[..., bytes]]] = {}


def shuffled_cards(rng: random.Random, cards: bytes = bytes(range(52))) -> bytes:
    """``cards`` (bytes) in uniformly random order, by the deal's sort of random
    keys: one ``getrandbits`` call and one sort; several times as fast as
    ``rng.shuffle``."""
    k = _KEYS.get(cards)
    if k is None:
        k = _KEYS[cards] = _sort_keys(cards)
    bits, mask, fix, pack = k
    keys = memoryview((rng.getrandbits(bits) & mask | fix).to_bytes(bits >> 3, _ORDER)).cast("d").tolist()
    keys.sort()
    return pack(*keys)[_LOW::8]


def _deal_string(f: _Facts, rng: random.Random) -> bytes:
    """The shuffled labels, one byte per card: position ``j`` is card ``51 - j``
    (0xff for a card out of play)."""
    keys = memoryview((rng.getrandbits(f.key_bits) & f.key_mask | f.key_fix)
                      .to_bytes(f.key_bits >> 3, _ORDER)).cast("d").tolist()
    keys.sort()
    s = f.key_pack(*keys)[_LOW::8]
    if f.spans:
        s = b"\xff".join([s[a:b] for a, b in f.spans])
    return s


def deal(rules: Rules, rng: random.Random) -> tuple[list[int], int]:
    """Random hands (masks, seat by seat) and kitty mask, from ``rng`` (not a game code).

    The same draws as :func:`deal_with_passes`, without the passes.
    """
    f = _facts(rules)
    s = _deal_string(f, rng)
    return ([int(s.translate(t), 2) for t in f.dealt_tables],
            int(s.translate(f.kitty_table), 2) if f.kitty_table else 0)


def deal_with_passes(rules: Rules, rng: random.Random) -> tuple[list[int], int, list[int]]:
    """A random deal and a random pass for every seat: ``(hands, kitty, passes)``, masks.

    ``passes[s]`` is the ``pass_count`` cards seat ``s`` passes (whatever the
    direction), a uniformly random subset of its hand: one shuffle of the
    deck decides both, like dealing and then passing the first cards dealt.
    These are the draws :func:`random_round` makes after the direction.
    Rather than cards, it shuffles *labels* (see ``_Facts.labels``), and reads
    each seat's mask with ``translate`` and ``int(..., 2)``: no Python-level
    loop over cards.
    """
    f = _facts(rules)
    s = _deal_string(f, rng)
    return ([int(s.translate(t), 2) for t in f.dealt_tables],
            int(s.translate(f.kitty_table), 2) if f.kitty_table else 0,
            [int(s.translate(t), 2) for t in f.pass_tables])


def random_pass(rules: Rules, hands: list[int], direction: Direction,
                rng: random.Random) -> list[int]:
    """Every seat (0 first) passes ``pass_count`` random cards; returns the hands after.

    Each card is ``held.pop(pick_index(rng, len(held)))`` from the seat's
    cards still held, in canonical order: what a caller of
    ``Round.pass_cards`` would do with ``hand(seat)``. (:func:`random_round`
    does not use this: its passes come with the deal.)
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
    like the pass-direction chance node of OpenSpiel's Hearts), the deal and
    the passes (:func:`deal_with_passes`), then one :func:`pick_index` per
    card played, as :func:`playout` from the first lead would make them.
    """
    f = _FACTS.get(id(rules))
    if f is None or f.rules is not rules:
        f = _facts(rules)
    grb = rng.getrandbits
    if direction is None:
        cycle = f.cycle_tables
        tables = cycle[grb(26) * len(cycle) >> 26]
    else:
        tables = f.hand_tables[direction]
    return f.round_(grb, tables, dealer, scores if scores is not None else f.zeros)
