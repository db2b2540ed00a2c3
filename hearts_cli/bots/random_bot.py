"""Random: any legal card, any pass; the baseline the other levels are measured against."""

from __future__ import annotations

from ..model.cards import Card
from ..play.round import SeatView
from .common import decision_rng


class RandomBot:
    level = "random"

    def __init__(self, seed: int = 0, simulations: int | None = None):
        self.seed = seed

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        rng = decision_rng(self.seed, view, "random")
        return tuple(sorted(rng.sample(list(view.hand), view.rules.pass_count)))

    def choose_card(self, view: SeatView) -> Card:
        rng = decision_rng(self.seed, view, "random")
        return rng.choice(view.legal)
