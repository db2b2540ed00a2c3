"""How the standings before a round tell who wins the game: the data behind Hard's game value.

Hard values a playout that does not end the game by the seat's chance of winning it from the
standings after the round (``hearts_cli.bots.hard.win_chance``): a softmax of the totals,
``exp(-b * total)`` over every seat's, sharpened as the leader nears the target
(``b = STANDINGS_SCALE / sqrt(gap + STANDINGS_OFFSET)``, ``gap`` the points the highest total
still lacks). This script plays whole games (four Normals by default, from ``--seed``), keeps
the totals before every round and who won, and fits ``b`` by maximum likelihood, first for each
band of ``gap`` alone, then the two constants together::

    .venv/bin/python -m bench.standings --games 3000 --seed st1 --workers 2
    .venv/bin/python -m bench.standings --games 1500 --seed st2 --preset standard

A shared win counts as a share for each winner.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from hearts_cli.bots.hard import winning_shares
from hearts_cli.bots.match import match_code, play_game
from hearts_cli.model.rules import load_preset

Row = tuple[tuple[int, ...], tuple[int, ...]]  # (totals before a round, winners)


def game_rows(args: tuple[str, str, int, tuple[str, ...]]) -> tuple[int, list[Row]]:
    """One game's rows: the totals before each of its rounds, each with the game's winners."""
    preset, seed, index, levels = args
    rules = load_preset(preset)
    play = play_game(rules, match_code(seed, index), levels)
    totals = [0] * rules.players
    rows: list[Row] = []
    for log in play.rounds:
        rows.append((tuple(totals), play.winners))
        totals = [t + s for t, s in zip(totals, log.scores)]
    return rules.target, rows


def _log_chance(before: Sequence[int], winners: Sequence[int], b: float) -> float:
    """The winners' log chance from the totals ``before`` under the softmax of slope ``b``."""
    shares = winning_shares(before, b)
    return sum(math.log(shares[w]) for w in winners) / len(winners)


def log_likelihood(rows: Sequence[Row], target: int, scale: float, offset: float) -> float:
    """The rows' log chance with ``b = scale / sqrt(gap + offset)``."""
    return sum(_log_chance(before, winners, scale / math.sqrt(max(target - max(before), 0) + offset))
               for before, winners in rows)


def fit_band(rows: Sequence[Row]) -> float:
    """The best ``b`` for the rows of one band of ``gap`` alone."""
    return max((sum(_log_chance(before, winners, b / 1000) for before, winners in rows), b / 1000)
               for b in range(0, 600, 2))[1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="standings")
    parser.add_argument("--preset", default="quick")
    parser.add_argument("--levels", default="normal,normal,normal,normal")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="write the rows here (JSON) as well")
    ns = parser.parse_args(argv)
    levels = tuple(ns.levels.split(","))
    jobs = [(ns.preset, ns.seed, i, levels) for i in range(ns.games)]
    with ProcessPoolExecutor(ns.workers) as pool:
        done = list(pool.map(game_rows, jobs, chunksize=20))
    target = done[0][0]
    rows = [row for _, game in done for row in game]
    if ns.out:
        with open(ns.out, "w", encoding="utf-8") as f:
            json.dump({"target": target, "rows": rows}, f)
    print(f"{len(rows)} rounds of {ns.games} games, target {target}")
    width = max(target // 10, 5)
    for lo in range(0, target + width, width):
        band = [r for r in rows if lo <= max(target - max(r[0]), 0) < lo + width and max(r[0]) > min(r[0])]
        if len(band) >= 30:
            print(f"gap {lo:3}-{lo + width - 1:3}: {len(band):5} rounds, b = {fit_band(band):.3f}")
    best = max((log_likelihood(rows, target, s / 100, o), s / 100, o)
               for s in range(5, 100, 5) for o in (1, 2, 5, 10, 20, 40))
    ll, scale, offset = best
    flat = sum(math.log(1 / len(r[0])) for r in rows)
    print(f"fit: scale {scale}, offset {offset}: log-likelihood {ll:.1f} (all equal: {flat:.1f})")


if __name__ == "__main__":
    main()
