"""CPU players. A bot sees one :class:`~hearts_cli.engine.SeatView` and nothing else.

``suggest(view, level, seed, simulations=None)`` is the whole interface: a
pure function of its arguments. In the pass phase it returns the
``rules.pass_count`` cards to pass; in the play phase one legal card.
"""

from __future__ import annotations

from typing import Protocol

from ..cards import Card
from ..engine import Phase, SeatView
from .easy import EasyBot
from .exploit import HighBot, ShootBot
from .hard import DEFAULT_SIMULATIONS, HardBot
from .normal import NormalBot
from .random_bot import RandomBot

__all__ = ["BENCH_LEVELS", "DEFAULT_SIMULATIONS", "LEVELS", "SIM_LEVELS", "Bot", "make_bot", "suggest"]

LEVELS = ("random", "easy", "normal", "hard")
# benchmark seats: `hearts sim` and bench/ know them, the table does not offer them
BENCH_LEVELS = ("high", "shoot")
SIM_LEVELS = LEVELS + BENCH_LEVELS

_CLASSES = {"random": RandomBot, "easy": EasyBot, "normal": NormalBot, "hard": HardBot,
            "high": HighBot, "shoot": ShootBot}


class Bot(Protocol):
    level: str

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]: ...

    def choose_card(self, view: SeatView) -> Card: ...


def make_bot(level: str, seed: int = 0, simulations: int | None = None) -> Bot:
    try:
        cls = _CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(SIM_LEVELS)}") from None
    return cls(seed, simulations)


def suggest(view: SeatView, level: str, seed: int, simulations: int | None = None
            ) -> tuple[Card, ...] | Card:
    """The pass (a tuple of cards) or the card to play (one Card) for this view."""
    if not isinstance(view, SeatView):
        raise TypeError("a bot only accepts a SeatView")
    bot = make_bot(level, seed, simulations)
    if view.phase is Phase.PASS:
        return bot.choose_pass(view)
    if view.phase is not Phase.PLAY or view.turn != view.seat:
        raise ValueError("it is not this seat's turn")
    return bot.choose_card(view)
