"""Random rounds per second: the engine, its fast playout path, and OpenSpiel.

Every contestant does the same work per round, with the same kind and number
of draws from one seeded ``random.Random``: a random pass direction, a random
deal (one shuffle of the deck), a random pass, random legal cards until the
round is over, and the scores.

The pass is decided by the deal's shuffle for everyone: each seat passes the
first ``pass_count`` cards it was dealt, which is a uniformly random subset of
its hand (the deck being uniformly shuffled), so it costs no extra draw.

* ``step API``: ``Round(rules, hands, direction=...)`` from the shuffled deck,
  ``pass_cards`` for every seat, then ``legal_cards()`` + a random pick +
  ``play(card)`` until ``over``, then ``result.scores``. Public API only.
* ``step API, code deal``: the same, but each round is ``Round.deal(rules,
  code, i)`` (the deterministic SHA-256 deal of a game code; the direction
  then follows the cycle, and the passes are random picks from ``hand()``).
  An extra line: it prices the code deal.
* ``fast path``: ``hearts_cli.play.fast.random_round`` (see ``docs/speed.md``).
* ``floor: do-nothing step API``: the ``step API`` driver against a class of
  the same shape that applies no rules (:class:`NullRound`): the cost of the
  driver loop, the deal and the Python calls alone. Not a contestant; it
  shows how much room a step-by-step Python API has under the OpenSpiel bar.
* ``OpenSpiel``: ``pyspiel.load_game("hearts")`` with default parameters; the
  pass-direction chance node at random, the 52 deal actions from the shuffled
  deck, then random legal actions until terminal, then ``returns()``. Three
  drivers: ``until terminal`` asks ``is_terminal()`` after every action and
  picks passes from ``legal_actions()``; ``counted`` applies exactly 12 pass
  + 52 play actions (every OpenSpiel round has that many); ``dealt passes``
  is ``counted`` with each player passing the first 3 cards dealt to it (as
  our contestants do), which is the fastest honest driver we found. The
  fastest of the three is the bar. (``game.deserialize_state`` of the
  direction and deal, one call instead of 53, was slower: about 12 us
  against 9 us.)

A random pick is ``seq[getrandbits(26) * len(seq) >> 26]`` everywhere
(``fast.pick_index``: cheaper than ``random.choice``, and the same for
everyone). The shuffle is ``fast.shuffled_cards`` (a sort of random 64-bit
keys from one ``getrandbits`` call), also the same for everyone.

The table's rates are each the best of a few trials seconds apart, so their
ratios move with whatever else the machine does (six runs once read 1.45x to
2.12x). The figure to quote is the *paired* ratio: ``--pairs`` pairs of short
trials of the fast path and the bar (the fastest OpenSpiel driver), run back
to back in alternating order, each pair giving one ratio; the median and its
spread (quartiles, range) are printed. Without OpenSpiel the pairs run against
the step API, so the alternation still works (and says what it compared).

    .venv/bin/python bench/rounds.py                # ~2 s per contestant, best of 3; 31 pairs
    .venv/bin/python bench/rounds.py --rounds 20000 --json
    .venv/bin/python bench/rounds.py --repeat 1 --seconds 0.5 --pairs 41   # the paired ratio, quicker
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_cli.model.codes import new_code
from hearts_cli.model.rules import Direction, Rules, load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase, RoundResult
from hearts_cli.play.round import Round

shuffled_deck = fast.shuffled_cards  # bytes: iterating gives the cards as ints
B = fast.PICK_BITS
Run = Callable[[int, int], int]  # (rounds, seed) -> a checksum


# ---------------------------------------------------------------- contestants
# Each takes (rounds, seed) and returns a checksum (sum of seat 0's scores),
# so that no work can be skipped.


def step_api(rules, make_round=Round):
    """The step API's driver; ``make_round=NullRound`` runs it against no rules (the floor)."""
    n = rules.players
    k = rules.pass_count
    cycle = rules.pass_cycle

    def run(rounds: int, seed: int) -> int:
        rng = random.Random(seed)
        grb = rng.getrandbits
        total = 0
        for _ in range(rounds):
            direction = cycle[grb(B) * len(cycle) >> B]
            deck = shuffled_deck(rng)
            dealt = [deck[s::n] for s in range(n)]
            r = make_round(rules, dealt, direction=direction)
            if r.phase is Phase.PASS:  # each seat passes the first cards it was dealt
                for seat in range(n):
                    r.pass_cards(dealt[seat][:k], seat)
            while not r.over:
                legal = r.legal_cards()
                r.play(legal[grb(B) * len(legal) >> B])
            total += r.result.scores[0]
        return total

    return run


