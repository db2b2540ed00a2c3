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
its class, and those two messages. This module imports no bot code until a
bot is made, so reading the list costs nothing at start-up.

The yardsticks and experiments (the frozen Hard ``hard0``, the ``high`` and
``shoot`` seats, belief sampling) live in ``bench/``, not here: ``hearts sim``
and the bench scripts reach a bot class that is not a level through the
*level hook*, a level written ``module:Class`` or ``path.py:Class``
(:func:`hooked_class`; docs/sim.md).
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..model.errors import HeartsError

if TYPE_CHECKING:
    from ..model.cards import Card
    from ..play.engine import SeatView

__all__ = ["DEFAULT_LEVELS", "DEFAULT_SIMULATIONS", "HOOK", "LEVELS", "REGISTRY", "Bot", "Level", "LevelError",
           "check_level", "choose_moon", "hooked_class", "level_class", "make_bot", "suggest"]


# The CPU seats of a table, by place from the person's left, when none is named.
DEFAULT_LEVELS = ("easy", "normal", "hard")


class Level(NamedTuple):
    """One CPU level: its ``name`` (what is typed and recorded) and where its class is."""

    name: str
    module: str  # within this package, imported when a bot of this level is made
    cls: str

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
)

# the levels a person may choose as opponents (the table, the protocol, sim)
LEVELS: tuple[str, ...] = tuple(level.name for level in REGISTRY)
HOOK = ":"  # a level written MODULE:CLASS or PATH.py:CLASS is a bot class loaded by the hook


class LevelError(HeartsError):
    """A name that is not a CPU level; the sentence lists the levels (and the hook, where allowed)."""

    def __init__(self, value: str, hook: bool = False) -> None:
        super().__init__("bad_level_hook" if hook else "bad_level", value=value, levels=", ".join(LEVELS))


def check_level(text: str, hook: bool = False) -> str:
    """The level named by ``text`` (any case, spaces around ignored), or :class:`LevelError`.

    ``hook`` also accepts a bot class written ``module:Class`` or
    ``path.py:Class`` (``hearts sim``), loaded now so that a wrong one is
    refused before any game is played.
    """
    name = text.strip() if isinstance(text, str) else ""
    if name.lower() in LEVELS:
        return name.lower()
    if hook and HOOK in name:
        hooked_class(name)
        return name
    raise LevelError(str(text), hook)


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
    """What every level's class is: made with ``(seed, simulations)``, it passes and plays."""

    level: str

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None: ...

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]: ...

    def choose_card(self, view: SeatView) -> Card: ...


@functools.cache
def level_class(level: str) -> type[Bot]:
    """The bot class of ``level`` (imported now): a level of :data:`REGISTRY`, or a class
    named through the hook (:func:`hooked_class`); :class:`LevelError` otherwise."""
    for entry in REGISTRY:
        if entry.name == level:
            cls: type[Bot] = getattr(importlib.import_module(f"{__name__}.{entry.module}"), entry.cls)
            return cls
    if HOOK in level:
        return hooked_class(level)
    raise LevelError(str(level), hook=True)


@functools.cache
def hooked_class(spec: str) -> type[Bot]:
    """The bot class named by ``module:Class`` or ``path.py:Class``: the benches' yardsticks and
    experiments, which the package does not ship (docs/sim.md).

    A path is imported as the module it is inside its packages (``bench/bots/hard0.py`` is
    ``bench.bots.hard0``, with the folder above ``bench`` put on ``sys.path``), so both
    spellings give the same class, and a spawned worker process finds it again from the
    text alone. Whatever fails is :class:`LevelError`: one sentence, never a traceback.
    """
    target, _, name = spec.strip().rpartition(HOOK)
    try:
        module = importlib.import_module(_module_of(target))
        cls = getattr(module, name)
    except Exception:  # the person's own code, imported: any failure is a wrong hook
        raise LevelError(spec, hook=True) from None
    if not (isinstance(cls, type) and callable(getattr(cls, "choose_card", None))
            and callable(getattr(cls, "choose_pass", None))):
        raise LevelError(spec, hook=True)
    bot: type[Bot] = cls
    return bot


def _module_of(target: str) -> str:
    """The module name of a hook's ``target``: a dotted name as it is (the working folder
    searched last, as ``python -m`` would); a ``.py`` path as its dotted name from the first
    folder up without an ``__init__.py`` (put on ``sys.path``)."""
    if not target.endswith(".py"):
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.append(str(Path.cwd()))
        return target
    path = Path(target).resolve(strict=True)
    parts = [path.stem]
    top = path.parent
    while (top / "__init__.py").is_file():
        parts.insert(0, top.name)
        top = top.parent
    if str(top) not in sys.path:
        sys.path.insert(0, str(top))
    return ".".join(parts)


def make_bot(level: str, seed: int = 0, simulations: int | None = None) -> Bot:
    """A bot of ``level`` (a registry name or a hooked class) with its decision seed and budget."""
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
