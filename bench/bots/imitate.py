"""Hard playing out the learned policy of other weights (bench/imitate.py fits them), and Hard
playing out the heuristic (the Hard before the learned policy).

``hardi`` reads the weights file that the environment variable ``HEARTS_IMITATE_WEIGHTS``
names (without it, the shipped ``hearts_cli/bots/play_weights.json``): a new fit is measured
against the shipped weights (``hard``) before it replaces them.

``hardo`` and ``hardm`` model the other seats otherwise (docs/bots.md, issue 35, "Ninth"): the
learned policy for its own seat only, or each seat of a playout the learned policy or the
heuristic at random (``HEARTS_MIXED_SHARE``, default 0.5, the learned policy's chance). Like
``hardi`` they play out the learned policy under any rules: measure them under ``quick``'s.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from hearts_cli.bots.hard import PLAYED, HardBot, Tuning
from hearts_cli.bots.learned_play import learned_policy, shipped_policy, weights_of
from hearts_cli.bots.playout import PolicyMaker, make_policy
from hearts_cli.model.cards import Card
from hearts_cli.play.fast import Position, StepPolicy
from hearts_cli.play.round import SeatView

WEIGHTS = Path(__file__).resolve().parent.parent.parent / "hearts_cli" / "bots" / "play_weights.json"
_MAKERS: dict[str, PolicyMaker] = {}


def load(path: str | Path) -> tuple[float, ...]:
    try:
        return weights_of(Path(path).read_text(encoding="utf-8"))
    except ValueError as e:
        raise SystemExit(f"{path}: {e}") from None


def maker(path: str | Path) -> PolicyMaker:
    """The policy maker of the weights in ``path`` (one per file in a process)."""
    key = str(path)
    if key not in _MAKERS:
        _MAKERS[key] = learned_policy(load(path))
    return _MAKERS[key]


class ImitateHard(HardBot):
    """Hard whose playouts play the learned policy of the bench's weights."""

    def __init__(self, seed: int = 0, simulations: int | None = None, *, tuning: Tuning | None = None) -> None:
        path = os.environ.get("HEARTS_IMITATE_WEIGHTS") or WEIGHTS
        base = tuning or PLAYED
        super().__init__(seed, simulations, tuning=dataclasses.replace(base, policy=maker(path)))


class HeuristicHard(HardBot):
    """Hard playing out with the heuristic policy (``playout.choose``), as before the learned one."""

    def __init__(self, seed: int = 0, simulations: int | None = None, *, tuning: Tuning | None = None) -> None:
        super().__init__(seed, simulations, tuning=dataclasses.replace(tuning or PLAYED, learned_play=False))


def own_seat(own: PolicyMaker, others: PolicyMaker, me: int) -> PolicyMaker:
    """Playouts where ``me`` plays ``own``'s policy and every other seat ``others``'."""
    def make(*args: object) -> StepPolicy:
        mine, theirs = own(*args), others(*args)

        def policy(legal: int, seat: int, win_card: int, win_seat: int, pos: Position) -> int:
            return (mine if seat == me else theirs)(legal, seat, win_card, win_seat, pos)
        return policy
    return make


class OwnLearnedHard(HardBot):
    """Hard whose own seat plays out the learned policy and the other seats the heuristic."""

    def choose_card(self, view: SeatView) -> Card:
        if self.tuning.policy is None:
            self.tuning = dataclasses.replace(self.tuning, policy=own_seat(shipped_policy(), make_policy, view.seat))
        return super().choose_card(view)


class MixedHard(HardBot):
    """Hard whose playouts give each seat the learned policy or the heuristic, half and half
    (``HEARTS_MIXED_SHARE``: the learned policy's chance)."""

    def __init__(self, seed: int = 0, simulations: int | None = None, *, tuning: Tuning | None = None) -> None:
        share = float(os.environ.get("HEARTS_MIXED_SHARE", "0.5"))
        super().__init__(seed, simulations, tuning=dataclasses.replace(tuning or PLAYED, learned_play=share))
