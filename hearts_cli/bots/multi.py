"""Hard with two decks (Cancellation Hearts): determinized search on the generic path.

The one-deck search (:mod:`hearts_cli.bots.hard`) runs on 52-bit masks where a
card is held once; with two decks a seat may hold a card twice and the unseen
cards are a multiset. This module samples worlds from that multiset (hand
sizes, voids shown, the cards this seat passed still with their receiver) and
plays every distinct legal card out on each world with a ducking playout
policy over :class:`hearts_cli.fast.MultiPosition` (the rules of
:mod:`hearts_cli.core`, cancellation included). It sees only the seat's view.
"""

from __future__ import annotations

import random

from ..cards import CARDS, Card
from ..engine import SeatView
from ..fast import MultiPosition, multi_playout, pair_of_cards
from .common import decision_rng

# Worlds per decision: a two-deck playout costs several times a one-deck one
# (eight seats, the generic path), so the default budget is lower (docs/bots.md).
DEFAULT_WORLDS = 16


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


def sample_world(view: SeatView, rng: random.Random, tries: int = 20) -> tuple[list[list[int]], list[int]]:
    """One deal of the unseen cards (a multiset) to the other seats and a face-down
    kitty, consistent with the view: ``(hands, kitty)``, ``hands[seat]`` empty."""
    n = view.rules.players
    me = view.seat
    counts = seat_counts(view)
    kitty_left = view.rules.kitty_size if view.rules.kitty_size and not view.kitty else 0
    pool = [int(c) for c in view.unseen()]
    holders = [s for s in range(n) if s != me] + ([-1] if kitty_left else [])
    need = {s: counts[s] for s in range(n) if s != me}
    need[-1] = kitty_left
    voids = {s: {int(x) for x in view.voids[s]} for s in range(n)}
    voids[-1] = set()
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
    for attempt in range(tries + 1):
        strict = attempt < tries
        hands = {s: list(fixed[s]) for s in holders}
        cards = pool[:]
        rng.shuffle(cards)
        if strict:  # the most constrained cards first
            cards.sort(key=lambda c: sum(1 for s in holders if c // 13 not in voids[s]))
        ok = True
        for c in cards:
            room = [s for s in holders if len(hands[s]) < need[s]
                    and (not strict or c // 13 not in voids[s])]
            if not room:
                ok = False
                break
            hands[room[rng.getrandbits(26) * len(room) >> 26]].append(c)
        if ok:
            out = [hands.get(s, []) if s != me else [] for s in range(n)]
            return out, hands.get(-1, [])
    raise AssertionError("no world fits the view")  # the last try ignores voids: cannot happen


def duck_policy(legal: int, pos: MultiPosition) -> int:
    """A cheap playout policy: follow under the card winning so far when possible
    (else as low as possible), discard the most points (else the highest card),
    lead the lowest card."""
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
    return max(cards, key=lambda c: (pts[c], c % 13))


def search(view: SeatView, seed: int, worlds: int) -> Card:
    """The distinct legal card with the best mean (own points minus the others' mean)."""
    cands = sorted({int(c) for c in view.legal})
    if len(cands) == 1:
        return CARDS[cands[0]]
    rng = decision_rng(seed, view, "hard2")
    me = view.seat
    n = view.rules.players
    mine = pair_of_cards([int(c) for c in view.hand])
    totals = [0.0] * len(cands)
    for _ in range(max(1, worlds)):
        hands, kitty = sample_world(view, rng)
        pairs = [pair_of_cards(h) for h in hands]
        pairs[me] = mine
        root = MultiPosition.from_view(view, [p[0] for p in pairs], [p[1] for p in pairs], kitty)
        stream = rng.getrandbits(64)
        for j, c in enumerate(cands):
            pos = root.copy()
            pos.play(c)
            scores = multi_playout(pos, random.Random(stream), duck_policy)
            totals[j] += scores[me] - (sum(scores) - scores[me]) / (n - 1)
    best = min(range(len(cands)), key=lambda j: (totals[j], j))
    return CARDS[cands[best]]