def step_api_code_deal(rules):
    n = rules.players
    k = rules.pass_count
    code = new_code()

    def run(rounds: int, seed: int) -> int:
        rng = random.Random(seed)
        grb = rng.getrandbits
        total = 0
        for i in range(rounds):
            r = Round.deal(rules, code, i)
            if r.phase is Phase.PASS:
                for seat in range(n):
                    held = list(r.hand(seat))
                    r.pass_cards([held.pop(grb(B) * len(held) >> B) for _ in range(k)], seat)
            while not r.over:
                legal = r.legal_cards()
                r.play(legal[grb(B) * len(legal) >> B])
            total += r.result.scores[0]
        return total

    return run


class NullRound:
    """The step API's shape with no rules at all: what the driver loop alone costs.

    Driven by the very ``step API`` driver (construct from hands, ``pass_cards``
    per seat, ``legal_cards()`` + pick + ``play`` per card, ``over``,
    ``result.scores``), each call doing nothing but count cards. Not a
    contestant: the floor any step-by-step Python API sits on, whatever its
    rules cost. Whatever an engine does per card must fit between this line
    and the OpenSpiel bar.
    """

    __slots__ = ("legal", "over", "phase", "played", "result")

    def __init__(self, rules, hands, direction=None):
        self.played = 0
        self.over = False
        self.legal = tuple(hands[0])
        self.result = None
        self.phase = Phase.PLAY if direction is Direction.NONE else Phase.PASS

    def pass_cards(self, cards, seat):
        pass

    def legal_cards(self):
        return self.legal

    def play(self, card):
        played = self.played = self.played + 1
        if played == 52:
            self.over = True
            self.result = RoundResult((), (card, 0, 0, 0))


def fast_path(rules):
    random_round = fast.random_round

    def run(rounds: int, seed: int) -> int:
        rng = random.Random(seed)
        total = 0
        for _ in range(rounds):
            total += random_round(rules, rng)[0]
        return total

    return run


def _openspiel_until_terminal(new_state: Callable[[], Any], rounds: int, seed: int) -> int:
    """Asks ``is_terminal()`` after every action; passes picked from ``legal_actions()``."""
    rng = random.Random(seed)
    grb = rng.getrandbits
    total = 0
    for _ in range(rounds):
        state = new_state()
        apply = state.apply_action
        legal_actions = state.legal_actions
        is_terminal = state.is_terminal
        apply(grb(B) * 4 >> B)  # pass direction: none, left, across, right
        for card in shuffled_deck(rng):
            apply(card)
        while not is_terminal():
            legal = legal_actions()
            apply(legal[grb(B) * len(legal) >> B])
        total += int(state.returns()[0])
    return total


def _openspiel_counted(new_state: Callable[[], Any], rounds: int, seed: int) -> int:
    """Applies exactly 12 pass + 52 play actions (every OpenSpiel round has that many)."""
    rng = random.Random(seed)
    grb = rng.getrandbits
    total = 0
    for _ in range(rounds):
        state = new_state()
        apply = state.apply_action
        legal_actions = state.legal_actions
        direction = grb(B) * 4 >> B
        apply(direction)
        for card in shuffled_deck(rng):
            apply(card)
        for _ in range(64 if direction else 52):  # 4 x 3 pass actions, 52 plays
            legal = legal_actions()
            apply(legal[grb(B) * len(legal) >> B])
        total += int(state.returns()[0])
    return total


