"""Load on the table server: one host process, many tables of 4 scripted clients, loopback only.

For each think time (``--think``, default 1.0 s, a person's pace, and 0.1 s, a
quick bot's) and each number of tables (``--tables``, default 1, 50 and 200),
a fresh host process (``hearts_cli.table.server.Server``, one ``SharedTable`` per
table, four seats for people, no CPU, no save) serves the tables while
separate client processes (``--client-procs``, default 2; each an asyncio loop
playing every seat of its share of the tables) play over 127.0.0.1. Each
client answers its seat's view after a think time drawn between half and one
and a half times ``--think``, so tables do not move in step, for ``--seconds``
seconds after a warm-up (``--warmup``, default 3 s: the tables all sit down
and pass at once at first, which no real server sees). Games run to a target
no game reaches in that time, so every table stays busy throughout.

Reported, per think time and number of tables:

- tables held: tables whose four clients were all seated and moving at the end;
- moves/s: passes and cards played, all tables together (a table moves at most
  once per think time, so 200 tables at 0.1 s ask for about 2000 moves/s);
- latency: from the moment a client writes a move to its socket to the moment
  each of the three other clients at the table reads that move (the ``play``
  or ``pass`` event) off its socket, median and 99th percentile, in
  milliseconds. Sender and receiver stamp ``time.monotonic()`` (CLOCK_MONOTONIC,
  one clock for every process of the machine); the four clients of a table
  live in the same client process;
- host CPU, clients CPU: CPU seconds per second of the measured run used by the
  host process and by all client processes together (1.0 is one core kept
  busy), and the host's CPU time per move: what the server costs, however busy
  the machine is;
- the load average of the machine before the run (other work skews every
  latency: say it with the figures).

``--profile FILE`` runs the host under cProfile (one row only: the last) and
writes its statistics to FILE (``python -m pstats FILE``).

``--soak`` adds a hostile load beside the honest tables (issue 19), from a
process of its own and from loopback addresses other than the honest clients'
127.0.0.1 (which the host exempts from its bounds on connections waiting to say
hello and on hellos: the bench's hundreds of honest clients share that one
address): hundreds of connections
that never say hello, slowloris clients that send a byte a second, 10 MB lines,
wrong invitations, and, at one table of its own whose invitations it holds, a
client that floods and never reads, rejoins with the same invitation every
0.1 s, and requests with a lone surrogate, ``1e999``, wrong types and moves out
of turn. Reported besides: the host's memory (RSS, MB) and file descriptors,
sampled every second (at the start of the measured run, the largest, at the
end), and what it refused, by kind. Run by hand, for a few minutes::

    .venv/bin/python bench/tables.py --soak --tables 50 --think 0.1 --seconds 180

Usage::

    .venv/bin/python bench/tables.py                       # 1 s and 0.1 s, 1, 50, 200 tables, 10 s each
    .venv/bin/python bench/tables.py --think 0.1 --tables 200 --seconds 20
    .venv/bin/python bench/tables.py --think 0.1 --tables 200 --profile /tmp/host.prof
    .venv/bin/python bench/tables.py --json

A benchmark: it reports, it asserts nothing. Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu_self() -> float:
    """CPU seconds (user + system) this process has used."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# ---------------------------------------------------------------- the host process


