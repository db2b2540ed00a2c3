"""Hard playing out the learned policy of other weights (bench/imitate.py fits them), and Hard
playing out the heuristic (the Hard before the learned policy).

``hardi`` reads the weights file that the environment variable ``HEARTS_IMITATE_WEIGHTS``
names (without it, the shipped ``hearts_cli/bots/play_weights.json``): a new fit is measured
against the shipped weights (``hard``) before it replaces them.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from hearts_cli.bots.hard import PLAYED, HardBot, Tuning
from hearts_cli.bots.learned_play import learned_policy, weights_of
from hearts_cli.bots.playout import PolicyMaker

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


class OwnLearnedHard(HardBot):
    """Hard whose own seat plays out the learned policy and the other seats the heuristic."""

    def __init__(self, seed: int = 0, simulations: int | None = None, *, tuning: Tuning | None = None) -> None:
        super().__init__(seed, simulations, tuning=dataclasses.replace(tuning or PLAYED, learned_others=False))