def _openspiel_dealt_passes(new_state: Callable[[], Any], rounds: int, seed: int) -> int:
    """``counted``, with each player passing the first 3 cards dealt to it (as ours do)."""
    rng = random.Random(seed)
    grb = rng.getrandbits
    total = 0
    for _ in range(rounds):
        state = new_state()
        apply = state.apply_action
        legal_actions = state.legal_actions
        direction = grb(B) * 4 >> B
        apply(direction)
        deck = shuffled_deck(rng)
        for card in deck:  # card i goes to player i % 4
            apply(card)
        if direction:  # players 0..3 in turn pass the first 3 cards they were dealt
            for card in deck[:12:4] + deck[1:12:4] + deck[2:12:4] + deck[3:12:4]:
                apply(card)
        for _ in range(52):
            legal = legal_actions()
            apply(legal[grb(B) * len(legal) >> B])
        total += int(state.returns()[0])
    return total


OPENSPIEL_DRIVERS = {"until terminal": _openspiel_until_terminal, "counted": _openspiel_counted,
                     "dealt passes": _openspiel_dealt_passes}


def openspiel(driver: str) -> Callable[[int, int], int]:
    """OpenSpiel's hearts played by one of :data:`OPENSPIEL_DRIVERS`."""
    import pyspiel  # the caller checked that it imports

    new_state = pyspiel.load_game("hearts").new_initial_state
    play = OPENSPIEL_DRIVERS[driver]
    return lambda rounds, seed: play(new_state, rounds, seed)


# ---------------------------------------------------------------- timing

clock = time.process_time


def measure(run: Callable[[int, int], int], rounds: int | None, seconds: float,
            seed: int) -> float:
    """Rounds per CPU second of one timed trial (after a short warm-up).

    CPU time of this process (everything, OpenSpiel included, runs in it on
    one thread), so that other work on a shared machine skews less.
    """
    run(50, seed + 1)
    if rounds is None:  # calibrate: enough rounds to last about `seconds`
        n = 200
        while True:
            t0 = clock()
            run(n, seed + 2)
            dt = clock() - t0
            if dt > 0.2:
                break
            n *= 2
        rounds = max(100, int(n * seconds / dt))
    t0 = clock()
    run(rounds, seed)
    return rounds / (clock() - t0)


def paired_ratios(ours: Run, theirs: Run, pairs: int, rounds: tuple[int, int], seed: int) -> list[float]:
    """``ours``' rate over ``theirs``' in ``pairs`` pairs of short trials run back to back.

    A ratio of two trials a fraction of a second apart sees the same machine:
    what another process takes from the CPU, a frequency step or a warm cache
    hits both sides alike, so the ratios scatter far less than rates taken
    seconds apart do. The order alternates within each pair (ours first, then
    theirs first), so a drift during a pair cancels over two pairs. Each
    trial does a fixed number of rounds (``rounds``: ours, theirs).
    """
    out = []
    for i in range(pairs):
        order = ((0, ours), (1, theirs)) if i % 2 == 0 else ((1, theirs), (0, ours))
        rate = [0.0, 0.0]
        for side, run in order:
            t0 = clock()
            run(rounds[side], seed + i)
            rate[side] = rounds[side] / (clock() - t0)
        out.append(rate[0] / rate[1])
    return out


def spread(ratios: list[float]) -> dict[str, float]:
    """The median ratio, its quartiles and its extremes."""
    q1, median, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios * 3)
    return {"median": median, "q1": q1, "q3": q3, "min": min(ratios), "max": max(ratios), "pairs": len(ratios)}


