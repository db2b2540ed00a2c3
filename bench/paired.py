"""Two levels in the same seat of the same whole games, compared game by game.

``hearts sim --seats X,normal,normal,normal --duplicate --json`` plays every game once per
rotation; run it for two levels X with the same seeds and deals, then give the two sets of
results: this pairs them by seed and game, takes each game's share won by X (over its
rotations, a shared win counted as a share) and its points a round, and prints the mean
difference with its standard error, so a gain is told from the luck of the deals::

    .venv/bin/python -m bench.paired NEW-docs.json NEW-bars.json --old OLD-docs.json OLD-bars.json

The level is the seat that is not ``--field`` (``normal``).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path

Game = tuple[float, float]  # (share of the game won over its rotations, points a round)


def games_of(path: str, field: str) -> tuple[str, str, dict[int, Game]]:
    """The seed, the level and each game's (share won, points a round) for the level."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: dict[int, Game] = {}
    level = ""
    for game in data["game_log"]:
        won = points = rounds = 0.0
        for play in game["plays"]:
            seat = next(s for s, lv in enumerate(play["seats"]) if lv != field)
            level = play["seats"][seat]
            if seat in play["winners"]:
                won += 1 / len(play["winners"])
            points += sum(r["scores"][seat] for r in play["rounds"])
            rounds += len(play["rounds"])
        out[game["game"]] = (won / len(game["plays"]), points / rounds)
    return data["seed"], level, out


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(len(xs) - 1, 1)
    return m, math.sqrt(var / len(xs))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="the new level's results")
    parser.add_argument("--old", nargs="+", required=True, help="the old level's results")
    parser.add_argument("--field", default="normal")
    ns = parser.parse_args(argv)
    runs = [{seed: (lv, g) for seed, lv, g in (games_of(p, ns.field) for p in files)}
            for files in (ns.files, ns.old)]
    new, old = runs
    won: list[float] = []
    pts: list[float] = []
    names = ("", "")
    for seed in sorted(new.keys() & old.keys()):
        (a_lv, a), (b_lv, b) = new[seed], old[seed]
        names = (a_lv, b_lv)
        shared = sorted(a.keys() & b.keys())
        w, p = [a[g][0] - b[g][0] for g in shared], [a[g][1] - b[g][1] for g in shared]
        print(f"{seed:8} {len(shared):4} games: won {sum(a[g][0] for g in shared) / len(shared):.1%} "
              f"against {sum(b[g][0] for g in shared) / len(shared):.1%}, "
              f"difference {mean_se(w)[0]:+.1%}; points a round {mean_se(p)[0]:+.2f}")
        won += w
        pts += p
    if not won:
        raise SystemExit("no seed in both sets")
    (mw, sw), (mp, sp) = mean_se(won), mean_se(pts)
    print(f"{names[0]} against {names[1]}, {len(won)} games: won {mw:+.1%} ± {sw:.1%} a game, "
          f"points a round {mp:+.2f} ± {sp:.2f}")


if __name__ == "__main__":
    main()
