"""CPU players. A bot sees one :class:`~hearts_cli.play.engine.SeatView` and nothing else.

``suggest(view, level, seed, simulations=None)`` is the whole interface: a
pure function of its arguments. In the pass phase it returns the
``rules.pass_count`` cards to pass; in the play phase one legal card; when the
seat shot the moon under the shooter's choice, ``"others"`` or
``"shooter_minus"`` (:func:`choose_moon`, the same for every level).

:data:`REGISTRY` is the one list of CPU levels. The command line (validation,
completion, metavar, help), the game loop, the engine protocol and ``sim``
all read it, and the messages ``level_<name>`` (its name at the table) and
``level_<name>_about`` (one line for help) are checked to exist in every
language (``tests/test_registries.py``). Adding a level is one entry here,
its class, and those two messages. A ``bench`` level (a benchmark seat,
:mod:`hearts_cli.bots.exploit`, or the frozen Hard :mod:`hearts_cli.bots.hard0`) is
known to ``hearts sim`` and the benches only: the table and the protocol do not offer
it. This module imports no bot code until a bot is made, so reading the list costs
nothing at start-up.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..model.errors import HeartsError

if TYPE_CHECKING:
    from ..model.cards import Card
    from ..play.engine import SeatView

__all__ = ["BENCH_LEVELS", "DEFAULT_LEVELS", "DEFAULT_SIMULATIONS", "LEVELS", "REGISTRY", "SIM_LEVELS", "Bot", "Level",
           "LevelError", "check_level", "choose_moon", "level_class", "make_bot", "suggest"]


# The CPU seats of a table, by place from the person's left, when none is named.
DEFAULT_LEVELS = ("easy", "normal", "hard")


class Level(NamedTuple):
    """One CPU level: its ``name`` (what is typed and recorded) and where its class is."""

    name: str
    module: str  # within this package, imported when a bot of this level is made
    cls: str
    bench: bool = False  # a benchmark seat: sim and bench/ only, never offered at the table

    @property
    def message_id(self) -> str:
        """The level's name at the table (``Easy``, ``Fácil``)."""
        return f"level_{self.name}"

    @property
    def about_id(self) -> str:
        """One line on how the level plays, for help and ``hearts sim``."""
        return f"level_{self.name}_about"


# weakest first: the order help and error messages list them in
REGISTRY: tuple[Level, ...] = (
    Level("random", "random_bot", "RandomBot"),
    Level("easy", "easy", "EasyBot"),
    Level("normal", "normal", "NormalBot"),
    Level("hard", "hard", "HardBot"),
    Level("high", "exploit", "HighBot", bench=True),
    Level("shoot", "exploit", "ShootBot", bench=True),
    Level("hard0", "hard0", "Hard0Bot", bench=True),  # Hard of 2026-12-01, frozen: the yardstick
)

# the levels a person may choose as opponents (the table, the protocol)
LEVELS: tuple[str, ...] = tuple(level.name for level in REGISTRY if not level.bench)
# benchmark seats: `hearts sim` and bench/ know them, the table does not offer them
BENCH_LEVELS: tuple[str, ...] = tuple(level.name for level in REGISTRY if level.bench)
SIM_LEVELS = LEVELS + BENCH_LEVELS


class LevelError(HeartsError):
    """A name that is not a CPU level; the sentence lists the levels (and the benchmark seats, if allowed)."""

    def __init__(self, value: str, bench: bool = False):
        if bench:
            super().__init__("bad_level_bench", value=value, levels=", ".join(LEVELS),
                             bench=", ".join(BENCH_LEVELS))
        else:
            super().__init__("bad_level", value=value, levels=", ".join(LEVELS))


def check_level(text: str, bench: bool = False) -> str:
    """The level named by ``text`` (any case, spaces around ignored), or :class:`LevelError`.

    ``bench`` also accepts the benchmark seats (``hearts sim``).
    """
    name = text.strip().lower() if isinstance(text, str) else ""
    if name not in (SIM_LEVELS if bench else LEVELS):
        raise LevelError(str(text), bench)
    return name


def __getattr__(name: str) -> Any:
    if name == "DEFAULT_SIMULATIONS":  # Hard's default budget, without importing Hard for the list
        from .hard import DEFAULT_SIMULATIONS

        return DEFAULT_SIMULATIONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def choose_moon(view: SeatView) -> str:
    """The shooter's choice for a CPU that shot the moon (see :mod:`hearts_cli.bots.moon`)."""
    from .moon import choose_moon as choose

    return choose(view)


class Bot(Protocol):
    level: str

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]: ...

    def choose_card(self, view: SeatView) -> Card: ...


@functools.cache
def level_class(level: str) -> type:
    """The bot class of ``level`` (imported now); ValueError for a name not in :data:`REGISTRY`."""
    import importlib

    for entry in REGISTRY:
        if entry.name == level:
            return getattr(importlib.import_module(f"{__name__}.{entry.module}"), entry.cls)
    raise LevelError(str(level), bench=True)


def make_bot(level: str, seed: int = 0, simulations: int | None = None) -> Bot:
    return level_class(level)(seed, simulations)


def suggest(view: SeatView, level: str, seed: int, simulations: int | None = None
            ) -> tuple[Card, ...] | Card | str:
    """The pass (a tuple of cards), the card to play (one Card), or the shooter's choice
    (``"others"`` or ``"shooter_minus"``) for this view."""
    from ..play.engine import Phase, SeatView

    if not isinstance(view, SeatView):
        raise TypeError("a bot only accepts a SeatView")
    if view.phase is Phase.MOON:
        return choose_moon(view)
    bot = make_bot(level, seed, simulations)
    if view.phase is Phase.PASS:
        return bot.choose_pass(view)
    if view.phase is not Phase.PLAY or view.turn != view.seat:
        raise ValueError("it is not this seat's turn")
    return bot.choose_card(view)
