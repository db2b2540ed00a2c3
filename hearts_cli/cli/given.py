"""The game the options describe: the rule set (preset, ``--set``, ``--players``, ``--target``),
the game code and settings.yaml, each checked where the rules are (a bad value is a
``HeartsError``, said by ``Command.invoke``). Imported by the commands that use it, when they run.
"""

import sys
from typing import TYPE_CHECKING, overload

from .output import Out, echo

if TYPE_CHECKING:
    from ..model.rules import Rules


def load_rules(preset: str | None, players: int | None = None, target: int | None = None,
               settings: list[str] | None = None) -> "Rules":
    """The preset, with ``--set`` items then ``--players`` and ``--target`` on top; every value checked."""
    from ..model.rules import DEFAULT_PRESET, Rules

    spec: dict[str, object] = {"preset": preset or DEFAULT_PRESET}
    spec |= overrides(settings)
    if players is not None:
        spec["players"] = players
    if target is not None:
        spec["target"] = target
    return Rules.from_spec(spec)


def overrides(settings: list[str] | None) -> dict[str, object]:
    """``--set KEY=VALUE`` items as plain settings (a RulesError for a bad one)."""
    if not settings:
        return {}
    from ..model.overrides import parse_set

    return parse_set(settings)


@overload
def normal_code(code: str) -> str: ...
@overload
def normal_code(code: None) -> None: ...
def normal_code(code: str | None) -> str | None:
    """``--code`` as the game's code is written (a bad one is refused)."""
    if code is None:
        return None
    from ..model.codes import normalize_code

    return normalize_code(code)


def check_level(level: str | None, cpus: int = 1) -> str | None:
    """``--level``: a level or ``exec:COMMAND`` for every CPU seat, or one for each of the
    ``cpus`` seats (a bad one is refused)."""
    if level is None:
        return None
    from ..bots import check_seat_levels

    return check_seat_levels(level, max(cpus, 1))


def warn_settings(out: Out) -> None:
    """A sentence on stderr for each thing wrong in settings.yaml, wrapped to the terminal's
    width (one line to a pipe); the game goes on with the defaults."""
    from ..base.wrapping import for_terminal
    from ..store.saves import settings_warnings

    for sentence in settings_warnings(out.lang):
        echo(for_terminal(sentence, sys.stderr), err=True)
