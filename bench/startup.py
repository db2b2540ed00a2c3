"""Start-up time of the scripted commands, against ``python -c "import typer"``.

Commands that don't open the game loop (``--version``, ``rules``, ``explain``,
``engine``, ``replay --json``) should start within 1.3x the time Python takes to import Typer on
the same machine: they import only what they use, never prompt-toolkit or rich.
Commands that read YAML (a record, a save, settings.yaml: marked ``yaml``) are
held to 1.3x of ``python -c "import typer, yaml"`` instead, the second
baseline: the "vs yaml" column.

Usage::

    .venv/bin/python bench/startup.py            # 20 runs of each, median
    .venv/bin/python bench/startup.py --runs 50 --json
    .venv/bin/python bench/startup.py --modules engine          # where one command's time goes
    .venv/bin/python bench/startup.py --modules --yaml replay fixtures/replays/quick-4p.yaml --json

Each command runs as a fresh process (stdin empty, output discarded) after one
warm-up run, the commands interleaved run by run; the figure is the median
wall-clock time. The CPU time of each run (user + system, from the kernel's
accounting of the child) is reported too: on a machine other work keeps busy,
the wall-clock times swell with waiting while the CPU times stay put, so the
"cpu" ratios are the ones to read there. A second pass with
``python -X importtime`` lists any heavy module a command loaded. This is a
benchmark: it reports, it asserts nothing (the import rule itself is checked by
``tests/test_cli.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


YAML_BASE = 'python -c "import typer, yaml"'
FROZEN_BASE = 'python -c "import typer, gc; gc.freeze()"'
# commands that read YAML from a file: measured against YAML_BASE
READS_YAML = {"hearts replay RECORD --json", "hearts explain 4D --record RECORD",
              "hearts new --no-play  (settings.yaml)"}


def cases() -> list[tuple[str, list[str]]]:
    h = hearts_command()
    return [
        ('python -c "import typer"', [sys.executable, "-c", "import typer"]),
        (YAML_BASE, [sys.executable, "-c", "import typer, yaml"]),
        ("hearts --version", h + ["--version"]),
        ("hearts rules", h + ["rules"]),
        ("hearts rules --tips --json", h + ["rules", "--tips", "--json"]),
        ("hearts explain 4D --code ... --moves ...", h + ["explain", "4D", "--code", CODE, "--moves", MOVES]),
        ("hearts engine  (immediate EOF)", h + ["engine"]),
        ("hearts replay RECORD --json", h + ["replay", str(REPLAY_RECORD), "--json"]),
        ("hearts explain 4D --record RECORD", h + ["explain", "4D", "--record", str(REPLAY_RECORD)]),
        ("hearts new --no-play  (settings.yaml)", h + ["new", "--code", CODE, "--no-play", "--plain"]),
        ("hearts replay --code ... --moves ... --json", h + ["replay", "--code", CODE, "--moves", MOVES, "--json"]),
        ("hearts stats  (empty archive)", h + ["stats"]),
        # for reference, not a goal: the baseline sparing its exit the last garbage
        # collection as ``hearts`` does (``cli._spare_the_exit``)
        (FROZEN_BASE, [sys.executable, "-c", "import typer, gc; gc.freeze()"]),
    ]


def time_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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


# Run in a fresh process by --modules: after the baseline's imports, each module's own
# import time (CPU, without the modules it imports) and the whole command's.
_MODULES_CHILD = r"""
import sys, time
import typer
if __YAML__:
    import yaml
own, stack = {}, [0.0]

class Timed:
    def find_spec(self, name, path, target=None):
        for finder in sys.meta_path[1:]:
            spec = getattr(finder, "find_spec", lambda *a: None)(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or isinstance(loader, type) or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module):
            stack.append(0.0)
            start = time.thread_time()
            try:
                run(module)
            finally:
                took = time.thread_time() - start
                own[name] = took - stack.pop()
                stack[-1] += took
        loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Timed())
began = time.thread_time()

def report():
    own["(the whole command)"] = time.thread_time() - began
    sys.__stderr__.write("MODULES " + repr(own) + "\n")

