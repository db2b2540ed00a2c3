"""``--set MODULE.NAME=VALUE`` for the bench scripts: a bot constant changed for one run.

A variant is measured without editing it in: ``hard.STOP_SUSPECTS=True`` sets
``hearts_cli.bots.hard.STOP_SUSPECTS`` (a full module path works too). The
value is a Python literal, taking the old value's type where it is a bool or
a float (``1`` is ``True``, ``10`` is ``10.0``). It changes every level that
reads that constant (never ``hard0``, which has its own copies).
"""

from __future__ import annotations

import ast
import importlib


def apply(sets) -> None:
    for kv in sets:
        key, value = kv.split("=", 1)
        mod, attr = key.rsplit(".", 1)
        if not mod.startswith("hearts_cli."):
            mod = f"hearts_cli.bots.{mod}"
        m = importlib.import_module(mod)
        old = getattr(m, attr)  # a typo is an error, not a new constant nobody reads
        new = ast.literal_eval(value)
        if isinstance(old, bool):
            new = bool(new)
        elif isinstance(old, float):
            new = float(new)
        setattr(m, attr, new)
