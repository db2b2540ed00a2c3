"""How fast ``hearts stats`` answers with a big archive.

Fills a temporary ``HEARTS_HOME`` with N archived games (10,000 by default:
real games of the engine, every card a uniformly random legal one, seeded,
mostly `quick`, some `standard` and `omnibus`, CPU levels as `hearts new`
sets them, one game a day apart... so the archive looks like a player's), then
times ``hearts stats`` as a fresh process:

* ``cold``: no index yet, so it is built from the whole archive (every record
  read and re-played through the engine);
* ``warm``: the index is there and up to date (the case the 0.5 s target is
  for), with and without ``--json`` and a filter;
* ``one new``: a game added to the archive behind the index's back;
* ``damaged``: the index file overwritten with garbage (rebuilt from scratch).

Usage::

    .venv/bin/python bench/stats.py                  # 10,000 games, 5 warm runs, median
    .venv/bin/python bench/stats.py --games 2000 --runs 9 --json
    .venv/bin/python bench/stats.py --keep /tmp/h    # leave the archive there

A benchmark: it reports, it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_cli.model.codes import code_from_number  # noqa: E402
from hearts_cli.model.rules import Rules  # noqa: E402
from hearts_cli.play.dealt import Phase  # noqa: E402
from hearts_cli.play.game import Game  # noqa: E402
from hearts_cli.records.record_parts import Seat  # noqa: E402
from hearts_cli.records.record_writer import write_record  # noqa: E402

SEATS = (Seat("South", "human"), Seat("West", "cpu", "easy"), Seat("North", "cpu", "normal"),
         Seat("East", "cpu", "hard"))


def random_game(rules: Rules, code: str, rng: random.Random) -> Game:
    game = Game(rules, code)
    while not game.over:
        rd = game.round
        if rd.phase is Phase.PASS:
            for seat in range(rules.players):
                if rd.passes[seat] is None:
                    game.push_pass(rng.sample(rd.hand(seat), rules.pass_count), seat)
        else:
            game.push(rng.choice(rd.legal_cards()))
    return game


def fill(home: Path, games: int, seed: int = 1) -> float:
    """Write ``games`` archived records under ``home``; returns the seconds it took."""
    rng = random.Random(seed)
    presets = {name: Rules.from_spec(name) for name in ("quick", "standard", "omnibus")}
    archive = home / "archive"
    archive.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    t0 = time.mktime((2020, 1, 1, 12, 0, 0, 0, 0, -1))
    for k in range(games):
        name = rng.choices(("quick", "standard", "omnibus"), (8, 1, 1))[0]
        code = code_from_number(rng.getrandbits(40))
        game = random_game(presets[name], code, rng)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t0 + k * 3600 * 7))
        (archive / f"{stamp}-{code}.yaml").write_text(write_record(game, SEATS), encoding="utf-8")
    return time.perf_counter() - start


def hearts_command() -> list[str]:
    script = Path(sys.executable).with_name("hearts")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hearts_cli"]


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(hearts_command() + args, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"hearts {' '.join(args)} failed: {done.stderr.decode()}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", type=Path, help="build the archive here and leave it")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tmp = None
    if args.keep is not None:
        home = args.keep
    else:
        tmp = tempfile.mkdtemp(prefix="hearts-stats-bench-")
        home = Path(tmp)
    try:
        env = dict(os.environ, HEARTS_HOME=str(home), NO_COLOR="1")
        have = len(list((home / "archive").glob("*.yaml"))) if (home / "archive").is_dir() else 0
        made = fill(home, args.games) if have < args.games else 0.0
        index = home / "stats.sqlite3"
        index.unlink(missing_ok=True)
        result: dict[str, float | int] = {"games": args.games, "fill_s": round(made, 1)}
        result["cold_s"] = round(timed(["stats"], env), 3)
        for label, extra in (("warm", []), ("warm_json", ["--json"]),
                             ("warm_filtered", ["--preset", "standard", "--since", "2021-01-01"])):
            result[f"{label}_s"] = round(statistics.median(timed(["stats"] + extra, env)
                                                           for _ in range(args.runs)), 3)
        baseline = [sys.executable, "-c", "import typer"]
        start = time.perf_counter()
        for _ in range(args.runs):
            subprocess.run(baseline, check=True)
        result["python_import_typer_s"] = round((time.perf_counter() - start) / args.runs, 3)
        rng = random.Random(99)
        code = code_from_number(rng.getrandbits(40))
        game = random_game(Rules.from_spec("quick"), code, rng)
        (home / "archive" / f"29991231-235959-{code}.yaml").write_text(write_record(game, SEATS), encoding="utf-8")
        result["one_new_game_s"] = round(timed(["stats"], env), 3)
        index.write_bytes(b"this is not a database" * 100)
        result["damaged_index_s"] = round(timed(["stats"], env), 3)
        (home / "archive" / f"29991231-235959-{code}.yaml").unlink()
        if args.json:
            print(json.dumps(result))
        else:
            for key, value in result.items():
                print(f"{key:>24}  {value}")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
