"""CPU players. A bot sees one :class:`~hearts_cli.play.round.SeatView` and nothing else.

This is the package's face: the levels, their registry and the one interface
(``suggest``, ``cpu_move``...) are :mod:`.levels`; each level is a module of its
own (:mod:`.easy`, :mod:`.normal`, :mod:`.hard`...), imported only when a bot of
that level is made, so reading the list costs nothing at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .levels import (
    DEFAULT_LEVELS,
    HOOK,
    LEVELS,
    PROGRAM,
    REGISTRY,
    Bot,
    Level,
    LevelError,
    ProgramError,
    check_level,
    check_program,
    check_seat_levels,
    choose_moon,
    cpu_moon,
    cpu_move,
    cpu_pass,
    cpu_play,
    hooked_class,
    is_program,
    level_class,
    make_bot,
    program_argv,
    seat_levels,
    suggest,
    suggest_moon,
    suggest_pass,
    suggest_play,
)

if TYPE_CHECKING:
    DEFAULT_SIMULATIONS: int

__all__ = ["DEFAULT_LEVELS", "DEFAULT_SIMULATIONS", "HOOK", "LEVELS", "PROGRAM", "REGISTRY", "Bot", "Level",
           "LevelError", "ProgramError", "check_level", "check_program", "check_seat_levels", "choose_moon",
           "cpu_moon", "cpu_move", "cpu_pass", "cpu_play", "hooked_class", "is_program", "level_class",
           "make_bot", "program_argv", "seat_levels", "suggest", "suggest_moon", "suggest_pass",
           "suggest_play"]


def __getattr__(name: str) -> int:
    if name == "DEFAULT_SIMULATIONS":  # Hard's default budget, read without importing Hard for the list
        from .hard import DEFAULT_SIMULATIONS  # the registry imports no bot code (tests/test_registries.py)

        return DEFAULT_SIMULATIONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
