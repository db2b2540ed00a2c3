"""Start-up time of the scripted commands, against ``python -c "import typer"``.

Commands that don't open the game loop (``--version``, ``rules``, ``explain``,
``engine``, ``replay --json``) should start within 1.3x the time Python takes to import Typer on
the same machine: they import only what they use, never prompt-toolkit or rich.

Usage::

    .venv/bin/python bench/startup.py            # 20 runs of each, median
    .venv/bin/python bench/startup.py --runs 50 --json

Each command runs as a fresh process (stdin empty, output discarded) after one
warm-up run, the commands interleaved run by run; the figure is the median
wall-clock time. A second pass with
``python -X importtime`` lists any heavy module a command loaded. This is a
benchmark: it reports, it asserts nothing (the import rule itself is checked by
``tests/test_cli.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAVY = ("prompt_toolkit", "rich", "pygments", "pydantic")
CODE = "K7Q2MXA7"
MOVES = "8S 9S TS AS KH 2H QS JS AH KS 6S 2S 2C"
REPLAY_RECORD = Path(__file__).resolve().parent.parent / "fixtures" / "replays" / "quick-4p.yaml"


def hearts_command() -> list[str]:
    """The installed console script when there is one, else ``python -m hearts_cli``."""
    script = Path(sys.executable).with_name("hearts")
    if script.exists():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "hearts_cli"]


def cases() -> list[tuple[str, list[str]]]:
    h = hearts_command()
    return [
        ('python -c "import typer"', [sys.executable, "-c", "import typer"]),
        ("hearts --version", h + ["--version"]),
        ("hearts rules", h + ["rules"]),
        ("hearts rules --tips --json", h + ["rules", "--tips", "--json"]),
        ("hearts explain 4D --code ... --moves ...", h + ["explain", "4D", "--code", CODE, "--moves", MOVES]),
        ("hearts engine  (immediate EOF)", h + ["engine"]),
        ("hearts replay RECORD --json", h + ["replay", str(REPLAY_RECORD), "--json"]),
        ("hearts replay --code ... --moves ... --json", h + ["replay", "--code", CODE, "--moves", MOVES, "--json"]),
        ("hearts stats  (empty archive)", h + ["stats"]),
    ]


def time_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - start


def heavy_imports(argv: list[str], env: dict[str, str]) -> list[str]:
    """Heavy top-level packages the command imports (from ``-X importtime``)."""
    argv = [argv[0], "-X", "importtime"] + argv[1:]
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env, text=True, check=False)
    found = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip().split(".")[0]
            if name in HEAVY:
                found.add(name)
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per command (median reported)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HEARTS_HOME=home, HEARTS_LANG="en", PYTHONDONTWRITEBYTECODE="")
        todo = cases()
        times: dict[str, list[float]] = {label: [] for label, _ in todo}
        for _, argv in todo:
            time_once(argv, env)  # warm the file cache and the bytecode
        # interleaved: each round runs every command once, so a busy moment
        # on the machine weighs on all of them alike
        for _ in range(args.runs):
            for label, argv in todo:
                times[label].append(time_once(argv, env))
        results = [{
            "command": label,
            "median_ms": round(statistics.median(times[label]) * 1000, 1),
            "min_ms": round(min(times[label]) * 1000, 1),
            "heavy_imports": heavy_imports(argv, env),
        } for label, argv in todo]
    base = results[0]["median_ms"]
    for r in results:
        r["ratio"] = round(r["median_ms"] / base, 2)

    if args.json:
        print(json.dumps({"runs": args.runs, "python": sys.version.split()[0], "results": results}, indent=2))
        return 0
    print(f"start-up, median of {args.runs} runs (Python {sys.version.split()[0]}); goal: ratio <= 1.3")
    width = max(len(r["command"]) for r in results)
    print(f"{'command':<{width}}  {'median':>9}  {'min':>9}  {'ratio':>5}  heavy imports")
    for r in results:
        heavy = ", ".join(r["heavy_imports"]) or "none"
        print(f"{r['command']:<{width}}  {r['median_ms']:>7.1f}ms  {r['min_ms']:>7.1f}ms  "
              f"{r['ratio']:>5.2f}  {heavy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
