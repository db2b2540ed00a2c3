"""Hard with two decks (Cancellation Hearts): determinized search on the generic path.

The one-deck search (:mod:`hearts_cli.bots.hard`) runs on 52-bit masks where a
card is held once; with two decks a seat may hold a card twice and the unseen
cards are a multiset. This module samples worlds from that multiset (hand
sizes, voids shown, the cards this seat passed still with their receiver) and
plays every distinct legal card out on each world over
:class:`hearts_cli.play.fast.MultiPosition` (the rules of :mod:`hearts_cli.play.core`,
cancellation included) with :func:`choose`, Normal's rules of thumb written for
two decks. It sees only the seat's view.
"""

from __future__ import annotations

import random

from ..model.cards import CARDS, SUIT_MASKS, Card
from ..model.rules import Facts
from ..play.fast import MultiPosition, pair_of_cards, random_card
from ..play.knowledge import knowledge
from ..play.round import SeatView
from ..play.sampling import match_cards
from .common import decision_rng
from .normal import discard_mask, lead_mask
from .playout import HIGH_SPADES, QS

# Worlds per decision (docs/bots.md, "Two decks": what it costs and what it buys).
DEFAULT_WORLDS = 64
EPS = 0.0  # share of random cards in the playouts
SELF_CANCEL = True  # in the playouts this seat ducks by cancelling the winning card...
OTHERS_CANCEL = False  # ...and the others play as Normal does, which never does



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
        known = knowledge(view)
        counts = known.counts
        kitty_left = known.kitty_unseen
        pool = [int(c) for c in view.unseen()]
        holders = [s for s in range(n) if s != me] + ([-1] if kitty_left else [])
        fixed: dict[int, list[int]] = {s: [] for s in holders}
        for s in holders[:n - 1]:
            for c in sorted(known.placed[s]):  # the cards it passed that the receiver still holds
                if c in pool:
                    fixed[s].append(int(c))
                    pool.remove(int(c))
        self.holders = holders
        self.fixed = [fixed[s] for s in holders]
        self.cap = [(counts[s] if s >= 0 else kitty_left) - len(fixed[s]) for s in holders]
        # who may hold a card of each suit (index into holders)
        self.elig = [[i for i, s in enumerate(holders) if s < 0 or suit not in view.voids[s]]
                     for suit in range(4)]

        def holders_of(c: int) -> int:
            return len(self.elig[c // 13])

        self.pool = sorted(pool, key=holders_of)  # most constrained first
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

        def constrained(i: int) -> tuple[int, float]:
            return (len(self.elig[pool[i] // 13]), rng.random())

        order = sorted(range(len(pool)), key=constrained)
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
        """The world :func:`hearts_cli.play.sampling.match_cards` finds: one whenever one exists."""
        hands = [list(f) for f in self.fixed]
        for i, c in match_cards(self.pool, self.cap, lambda c: self.elig[c // 13], rng):
            hands[i].append(c)
        return hands


def sample_world(view: SeatView, rng: random.Random, tries: int = 20) -> tuple[list[list[int]], list[int]]:
    """One deal of the unseen cards (a multiset) to the other seats and a face-down
    kitty, consistent with the view: ``(hands, kitty)``, ``hands[seat]`` empty."""
    return WorldSampler(view, tries).sample(rng)


def duck_policy(legal: int, pos: MultiPosition) -> int:
    """The first two-deck playout policy, cheap and plain (``hearts replay --analyze`` weighs
    two-deck cards with it; Hard plays :func:`choose`): follow under the card winning so
    far when possible (else as low as possible), discard the most points (else the
    highest card), lead the lowest card."""
    trick = pos.trick
    pts = pos.rules.points
    if not trick:
        return (legal & -legal).bit_length() - 1
    led = trick[0] // 13
    follow = legal & (0x1FFF << (13 * led))
    if follow:
        live = [c for c in trick if c // 13 == led and trick.count(c) == 1]
        if live:
            under = follow & ((1 << max(live)) - 1)
            if under:
                return under.bit_length() - 1
        return (follow & -follow).bit_length() - 1
    cards = [c for c in range(52) if legal >> c & 1]

    def weight(c: int) -> tuple[int, int]:
        return (pts[c], c % 13)

    return max(cards, key=weight)


def lead(legal: int, hand: int, played: int, facts: Facts) -> int:
    """Normal's lead (:func:`hearts_cli.bots.normal.lead_mask`) as Normal reads a two-deck
    view: ``played`` holds every card of which a copy was played, and a card counts as
    unseen when no copy of it is held or was played."""
    queen_is_out = facts.queen_scores and not played >> QS & 1
    return lead_mask(legal, hand, facts.in_play_mask & ~hand & ~played, queen_is_out)


def discard(legal: int, hand: int, played: int, facts: Facts) -> int:
    """Normal's discard (:func:`hearts_cli.bots.normal.discard_mask`), the queen out while no
    copy of her was played."""
    return discard_mask(facts, legal, hand, facts.queen_scores and not played >> QS & 1)


def choose(legal: int, pos: MultiPosition, left: list[int], facts: Facts, cancel: bool = True,
           played: int = 0) -> int:
    """Normal's rules of thumb for two decks, on a full world (a playout's policy).

    ``left[c]``: copies of card ``c`` not played yet; ``played``: the cards of
    which a copy was played (Normal's masks). The lead and the discard are
    Normal's (:func:`lead`, :func:`discard`); following, it ducks under the card
    winning so far (the Q♠ first, under a K♠/A♠), sheds its highest card on a
    pointless trick it is last to, and when it cannot duck plays its highest
    card without points (low spades while a queen may fall). With ``cancel``
    a copy of a card already in the trick is a duck too: the two cancel, and
    neither can win (Normal never plays it that way; this seat does).
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    trick = pos.trick
    seat = (pos.leader + len(trick)) % pos.n
    hand = pos.hands[seat]
    if not trick:
        return lead(legal, hand, played, facts)
    led = trick[0] // 13
    suit = SUIT_MASKS[led]
    follow = legal & suit
    if not follow:  # a discard never wins
        return discard(legal, hand, played, facts)
    queen = facts.queen_scores
    pts = facts.points
    once, w = _winning(trick, suit)
    if cancel:
        # not ours after it: under the winner, or a copy of a card already in the trick (cancelled)
        duck = follow & (((1 << w) - 1 if w >= 0 else 0) | once)
    else:  # Normal's way: under the winner so far (the leader's card when all are cancelled)
        duck = follow & ((1 << (w if w >= 0 else trick[0])) - 1)
    last = len(trick) == pos.n - 1
    queen_out = queen and not played >> QS & 1
    safe = follow & ~facts.penalty_mask
    if duck:
        take = safe & ~duck
        if last and take:
            tp = 0
            for x in trick:
                tp += pts[x]
            if tp <= 0:  # a pointless trick, ours for the taking: shed the highest card on it
                hi = take.bit_length() - 1
                if not (queen and led == 3 and hi < QS and queen_out):
                    return hi
        if queen and duck >> QS & 1:
            return QS  # someone else's K♠/A♠ wins it
        return duck.bit_length() - 1
    # every card we hold of the suit wins so far: the highest without points
    if led == 3 and queen_out and not last and safe & ~HIGH_SPADES:
        safe &= ~HIGH_SPADES  # the queen may still fall: win low
    if safe:
        return safe.bit_length() - 1
    return (follow & -follow).bit_length() - 1


def _winning(trick: list[int], suit: int) -> tuple[int, int]:
    """The cards played in ``trick`` (a mask) and the card winning it so far: the highest of
    the led ``suit`` (a mask) played once; -1 when every card of the suit is cancelled."""
    once, twice = pair_of_cards(trick)
    return once, (once & ~twice & suit).bit_length() - 1


def playout(pos: MultiPosition, left: list[int], facts: Facts, me: int, played: int = 0,
            rng: random.Random | None = None, eps: float = 0.0) -> tuple[int, ...]:
    """Play ``pos`` to the end with :func:`choose` (this seat ``me`` cancelling, the others
    as Normal; ``eps``: share of random cards from ``rng``); ``pos`` and ``left`` are
    changed. Returns the scores."""
    n = pos.n
    hands = pos.hands
    while True:
        trick = pos.trick
        if not trick and not hands[pos.leader]:
            break
        legal = pos.legal_mask()
        if eps and rng is not None and rng.random() < eps:
            c = random_card(legal, rng)
        else:
            mine = (pos.leader + len(trick)) % n == me
            c = choose(legal, pos, left, facts, SELF_CANCEL if mine else OTHERS_CANCEL, played)
        left[c] -= 1
        played |= 1 << c
        pos.play(c)
        hands = pos.hands
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
    for card in (*view.unseen(), *view.trick):
        out_count[card] += 1
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
    played0 = sum(1 << c for c in range(52) if left0[c] < view.rules.copies[c])
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
            scores = playout(pos, left, facts, me, played0 | 1 << c, random.Random(stream) if EPS else None, EPS)
            totals[j] += scores[me] - (sum(scores) - scores[me]) / (n - 1)
    # ties (common: the playouts are deterministic) go to the card the policy itself prefers
    pref = choose(sum(1 << int(c) for c in set(view.legal)), root, left0, facts, SELF_CANCEL, played0)
    pref = max(c for c in cands if c <= pref and c // 13 == pref // 13)

    def by_total(j: int) -> tuple[float, bool, int]:
        return (round(totals[j], 6), cands[j] != pref, j)

    best = min(range(len(cands)), key=by_total)
    return CARDS[cands[best]]