def contestants_of(rules: Rules) -> tuple[list[tuple[str, Run]], str | None]:
    """Every contestant, OpenSpiel's drivers when pyspiel imports, and a note when it does not."""
    contestants: list[tuple[str, Run]] = [
        ("step API", step_api(rules)),
        ("step API, code deal", step_api_code_deal(rules)),
        ("fast path", fast_path(rules)),
        ("floor: do-nothing step API", step_api(rules, NullRound)),
    ]
    try:
        import pyspiel  # noqa: F401
    except ImportError as e:
        return contestants, f"OpenSpiel skipped: pyspiel is not importable ({e}); `make bench` installs it"
    return contestants + [(f"OpenSpiel, {d}", openspiel(d)) for d in OPENSPIEL_DRIVERS], None


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds per trial (default: calibrated to --seconds)")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="about how long each trial of the table runs (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="trials per contestant for the table; the best counts")
    ap.add_argument("--pairs", type=int, default=31,
                    help="pairs of short alternated trials, fast path against the bar (default 31)")
    ap.add_argument("--pair-seconds", type=float, default=0.15,
                    help="about how long each trial of a pair runs (default 0.15)")
    ap.add_argument("--preset", default="quick", help="rule preset for our engine (default quick)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    rules = load_preset(args.preset)
    contestants, note = contestants_of(rules)
    best: dict[str, float] = {}
    for _ in range(max(1, args.repeat)):  # interleaved, so drift hits everyone alike
        for name, run in contestants:
            rate = measure(run, args.rounds, args.seconds, args.seed)
            best[name] = max(best.get(name, 0.0), rate)
    runs = dict(contestants)
    # the bar: the fastest OpenSpiel driver; without OpenSpiel the alternation still runs,
    # against the step API, so that it is exercised (and the ratio then says so)
    bar = max((k for k in best if k.startswith("OpenSpiel")), key=best.__getitem__, default="step API")
    rounds = (max(20, int(best["fast path"] * args.pair_seconds)), max(20, int(best[bar] * args.pair_seconds)))
    paired = spread(paired_ratios(runs["fast path"], runs[bar], max(1, args.pairs), rounds, args.seed))
    report(args, best, bar, paired, note)
    return 0


def report(args: argparse.Namespace, best: dict[str, float], bar: str, paired: dict[str, float],
           note: str | None) -> None:
    """The table of rates, then the paired ratio (or the same as JSON)."""
    openspiel_bar = bar.startswith("OpenSpiel")
    ratios = {k: (v / best[bar] if openspiel_bar else None) for k, v in best.items()}
    if args.json:
        print(json.dumps({
            "preset": args.preset, "python": platform.python_version(), "machine": platform.machine(),
            "repeat": args.repeat,
            "rounds_per_second": {k: round(v, 1) for k, v in best.items()},
            "ratio_to_openspiel": {k: (round(v, 3) if v is not None else None) for k, v in ratios.items()},
            "paired": {"fast_path_over": bar, **{k: round(v, 3) for k, v in paired.items()}},
            "note": note,
        }, indent=2))
        return
    print(f"random rounds per CPU second, preset {args.preset!r}, best of {args.repeat}"
          f" (Python {platform.python_version()})")
    print(f"{'':28}{'rounds/s':>10}  {'x OpenSpiel':>11}")
    for name, rate in best.items():
        ratio = f"{ratios[name]:.2f}" if ratios[name] is not None else "-"
        print(f"{name:28}{rate:10,.0f}  {ratio:>11}")
    print(f"fast path / {bar}, {paired['pairs']:.0f} alternated pairs of short trials: median "
          f"{paired['median']:.2f}x (quartiles {paired['q1']:.2f}-{paired['q3']:.2f}, "
          f"range {paired['min']:.2f}-{paired['max']:.2f})")
    if note:
        print(note)
    else:
        print("x OpenSpiel: against the fastest OpenSpiel driver. Target: fast path >= 1.8 (the step API has none);"
              " the paired median is the figure to quote.")


if __name__ == "__main__":
    raise SystemExit(main())
