"""Hard with two decks (Cancellation Hearts): determinized search on the generic path.

The one-deck search (:mod:`hearts_cli.bots.hard`) runs on 52-bit masks where a
card is held once; with two decks a seat may hold a card twice and the unseen
cards are a multiset. This module samples worlds from that multiset (hand
sizes, voids shown, the cards this seat passed still with their receiver) and
plays every distinct legal card out on each world over
:class:`hearts_cli.fast.MultiPosition` (the rules of :mod:`hearts_cli.core`,
cancellation included) with :func:`choose`, Normal's rules of thumb written for
two decks. It sees only the seat's view.
"""

from __future__ import annotations

import random

from ..cards import CARDS, SUIT_MASKS, Card
from ..engine import SeatView
from ..fast import MultiPosition, pair_of_cards, random_card
from .common import decision_rng
from .playout import HIGH_SPADES, QS, low_rank_card, top_rank_card

# Worlds per decision (docs/bots.md, "Two decks": what it costs and what it buys).
DEFAULT_WORLDS = 16
EPS = 0.0  # share of random cards in the playouts
SELF_CANCEL = True  # in the playouts this seat ducks by cancelling the winning card...
OTHERS_CANCEL = False  # ...and the others play as Normal does, which never does

HEARTS = SUIT_MASKS[2]
SPADES = SUIT_MASKS[3]
LOW_SPADES = SPADES & ((1 << QS) - 1)


def seat_counts(view: SeatView) -> list[int]:
    """Cards each seat still holds."""
    n = view.rules.players
    plays = [0] * n
    for tr in view.tricks:
        for i in range(len(tr.cards)):
            plays[(tr.leader + i) % n] += 1
    for i in range(len(view.trick)):
        plays[((view.leader or 0) + i) % n] += 1
    out = [view.rules.hand_size - plays[s] for s in range(n)]
    out[view.seat] = len(view.hand)
    return out


