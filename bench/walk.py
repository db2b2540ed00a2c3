"""The walk of a card from the prompt to the table and back (issue 36's figure).

    .venv/bin/python -m bench.walk            # the layers and modules a typed card goes through
    .venv/bin/python -m bench.walk --calls    # and every function, in the order first called

A game of one's own is played from a pipe (``hearts new --code K7Q2MXA7 --set
passing=none``, the person's 2♣ then 2♦); every call into the package is recorded
from the moment the person's second line (2♦, following West's 4♦ lead) is read to
the moment the next line is asked for: the command read, judged, played at the table,
the CPUs' cards after it, the events told and the table drawn again. The CPUs' own
thinking (``bots/``) is counted apart: it is not the seam. A save is written on the
way (to a scratch folder: the player's own saves are not touched).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from collections import Counter
from types import FrameType

LINES = "2C\n2D\n"
PUSH = {"Game.push", "Game.play"}  # the game's move of a card, by either of its names


def walk() -> tuple[list[tuple[str, str]], list[str]]:
    """(module, function) of every call into hearts_cli while the second line is handled,
    and the chain of calls from the command line's loop down to the game's ``push`` of the card."""
    from hearts_cli.cli.app import main

    calls: list[tuple[str, str]] = []
    chain: list[str] = []
    reads = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal reads
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not isinstance(module, str) or not module.startswith("hearts_cli"):
            return
        name = frame.f_code.co_qualname
        if module == "hearts_cli.base.untrusted" and name == "read_line":
            reads += 1
            return
        if reads == 2:
            calls.append((module, name))
            if not chain and name in PUSH and module.startswith("hearts_cli.play"):
                f: FrameType | None = frame
                while f is not None:
                    m = f.f_globals.get("__name__", "")
                    if isinstance(m, str) and m.startswith("hearts_cli"):
                        chain.append(f"{m}:{f.f_code.co_qualname}")
                    f = f.f_back

    sys.argv = ["hearts", "new", "--code", "K7Q2MXA7", "--set", "passing=none", "--plain"]
    sys.stdin = io.StringIO(LINES)
    sys.stdout = io.StringIO()
    sys.setprofile(profile)
    try:
        main()
    except SystemExit:
        pass
    finally:
        sys.setprofile(None)
        sys.stdout = sys.__stdout__
        sys.stdin = sys.__stdin__
    return calls, chain[::-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", action="store_true", help="list every function, in the order first called")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HOME"):
            os.environ[var] = scratch
        calls, chain = walk()
    seam = [c for c in calls if not c[0].startswith("hearts_cli.bots")]
    functions = list(dict.fromkeys(seam))
    modules = list(dict.fromkeys(m for m, _ in functions))
    layers = Counter(m.split(".")[1] if m.count(".") else "(face)" for m, _ in functions)
    print(f"calls (bots apart): {len(seam)}; bots' calls: {len(calls) - len(seam)}")
    print(f"distinct functions: {len(functions)} in {len(modules)} modules")
    print("functions by layer: " + ", ".join(f"{k} {v}" for k, v in layers.most_common()))
    print(f"from the command line's loop to the game's move: {len(chain)} calls deep")
    for c in chain:
        print(f"  {c}")
    print("modules, in the order first entered:")
    for m in modules:
        print(f"  {m}")
    if args.calls:
        for m, f in functions:
            print(f"  {m}:{f}")


if __name__ == "__main__":
    main()
