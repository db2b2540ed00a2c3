"""One level against another on duplicate deals, as a paired difference (resumable).

    nice -n 10 .venv/bin/python bench/versus.py --new hard --old hard0 --deals 1000 --format 1v3 \
        --out bench/versus_hard_hard0.jsonl
    .venv/bin/python bench/versus.py --summary --out bench/versus_hard_hard0.jsonl

Each deal (``match_code(label, index)``, one round, the pass direction
cycling with the index, scored from zero) is played once per rotation of the
seats: ``1v3`` is one ``--new`` seat against three ``--old`` seats, ``3v1``
three against one, so every level plays every hand from every seat. A deal's
result is the mean points per round of the ``new`` seats minus that of the
``old`` seats over its rotations (negative: ``new`` took fewer points, it is
better); the 95% CI is over deals (1.96 standard errors).

``--set MODULE.NAME=VALUE`` (repeatable) changes a constant of a bot module
of ``hearts_cli.bots`` in every process before play, to measure a variant
without editing it in (``--set hard.BELIEF_SPREAD=3 --set playout.FLUSH=1``;
booleans are 0/1). It changes every level that reads that constant (never
``hard0``, which has its own copies), and is recorded in each row as ``set``.

Results go to ``--out`` as JSON lines, one per (deal, format), with every
decision's CPU time of each level; a rerun skips what is already there, so an
interrupted run resumes (and ``--deals`` can be raised later).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tweak import apply

from hearts_cli.bots.match import match_code, play_round
from hearts_cli.model.rules import Rules

SEATINGS = {"1v3": ("new", "old", "old", "old"), "3v1": ("new", "new", "new", "old"),
            "2v2": ("new", "old", "new", "old")}


def play(preset: str, new: str, old: str, fmt: str, index: int, label: str,
         simulations: int | None) -> dict:
    rules = Rules.from_spec(preset)
    n = rules.players
    base = SEATINGS[fmt]
    if n != 4:
        raise SystemExit("four players only")
    code = match_code(label, index)
    round_index = index % len(rules.pass_cycle)
    side_pts = {"new": [], "old": []}
    cpu: dict[str, list[float]] = {"new": [], "old": []}
    sims = None if simulations is None else {new: simulations, old: simulations}
    rotations = 2 if fmt == "2v2" else n
    for r in range(rotations):
        sides = [base[(s + r) % n] for s in range(n)]
        levels = [new if x == "new" else old for x in sides]
        times: dict[str, list[float]] = {}
        scores = play_round(rules, code, round_index, levels, sims, times, clock=time.process_time)
        for x, lv in (("new", new), ("old", old)):
            cpu[x] += times.get(lv, [])
        for s, x in enumerate(sides):
            side_pts[x].append(scores[s])
    nm = statistics.fmean(side_pts["new"])
    om = statistics.fmean(side_pts["old"])
    return {"deal": index, "format": fmt, "label": label, "new": new, "old": old,
            "new_pts": nm, "old_pts": om, "diff": nm - om,
            "cpu_ms": {k: [round(1000 * t, 2) for t in v] for k, v in cpu.items()}}


def _job(args):
    *rest, sets = args
    apply(sets)
    row = play(*rest)
    row["set"] = list(sets)
    return row


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))] if xs else 0.0


def summary(rows: list[dict]) -> None:
    by: dict[tuple, list[dict]] = {}
    for r in rows:
        by.setdefault((r["new"], r["old"], r["format"], r["label"], " ".join(r.get("set", []))), []).append(r)
    for (new, old, fmt, label, sets), rs in sorted(by.items()):
        d = [r["diff"] for r in rs]
        ci = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
        nm = statistics.fmean(r["new_pts"] for r in rs)
        om = statistics.fmean(r["old_pts"] for r in rs)
        named = f"{new} ({sets})" if sets else new
        print(f"{named} vs {old}, {fmt}, label {label}, {len(rs)} deals: {new} {nm:.3f}, {old} {om:.3f} "
              f"pts/round; {new} - {old} = {statistics.fmean(d):+.3f} ± {ci:.3f} (95%)")
        for side, name in (("new", new), ("old", old)):
            ts = [t for r in rs for t in r["cpu_ms"][side]]
            print(f"  {name}: {len(ts)} decisions, CPU ms median {_pct(ts, 0.5):.1f}, "
                  f"p95 {_pct(ts, 0.95):.1f}, max {max(ts) if ts else 0:.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--new", default="hard")
    ap.add_argument("--old", default="hard0")
    ap.add_argument("--format", default="1v3", choices=sorted(SEATINGS))
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--label", default="versus", help="names the deal codes")
    ap.add_argument("--preset", default="quick")
    ap.add_argument("--simulations", type=int, default=None, help="budget of both sides (default: their own)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="a bot constant changed for this run (repeatable), e.g. hard.BELIEF_SPREAD=3")
    ap.add_argument("--out", required=True)
    ap.add_argument("--summary", action="store_true", help="only print the summary of --out")
    a = ap.parse_args(argv)
    if a.new == a.old:  # the decisions of the two sides would be told apart by level
        ap.error("--new and --old must be different levels")
    out = Path(a.out)
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out.exists() else []
    if not a.summary:
        sets = tuple(a.set)
        done = {(r["deal"], r["format"], r["new"], r["old"], r["label"], tuple(r.get("set", ())))
                for r in rows}
        todo = [(a.preset, a.new, a.old, a.format, i, a.label, a.simulations, sets)
                for i in range(a.start, a.start + a.deals)
                if (i, a.format, a.new, a.old, a.label, sets) not in done]
        with out.open("a") as f:
            if a.jobs > 1:
                with ProcessPoolExecutor(a.jobs) as ex:
                    results = ex.map(_job, todo)
                    for row in results:
                        f.write(json.dumps(row) + "\n")
                        f.flush()
                        rows.append(row)
            else:
                for job in todo:
                    row = _job(job)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    rows.append(row)
    summary(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
