"""How many playouts a hint needs to give the same answer whatever its seed.

    .venv/bin/python bench/hint_budget.py --positions 40 --seeds 5 --budgets 40,120,300,600

A hint (`hint` in the game loop) is the best choice of ``replay --analyze``'s
evaluation (records/replay.py ``evaluate_play``, ``evaluate_pass``) at a fixed
seed derived from the game code and position, so asking twice gives the same
answer. This measures what the fixed seed hides: at each budget, over positions
from games of Hard players, how often the best choice at one seed is the
majority's at other seeds (all positions, and those whose margin the hint calls
clear, see records/hint.py ``CLOSE``), and the CPU seconds of one hint (mean
and worst). The chosen budget is in docs/playing.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_cli.bots import suggest
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import load_preset
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round
from hearts_cli.records.hint import CLOSE, weigh


def positions(count: int, rng: random.Random) -> list:
    """Seat views where a person would ask: passes and plays with a real choice."""
    rules = load_preset("quick")
    out = []
    while len(out) < count:
        rd = Round.deal(rules, code_from_number(rng.randrange(10**9)), rng.randrange(4))
        if rd.phase is Phase.PASS:
            if rng.random() < 0.25:
                out.append(rd.view(rng.randrange(4)))
            for s in range(4):
                rd.pass_cards(list(suggest(rd.view(s), "normal", rng.randrange(1000))), s)
        stop = rng.randrange(4, 48)
        while rd.phase is Phase.PLAY and stop:
            rd.play(suggest(rd.view(rd.turn), "normal", rng.randrange(1000)))
            stop -= 1
        if rd.phase is Phase.PLAY and len(set(rd.legal_cards())) > 1:
            out.append(rd.view(rd.turn))
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--budgets", default="40,120,300,600")
    args = ap.parse_args()
    views = positions(args.positions, random.Random(18))
    for budget in map(int, args.budgets.split(",")):
        agree = clear_agree = clear = 0
        times = []
        for view in views:
            picks = []
            for seed in range(args.seeds):
                t0 = time.process_time()
                h = weigh(view, seed, budget)
                times.append(time.process_time() - t0)
                picks.append((h.best, h.margin is not None and h.margin >= CLOSE))
            top = Counter(p for p, _ in picks).most_common(1)[0][0]
            agree += sum(p == top for p, _ in picks)
            clear += sum(c for _, c in picks)
            clear_agree += sum(c and p == top for p, c in picks)
        n = len(views) * args.seeds
        print(f"budget {budget:5d}: same as the majority {agree / n:.0%}; clear hints {clear}/{n}, "
              f"of which the majority's {clear_agree / max(1, clear):.0%}; "
              f"CPU s a hint: mean {sum(times) / n:.3f}, worst {max(times):.3f}")


if __name__ == "__main__":
    main()