import atexit
atexit.register(report)
sys.argv = ["hearts"] + __ARGS__
from hearts_cli.cli.app import main
main()
"""


def module_times(command: list[str], runs: int, with_yaml: bool, env: dict[str, str]) -> dict[str, float]:
    """Milliseconds of CPU each module's own code takes to import when ``hearts COMMAND`` runs
    (after ``import typer`` and, with ``with_yaml``, ``import yaml``), best of ``runs``."""
    import ast

    code = _MODULES_CHILD.replace("__YAML__", repr(with_yaml)).replace("__ARGS__", repr(command))
    best: dict[str, float] = {}
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env, text=True, check=False)
        line = next((x for x in proc.stderr.splitlines() if x.startswith("MODULES ")), None)
        if line is None:
            raise SystemExit(proc.stderr)
        for name, took in ast.literal_eval(line[len("MODULES "):]).items():
            best[name] = min(best.get(name, took * 1000), took * 1000)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per command (median reported)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--modules", nargs=argparse.REMAINDER, metavar="COMMAND",
                        help="instead: the import time of each module one hearts command loads (best of --runs)")
    parser.add_argument("--yaml", action="store_true", help="with --modules: PyYAML counts as baseline")
    args = parser.parse_args()
    if args.modules is not None:
        command = list(args.modules)
        if command[:1] == ["--yaml"]:
            args.yaml, command = True, command[1:]
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, HEARTS_HOME=home, HEARTS_LANG="en", PYTHONDONTWRITEBYTECODE="")
            best = module_times(command, args.runs, args.yaml, env)
        whole = best.pop("(the whole command)")
        base = "import typer, yaml" if args.yaml else "import typer"
        print(f"hearts {' '.join(command)}: {whole:.2f} ms of CPU after `{base}` (best of {args.runs}), "
              f"{sum(best.values()):.2f} ms of it importing:")
        for name, took in sorted(best.items(), key=lambda kv: -kv[1]):
            if took >= 0.05:
                print(f"  {took:6.2f} ms  {name}")
        return 0

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HEARTS_HOME=home, HEARTS_LANG="en", PYTHONDONTWRITEBYTECODE="")
        Path(home, "settings.yaml").write_text("confirm: false\ndelay: 0\n", encoding="utf-8")
        todo = cases()
        times: dict[str, list[float]] = {label: [] for label, _ in todo}
        cpu: dict[str, list[float]] = {label: [] for label, _ in todo}
        for _, argv in todo:
            time_once(argv, env)  # warm the file cache and the bytecode
        # interleaved: each round runs every command once, so a busy moment
        # on the machine weighs on all of them alike
        for _ in range(args.runs):
            for label, argv in todo:
                wall, used = time_once(argv, env)
                times[label].append(wall)
                cpu[label].append(used)
        results = [{
            "command": label,
            "median_ms": round(statistics.median(times[label]) * 1000, 1),
            "min_ms": round(min(times[label]) * 1000, 1),
            "cpu_median_ms": round(statistics.median(cpu[label]) * 1000, 1),
            "cpu_min_ms": round(min(cpu[label]) * 1000, 1),
            "heavy_imports": heavy_imports(argv, env),
        } for label, argv in todo]
    base = results[0]["median_ms"]
    yaml_row = next(r for r in results if r["command"] == YAML_BASE)
    for r in results:
        r["ratio"] = round(r["median_ms"] / base, 2)
        r["ratio_yaml"] = round(r["median_ms"] / yaml_row["median_ms"], 2) if r["command"] in READS_YAML else None
        r["cpu_ratio"] = round(r["cpu_median_ms"] / results[0]["cpu_median_ms"], 2)
        r["cpu_ratio_yaml"] = (round(r["cpu_median_ms"] / yaml_row["cpu_median_ms"], 2)
                               if r["command"] in READS_YAML else None)

    if args.json:
        print(json.dumps({"runs": args.runs, "python": sys.version.split()[0], "results": results}, indent=2))
        return 0
    print(f"start-up, median of {args.runs} runs (Python {sys.version.split()[0]}); goal: ratio <= 1.3")
    width = max(len(r["command"]) for r in results)
    print(f"{'command':<{width}}  {'median':>9}  {'min':>9}  {'ratio':>5}  {'vs yaml':>7}  "
          f"{'cpu med':>9}  {'cpu ratio':>9}  {'cpu vs yaml':>11}  heavy imports")
    for r in results:
        heavy = ", ".join(r["heavy_imports"]) or "none"
        vs_yaml = f"{r['ratio_yaml']:.2f}" if r["ratio_yaml"] is not None else "-"
        cpu_vs_yaml = f"{r['cpu_ratio_yaml']:.2f}" if r["cpu_ratio_yaml"] is not None else "-"
        print(f"{r['command']:<{width}}  {r['median_ms']:>7.1f}ms  {r['min_ms']:>7.1f}ms  "
              f"{r['ratio']:>5.2f}  {vs_yaml:>7}  {r['cpu_median_ms']:>7.1f}ms  {r['cpu_ratio']:>9.2f}  "
              f"{cpu_vs_yaml:>11}  {heavy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
