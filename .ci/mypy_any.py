"""The ratchet on ``Any`` (issue 36): what mypy types as ``Any``, per package of hearts_cli.

    .venv/bin/python .ci/mypy_any.py      # the counts against their ceilings (make types runs it)

Each expression mypy types as ``Any`` (``--disallow-any-expr``: "Expression has type Any",
"Expression type contains Any") is a place where the type checker stops following a value;
``object`` and ``dict[str, object]`` do not hide one, an ``Any`` that comes back through them
does. The count of a package may not grow past its ceiling below: type the new values
instead (``JsonValue`` and narrowing, a ``TypedDict``, a dataclass). Lower a ceiling when its
count falls, never raise it. A package not named here has a ceiling of 0.

The pass runs after the gate's own mypy (``make types``), with a cache of its own
(``.mypy_cache/any``): its options differ from the gate's, and one cache shared by the two
would be thrown away by each in turn. Its other messages are not the gate's (mypy words a
few things differently under ``--disallow-any-expr``) and are not read here: the gate is the
plain ``mypy`` run before it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the counts of issue 36's ratchet; lower one when its package's count falls, never raise it
# (set once when the branches of issue 36 were merged: cli's 205 became cli 185 + sim 22, the
# record's split added 5 to records and the one front end 1 to repl)
CEILINGS: dict[str, int] = {
    "(face)": 0,
    "base": 36,
    "bots": 24,
    "cli": 185,
    "model": 21,
    "play": 97,
    "records": 56,
    "repl": 43,
    "store": 26,
    "sim": 22,
    "table": 20,
    "text": 0,
}

# mypy's two messages for an expression typed Any (or holding one) under --disallow-any-expr
ANY = re.compile(r'^(?P<path>[^:\s]+\.py):\d+: error: Expression (?:has type "Any"|type contains "Any")')


def package_of(path: str) -> str:
    """``hearts_cli/play/core.py`` -> ``play``; a module of the package's root -> ``(face)``."""
    parts = Path(path).parts
    return parts[1] if len(parts) > 2 else "(face)"


def count(output: str) -> Counter[str]:
    """The expressions typed Any in mypy's output, per package."""
    counts: Counter[str] = Counter()
    for line in output.splitlines():
        found = ANY.match(line)
        if found:
            counts[package_of(found["path"])] += 1
    return counts


def run_mypy(targets: list[str], cache_dir: Path, cwd: Path = ROOT) -> str:
    """mypy's output for ``targets`` under the project's options and ``--disallow-any-expr``."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--disallow-any-expr", "--cache-dir", str(cache_dir),
                           *targets], cwd=cwd, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not done.stdout:
        raise RuntimeError(f"mypy did not run (exit status {done.returncode}): {done.stderr.strip()}")
    return done.stdout


def over(counts: Mapping[str, int], ceilings: Mapping[str, int]) -> list[str]:
    """One line per package whose count is over its ceiling (0 when it has none)."""
    return [f"{pkg}: {n} expressions typed Any, over its ceiling of {ceilings.get(pkg, 0)}"
            for pkg, n in sorted(counts.items()) if n > ceilings.get(pkg, 0)]


def main() -> int:
    counts = count(run_mypy(["hearts_cli"], ROOT / ".mypy_cache" / "any"))
    worse = over(counts, CEILINGS)
    lower = [f"{pkg} {counts.get(pkg, 0)}" for pkg, ceiling in sorted(CEILINGS.items())
             if counts.get(pkg, 0) < ceiling]
    print(f"expressions typed Any: {sum(counts.values())} (ceilings {sum(CEILINGS.values())}; "
          + ", ".join(f"{pkg} {n}" for pkg, n in counts.most_common()) + ")")
    if lower:
        print("fewer than the ceiling, lower it in .ci/mypy_any.py: " + ", ".join(lower))
    if worse:
        print("\n".join(worse))
        print("type the new values instead of letting Any in (JsonValue and narrowing, a TypedDict, "
              "a dataclass); `python -m mypy --disallow-any-expr hearts_cli` names each place")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
