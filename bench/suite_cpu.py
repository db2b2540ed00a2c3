"""Where the test suite's time goes: the CPU and the wall-clock time of each test.

As a pytest plugin, it writes one JSON line per test: its CPU (user + system, of
the worker's process and of the child processes it waited for) and its wall-clock
time, from setup to teardown. "Idle" is the wall-clock time the test's processes
did not use a core: pauses it waits out, answers it waits for. A golden step runs
in a fork of a server process (tests/golden/forkserver.py), whose CPU is counted
when that server ends, so the golden cases' own figures are not to be read one by
one; their sum is right. Run from the top of a checkout::

    PYTHONPATH=bench .venv/bin/python -m pytest -n 2 -p suite_cpu     # writes .suite_cpu/*.jsonl
    .venv/bin/python bench/suite_cpu.py                                # by file, then the top tests
    .venv/bin/python bench/suite_cpu.py --top 40 --by idle

Run it on a quiet machine: on a busy one, waiting for a core counts as CPU
nowhere and shows as idle. A benchmark: it reports, it asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUT = Path(".suite_cpu")

_out: Any = None


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def pytest_configure(config: Any) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller: a fresh run starts empty
        OUT.mkdir(exist_ok=True)
        for old in OUT.glob("*.jsonl"):
            old.unlink()


def _hookwrapper(fn: Any) -> Any:
    import pytest

    return pytest.hookimpl(hookwrapper=True)(fn)


@_hookwrapper
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    global _out
    if _out is None:
        OUT.mkdir(exist_ok=True)
        _out = open(OUT / f"{os.getpid()}.jsonl", "a", encoding="utf-8")  # noqa: SIM115 - the run's
    cpu, wall = _cpu(), time.perf_counter()
    yield
    _out.write(json.dumps({"id": item.nodeid, "cpu": round(_cpu() - cpu, 4),
                           "wall": round(time.perf_counter() - wall, 4)}) + "\n")
    _out.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="how many tests to list")
    parser.add_argument("--by", choices=("cpu", "wall", "idle"), default="cpu")
    args = parser.parse_args()
    rows = [json.loads(line) for path in sorted(OUT.glob("*.jsonl")) for line in path.open(encoding="utf-8")]
    if not rows:
        raise SystemExit(f"no figures in {OUT}/: run the suite with -p suite_cpu first (see --help)")
    for r in rows:
        r["idle"] = max(0.0, r["wall"] - r["cpu"])
    workers = len(list(OUT.glob("*.jsonl")))
    print(f"{len(rows)} tests on {workers} worker(s): CPU {sum(r['cpu'] for r in rows):.0f} s, "
          f"wall {sum(r['wall'] for r in rows):.0f} s, idle {sum(r['idle'] for r in rows):.0f} s (summed)")
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for r in rows:
        f = files[r["id"].split("::")[0]]
        f[0] += r["cpu"]
        f[1] += r["wall"]
        f[2] += r["idle"]
        f[3] += 1
    key = {"cpu": 0, "wall": 1, "idle": 2}[args.by]
    print(f"\n{'file':44} {'cpu s':>7} {'wall s':>7} {'idle s':>7} {'tests':>6}")
    for name, (cpu, wall, idle, n) in sorted(files.items(), key=lambda x: -x[1][key])[:args.top]:
        print(f"{name:44} {cpu:7.1f} {wall:7.1f} {idle:7.1f} {n:6d}")
    print(f"\n{'cpu s':>7} {'wall s':>7} {'idle s':>7}  test")
    for r in sorted(rows, key=lambda r: -r[args.by])[:args.top]:
        print(f"{r['cpu']:7.2f} {r['wall']:7.2f} {r['idle']:7.2f}  {r['id']}")


if __name__ == "__main__":
    main()
