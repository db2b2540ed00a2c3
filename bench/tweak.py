"""``--set NAME=VALUE`` for the bench scripts: Hard with its experiment switches changed, for one run.

A variant is measured without editing it in, and without patching a module:
the switches are the fields of :class:`hearts_cli.bots.hard.Tuning`
(``moon_ends``, ``endgame_tricks``, ``flush``, ``lone_defence``, ``playout_eps``... every field
but ``draw`` and ``policy``) given to
``HardBot(..., tuning=...)``, plus ``belief_spread`` and ``belief_miss``, which
make Hard draw its deals with bench/bots/belief.py (``belief_spread=3``). The
value is a Python literal, taking the default's type where it is a bool or a
float (``1`` is ``True``, ``10`` is ``10.0``). It changes every ``hard`` seat
(never ``hard0``, which has its own copies, nor a hooked class).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Sequence

from hearts_cli.bots import Bot, make_bot
from hearts_cli.bots.hard import PLAYED, HardBot, Tuning

BELIEF = {"belief_spread": 1, "belief_miss": 0.5}  # 1: no belief sampling (Hard's own)
Maker = Callable[[str, int, "int | None"], Bot]


def _value(key: str, text: str, default: object) -> object:
    new = ast.literal_eval(text)
    if isinstance(default, bool):
        return bool(new)
    if isinstance(default, float):
        return float(new)
    return new


def tuning(sets: Sequence[str]) -> Tuning:
    """The :class:`Tuning` that ``sets`` (``NAME=VALUE`` each) describe; SystemExit for a name
    that is not a switch (a typo is an error, not a setting nobody reads)."""
    fields = {f.name: getattr(PLAYED, f.name) for f in dataclasses.fields(Tuning) if f.name not in ("draw", "policy")}
    changes: dict[str, object] = {}
    belief: dict[str, object] = dict(BELIEF)
    for kv in sets:
        key, _, text = kv.partition("=")
        key = key.strip().lower().removeprefix("hard.").removeprefix("playout.")
        if key in fields:
            changes[key] = _value(key, text, fields[key])
        elif key in belief:
            belief[key] = _value(key, text, belief[key])
        else:
            raise SystemExit(f"--set {kv}: not a switch of Hard ({', '.join([*fields, *belief])})")
    spread, miss = belief["belief_spread"], belief["belief_miss"]
    assert isinstance(spread, int) and isinstance(miss, float)
    if spread > 1:
        from bench.bots.belief import belief_draw

        changes["draw"] = belief_draw(spread, miss)
    return dataclasses.replace(PLAYED, **changes)  # type: ignore[arg-type]


def maker(sets: Sequence[str]) -> Maker:
    """``match.play_round``'s ``make``: every ``hard`` seat tuned by ``sets``, the others as made."""
    tuned = tuning(sets)
    if tuned == PLAYED:
        return make_bot

    def make(level: str, seed: int, simulations: int | None) -> Bot:
        return HardBot(seed, simulations, tuning=tuned) if level == "hard" else make_bot(level, seed, simulations)

    return make