async def _serve(tables: int, profile: str | None, soak: bool = False) -> None:
    """Open the tables (and one more for the hostile load of ``--soak``, with a CPU at each
    seat its clients leave), print the port and the invitations, serve until stdin says
    ``stop`` (or closes), then print the CPU time used from ``mark`` to ``stop`` and what
    the host refused."""
    from hearts_cli.model.codes import new_code
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.records.record_parts import Seat
    from hearts_cli.table.invitations import new_token
    from hearts_cli.table.seats import TableSeat
    from hearts_cli.table.server import Server
    from hearts_cli.table.shared import SharedTable

    rules = Rules.from_spec({"preset": "quick", "target": 100000})
    server = Server("en", exempt=["127.0.0.1"])  # the honest clients all share 127.0.0.1
    made = []
    for _ in range(tables):
        seats = [TableSeat(Seat(f"P{s}", "human"), new_token(s)) for s in range(4)]
        tb = SharedTable(Game(rules, new_code()), seats, bot_threads=False)
        server.add(tb)
        made.append(tb)
    hostile_seats = [TableSeat(Seat(f"H{s}", "human"), new_token(s)) for s in range(4)]
    if soak:  # its seats are mostly the CPU's (its clients come and go): at the honest tables' pace
        hostile = SharedTable(Game(rules, new_code()), hostile_seats, bot_threads=False, turn_timer=1.0,
                              delay=0.1)
        server.add(hostile)
        asyncio.create_task(hostile.run())  # noqa: RUF006 - it runs until the process ends
    port = await server.start("127.0.0.1", 0)
    print(json.dumps({"port": port, "tokens": [[s.token for s in tb.seats] for tb in made],
                      "hostile": [s.token for s in hostile_seats]}), flush=True)

    async def when_seated(tb: SharedTable) -> None:  # no CPU plays a seat before its client is there
        while not all(tb.present(s) for s in range(4)):
            await asyncio.sleep(0.01)
        await tb.run()

    runners = [asyncio.create_task(when_seated(tb)) for tb in made]  # noqa: F841 - kept until the end
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    profiler = None
    marked = 0.0
    while True:
        order = (await stdin.readline()).strip()
        if order == b"mark":  # the measured part starts
            marked = _cpu_self()
            if profile:
                import cProfile

                profiler = cProfile.Profile()
                profiler.enable()
        else:  # "stop", or the parent went away
            used = _cpu_self() - marked
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            break
    print(json.dumps({"cpu": used, "refused": server.refused}), flush=True)
    os._exit(0)  # at once: the clients are still connected, mid-game (nothing to save, nothing to tell)


# ---------------------------------------------------------------- the clients (own processes)


class TableClients:
    """The four clients of one table: what they sent when, what they measured."""

    def __init__(self) -> None:
        self.sent: dict[tuple, float] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.cpu_moves = 0
        self.seated = 0


