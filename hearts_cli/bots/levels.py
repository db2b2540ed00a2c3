"""The CPU levels and the one way to ask a bot for a move (:mod:`hearts_cli.bots`' face).

The interface is a pure function of its arguments, typed per phase:
``suggest_pass(view, level, seed)`` gives the ``rules.pass_count`` cards to pass,
``suggest_play(view, level, seed)`` one legal card, ``suggest_moon(view)`` the
shooter's choice under ``moon: shooter_choice`` (:func:`choose_moon`, the same for
every level). ``suggest`` gives whichever the phase asks for, as a union. For a
script holding a :class:`~hearts_cli.play.game.Game`, :func:`cpu_pass`,
:func:`cpu_play`, :func:`cpu_moon` and :func:`cpu_move` ask the seat to move's
view (never the game) with the seed a table gives that CPU seat.

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
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..model.errors import HeartsError

if TYPE_CHECKING:  # the registry imports no bot code (tests/test_registries.py)
    from ..model.cards import Card
    from ..model.rules import Moon
    from ..play.game import Game, Move
    from ..play.round import SeatView

__all__ = ["DEFAULT_LEVELS", "HOOK", "LEVELS", "PROGRAM", "REGISTRY", "Bot", "Level",
           "LevelError", "ProgramError", "check_level", "check_program", "check_seat_levels", "choose_moon",
           "cpu_moon", "cpu_move", "cpu_pass", "cpu_play", "hooked_class", "is_program", "level_class", "make_bot",
           "program_argv", "seat_levels", "suggest", "suggest_moon", "suggest_pass", "suggest_play"]


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
PROGRAM = "exec:"  # a seat word exec:COMMAND seats an outside program (hearts_cli/table/program.py)


def is_program(level: str | None) -> bool:
    """Whether ``level`` seats an outside program (``exec:COMMAND``) rather than a CPU level."""
    return level is not None and level[:5].lower() == PROGRAM


def program_argv(level: str) -> list[str]:
    """The command line of an ``exec:COMMAND`` seat, split as a POSIX shell would (no shell runs it)."""
    import shlex  # only for an outside program: start-up

    return shlex.split(level[len(PROGRAM):])


def check_program(level: str) -> str:
    """``exec:COMMAND`` checked before any game is played: the command splits, and its program
    is found (on ``PATH``, or as a file); :class:`ProgramError` otherwise."""
    import shutil  # only for an outside program: start-up

    try:
        argv = program_argv(level)
    except ValueError:  # a quote left open
        raise ProgramError(level, "bad_program_quote") from None
    if not argv:
        raise ProgramError(level, "bad_program_empty")
    if shutil.which(argv[0]) is None:
        if os.sep in argv[0] and os.path.isfile(argv[0]):  # there, but it may not be run itself
            runner = _runner(argv[0])
            if runner is None:
                raise ProgramError(level, "bad_program_not_executable_bare", argv[0])
            raise ProgramError(level, "bad_program_not_executable", argv[0], runner=runner)
        raise ProgramError(level, "bad_program", argv[0])
    return PROGRAM + level[len(PROGRAM):].strip()


_RUNNERS = {".js": "node", ".mjs": "node", ".py": "python3", ".sh": "sh", ".rb": "ruby", ".pl": "perl"}


def _runner(path: str) -> str | None:
    """The program that runs the script at ``path``: its ``#!`` line's, else its extension's."""
    import shlex  # only for an outside program: start-up

    try:
        with open(path, "rb") as f:
            first = f.readline(200).decode("utf-8", "replace")
    except OSError:
        first = ""
    if first.startswith("#!"):
        words = first[2:].split()
        if words and os.path.basename(words[0]) == "env":
            words = [w for w in words[1:] if not w.startswith("-")]
        if words:
            return f"{os.path.basename(words[0])} {shlex.quote(path)}"
    ext = os.path.splitext(path)[1].lower()
    return f"{_RUNNERS[ext]} {shlex.quote(path)}" if ext in _RUNNERS else None


class LevelError(HeartsError):
    """A name that is not a CPU level; the sentence lists the levels (and the hook, where allowed)."""

    def __init__(self, value: str, hook: bool = False) -> None:
        super().__init__("bad_level_hook" if hook else "bad_level", value=value, levels=", ".join(LEVELS))


class ProgramError(HeartsError):
    """An ``exec:`` seat whose command cannot be run: one sentence naming it."""

    def __init__(self, value: str, message_id: str, program: str = "", runner: str = "") -> None:
        super().__init__(message_id, value=value, program=program, runner=runner)


def check_level(text: str, hook: bool = False, program: bool | None = None) -> str:
    """The level named by ``text`` (any case, spaces around ignored), or :class:`LevelError`.

    ``hook`` also accepts a bot class written ``module:Class`` or
    ``path.py:Class`` (``hearts sim``), loaded now so that a wrong one is
    refused before any game is played. ``program`` (by default as ``hook``) accepts an
    outside program, ``exec:COMMAND`` (:func:`check_program`).
    """
    name = text.strip() if isinstance(text, str) else ""
    if name.lower() in LEVELS:
        return name.lower()
    if (hook if program is None else program) and is_program(name):
        return check_program(name)
    if hook and HOOK in name:
        hooked_class(name)
        return name
    raise LevelError(str(text), hook)


