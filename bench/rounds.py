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

    .venv/bin/python bench/rounds.py                # ~2 s per contestant, best of 3
    .venv/bin/python bench/rounds.py --rounds 20000 --json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_cli.model.codes import new_code
from hearts_cli.model.rules import Direction, load_preset
from hearts_cli.play import fast
from hearts_cli.play.engine import Phase, Round, RoundResult

shuffled_deck = fast.shuffled_cards  # bytes: iterating gives the cards as ints
B = fast.PICK_BITS


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
                    r.pass_cards(seat, dealt[seat][:k])
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
                    r.pass_cards(seat, [held.pop(grb(B) * len(held) >> B) for _ in range(k)])
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

    def pass_cards(self, seat, cards):
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


def openspiel(driver: str):
    import pyspiel  # the caller checked that it imports

    game = pyspiel.load_game("hearts")
    new_state = game.new_initial_state

    def run_until_terminal(rounds: int, seed: int) -> int:
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

    def run_counted(rounds: int, seed: int) -> int:
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

    def run_dealt_passes(rounds: int, seed: int) -> int:
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

    return {"until terminal": run_until_terminal, "counted": run_counted,
            "dealt passes": run_dealt_passes}[driver]


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds per trial (default: calibrated to --seconds)")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="about how long each trial runs (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="trials per contestant; the best counts")
    ap.add_argument("--preset", default="quick", help="rule preset for our engine (default quick)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)

    rules = load_preset(args.preset)
    contestants: list[tuple[str, Callable[[int, int], int]]] = [
        ("step API", step_api(rules)),
        ("step API, code deal", step_api_code_deal(rules)),
        ("fast path", fast_path(rules)),
        ("floor: do-nothing step API", step_api(rules, NullRound)),
    ]
    note = None
    try:
        import pyspiel  # noqa: F401
    except ImportError as e:
        note = f"OpenSpiel skipped: pyspiel is not importable ({e}); `make bench` installs it"
    else:
        contestants += [(f"OpenSpiel, {d}", openspiel(d))
                        for d in ("until terminal", "counted", "dealt passes")]

    best: dict[str, float] = {}
    for _ in range(max(1, args.repeat)):  # interleaved, so drift hits everyone alike
        for name, run in contestants:
            rate = measure(run, args.rounds, args.seconds, args.seed)
            best[name] = max(best.get(name, 0.0), rate)

    bar = max((v for k, v in best.items() if k.startswith("OpenSpiel")), default=None)
    ratios = {k: (v / bar if bar else None) for k, v in best.items()}
    if args.json:
        print(json.dumps({
            "preset": args.preset,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "repeat": args.repeat,
            "rounds_per_second": {k: round(v, 1) for k, v in best.items()},
            "ratio_to_openspiel": {k: (round(v, 3) if v is not None else None)
                                   for k, v in ratios.items()},
            "note": note,
        }, indent=2))
        return 0
    print(f"random rounds per CPU second, preset {args.preset!r}, best of {args.repeat}"
          f" (Python {platform.python_version()})")
    print(f"{'':28}{'rounds/s':>10}  {'x OpenSpiel':>11}")
    for name, rate in best.items():
        ratio = f"{ratios[name]:.2f}" if ratios[name] is not None else "-"
        print(f"{name:28}{rate:10,.0f}  {ratio:>11}")
    if note:
        print(note)
    else:
        print("x OpenSpiel: against the fastest OpenSpiel driver. Target: fast path >= 1.8 (the step API has none).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
