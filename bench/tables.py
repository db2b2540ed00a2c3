"""Load on the table server: one host process, many tables of 4 scripted clients, loopback only.

For each number of tables (1, 50 and 200 by default) a fresh host process
(``hearts_cli.tables.Server``, one ``SharedTable`` per table, four seats for
people, no CPU, no save) serves the tables while one client process (asyncio)
plays all their seats over 127.0.0.1: each client answers its seat's view
after a think time (``--think``, default 0.1 s, drawn between half and one and
a half times that, so tables do not move in step; a table then moves about as
fast as four quick bots), for ``--seconds`` seconds. Games run to a target no game
reaches in that time, so every table stays busy throughout.

Reported, per number of tables:

- tables held: tables whose four clients were all seated and moving at the end;
- moves/s: passes and cards played, all tables together (after a warm-up,
  ``--warmup``, default 3 s: the tables all sit down and pass at once at first,
  which no real server sees);
- host CPU, clients CPU: CPU seconds per second used by the host process and
  by the clients' process (1.0 is one core kept busy), and the host's CPU
  time per move: what the server costs, however busy the machine is;
- latency: from the moment a client sends a move to the moment each of the
  three other clients at the table reads that move (the ``play`` or ``pass``
  event), median and 99th percentile, in milliseconds (one clock: every client
  lives in the same process).

Usage::

    .venv/bin/python bench/tables.py                       # 1, 50, 200 tables, 10 s each
    .venv/bin/python bench/tables.py --tables 200 --seconds 20 --think 0.05
    .venv/bin/python bench/tables.py --json

A benchmark: it reports, it asserts nothing. Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# ---------------------------------------------------------------- the host process


async def _serve(tables: int, seconds: float) -> None:
    from hearts_cli.codes import new_code
    from hearts_cli.engine import Game
    from hearts_cli.rules import Rules
    from hearts_cli.tables import SeatState, Server, SharedTable, new_token

    rules = Rules.from_spec({"preset": "quick", "target": 100000})
    server = Server("en")
    made = []
    for _ in range(tables):
        seats = [SeatState(True, new_token(s), f"P{s}", None) for s in range(4)]
        tb = SharedTable(Game(rules, new_code()), seats, bot_threads=False)
        server.add(tb)
        made.append(tb)
    port = await server.start("127.0.0.1", 0)
    print(json.dumps({"port": port, "tokens": [[s.token for s in tb.seats] for tb in made]}), flush=True)
    async def when_seated(tb: SharedTable) -> None:  # no CPU plays a seat before its client is there
        while not all(tb.present(s) for s in range(4)):
            await asyncio.sleep(0.01)
        await tb.run()

    runners = [asyncio.create_task(when_seated(tb)) for tb in made]
    await asyncio.sleep(seconds)
    for r in runners:
        r.cancel()
    await server.close()


# ---------------------------------------------------------------- the clients


class TableClients:
    def __init__(self) -> None:
        self.sent: dict[tuple, float] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.seated = 0


async def _client(port: int, token: str, shared: TableClients, think: float, stop: float,
                  warm: float) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(json.dumps({"cmd": "hello", "token": token, "name": "bench"}).encode() + b"\n")
    seat = None
    asked = None
    rng = random.Random(token)
    pending: asyncio.Task | None = None

    async def move(request: dict, key: tuple) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))  # people (and bots) do not move in step
        if time.monotonic() >= stop:
            return
        shared.sent[key] = time.monotonic()
        writer.write(json.dumps(request).encode() + b"\n")

    try:
        while time.monotonic() < stop:
            try:
                line = await asyncio.wait_for(reader.readline(), max(0.01, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not line:
                break
            msg = json.loads(line)
            kind = msg.get("event")
            if kind == "welcome":
                seat = msg["seat"]
                shared.seated += 1
            elif kind == "play" or kind == "pass":
                key = (kind, msg["round"], msg.get("trick"), msg["seat"])
                if msg["seat"] == seat:
                    if time.monotonic() >= warm:
                        shared.moves += 1
                else:
                    t0 = shared.sent.get(key)
                    if t0 is not None and t0 >= warm:  # steady state: not the 800 first passes at once
                        shared.latencies.append(time.monotonic() - t0)
            elif kind == "view" and msg["phase"] != "over":
                state = (msg["round"], msg["phase"], msg["tricks_played"], len(msg["trick"]))
                if state == asked:
                    continue
                if msg["phase"] == "pass" and msg["passed"] is None and msg["legal"]:
                    asked = state
                    pending = asyncio.create_task(move({"cmd": "pass", "cards": msg["hand"][:3]},
                                                       ("pass", msg["round"], None, seat)))
                elif msg["phase"] == "play" and msg["turn"] == seat:
                    asked = state
                    pending = asyncio.create_task(move({"cmd": "play", "card": msg["legal"][-1]},
                                                       ("play", msg["round"], msg["trick_number"], seat)))
    finally:
        if pending is not None:
            pending.cancel()
        writer.close()


async def _play(port: int, tokens: list[list[str]], think: float, seconds: float, warmup: float) -> dict:
    warm = time.monotonic() + warmup
    stop = warm + seconds
    tables = [TableClients() for _ in tokens]
    tasks = []
    for shared, seats in zip(tables, tokens):
        for tok in seats:
            tasks.append(asyncio.create_task(_client(port, tok, shared, think, stop, warm)))
    t0 = time.monotonic()
    for problem in await asyncio.gather(*tasks, return_exceptions=True):
        if problem is not None:
            print("client failed:", repr(problem), file=sys.stderr)
    elapsed = time.monotonic() - t0 - warmup
    lat = sorted(x for t in tables for x in t.latencies)
    moves = sum(t.moves for t in tables)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {"tables": len(tokens), "held": sum(1 for t in tables if t.seated == 4 and t.moves > 0),
            "moves": moves, "moves_per_s": round(moves / elapsed, 1), "samples": len(lat),
            "latency_ms_median": round(1000 * statistics.median(lat), 2) if lat else None,
            "latency_ms_p99": round(pct(0.99), 2) if lat else None,
            "latency_ms_max": round(1000 * lat[-1], 2) if lat else None}


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def measure(tables: int, seconds: float, think: float, warmup: float) -> dict:
    host = subprocess.Popen([sys.executable, __file__, "--serve", str(tables), "--seconds",
                             str(seconds + warmup + 10)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = json.loads(host.stdout.readline())
        before_host, before_me = _cpu(host.pid), time.process_time()
        row = asyncio.run(_play(first["port"], first["tokens"], think, seconds, warmup))
        # CPU seconds per second of the run: the host process, and this (clients') process
        row["host_cpu"] = round((_cpu(host.pid) - before_host) / (seconds + warmup), 2)
        row["clients_cpu"] = round((time.process_time() - before_me) / (seconds + warmup), 2)
        # the host's CPU per move (passes and cards, all tables), whatever else the machine runs
        row["host_us_per_move"] = round(1e6 * row["host_cpu"] / row["moves_per_s"]) if row["moves_per_s"] else None
        return row
    finally:
        host.kill()
        host.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="*", default=[1, 50, 200])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think", type=float, default=0.1, help="seconds a client waits before each move")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds of play before latencies are counted")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve is not None:
        asyncio.run(_serve(args.serve, args.seconds))
        return
    load_before = os.getloadavg()[0]
    rows = [measure(n, args.seconds, args.think, args.warmup) for n in args.tables]
    load = f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    if args.json:
        print(json.dumps({"think_s": args.think, "seconds": args.seconds, "cpus": os.cpu_count(), "load": load,
                          "rows": rows}))
        return
    print(f"think {args.think} s, {args.seconds} s per row, {os.cpu_count()} CPUs, {load}")
    print(f"{'tables':>6} {'held':>5} {'moves/s':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'samples':>8}"
          f" {'host CPU':>9} {'clients CPU':>12} {'host us/move':>13}")
    for r in rows:
        print(f"{r['tables']:>6} {r['held']:>5} {r['moves_per_s']:>9} {r['latency_ms_median']:>10} "
              f"{r['latency_ms_p99']:>8} {r['latency_ms_max']:>8} {r['samples']:>8} {r['host_cpu']:>9} "
              f"{r['clients_cpu']:>12} {r['host_us_per_move']:>13}")


if __name__ == "__main__":
    main()
