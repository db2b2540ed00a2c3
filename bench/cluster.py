"""Deals per second of ``hearts sim``: here, in worker processes, and on a Ray cluster.

    .venv/bin/python bench/cluster.py [--deals 48] [--seats hard,hard,normal,normal]
                                      [--cluster local] [--workers 2]

Plays the same run (the same seed, so the same games) with ``--workers 1``, with
``--workers N`` (processes on this machine) and on a Ray cluster (``--cluster``; a new
local one of N CPUs by default), and prints deals per second for each, wall time only
(Ray's start is timed apart: it is paid once a run). The overhead of a Ray task is
measured alone: tasks that do nothing, sent and collected the way ``hearts sim`` sends
its batches. Then what a 100,000-deal comparison of two bots costs (a duplicate gauntlet
of one pairing: 100,000 deals a half, two halves, every rotation of the seats) at 2, 16
and 128 cores, projected from the rate per core measured here (two Hard seats of four: a
half with Hard alone and a half with Hard at three seats average two).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_cli.bots.match import run_tournament
from hearts_cli.model.rules import load_preset
from hearts_cli.sim import cluster as ray_cluster
from hearts_cli.sim.pool import process_mapper


def rate(seats: list[str], deals: int, mapper: object = None) -> tuple[float, int]:
    """Deals per second (every rotation counted once) and the deals played."""
    rules = load_preset("quick")
    t0 = time.perf_counter()
    games = run_tournament(rules, seats, deals, "bench-cluster", True, None, mapper)  # type: ignore[arg-type]
    played = sum(g.deals for g in games)
    return played / (time.perf_counter() - t0), played


def task_overhead(address: str, workers: int, tasks: int = 400) -> tuple[float, float]:
    """Ray's start (seconds), and the wall time of one empty task, in flight as hearts sim keeps them."""
    import ray

    from hearts_cli.bots.match import run_batch

    t0 = time.perf_counter()
    ray_cluster._start(ray, address, workers)
    started = time.perf_counter() - t0
    task = ray.remote(run_batch)
    ray.get(task.remote(abs, [0]))  # the workers warm
    t0 = time.perf_counter()
    ray.get([task.remote(abs, [0] * ray_cluster.BATCH) for _ in range(tasks)])
    per_task = (time.perf_counter() - t0) / tasks
    ray.shutdown()
    return started, per_task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--seats", default="hard,hard,normal,normal")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cluster", default="local")
    args = parser.parse_args()
    seats = args.seats.split(",")
    print(f"hearts sim --seats {args.seats} --duplicate, preset quick, {args.deals} deals at least")
    one, played = rate(seats, args.deals)
    print(f"  1 worker (this process):      {one:7.2f} deals/s  ({played} deals)")
    many, _ = rate(seats, args.deals, process_mapper(args.workers))
    print(f"  {args.workers} worker processes:          {many:7.2f} deals/s")
    started, per_task = task_overhead(args.cluster, args.workers)
    t0 = time.perf_counter()
    ray, _ = rate(seats, args.deals, ray_cluster.cluster_mapper(args.cluster, args.workers))
    with_start = time.perf_counter() - t0
    ray_rate = played / max(with_start - started, 1e-9)
    print(f"  Ray cluster ({args.cluster}, {args.workers} CPUs): {ray_rate:7.2f} deals/s "
          f"without its start ({ray:.2f} with it; the start: {started:.1f} s)")
    print(f"  Ray task overhead: {1000 * per_task:.2f} ms a task of {ray_cluster.BATCH} jobs "
          f"(empty tasks, {2 * args.workers} in flight... sent as hearts sim sends them)")
    per_core = max(many, ray_rate) / args.workers
    work = 100_000 * 2  # a pairing's two halves of 100,000 deals (every rotation inside a deal's time)
    print(f"A 100,000-deal comparison (two halves), at {per_core:.2f} deals/s a core:")
    for cores in (2, 16, 128):
        hours = work / (per_core * cores) / 3600
        print(f"  {cores:4d} cores: {hours:7.2f} h")


if __name__ == "__main__":
    main()