def check_seat_levels(text: str, cpus: int) -> str:
    """``--level`` of ``hearts new`` and ``hearts host``: one word for every CPU seat, or a word
    for each CPU seat clockwise, separated by commas; a word is a level or ``exec:COMMAND``.
    The words as checked, joined by commas again (what :func:`seat_levels` reads)."""
    words = text.split(",")
    if len(words) != 1 and len(words) != cpus:
        raise HeartsError("bad_level_count", given=len(words), cpus=cpus)
    return ",".join(check_level(w, program=True) for w in words)


def seat_levels(level: str | None, cpus: int) -> list[str] | None:
    """The level of each CPU seat, clockwise, from ``--level`` as checked (None: none given)."""
    if level is None:
        return None
    words = level.split(",")
    return words * cpus if len(words) == 1 else words


def choose_moon(view: SeatView) -> str:
    """The shooter's choice for a CPU that shot the moon (see :mod:`hearts_cli.bots.moon`)."""
    from .moon import choose_moon as choose  # the registry imports no bot code (tests/test_registries.py)

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
            cls: type[Bot] = getattr(importlib.import_module(f"{__package__}.{entry.module}"), entry.cls)
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
    (``"others"`` or ``"shooter_minus"``) for this view: whichever its phase asks for. A
    caller that knows the phase asks :func:`suggest_pass`, :func:`suggest_play` or
    :func:`suggest_moon`, whose answers need no narrowing."""
    from ..play.dealt import Phase  # the registry imports no bot code (tests/test_registries.py)

    _check_view(view)
    if view.phase is Phase.MOON:
        return choose_moon(view)
    if view.phase is Phase.PASS:
        return suggest_pass(view, level, seed, simulations)
    return suggest_play(view, level, seed, simulations)


def _check_view(view: SeatView) -> None:
    from ..play.round import SeatView  # the registry imports no bot code (tests/test_registries.py)

    if not isinstance(view, SeatView):
        raise TypeError("a bot only accepts a SeatView")


def suggest_pass(view: SeatView, level: str, seed: int, simulations: int | None = None) -> tuple[Card, ...]:
    """The ``rules.pass_count`` cards ``level`` passes from this view (in the pass phase; a
    :class:`~hearts_cli.play.dealt.PhaseError` in another)."""
    from ..play.dealt import Phase, PhaseError  # the registry imports no bot code (tests/test_registries.py)

    _check_view(view)
    if view.phase is not Phase.PASS:
        raise PhaseError("phase_no_pass")
    return make_bot(level, seed, simulations).choose_pass(view)


def suggest_play(view: SeatView, level: str, seed: int, simulations: int | None = None) -> Card:
    """The legal card ``level`` plays from this view (the play phase, at the seat's turn; a
    :class:`~hearts_cli.play.dealt.PhaseError` otherwise)."""
    from ..play.dealt import Phase, PhaseError  # the registry imports no bot code (tests/test_registries.py)

    _check_view(view)
    if view.phase is not Phase.PLAY or view.turn != view.seat:
        raise PhaseError("phase_not_turn")
    return make_bot(level, seed, simulations).choose_card(view)


def suggest_moon(view: SeatView) -> Moon:
    """The shooter's choice, ``Moon.OTHERS`` or ``Moon.SHOOTER_MINUS`` (every level chooses alike)."""
    from ..model.rules import Moon  # the registry imports no bot code (tests/test_registries.py)

    _check_view(view)
    return Moon(choose_moon(view))


# ---------------------------------------------------------------- for a script holding a Game


def _seat_seed(game: Game, seat: int | None) -> tuple[int, int]:
    """The seat to move (or ``seat``) and the seed a table gives a CPU there (``table/game.py``)."""
    from ..model.codes import seed_for  # the registry imports no bot code (tests/test_registries.py)

    if seat is None:
        seat = game.turn
        if seat is None:
            from ..play.dealt import PhaseError  # the registry imports no bot code (tests/test_registries.py)

            raise PhaseError("phase_game_over")
    return seat, seed_for(game.code, "cpu", seat)


def cpu_pass(game: Game, level: str = "normal", seat: int | None = None) -> tuple[Card, ...]:
    """The pass the ``level`` CPU makes at ``seat`` (default: the first seat still to pass),
    from that seat's view only."""
    seat, seed = _seat_seed(game, seat)
    return suggest_pass(game.view(seat), level, seed)


def cpu_play(game: Game, level: str = "normal") -> Card:
    """The card the ``level`` CPU plays for the seat to move, from that seat's view only."""
    seat, seed = _seat_seed(game, None)
    return suggest_play(game.view(seat), level, seed)


def cpu_moon(game: Game) -> Moon:
    """The shooter's choice while the game waits for it."""
    seat, _ = _seat_seed(game, None)
    return suggest_moon(game.view(seat))


def cpu_move(game: Game, level: str = "normal") -> Move:
    """Make the move due (a pass, a card or the shooter's choice) as the ``level`` CPU would at
    the seat to move; the move made. The same choices as a table's CPU at that seat."""
    from ..play.dealt import Phase  # the registry imports no bot code (tests/test_registries.py)

    phase = game.phase
    if phase is Phase.PASS:
        game.push_pass(cpu_pass(game, level))
    elif phase is Phase.MOON:
        game.push_moon(cpu_moon(game))
    else:
        game.push(cpu_play(game, level))
    return game.peek()