async def _client(port: int, token: str, shared: TableClients, think: float, warm: float) -> None:
    """One seat: reads what the table sends (in chunks, as it comes), answers its views.

    Only the lines it acts on are decoded (views, moves, the welcome): what the
    clients' process spends is not the host's, but it shares the machine's cores."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(json.dumps({"cmd": "hello", "token": token, "name": "bench"}).encode() + b"\n")
    seat = None
    asked = None
    rng = random.Random(token)
    loop = asyncio.get_running_loop()
    timer: asyncio.TimerHandle | None = None
    clock = time.monotonic
    loads = json.loads
    sent = shared.sent

    def move(line: bytes, key: tuple) -> None:
        sent[key] = clock()  # just before the bytes go to the socket (write sends at once)
        writer.write(line)

    def answer(request: dict, key: tuple) -> asyncio.TimerHandle:
        line = json.dumps(request).encode() + b"\n"
        # people (and bots) do not move in step: a think time drawn around the one asked
        return loop.call_later(think * rng.uniform(0.5, 1.5), move, line, key)

    rest = b""
    try:
        while True:
            chunk = await reader.read(1 << 16)
            now = clock()  # when these lines were read off the socket
            if not chunk:
                break
            *lines, rest = (rest + chunk).split(b"\n")
            for line in lines:
                head = line[:16]
                if head.startswith((b'{"event":"play"', b'{"event":"pass"')):
                    msg = loads(line)
                    if msg["seat"] == seat:
                        if now >= warm:
                            shared.moves += 1
                            if msg["by"] != "you":  # the CPU moved for this seat (it should not)
                                shared.cpu_moves += 1
                    else:
                        t0 = sent.get((msg["event"], msg["round"], msg.get("trick"), msg["seat"]))
                        if t0 is not None and t0 >= warm:  # steady state: not the first passes all at once
                            shared.latencies.append(now - t0)
                elif head.startswith(b'{"event":"view"'):
                    msg = loads(line)
                    if msg["phase"] == "over":
                        continue
                    state = (msg["round"], msg["phase"], msg["tricks_played"], len(msg["trick"]))
                    if state == asked:
                        continue
                    if msg["phase"] == "pass" and msg["passed"] is None and msg["legal"]:
                        asked = state
                        timer = answer({"cmd": "pass", "cards": msg["hand"][:3]}, ("pass", msg["round"], None, seat))
                    elif msg["phase"] == "play" and msg["turn"] == seat:
                        asked = state
                        timer = answer({"cmd": "play", "card": msg["legal"][-1]},
                                       ("play", msg["round"], msg["trick_number"], seat))
                elif head.startswith(b'{"event":"welco'):
                    seat = loads(line)["seat"]
                    shared.seated += 1
    finally:  # the end of the run cancels every client
        if timer is not None:
            timer.cancel()
        writer.close()


async def _play(port: int, tokens: list[list[str]], think: float, warm: float, stop: float) -> dict:
    tables = [TableClients() for _ in tokens]
    tasks = []
    for shared, seats in zip(tables, tokens):
        for tok in seats:
            tasks.append(asyncio.create_task(_client(port, tok, shared, think, warm)))
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    cpu_end = _cpu_self()
    failures = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for problem in failures[:3]:
        print("client failed:", repr(problem), file=sys.stderr)
    return {"held": sum(1 for t in tables if t.seated == 4 and t.moves > 0),
            "moves": sum(t.moves for t in tables), "cpu_moves": sum(t.cpu_moves for t in tables),
            "latencies": [x for t in tables for x in t.latencies], "cpu_end": cpu_end}


def _clients_main() -> None:
    """A client process: reads its orders (one JSON line), plays, prints what it measured."""
    order = json.loads(sys.stdin.readline())
    warm, stop = order["warm"], order["stop"]
    cpu0 = None

    async def main() -> dict:
        nonlocal cpu0
        loop = asyncio.get_running_loop()

        def mark() -> None:
            nonlocal cpu0
            cpu0 = _cpu_self()
        loop.call_at(warm - time.monotonic() + loop.time(), mark)
        return await _play(order["port"], order["tokens"], order["think"], warm, stop)

    out = asyncio.run(main())
    out["cpu"] = out.pop("cpu_end") - (cpu0 if cpu0 is not None else 0.0)  # from warm to stop
    print(json.dumps(out), flush=True)


# ---------------------------------------------------------------- the hostile load (--soak)


async def _hostile(port: int, tokens: list[str], begin: float, stop: float) -> dict[str, int]:
    """Everything the issue's harness threw at a table, at once and over and over, from ``begin``
    (the end of the warm-up: the honest tables are seated) until ``stop``; from 127.0.0.2 and up (never the honest
    clients' address). Returns what was done, by kind."""
    done: dict[str, int] = {}
    await asyncio.sleep(max(0.0, begin - time.monotonic()))

    def tick(kind: str) -> None:
        done[kind] = done.get(kind, 0) + 1

    async def connect(k: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.{k // 250}.{k % 250 + 2}", 0),
                                             limit=1 << 16)

    async def forever(kind: str, k: int, once) -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await connect(k)
            except OSError:
                await asyncio.sleep(0.2)
                continue
            tick(kind)
            try:
                await once(reader, writer)
            except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            finally:
                writer.transport.abort()
            await asyncio.sleep(0.01)

    async def idle(reader, writer) -> None:  # never a word: held until the host closes it
        await asyncio.wait_for(reader.read(), max(0.1, stop - time.monotonic()))

    async def slowloris(reader, writer) -> None:  # a byte a second, never a whole line
        while time.monotonic() < stop:
            writer.write(b"{")
            await asyncio.sleep(1.0)
            if reader.at_eof():
                return

    async def huge(reader, writer) -> None:  # a 10 MB line
        chunk = b"x" * (1 << 20)
        for _ in range(10):
            writer.write(chunk)
            await writer.drain()
        await asyncio.wait_for(reader.read(), 5)

    async def guess(reader, writer) -> None:  # wrong invitations, junk, wrong types
        writer.write(random.choice([b'{"cmd":"hello","token":"0-AAAAAAAAAAAAAAAAAAAAAA"}\n', b"junk\n",
                                    b'{"cmd":"hello","token":7}\n', b'[[[[[[[[[[[[[[[[\n']))
        await asyncio.wait_for(reader.read(), 5)

    def seated(token: str, body):
        async def run(reader, writer) -> None:
            writer.write(json.dumps({"cmd": "hello", "token": token}).encode() + b"\n")
            await body(reader, writer)
        return run

    async def never_reads(reader, writer) -> None:  # floods, never reads a byte: dropped
        for _ in range(2000):
            writer.write(b'{"cmd":"state"}\n')
            await asyncio.sleep(0.005)
            if writer.transport.is_closing():
                return

    async def rejoin(reader, writer) -> None:  # the same invitation again every 0.1 s
        await asyncio.sleep(0.1)

    weird = [rb'{"cmd":"ping","id":"\udc80x"}', b'{"cmd":"ping","id":1e999}', b'{"cmd":"play","card":7}',
             b'{"cmd":"pass","cards":"QS"}', b'{"cmd":"play","card":"QS"}', b'{"cmd":"moon","choice":[1]}',
             b'{"cmd":"hint"}', b'{"cmd":"pass","cards":["2C","2C","2C"]}', b'{"cmd":"nonsense"}']

    async def wrong_types(reader, writer) -> None:  # strange requests and moves out of turn, read back
        for _ in range(50):
            writer.write(random.choice(weird) + b"\n")
            await asyncio.sleep(0.1)
            try:  # what came back is read (this one reads; another never does)
                await asyncio.wait_for(reader.read(1 << 16), 0.01)
            except TimeoutError:
                pass

    # about a hundred connections that never say hello at any moment, each held by the host for its
    # hello limit, then opened again (thousands over a run): 60 addresses x 1, and 8 x 5 others (8
    # at once from one address is the most a host waits for)
    tasks = [forever("idle", k, idle) for k in range(60)]
    tasks += [forever("idle", 500 + k % 5, idle) for k in range(40)]
    tasks += [forever("slowloris", 700 + k, slowloris) for k in range(50)]
    tasks += [forever("10MB", 800 + k, huge) for k in range(2)]
    tasks += [forever("guess", 810 + k, guess) for k in range(4)]
    tasks += [forever("never_reads", 820, seated(tokens[0], never_reads)),
              forever("rejoin", 821, seated(tokens[1], rejoin)),
              forever("wrong_types", 822, seated(tokens[2], wrong_types))]
    await asyncio.gather(*tasks, return_exceptions=True)
    return done


def _hostile_main() -> None:
    import logging

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # "socket.send() raised exception": ours
    order = json.loads(sys.stdin.readline())
    out = asyncio.run(_hostile(order["port"], order["tokens"], order["begin"], order["stop"]))
    print(json.dumps(out), flush=True)


def _host_sample(pid: int) -> tuple[float, int]:
    """The host's resident memory (MB) and open file descriptors, now (Linux /proc)."""
    rss = 0.0
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


# ---------------------------------------------------------------- one measurement


def measure(tables: int, seconds: float, think: float, warmup: float, procs: int,
            profile: str | None = None, soak: bool = False) -> dict:
    cmd = [sys.executable, __file__, "--serve", str(tables)] + (["--profile", profile] if profile else []) \
        + (["--soak"] if soak else [])
    host = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    clients: list[subprocess.Popen] = []
    try:
        first = json.loads(host.stdout.readline())
        tokens = first["tokens"]
        procs = max(1, min(procs, tables))
        start = time.monotonic() + 0.5  # every client process is up by then
        warm, stop = start + warmup, start + warmup + seconds
        for i in range(procs):
            p = subprocess.Popen([sys.executable, __file__, "--clients"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, cwd=ROOT)
            p.stdin.write(json.dumps({"port": first["port"], "tokens": tokens[i::procs], "think": think,
                                      "warm": warm, "stop": stop}) + "\n")
            p.stdin.flush()
            clients.append(p)
        hostile = None
        if soak:  # once the honest tables are seated (a new connection may be refused while it lasts)
            hostile = subprocess.Popen([sys.executable, __file__, "--hostile"], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, cwd=ROOT)
            hostile.stdin.write(json.dumps({"port": first["port"], "tokens": first["hostile"], "stop": stop,
                                            "begin": warm}) + "\n")
            hostile.stdin.flush()
            clients.append(hostile)
        time.sleep(max(0.0, warm - time.monotonic()))
        host.stdin.write("mark\n")
        host.stdin.flush()
        samples = [_host_sample(host.pid)] if soak else []
        while time.monotonic() < stop - 1.0 and soak:
            time.sleep(1.0)
            samples.append(_host_sample(host.pid))
        time.sleep(max(0.0, stop - time.monotonic()))
        if soak:
            samples.append(_host_sample(host.pid))
        host.stdin.write("stop\n")  # the host's CPU is counted from warm to stop, as the moves are
        host.stdin.flush()
        elapsed = stop - warm
        parts = [json.loads(p.communicate()[0]) for p in clients if p is not hostile]
        done = json.loads(hostile.communicate()[0]) if hostile is not None else None
        host_end = json.loads(host.stdout.readline())
        host_cpu = host_end["cpu"]
    finally:
        for p in clients + [host]:
            if p.poll() is None:
                p.kill()
            p.wait()
    lat = sorted(x for part in parts for x in part["latencies"])
    moves = sum(part["moves"] for part in parts)

    def pct(p: float) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else None

    row = {"think_s": think, "tables": tables, "held": sum(part["held"] for part in parts), "moves": moves,
           "cpu_moves": sum(part["cpu_moves"] for part in parts),
           "moves_per_s": round(moves / elapsed, 1), "samples": len(lat),
           "latency_ms_median": round(1000 * statistics.median(lat), 2) if lat else None,
           "latency_ms_p99": pct(0.99), "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
           "host_cpu": round(host_cpu / elapsed, 2),
           "clients_cpu": round(sum(part["cpu"] for part in parts) / elapsed, 2),
           "client_procs": procs}
    row["host_us_per_move"] = round(1e6 * host_cpu / moves) if moves else None
    if soak:
        row["host_rss_mb"] = [round(samples[0][0], 1), round(max(x[0] for x in samples), 1), round(samples[-1][0], 1)]
        row["host_fds"] = [samples[0][1], max(x[1] for x in samples), samples[-1][1]]
        row["hostile"] = done
        row["refused"] = host_end.get("refused")
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="*", default=[1, 50, 200])
    ap.add_argument("--think", type=float, nargs="*", default=[1.0, 0.1],
                    help="seconds a client waits before each move (each value is a series of rows)")
    ap.add_argument("--seconds", type=float, default=10.0, help="measured seconds per row")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds of play before anything is counted")
    ap.add_argument("--client-procs", type=int, default=2, help="client processes (tables shared among them)")
    ap.add_argument("--profile", metavar="FILE", help="cProfile the host during the last row, stats to FILE")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--soak", action="store_true", help="a hostile load beside the honest tables (issue 19)")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--hostile", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve is not None:
        asyncio.run(_serve(args.serve, args.profile, args.soak))
        return
    if args.clients:
        _clients_main()
        return
    if args.hostile:
        _hostile_main()
        return
    runs = [(think, n) for think in args.think for n in args.tables]
    rows = []
    for i, (think, n) in enumerate(runs):
        load = os.getloadavg()[0]
        row = measure(n, args.seconds, think, args.warmup, args.client_procs,
                      args.profile if i == len(runs) - 1 else None, soak=args.soak)
        row["load_before"] = round(load, 2)
        rows.append(row)
        if not args.json:
            if i == 0:
                print(f"{args.seconds} s per row after {args.warmup} s of warm-up, {os.cpu_count()} CPUs, "
                      f"{args.client_procs} client processes")
                print(f"{'think s':>7} {'tables':>6} {'held':>5} {'moves/s':>8} {'median ms':>9} {'p99 ms':>7}"
                      f" {'max ms':>7} {'samples':>7} {'host CPU':>8} {'clients CPU':>11} {'host us/move':>12}"
                      f" {'load':>5}")
            r = row
            print(f"{r['think_s']:>7} {r['tables']:>6} {r['held']:>5} {r['moves_per_s']:>8} "
                  f"{r['latency_ms_median']:>9} {r['latency_ms_p99']:>7} {r['latency_ms_max']:>7} "
                  f"{r['samples']:>7} {r['host_cpu']:>8} {r['clients_cpu']:>11} {r['host_us_per_move']:>12}"
                  f" {r['load_before']:>5}", flush=True)
            if args.soak:
                print(f"  host RSS MB (start, max, end): {r['host_rss_mb']}; descriptors: {r['host_fds']};"
                      f" CPU moves for honest seats: {r['cpu_moves']}")
                print(f"  hostile load: {r['hostile']}")
                print(f"  refused by the host: {r['refused']}", flush=True)
    if args.json:
        print(json.dumps({"seconds": args.seconds, "warmup": args.warmup, "cpus": os.cpu_count(), "rows": rows}))


if __name__ == "__main__":
    main()
