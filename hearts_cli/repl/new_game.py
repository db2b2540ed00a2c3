"""A new game as the command line asks for it, checked once (``hearts new``).

:class:`NewGame` is built where the options are read and handed down whole:
the rules, the code (written canonically, so the deal does not check it again),
the CPU level and the person's seat. Whatever is wrong is a
:class:`~hearts_cli.model.errors.HeartsError`, said by the command line's one catch.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base.values import Frozen
from ..model.codes import GameCode, new_code, normalize_code
from ..model.errors import HeartsError
from ..model.rules import DEFAULT_PRESET, Rules


class NewGame(Frozen):
    """A new game's rules, code, CPU level (None: Easy, Normal, Hard by place) and the person's seat.
    (A :class:`Frozen`, not a frozen dataclass: ``hearts new`` would pay for its definition.)"""

    rules: Rules
    code: GameCode
    level: str | None = None
    seat: int = 0

    @classmethod
    def of(cls, *, preset: str | None = None, target: int | None = None, players: int | None = None,
           settings: Mapping[str, object] | None = None, level: str | None = None,
           code: str | None = None, seat: int = 0) -> NewGame:
        """The rules (``preset`` with ``settings``, then ``players`` and ``target``, on top), the
        code (a new one when None), the level and the seat, each checked once."""
        from ..bots import check_seat_levels

        spec: dict[str, object] = {"preset": preset or DEFAULT_PRESET}
        spec.update(settings or {})
        if players is not None:
            spec["players"] = players
        if target is not None:
            spec["target"] = target
        rules = Rules.from_spec(spec)
        checked = normalize_code(code if code else new_code())
        level = check_seat_levels(level, rules.players - 1) if level is not None else None
        if not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise HeartsError("cli_bad_seat", seat=seat, players=rules.players, last=rules.players - 1)
        return cls(rules, checked, level, seat)
