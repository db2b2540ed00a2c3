"""Random rounds a second through the library's face: ``Game`` and the fast path.

    .venv/bin/python bench/library.py                # about 2 s a line, best of 3
    .venv/bin/python bench/library.py --seconds 0.5 --repeat 1

``Game``: ``hearts_cli.Game(rules, code)`` for a fresh code, each seat passing its last
``pass_count`` cards (``push_pass(game.hand(seat)[-n:])``), then a random legal card
(``pick_index`` into ``list(game.legal_moves)``) through ``push`` until the round is
scored: the checked, undoable path a script takes. ``fast path``:
``hearts_cli.fast.random_round(rules, rng)``, the same random work on bitmasks (a deal, a
pass, 52 random legal cards, the scores: docs/speed.md). The ``quick`` preset, one
``random.Random`` seeded alike for both. docs/speed.md keeps the figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import hearts_cli
from hearts_cli.model.codes import code_from_number


def game_rounds(rules: hearts_cli.Rules, rng: random.Random) -> Callable[[], object]:
    n = rules.pass_count
    grb = rng.getrandbits

    def one() -> object:
        game = hearts_cli.Game(rules, code_from_number(grb(35)))
        if game.phase is hearts_cli.Phase.PASS:
            for seat in range(rules.players):
                game.push_pass(game.hand(seat)[-n:], seat)
        while not game.results:
            legal = list(game.legal_moves)
            game.push(legal[grb(26) * len(legal) >> 26])
        return game.results[0]

    return one


def fast_rounds(rules: hearts_cli.Rules, rng: random.Random) -> Callable[[], object]:
    fast = hearts_cli.fast

    def one() -> object:
        return fast.random_round(rules, rng)

    return one


def rate(make: Callable[[hearts_cli.Rules, random.Random], Callable[[], object]], seconds: float,
         repeat: int) -> float:
    rules = hearts_cli.Rules.from_spec("quick")
    best = 0.0
    for r in range(repeat):
        one = make(rules, random.Random(2026 + r))
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            for _ in range(20):
                one()
            done += 20
        best = max(best, done / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per line and repeat")
    parser.add_argument("--repeat", type=int, default=3, help="best of")
    args = parser.parse_args()
    slow = rate(game_rounds, args.seconds, args.repeat)
    quick = rate(fast_rounds, args.seconds, args.repeat)
    print(f"{'Game (push, checked, undoable)':<34} {slow:>10,.0f} rounds/s")
    print(f"{'fast path (hearts_cli.fast)':<34} {quick:>10,.0f} rounds/s   x{quick / slow:.0f}")


if __name__ == "__main__":
    main()
