"""Cancellation Hearts (two decks): random rounds per second and Hard's decision time.

    .venv/bin/python bench/two_decks.py [--players 8] [--rounds 2000] [--decisions 200] [--worlds N]

* ``fast path (two decks)``: ``fast.multi_random_round`` — deal the 104-card
  multiset, a random pass, random legal cards on ``fast.MultiPosition`` (the
  generic two-deck path: ``core.legal`` and ``core.winner`` per card), score.
* ``step API (two decks)``: ``Round.deal`` from a game code, random passes,
  ``legal_cards()`` + a random pick + ``play`` until over.
* ``Hard``: the CPU time (``time.process_time``) of each of Hard's card
  decisions at its default two-deck budget (``bots.multi.DEFAULT_WORLDS``
  worlds, or ``--worlds``), in rounds of Hard against Normal and Easy: median
  and 95th percentile over the decisions with more than one legal card, and
  over every decision (forced ones cost nothing). The budget: median <= 100 ms,
  p95 <= 300 ms (docs/bots.md).

A benchmark, never a test: run it by hand on an idle machine (docs/speed.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hearts_cli.bots import make_bot
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round


def fast_rounds(rules, n: int) -> float:
    rng = random.Random(1)
    t = time.perf_counter()
    for i in range(n):
        fast.multi_random_round(rules, rng, dealer=i % rules.players)
    return n / (time.perf_counter() - t)


def step_rounds(rules, n: int) -> float:
    rng = random.Random(2)
    t = time.perf_counter()
    for i in range(n):
        r = Round.deal(rules, code_from_number(i), i)
        if r.phase is Phase.PASS:
            for s in range(rules.players):
                r.pass_cards(rng.sample(list(r.hand(s)), rules.pass_count), s)
        while not r.over:
            legal = r.legal_cards()
            r.play(legal[fast.pick_index(rng, len(legal))])
    return n / (time.perf_counter() - t)


def hard_times(rules, decisions: int, worlds: int | None = None) -> tuple[list[float], list[float]]:
    """CPU seconds of Hard's decisions: (unforced ones, all of them)."""
    out: list[float] = []
    every: list[float] = []
    k = 0
    while len(out) < decisions:
        r = Round.deal(rules, code_from_number(1000 + k), k)
        k += 1
        bots = [make_bot(("hard", "normal", "easy")[s % 3], s, worlds if s % 3 == 0 else None)
                for s in range(rules.players)]
        if r.phase is Phase.PASS:
            for s in range(rules.players):
                r.pass_cards(bots[s].choose_pass(r.view(s)), s)
        while not r.over:
            s = r.turn
            view = r.view(s)
            t = time.process_time()
            card = bots[s].choose_card(view)
            if s % 3 == 0:
                every.append(time.process_time() - t)
                if len(view.legal) > 1:
                    out.append(every[-1])
            r.play(card)
    return out, every


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=None, help="Hard's worlds per decision (default: its budget)")
    ap.add_argument("--hard-only", action="store_true", help="skip the rounds-per-second lines")
    a = ap.parse_args()
    rules = load_preset("cancellation").replace(players=a.players)
    print(f"Cancellation Hearts, {a.players} players")
    if not a.hard_only:
        print(f"fast path (two decks): {fast_rounds(rules, a.rounds):8.0f} rounds/s")
        print(f"step API (two decks):  {step_rounds(rules, max(1, a.rounds // 4)):8.0f} rounds/s")
    from hearts_cli.bots.multi import DEFAULT_WORLDS

    times, every = hard_times(rules, a.decisions, a.worlds)
    print(f"Hard ({a.worlds or DEFAULT_WORLDS} worlds), CPU time a decision: "
          f"{len(times)} unforced: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {_pct(times, 0.95) * 1000:.1f} ms; all {len(every)}: median "
          f"{statistics.median(every) * 1000:.1f} ms, p95 {_pct(every, 0.95) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
