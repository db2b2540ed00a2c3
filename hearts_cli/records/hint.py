"""The hint: the best choice by the evaluation ``hearts replay --analyze`` uses.

A hint and the analysis must never disagree, so the hint is that evaluation
(:func:`replay.evaluate_play`, :func:`replay.evaluate_pass`), at the seed the
analysis derives from the game code and seat, with the analysis's own default
budget (:data:`analysis.DEFAULT_SIMULATIONS`), which makes a clear answer the same
at any seed. The same position gives the same hint however often it is asked.
A hint says how sure it is: the margin, in expected points, over the best
choice that is not equivalent to it; below :data:`CLOSE` it names both.
"""

from __future__ import annotations

from typing import NamedTuple

from ..bots.hard import hard_pass
from ..model.cards import Card
from ..play.dealt import Phase
from ..play.round import SeatView
from .analysis import DEFAULT_SIMULATIONS, _classes_of, _mix
from .evaluate import evaluate_pass, evaluate_play, pass_candidates

# Expected points: a margin below this is "close" (about the spread of the values
# between seeds at the budget used; bench/hint_budget.py).
CLOSE = 0.5


class Hint(NamedTuple):
    """The best choice and how much better it is than the next one."""

    kind: str  # "play" or "pass"
    best: tuple[Card, ...]  # one card, or the cards of a pass
    runner_up: tuple[Card, ...] | None  # the best choice not equivalent to it
    margin: float | None  # expected points the runner-up costs more; None: no other choice
    level: str = ""  # at a shared table, the CPU level the hint comes from (no margin then)

    @property
    def close(self) -> bool:
        return self.margin is not None and self.margin < CLOSE


def weigh(view: SeatView, seed: int, simulations: int) -> Hint:
    """The hint of ``view`` (the seat's own pass or play) at ``seed``."""
    if view.phase is Phase.PASS:
        cands = pass_candidates(view, hard_pass(view))
        values = evaluate_pass(view, cands, seed ^ view.round_index, simulations)
        ranked = sorted(cands, key=lambda c: (values[c], c))
        best = ranked[0]
        if len(ranked) < 2:
            return Hint("pass", best, None, None)
        return Hint("pass", best, ranked[1], values[ranked[1]] - values[best])
    cards = evaluate_play(view, seed, simulations)
    classes = _classes_of(view)

    def by_value(c: Card) -> tuple[float, Card]:
        return (cards[c], c)

    order = sorted(cards, key=by_value)
    first = order[0]
    other = [c for c in order if classes[c] != classes[first]]
    if not other:
        return Hint("play", (first,), None, None)
    return Hint("play", (first,), (other[0],), cards[other[0]] - cards[first])


def hint_for(view: SeatView, code: str, simulations: int = DEFAULT_SIMULATIONS) -> Hint:
    """The hint for the seat of ``view`` in game ``code``: the analysis's own seed
    (``hearts replay --analyze`` with its default seed 0), so the two agree."""
    seed = _mix(0, "pass", view.seat) if view.phase is Phase.PASS else _mix(0, code, view.seat)
    return weigh(view, seed, simulations)
