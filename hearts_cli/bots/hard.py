"""Hard: determinized search over deals consistent with the view.

For each decision in the play phase:

1. collapse the legal cards into distinct candidates (cards of one suit with
   nothing unseen between them, and worth the same points, are equivalent);
2. sample ``simulations`` deals consistent with the view
   (:mod:`hearts_cli.bots.sampling`: voids shown, cards passed, hand sizes,
   the first lead);
3. on each deal, play every candidate and then the rest of the round with the
   heuristic playout policy (:mod:`hearts_cli.bots.playout`), using the same
   random stream for every candidate on that deal (common random numbers);
4. score each result with the rules in force (moon, J♦, Spot Hearts, Black
   Maria) as own points minus the others' average, or, when the game can end
   this round, as the final margin to the best other seat with a bonus for
   winning; pick the candidate with the best mean.

When no other seat has taken a penalty card and the hand looks strong enough,
every candidate is also tried with this seat playing for the moon, and the
better of the two plans counts: Hard shoots when its hand supports it. A moon
attempt by another seat is spotted inside the playouts (a seat holding every
penalty card taken so far), and the defenders there stop ducking and keep a
heart for it, so the search sees the 26 points coming and defends.
"""

from __future__ import annotations

import random

from ..cards import CARDS, SUIT_MASKS, Card, mask_of
from ..engine import SeatView
from .common import Public, decision_rng, public
from .normal import normal_pass
from .playout import play_out, popcount
from .sampling import constraints, sample

DEFAULT_SIMULATIONS = 120


def distinct_candidates(pub: Public) -> list[int]:
    """One card per class of equivalent legal cards (the lowest of each)."""
    pts = pub.ctx.pts
    fixed = pub.hand | (pub.played & ~mask_of(pub.trick))
    out: list[int] = []
    for s in range(4):
        m = pub.legal & SUIT_MASKS[s]
        prev = -1
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            if prev >= 0:
                between = ((1 << c) - 1) & ~((2 << prev) - 1)
                if not between & ~fixed and pts[c] == pts[prev]:
                    prev = c
                    continue
            out.append(c)
            prev = c
    return out


def _value(scores: list[int], me: int, before: tuple[int, ...], target: int,
           ending: bool) -> float:
    n = len(scores)
    if ending:
        final = [before[s] + scores[s] for s in range(n)]
        if max(final) >= target:
            best_other = min(final[s] for s in range(n) if s != me)
            margin = final[me] - best_other
            return margin + (-30.0 if margin < 0 else 30.0 if margin > 0 else 0.0)
    others = (sum(scores) - scores[me]) / (n - 1)
    return scores[me] - others


def _moon_plausible(pub: Public) -> bool:
    ctx = pub.ctx
    if ctx.moon == "off":
        return False
    me = pub.seat
    mine = 0
    for s, m in enumerate(pub.taken):
        if m & ctx.pen:
            if s != me:
                return False
            mine = popcount(m & ctx.pen)
    high = sum(1 for c in range(52) if pub.hand >> c & 1 and c % 13 >= 9)
    size = popcount(pub.hand)
    return mine >= 3 or high * 2 >= size + 1


def search(view: SeatView, seed: int, simulations: int) -> Card:
    pub = public(view)
    legal = pub.legal
    if not legal & (legal - 1):
        return CARDS[legal.bit_length() - 1]
    cands = distinct_candidates(pub)
    if len(cands) == 1:
        return CARDS[cands[0]]
    rng = decision_rng(seed, view, "hard")
    ctx = pub.ctx
    con = constraints(view, pub)
    me = pub.seat
    before = tuple(view.scores)
    target = ctx.rules.target
    ending = max(before) + ctx.pen_total >= target
    plans = [-1, me] if _moon_plausible(pub) else [-1]
    totals = [[0.0] * len(cands) for _ in plans]
    holders = con.holders
    deals = max(1, simulations)
    for _ in range(deals):
        assigned = sample(con, rng)
        hands = [0] * ctx.n
        kitty = 0
        for h, m in zip(holders, assigned):
            if h < 0:
                kitty = m
            else:
                hands[h] = m
        hands[me] = pub.hand
        stream = rng.getrandbits(64)
        for p, shooter in enumerate(plans):
            row = totals[p]
            for j, c in enumerate(cands):
                scores = play_out(ctx, list(hands), kitty, pub.trick, pub.leader, pub.ntricks,
                                  pub.broken, list(pub.taken), list(pub.points), pub.played,
                                  random.Random(stream), 0.1, shooter, c, before)
                row[j] += _value(scores, me, before, target, ending)
    best = min(range(len(cands)), key=lambda j: (min(t[j] for t in totals), j))
    return CARDS[cands[best]]


def hard_pass(view: SeatView) -> tuple[Card, ...]:
    return normal_pass(view)


class HardBot:
    level = "hard"

    def __init__(self, seed: int = 0, simulations: int | None = None):
        self.seed = seed
        self.simulations = DEFAULT_SIMULATIONS if simulations is None else simulations

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return hard_pass(view)

    def choose_card(self, view: SeatView) -> Card:
        return search(view, self.seed, self.simulations)