class WorldSampler:
    """Deals of the unseen cards (a multiset) consistent with one view, drawn many times.

    What a world must respect: each other seat's hand size, every void it has
    shown, and the cards this seat passed, which stay with the receiver until
    it plays them (a card passed twice: both copies, less the copies it has
    played since). A face-down kitty takes any card. Worked out once per
    decision; :meth:`sample` draws a deal.
    """

    def __init__(self, view: SeatView, tries: int = 20):
        n = view.rules.players
        me = view.seat
        self.n, self.me, self.tries = n, me, tries
        counts = seat_counts(view)
        kitty_left = view.rules.kitty_size if view.rules.kitty_size and not view.kitty else 0
        pool = [int(c) for c in view.unseen()]
        holders = [s for s in range(n) if s != me] + ([-1] if kitty_left else [])
        fixed: dict[int, list[int]] = {s: [] for s in holders}
        to = view.passed_to
        if view.passed and to is not None and to != me:
            played_by_to: list[int] = []
            for tr in view.tricks:
                played_by_to += [c for s, c in tr.plays() if s == to]
            played_by_to += [c for i, c in enumerate(view.trick) if ((view.leader or 0) + i) % n == to]
            for c in sorted(set(view.passed)):
                keep = min(view.passed.count(c) - played_by_to.count(c), pool.count(c))
                for _ in range(max(0, keep)):
                    fixed[to].append(int(c))
                    pool.remove(int(c))
        self.holders = holders
        self.fixed = [fixed[s] for s in holders]
        self.cap = [(counts[s] if s >= 0 else kitty_left) - len(fixed[s]) for s in holders]
        # who may hold a card of each suit (index into holders)
        self.elig = [[i for i, s in enumerate(holders) if s < 0 or suit not in view.voids[s]]
                     for suit in range(4)]
        self.pool = sorted(pool, key=lambda c: len(self.elig[c // 13]))  # most constrained first
        self.simple = all(len(e) == len(holders) for e in self.elig)

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """One world: ``(hands, kitty)``, ``hands[seat]`` empty for this seat."""
        holders = self.holders
        k = len(holders)
        hands: list[list[int]] | None = None
        if self.simple:  # nothing but hand sizes: a shuffle cut into hands
            cards = self.pool[:]
            rng.shuffle(cards)
            hands = []
            at = 0
            for i in range(k):
                hands.append(self.fixed[i] + cards[at:at + self.cap[i]])
                at += self.cap[i]
        else:
            for _ in range(self.tries):
                hands = self._draw(rng)
                if hands is not None:
                    break
            if hands is None:
                hands = self._matching(rng)
        out: list[list[int]] = [[] for _ in range(self.n)]
        kitty: list[int] = []
        for s, h in zip(holders, hands):
            if s < 0:
                kitty = h
            else:
                out[s] = h
        return out, kitty

    def _draw(self, rng: random.Random) -> list[list[int]] | None:
        """Cards in random order within their constraint class, each to an eligible holder
        with room, chosen in proportion to its room (None: stuck)."""
        cap = list(self.cap)
        hands = [list(f) for f in self.fixed]
        pool = self.pool
        order = sorted(range(len(pool)), key=lambda i: (len(self.elig[pool[i] // 13]), rng.random()))
        elig = self.elig
        for i in order:
            c = pool[i]
            total = 0
            for h in elig[c // 13]:
                total += cap[h]
            if not total:
                return None
            r = rng.randrange(total)
            for h in elig[c // 13]:
                r -= cap[h]
                if r < 0:
                    break
            cap[h] -= 1
            hands[h].append(c)
        return hands

    def _matching(self, rng: random.Random) -> list[list[int]]:
        """Bipartite matching of the cards to the free places (Kuhn): finds a world whenever
        one exists."""
        slots = [i for i, c in enumerate(self.cap) for _ in range(c)]
        by_holder: dict[int, list[int]] = {}
        for j, i in enumerate(slots):
            by_holder.setdefault(i, []).append(j)
        owner: list[int | None] = [None] * len(slots)
        cards = self.pool[:]
        rng.shuffle(cards)

        def place(c: int, seen: set[int]) -> bool:
            for i in self.elig[c // 13]:
                for j in by_holder.get(i, ()):
                    if j in seen:
                        continue
                    seen.add(j)
                    if owner[j] is None or place(owner[j], seen):  # type: ignore[arg-type]
                        owner[j] = c
                        return True
            return False

        for c in cards:
            if not place(c, set()):
                raise ValueError("no deal is consistent with this view")
        hands = [list(f) for f in self.fixed]
        for j, c in enumerate(owner):
            if c is not None:
                hands[slots[j]].append(c)
        return hands


def sample_world(view: SeatView, rng: random.Random, tries: int = 20) -> tuple[list[list[int]], list[int]]:
    """One deal of the unseen cards (a multiset) to the other seats and a face-down
    kitty, consistent with the view: ``(hands, kitty)``, ``hands[seat]`` empty."""
    return WorldSampler(view, tries).sample(rng)


def choose(legal: int, pos: MultiPosition, left: list[int], facts, cancel: bool = True) -> int:
    """Normal's rules of thumb for two decks, on a full world (a playout's policy).

    ``left[c]``: copies of card ``c`` not played yet (public, with what the
    seat holds it tells how many are still out). A card played twice in one
    trick cannot win it, so a copy of the card winning so far is a duck that
    sheds a high card; a discard never wins; the Q♠ goes on someone else's
    trick; the lead is low, off hearts and, holding a Q♠, off spades.
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    trick = pos.trick
    seat = (pos.leader + len(trick)) % pos.n
    queen = facts.queen_scores
    pts = facts.points
    if not trick:  # lead
        hand = pos.once[seat]
        q_mine = hand >> QS & 1
        q_out = queen and left[QS] - q_mine - (pos.twice[seat] >> QS & 1) > 0
        choice = legal
        if q_out:
            if q_mine:
                choice = legal & ~SPADES or legal
            else:
                low = legal & LOW_SPADES
                if low:
                    return (low & -low).bit_length() - 1  # flush the queen out
                choice = legal & ~HIGH_SPADES or legal
        choice = choice & ~HEARTS or choice
        return low_rank_card(choice)
    led = trick[0] // 13
    suit = SUIT_MASKS[led]
    follow = legal & suit
    if not follow:  # a discard never wins
        if queen and legal >> QS & 1:
            return QS
        hand = pos.once[seat]
        if queen and legal & HIGH_SPADES and left[QS] - (hand >> QS & 1) - (pos.twice[seat] >> QS & 1) > 0:
            return (legal & HIGH_SPADES).bit_length() - 1
        p = legal & facts.penalty_mask
        if p:
            if facts.uneven_penalties:
                best = -1
                for x in range(52):
                    if p >> x & 1 and (best < 0 or pts[x] >= pts[best]):
                        best = x
                return best
            return p.bit_length() - 1
        return top_rank_card(legal)
    once = twice = 0
    for x in trick:
        bit = 1 << x
        if once & bit:
            twice |= bit
        once |= bit
    live = once & ~twice & suit
    w = live.bit_length() - 1  # the card winning so far; -1: every card of the suit cancelled
    if cancel:
        # not ours after it: under the winner, or a copy of a card already in the trick (cancelled)
        duck = follow & (((1 << w) - 1 if w >= 0 else 0) | once)
    else:  # Normal's way: under the winner so far (the leader's card when all are cancelled)
        duck = follow & ((1 << (w if w >= 0 else trick[0])) - 1)
    last = len(trick) == pos.n - 1
    if duck:
        safe = legal & ~facts.penalty_mask
        take = safe & ~duck
        if last and take:
            tp = 0
            for x in trick:
                tp += pts[x]
            for x in pos.aside:
                tp += pts[x]
            if tp <= 0:
                return take.bit_length() - 1  # a pointless trick: shed the highest card on it
        if queen and duck >> QS & 1:
            return QS
        return duck.bit_length() - 1
    # every card we hold of the suit wins so far: the highest without points
    safe = follow & ~facts.penalty_mask
    if led == 3 and queen and not last and safe & ~HIGH_SPADES:
        hand = pos.once[seat]
        if left[QS] - (hand >> QS & 1) - (pos.twice[seat] >> QS & 1) > 0:
            safe &= ~HIGH_SPADES  # the queen may still fall: win low
    if safe:
        return safe.bit_length() - 1
    return (follow & -follow).bit_length() - 1


def playout(pos: MultiPosition, left: list[int], facts, me: int, rng: random.Random | None = None,
            eps: float = 0.0) -> tuple[int, ...]:
    """Play ``pos`` to the end with :func:`choose` (``eps``: share of random cards from
    ``rng``); ``pos`` and ``left`` are changed. Returns the scores."""
    n = pos.n
    once = pos.once
    while True:
        trick = pos.trick
        if not trick and not once[pos.leader]:
            break
        legal = pos.legal_mask()
        if eps and rng.random() < eps:
            c = random_card(legal, rng)
        else:
            c = choose(legal, pos, left, facts, SELF_CANCEL if (pos.leader + len(pos.trick)) % n == me else OTHERS_CANCEL)
        left[c] -= 1
        pos.play(c)
        once = pos.once
    return pos.result()


def unplayed(view: SeatView) -> list[int]:
    """Copies of each card not yet played (in some hand or the kitty), from the view."""
    left = list(view.rules.copies)
    for c in view.played():
        left[c] -= 1
    for c in view.kitty:
        left[c] -= 1
    return left


def candidates(view: SeatView) -> list[int]:
    """One card per class of equivalent legal cards: two cards of a suit with no copy
    of any card between them (them included) unseen or in the trick, and worth the same
    points, play alike."""
    legal = sorted({int(c) for c in view.legal})
    out_count = [0] * 52
    for c in view.unseen():
        out_count[c] += 1
    for c in view.trick:
        out_count[c] += 1
    pts = view.rules.points
    out: list[int] = []
    for c in legal:
        if out:
            p = out[-1]
            if p // 13 == c // 13 and pts[p] == pts[c] and not any(out_count[x] for x in range(p, c + 1)):
                continue
        out.append(c)
    return out


def search(view: SeatView, seed: int, worlds: int) -> Card:
    """The distinct legal card with the best mean (own points minus the others' mean)."""
    cands = candidates(view)
    if len(cands) == 1:
        return CARDS[cands[0]]
    rng = decision_rng(seed, view, "hard2")
    me = view.seat
    n = view.rules.players
    facts = view.rules.facts
    mine = pair_of_cards([int(c) for c in view.hand])
    left0 = unplayed(view)
    totals = [0.0] * len(cands)
    sampler = WorldSampler(view)
    for _ in range(max(1, worlds)):
        hands, kitty = sampler.sample(rng)
        pairs = [pair_of_cards(h) for h in hands]
        pairs[me] = mine
        root = MultiPosition.from_view(view, [p[0] for p in pairs], [p[1] for p in pairs], kitty)
        stream = rng.getrandbits(64)
        for j, c in enumerate(cands):
            pos = root.copy()
            pos.play(c)
            left = list(left0)
            left[c] -= 1
            scores = playout(pos, left, facts, me, random.Random(stream), EPS)
            totals[j] += scores[me] - (sum(scores) - scores[me]) / (n - 1)
    # ties (common: the playouts are deterministic) go to the card the policy itself prefers
    pref = choose(sum(1 << int(c) for c in set(view.legal)), root, left0, facts)
    pref = max(c for c in cands if c <= pref and c // 13 == pref // 13)
    best = min(range(len(cands)), key=lambda j: (round(totals[j], 6), cands[j] != pref, j))
    return CARDS[cands[best]]
