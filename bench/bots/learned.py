"""Bots with the learned pass (hearts_cli/bots/learned.py), for measuring it against today's.

``LearnedHard`` is Hard with ``Tuning(learned_pass=True)``: the search plays as today's,
only the pass changes. ``LearnedNormal`` is Normal with the learned pass: a quick look
at the pass alone, in whole games whose play costs almost nothing.

    hearts sim --gauntlet bench.bots.learned:LearnedHard,bench.bots.hard0:Hard0Bot --sprt 0,10
    hearts sim --gauntlet bench.bots.learned:LearnedNormal,normal --sprt 0,10
"""

from __future__ import annotations

from hearts_cli.bots.hard import HardBot, Tuning
from hearts_cli.bots.learned import learned_pass
from hearts_cli.bots.normal import NormalBot
from hearts_cli.model.cards import Card
from hearts_cli.play.engine import SeatView

LEARNED = Tuning(learned_pass=True)


class LearnedHard(HardBot):
    """Hard whose pass is the learned evaluation's."""

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=LEARNED)


class LearnedNormal(NormalBot):
    """Normal whose pass is the learned evaluation's."""

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return learned_pass(view)
