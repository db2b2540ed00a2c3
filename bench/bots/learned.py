"""Bots with the learned pass (hearts_cli/bots/learned.py), for measuring it against today's.

``LearnedHard`` is Hard with ``Tuning(learned_pass=True)``, the default since issue 35's SPRT;
``NormalPassHard`` is Hard with Normal's pass (``Tuning(learned_pass=False)``), the Hard before it:
the search plays the same, only the pass differs. ``LearnedNormal`` is Normal with the learned pass: a quick look
at the pass alone, in whole games whose play costs almost nothing.

    hearts sim --gauntlet bench.bots.learned:LearnedHard,bench.bots.hard0:Hard0Bot --sprt 0,10
    hearts sim --gauntlet bench.bots.learned:LearnedNormal,normal --sprt 0,10

``SearchHard`` searches its pass (``Tuning(pass_deals=60)``): Normal's pass and the evaluation's
five best, each played out on sampled deals; ``SearchNormal`` is Normal with that pass.

``HardTrainedHard`` passes by the weights of ``bench/train_runs/hard-1/weights.json``: the shipped
ones trained on by ``python -m bench.train --play hard`` (Hard's own play in the learner's seat).

    hearts sim --gauntlet bench.bots.learned:HardTrainedHard,hard --sprt 0,10
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from hearts_cli.bots.hard import HardBot, Tuning, hard_pass
from hearts_cli.bots.learned import learned_pass
from hearts_cli.bots.normal import NormalBot
from hearts_cli.model.cards import Card
from hearts_cli.play.round import SeatView

LEARNED = Tuning(learned_pass=True)
NORMAL_PASS = Tuning(learned_pass=False)
SEARCHED = Tuning(pass_deals=60, pass_top=5)


class LearnedHard(HardBot):
    """Hard whose pass is the learned evaluation's."""

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=LEARNED)


class NormalPassHard(HardBot):
    """Hard whose pass is Normal's rule (its play today's): the Hard of the table before the learned pass."""

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=NORMAL_PASS)


class SearchHard(HardBot):
    """Hard whose pass is searched: Normal's and the evaluation's five best, played out on 60 deals."""

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=SEARCHED)


class SearchNormal(NormalBot):
    """Normal whose pass is Hard's searched pass (:class:`SearchHard`'s)."""

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return hard_pass(view, SEARCHED, self.seed)


class LearnedNormal(NormalBot):
    """Normal whose pass is the learned evaluation's."""

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return learned_pass(view)


HARD_TRAINED = Path(__file__).resolve().parent.parent / "train_runs" / "hard-1" / "weights.json"


@cache
def _hard_trained() -> tuple[float, ...]:
    return tuple(json.loads(HARD_TRAINED.read_text(encoding="utf-8"))["weights"])


class HardTrainedHard(HardBot):
    """Hard whose pass is the evaluation trained on further with Hard's own play (``--play hard``)."""

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return learned_pass(view, _hard_trained())
