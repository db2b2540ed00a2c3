"""Duplicate-match strength benchmark for the CPU levels (a thin printer over hearts_cli.bots.match).

    python bench/strength.py --seats hard,normal,normal,normal --deals 400
    python bench/strength.py --seats easy,random,random,random --deals 400 --preset quick
    python bench/strength.py --preset cancellation --seats hard,normal,easy,hard,normal,easy,hard,normal \
        --deals 100 --out FILE.jsonl

Each deal is played once per rotation of the seats (8 rotations at an 8-seat
table), so every level plays every hand from every seat; the table gives each
level's mean points per round with a 95% confidence interval (over deals), and
its decision time (wall clock: median and 95th percentile over every play
decision, forced ones included; "unforced" leaves out moves with a single legal
card). With several levels at the table, the ladder follows: for each level
and the next stronger one, the mean per deal of the stronger level's points
minus the weaker's, with its 95% confidence interval (paired over deals;
negative: the stronger level takes fewer points).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import json
import math
import statistics

from bench.bots import level
from hearts_cli.bots import LEVELS
from hearts_cli.bots.match import DealResult, play_deal, summarize
from hearts_cli.model.rules import Rules


def _one(args):
    preset, players, seats, index, label, sims = args
    rules = Rules.from_spec(preset)
    if players:
        rules = rules.replace(players=players)
    return play_deal(rules, seats, index, label, sims)


def ladder(seats: list[str], results: list[DealResult]) -> list[tuple[str, str, float, float]]:
    """``(weaker, stronger, mean, ci95)`` for each level and the next stronger one at the
    table (the order of bots.LEVELS, weakest first): the per-deal difference stronger
    minus weaker, paired over deals."""
    order = [lv for lv in LEVELS if lv in seats]
    out = []
    for weak, strong in itertools.pairwise(order):
        diffs = [r.points[strong] - r.points[weak] for r in results]
        mean = statistics.fmean(diffs)
        ci = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        out.append((weak, strong, mean, ci))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", default="hard,normal,normal,normal",
                    help="comma-separated levels, one per seat (random, easy, normal, hard, a bench "
                         "short name such as hard0, or module:Class)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--preset", default="quick")
    ap.add_argument("--players", type=int, default=None, help="players (default: the preset's; must match --seats)")
    ap.add_argument("--simulations", type=int, default=None, help="Hard's budget (deals sampled per decision)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (timings are per process)")
    ap.add_argument("--label", default="bench", help="names the deal codes; change it for fresh deals")
    ap.add_argument("--out", default=None,
                    help="a JSON-lines file: each finished deal is appended, and a rerun skips the deals "
                         "already there (same seats, preset and label) and counts them in the summary")
    a = ap.parse_args(argv)
    seats = [level(x) for x in a.seats.split(",")]  # a bench short name (hard0) is its hook
    sims = dict.fromkeys(seats, a.simulations) if a.simulations else None
    key = {"seats": a.seats.split(","), "preset": a.preset, "players": a.players, "label": a.label,
           "simulations": a.simulations}
    done: dict[int, DealResult] = {}
    if a.out and Path(a.out).exists():
        for line in Path(a.out).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["key"] == key and row["index"] < a.deals:
                done[row["index"]] = DealResult(row["index"], row["points"], row["times"], row["forced"])
    jobs = [(a.preset, a.players, seats, i, a.label, sims) for i in range(a.deals) if i not in done]
    t0 = time.perf_counter()
    results = list(done.values())
    if a.jobs > 1:
        ex = ProcessPoolExecutor(a.jobs)
        stream = ex.map(_one, jobs, chunksize=4)
    else:
        ex = None
        stream = map(_one, jobs)
    with open(a.out, "a", encoding="utf-8") if a.out else contextlib.nullcontext() as out:
        for r in stream:
            results.append(r)
            if out:
                out.write(json.dumps({"key": key, "index": r.index, "points": r.points, "times": r.times,
                                      "forced": r.forced}) + "\n")
                out.flush()
    if ex:
        ex.shutdown()
    results.sort(key=lambda r: r.index)
    res = summarize(seats, results)
    print(f"preset {a.preset}, seats {','.join(seats)}, {res.deals} deals x {len(seats)} rotations, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"{'level':8} {'pts/round':>10} {'95% CI':>8} {'decisions':>10} {'median ms':>10} "
          f"{'p95 ms':>8} {'median unforced':>16}")
    for st in res.stats.values():
        print(f"{st.level:8} {st.mean:10.2f} {st.ci95:8.2f} {st.decisions:10d} {st.median_ms:10.2f} "
              f"{st.p95_ms:8.2f} {st.median_ms_unforced:16.2f}")
    levels = list(res.stats)
    if len(levels) == 2:
        print(f"ratio {levels[0]}/{levels[1]}: {res.ratio(levels[0], levels[1]):.3f}")
    for weak, strong, mean, ci in ladder(seats, results):
        verdict = "stronger" if mean + ci < 0 else "weaker" if mean - ci > 0 else "not separated"
        print(f"{strong} - {weak}: {mean:+.2f} ± {ci:.2f} points per round ({verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
