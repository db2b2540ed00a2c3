"""Moon runs, round by round: one benchmark seat against three of a level (quicker than games).

    nice -n 10 .venv/bin/python bench/moon_rounds.py --rounds 150 --strategies high --vs hard
    nice -n 10 .venv/bin/python bench/moon_rounds.py --rounds 150 --strategies high --late

Round i (code ``match_code("moondev", i)``, pass direction i % the preset's
cycle) puts the strategy at seat i % players; the same rounds for every
version, so two versions compare round for round. ``--late`` starts every
round with the strategy at 80 points and the others at 20, 35 and 50 (the last
rounds of a game to 100, where Hard plays for the match, not the round).
``--set module.NAME=VALUE`` changes a constant before play (to try a variant).
``-v`` lists the rounds the strategy mooned, with the cards it received.
bench/exploit.py (whole games) is the measure of the issue's targets.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tweak import maker

from bench.bots import level
from hearts_cli.bots.match import match_code
from hearts_cli.bots.moon import choose_moon
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--strategies", default="high,shoot")
    ap.add_argument("--vs", default="hard")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--late", action="store_true", help="the strategy at 80, the others at 20/35/50")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a switch of Hard (bench/tweak.py)")
    ap.add_argument("-v", action="store_true", help="list the strategy's moons")
    a = ap.parse_args(argv)
    make = maker(a.set)
    rules = Rules.from_spec(a.preset)
    n = rules.players
    t0 = time.process_time()
    for strategy in a.strategies.split(","):
        moons = theirs = pts = others = 0
        for i in range(a.start, a.start + a.rounds):
            code = match_code("moondev", i)
            seat = i % n
            levels = [a.vs] * n
            levels[seat] = strategy
            ri = i % len(rules.pass_cycle)
            scores = None
            if a.late:
                scores = [0] * n
                scores[seat] = 80
                for k, x in enumerate((20, 35, 50)[:n - 1]):
                    scores[(seat + 1 + (k + i) % (n - 1)) % n] = x
            rnd = Round.deal(rules, code, ri, scores=scores)
            bots = [make(level(lv), seed_for(code, "cpu", ri, s), None) for s, lv in enumerate(levels)]
            if rnd.phase is Phase.PASS:
                for s, bot in enumerate(bots):
                    rnd.pass_cards(bot.choose_pass(rnd.view(s)), s)
            while rnd.phase is Phase.PLAY:
                rnd.play(bots[rnd.turn].choose_card(rnd.view(rnd.turn)))
            if rnd.phase is Phase.MOON:
                rnd.choose_moon(choose_moon(rnd.view(rnd.turn)))
            result = rnd.result
            assert result is not None
            moons += result.shooter == seat
            theirs += result.shooter is not None and result.shooter != seat
            pts += result.scores[seat]
            others += sum(result.scores) - result.scores[seat]
            if a.v and result.shooter == seat:
                got = rnd.view(seat).received or ()
                print(f"  {strategy} moon in round {i} (received {' '.join(map(str, got))})")
        print(f"{strategy} vs {a.vs}: {a.rounds} rounds, its moons {moons} ({moons / a.rounds:.3f} a round), "
              f"their moons {theirs}, its pts/round {pts / a.rounds:.2f}, theirs {others / (n - 1) / a.rounds:.2f}",
              flush=True)
    print(f"CPU {time.process_time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
