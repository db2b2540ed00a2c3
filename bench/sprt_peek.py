"""Where a two-player ``hearts sim --sprt`` run stands, read from its ``--results`` file while it runs.

    python -m bench.sprt_peek bench/train_runs/sprt-hardl-b1356.jsonl

Prints the pairs played, A's score, its Elo with the 95% interval, the LLR and its
bounds (hearts_cli.bots.rating, the same arithmetic as the run's own report), and
each side's points a seat-round (and A's minus B's, paired by game, with a 95%
interval over games). A half whose partner is not in yet is left out.
"""

from __future__ import annotations

import json
import sys

from hearts_cli.bots.rating import SprtBounds, elo_interval, half_outcome, sprt


def main(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        head = json.loads(f.readline())
        a, b = head["players"]
        halves: dict[int, list[float]] = {}
        by_game: dict[int, list[int]] = {}  # A's points, seat-rounds, B's points, seat-rounds
        pts = {a: [0, 0], b: [0, 0]}
        for line in f:
            try:
                h = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut short
            got = {a: [0, 0], b: [0, 0]}
            for play in h["plays"]:
                for s, who in enumerate(play["levels"]):
                    got[who][0] += sum(r["scores"][s] for r in play["rounds"])
                    got[who][1] += len(play["rounds"])
            for who in (a, b):
                pts[who][0] += got[who][0]
                pts[who][1] += got[who][1]
            halves.setdefault(h["game"], []).append(half_outcome(*got[a], *got[b]))
            g = by_game.setdefault(h["game"], [0, 0, 0, 0])
            g[0] += got[a][0]
            g[1] += got[a][1]
            g[2] += got[b][0]
            g[3] += got[b][1]
    pairs = [sum(v) for v in halves.values() if len(v) == 2]
    diffs = [by_game[k][0] / by_game[k][1] - by_game[k][2] / by_game[k][3] for k, v in halves.items() if len(v) == 2]
    mean = sum(diffs) / max(1, len(diffs))
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
    ci = 1.96 * sd / max(1, len(diffs)) ** 0.5
    bounds = SprtBounds(*head["sprt"]) if head.get("sprt") else SprtBounds()
    iv = elo_interval([*pairs, 1.0])
    test = sprt(pairs, bounds)
    print(f"{a} vs {b}: {len(pairs)} pairs, score {iv.score:.3f}, Elo {iv.elo:+.1f} [{iv.low:+.1f}, {iv.high:+.1f}], "
          f"LLR {test.llr:+.2f} ({bounds.lower:+.2f}, {bounds.upper:+.2f}) {test.verdict or 'going on'}; "
          f"points a seat-round {pts[a][0] / max(1, pts[a][1]):.3f} vs {pts[b][0] / max(1, pts[b][1]):.3f}; "
          f"A - B a seat-round, paired by game: {mean:+.3f} ± {ci:.3f}")


if __name__ == "__main__":
    main(sys.argv[1])
