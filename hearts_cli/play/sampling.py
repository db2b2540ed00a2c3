"""Deals consistent with what one seat knows (:mod:`.knowledge`).

A sampled world puts every card the seat cannot see into another hand (or the
face-down kitty), respecting:

* how many cards each seat still holds;
* every void a seat has shown (it cannot hold that suit);
* the cards this seat passed: the receiver holds them until it plays them;
* the first lead: under ``lowest_club`` nobody held a club below the card
  that led, so any such club still unseen lies in the kitty.

The real hands are never an input: only :func:`constraints` of a seat's knowledge.
The CPUs draw their worlds here, and a card's verdict how likely it is to be covered.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..base.values import Frozen
from ..model.cards import SUIT_MASKS
from .knowledge import Knowledge


class Constraints(Frozen):
    """Where the cards one seat cannot see may lie (a :class:`Frozen`, not a frozen dataclass:
    ``hearts explain`` pays for the class's definition at start-up)."""

    seat: int
    holders: tuple[int, ...]  # other seats, then -1 for the kitty when it is face down
    need: tuple[int, ...]  # cards each holder must get
    allowed: tuple[int, ...]  # mask of cards each holder may get
    fixed: tuple[int, ...]  # mask of cards each holder is known to have
    free: int  # unseen cards not fixed


def constraints(known: Knowledge) -> Constraints:
    """Where each card the seat cannot place may lie, from what it knows."""
    me = known.seat
    unseen = known.unseen
    holders: list[int] = [s for s in range(known.players) if s != me]
    need = [known.counts[s] for s in holders]
    allowed = []
    for s in holders:
        a = unseen
        for suit in range(4):
            if known.voids[s] >> suit & 1:
                a &= ~SUIT_MASKS[suit]
        allowed.append(a)
    fixed = [known.placed_mask(s) & unseen for s in holders]
    if known.kitty_unseen:
        holders.append(-1)
        need.append(known.kitty_unseen)
        allowed.append(unseen)
        fixed.append(0)
        low = known.kitty_low
        if low:
            fixed[-1] |= low
            for i in range(len(holders) - 1):
                allowed[i] &= ~low
    fixed_all = 0
    for i in range(len(holders)):
        allowed[i] |= fixed[i]
        fixed_all |= fixed[i]
    return Constraints(me, tuple(holders), tuple(need), tuple(allowed), tuple(fixed),
                       unseen & ~fixed_all)


class Sampler:
    """Draws deals for one set of constraints; what does not change between
    draws (the free cards, who may get each) is worked out once."""

    __slots__ = ("cap", "cards", "con", "elig", "prio", "simple", "tries")

    def __init__(self, con: Constraints, tries: int = 40):
        self.con = con
        self.tries = tries
        k = len(con.holders)
        self.cards = [c for c in range(52) if con.free >> c & 1]
        self.cap = [con.need[i] - con.fixed[i].bit_count() for i in range(k)]
        self.elig = {c: [i for i in range(k) if con.allowed[i] >> c & 1] for c in self.cards}
        # the most constrained cards are placed first
        self.prio = [len(self.elig[c]) for c in self.cards]
        # nothing but hand sizes: a shuffle cut into hands
        self.simple = all(con.allowed[i] & con.free == con.free for i in range(k))

    def _order(self, rng: random.Random, prio: list[int] | None) -> list[int]:
        """The free cards in random order (by random 32-bit keys, sorted in C),
        grouped by ``prio`` first when it is given."""
        m = len(self.cards)
        if not m:
            return []
        keys = memoryview(rng.getrandbits(32 * m).to_bytes(4 * m, "little")).cast("I").tolist()
        if prio is None:
            return [c for _, c in sorted(zip(keys, self.cards))]
        return [c for _, _, c in sorted(zip(prio, keys, self.cards))]

    def sample(self, rng: random.Random) -> list[int]:
        """One assignment: a mask per holder (same order as ``con.holders``)."""
        con = self.con
        if self.simple:
            out = list(con.fixed)
            cards = self._order(rng, None)
            at = 0
            for i, c in enumerate(self.cap):
                m = 0
                for x in cards[at:at + c]:
                    m |= 1 << x
                out[i] |= m
                at += c
            return out
        elig_of = self.elig
        cards = self.cards
        for _ in range(self.tries):
            cards = self._order(rng, self.prio)
            cap = list(self.cap)
            out = list(con.fixed)
            ok = True
            for c in cards:
                el = [i for i in elig_of[c] if cap[i] > 0]
                if not el:
                    ok = False
                    break
                if len(el) == 1:
                    i = el[0]
                else:
                    total = 0
                    for i in el:
                        total += cap[i]
                    r = rng.randrange(total)
                    for i in el:
                        r -= cap[i]
                        if r < 0:
                            break
                cap[i] -= 1
                out[i] |= 1 << c
            if ok:
                return out
        return _matching(con, list(cards), list(self.cap), elig_of, rng)


def sample(con: Constraints, rng: random.Random, tries: int = 40) -> list[int]:
    """One assignment: a mask per holder (same order as ``con.holders``)."""
    return Sampler(con, tries).sample(rng)


def _matching(con: Constraints, cards: list[int], cap: list[int], elig_of: dict[int, list[int]],
              rng: random.Random) -> list[int]:
    """The deal :func:`match_cards` finds, as a mask per holder."""
    out = list(con.fixed)
    for i, c in match_cards(cards, cap, elig_of.__getitem__, rng):
        out[i] |= 1 << c
    return out


def match_cards(cards: Sequence[int], cap: Sequence[int], eligible: Callable[[int], Sequence[int]],
                rng: random.Random) -> list[tuple[int, int]]:
    """Bipartite matching of ``cards`` (shuffled first) to the free places, ``cap[i]`` for
    holder ``i`` (Kuhn): always finds a deal when one exists, else ValueError. Returns
    ``(holder, card)`` place by place. One deck (:class:`Sampler`) and two (the multiset
    of :class:`hearts_cli.bots.multi.WorldSampler`) both fall back on it."""
    slots: list[int] = []
    for i, c in enumerate(cap):
        slots += [i] * c
    slot_of_holder: dict[int, list[int]] = {}
    for j, i in enumerate(slots):
        slot_of_holder.setdefault(i, []).append(j)
    owner: list[int] = [-1] * len(slots)
    order = list(cards)
    rng.shuffle(order)

    def place(c: int, seen: set[int]) -> bool:
        for i in eligible(c):
            for j in slot_of_holder.get(i, ()):
                if j in seen:
                    continue
                seen.add(j)
                if owner[j] < 0 or place(owner[j], seen):
                    owner[j] = c
                    return True
        return False

    for c in order:
        if not place(c, set()):
            raise ValueError("no deal is consistent with this view")
    return [(slots[j], c) for j, c in enumerate(owner) if c >= 0]
