"""Sampled deals that believe what they saw: each deal weighed by how well it explains the plays.

A bench experiment (``hearts sim --seats bench.bots.belief:BeliefHard,...``, or
``Tuning(draw=belief_draw(spread, miss))`` for Hard). Uniform sampling
(:mod:`hearts_cli.play.sampling`) keeps every deal that
respects the voids and hand sizes. But a seat that, void in clubs, threw the
J♥ on a club trick instead of the Q♠ probably has no Q♠; a seat that played
the 9♣ under the J♣ probably has no 10♣. :class:`Belief` replays the round
so far on a sampled deal and counts the other seats' plays that the playout
policy (:func:`hearts_cli.bots.playout.choose`, the model of the others) would
not have made with those hands; a deal's weight is ``miss ** count``
(``miss`` < 1: the model is soft, the others are not the policy). A decision
draws ``spread`` times the deals it needs and keeps its deals by weight
(systematic resampling), so the search spends its playouts on the worlds
the plays seen make likely.

Only the view is read: the plays, who made them, the seat's own hand.
"""

from __future__ import annotations

import random

from hearts_cli.bots.common import Public
from hearts_cli.bots.hard import DealDraw, HardBot, Tuning
from hearts_cli.bots.playout import QS, choose, threat
from hearts_cli.model.cards import mask_of
from hearts_cli.model.rules import Moon
from hearts_cli.play import core
from hearts_cli.play.round import SeatView
from hearts_cli.play.sampling import Constraints, Sampler

KINDS = 7  # which plays count: 1 leads, 2 follows, 4 discards


def _plays(view: SeatView) -> list[tuple[int, int]]:
    """(seat, card) of every card played this round, in order."""
    n = view.rules.players
    out = []
    for tr in view.tricks:
        for i, c in enumerate(tr.cards):
            out.append(((tr.leader + i) % n, int(c)))
    if view.trick:
        for i, c in enumerate(view.trick):
            out.append((((view.leader or 0) + i) % n, int(c)))
    return out


class Belief:
    """Counts, on a sampled deal, the other seats' plays the policy would not have made."""

    def __init__(self, view: SeatView, pub: Public, con: Constraints):
        self.ctx = pub.facts
        self.me = pub.seat
        self.plays = _plays(view)
        n = self.ctx.players
        self.n = n
        played = [0] * n
        for s, c in self.plays:
            played[s] |= 1 << c
        self.played = played
        self.hand = pub.hand
        self.holders = con.holders
        # is any play of another seat worth checking (more than one legal card is possible)?
        self.useful = any(s != self.me for s, _ in self.plays)

    def _hands(self, assigned: list[int]) -> list[int]:
        """Every seat's hand at the start of the round, on the deal ``assigned``."""
        hands = list(self.played)
        hands[self.me] |= self.hand
        for h, m in zip(self.holders, assigned):
            if h >= 0:
                hands[h] |= m
        return hands

    def misses(self, assigned: list[int]) -> int:
        """Plays of other seats that :func:`choose` would not have made on this deal
        (a card equivalent to the policy's, nothing unseen by that seat between them, counts as made)."""
        ctx = self.ctx
        n = self.n
        me = self.me
        hands = self._hands(assigned)
        rules = ctx.rules
        pts = ctx.points
        breaks = ctx.breaks_mask
        moon = ctx.moon is not Moon.OFF
        queen = ctx.queen_scores
        taken = [0] * n
        out_mask = 0
        for h in hands:
            out_mask |= h
        broken = False
        first = True
        trick: list[int] = []
        led = -1
        wc = ws = -1
        tseat = -1
        misses = 0
        gone = 0  # cards played before this trick
        for seat, card in self.plays:
            hand = hands[seat]
            if seat != me:
                legal = core.legal(rules, hand, led, first, broken, hands)
                if legal & (legal - 1):
                    qout = queen and not (gone >> QS & 1) and QS not in trick
                    ch = choose(ctx, seat, hand, legal, trick, wc, ws, qout, tseat)
                    if ch != card:
                        lo, hi = (ch, card) if ch < card else (card, ch)
                        between = ((1 << hi) - (2 << lo)) & out_mask & ~hand
                        if lo // 13 != hi // 13 or pts[lo] != pts[hi] or between:
                            kind = 0 if not trick else 1 if card // 13 == led else 2
                            if KINDS >> kind & 1:
                                misses += 1
            b = 1 << card
            hands[seat] = hand & ~b
            out_mask &= ~b
            if not broken and breaks >> card & 1:
                broken = True
            if not trick:
                led, wc, ws = card // 13, card, seat
            elif card // 13 == led and card > wc:
                wc, ws = card, seat
            trick.append(card)
            if len(trick) == n:
                tm = mask_of(trick)
                gone |= tm
                if tm & ctx.penalty_mask:
                    taken[ws] |= tm
                    if moon:
                        tseat = threat(ctx, taken)
                trick = []
                led = -1
                first = False
                wc = ws = -1
        return misses


def believed_deals(view: SeatView, pub: Public, con: Constraints, sampler: Sampler,
                   rng: random.Random, deals: int, spread: int, miss: float) -> list[list[int]]:
    """``deals`` sampled assignments, drawn from ``spread * deals`` by their weight ``miss ** misses``."""
    belief = Belief(view, pub, con)
    if spread <= 1 or not belief.useful:
        return [sampler.sample(rng) for _ in range(deals)]
    pool = [sampler.sample(rng) for _ in range(spread * deals)]
    weights = [miss ** belief.misses(a) for a in pool]
    total = sum(weights)
    step = total / deals
    u = rng.random() * step
    out: list[list[int]] = []
    acc = 0.0
    for w, a in zip(weights, pool):
        acc += w
        while u < acc and len(out) < deals:
            out.append(a)
            u += step
    while len(out) < deals:  # rounding at the very end
        out.append(pool[-1])
    return out


def belief_draw(spread: int = 3, miss: float = 0.5) -> DealDraw:
    """Hard's deal drawing (``Tuning.draw``) by :func:`believed_deals`: ``spread`` deals drawn per
    deal searched, each weighed ``miss`` to the number of plays the policy would not make."""

    def draw(view: SeatView, pub: Public, con: Constraints, sampler: Sampler, rng: random.Random,
             deals: int) -> list[list[int]]:
        return believed_deals(view, pub, con, sampler, rng, deals, spread, miss)

    return draw


class BeliefHard(HardBot):
    """Hard whose sampled deals believe what they saw (3 drawn per deal kept, miss weight 0.5):
    the variant of issue 11, measured against hard0 and not shown to pay."""

    level = "belief"

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=Tuning(draw=belief_draw()))
