"""Train the learned pass evaluation (hearts_cli/bots/learned.py) on this machine's CPU.

    python -m bench.train --hours 2.5 --seed 1 [--out bench/train_runs/1] [--every 5]
    python -m bench.train --seed 1 --export hearts_cli/bots/pass_weights.json

Self-play on the fast path: each round is dealt (the default rules), every seat
passes (Normal's pass, Normal's with one card swapped, three random cards, or,
once learning has begun, the current evaluation's best pass), the round is
played out by Hard's playout policy (:func:`hearts_cli.bots.playout.make_policy`,
10% random cards) and each seat's pass becomes one sample: (hand kept, cards
given, direction) -> the round's value to it (own points minus the others'
average, moon included). The evaluation is linear over the features of
``learned.features``; it learns by AdaGrad on the squared error.

Deterministic from ``--seed``: batch ``b`` draws from ``random.Random(f"train/{seed}/{b}")``,
and the weights after batch ``b`` depend on nothing else, so a run stopped and resumed
gives the weights of a run that never stopped. ``--hours`` counts the time of every
session together.

Every ``--every`` minutes (and on Ctrl-C or SIGTERM, at the end of the batch in
progress) it writes ``OUT/checkpoint.json`` (atomically: a temporary file renamed)
and appends a line to ``OUT/curve.jsonl``: the samples seen, the mean squared error on
a fixed validation set beside the error of a constant, and a duel of passes on duplicate
deals (the evaluation's pass against Normal's for one seat, the same deal and the
same playout stream, the other seats passing as Normal does), the mean difference in
that seat's value with its standard error (negative: the learned pass is better).
Started again with the same ``--out`` it resumes from the checkpoint.

``--play hard --init bench/train_runs/1/checkpoint.json`` goes on from another run's weights
with Hard's play in the learner's seat (``HARD_DEALS`` deals a card), the three others passing
and playing as Normal does, as at the table of issue 35's whole-game goal: a Hard round costs
about a hundred Normal ones, so one sample a round, and its checkpoints duel the pass against
the run's starting weights with Hard in that seat. ``--hard-seats 2`` (3, 4) gives Hard the
seat across too (then left, right): trained against Normals alone, the pass learned to run
for moons that Normals let through and a Hard stops (docs/bots.md, issue 35, "Fifth").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from hearts_cli.bots.learned import DIRECTIONS, SIZE, best_pass, cards_of, features, shipped_weights
from hearts_cli.bots.normal import normal_pass
from hearts_cli.bots.playout import make_policy
from hearts_cli.model.cards import CARDS, mask_of
from hearts_cli.model.rules import Rules
from hearts_cli.play.fast import Position, deal, playout_steps
from hearts_cli.play.round import SeatView

RULES = Rules()
FACTS = RULES.facts
ROUNDS_PER_BATCH = 100
# how the rounds are played: "normal" (every seat as Normal, in the engine: what the pass meets in
# real games) or "playout" (Hard's playout policy on the fast path: fifty times cheaper, but
# its values were measured to mislead the pass in real games; see docs/bots.md)
PLAY = ["normal"]
EPS = 0.1  # the playouts' random cards
FLUSH = True  # the playouts lead spades under the Q♠ to flush her out, as Normal and Hard do
LR = 0.05
VALID_SAMPLES = 8000
DUEL_DEALS = 600
GAME_DEALS = 200  # real rounds (the engine, Normal's play) for the check at each checkpoint
HARD_VALID_SAMPLES = 1500  # a Hard round costs about a hundred Normal ones
HARD_DUEL_DEALS = 600
HARD_DEALS = 20  # under --play hard: the deals a card of the Hard seat's search (the table's: 120)
# under --play hard: how many seats Hard plays, the learner's first, then across, left, right (the
# others are Normal's); a Hard seat that does not learn passes as Hard does (the shipped weights)
HARD_TABLE = [1]


class _PassView:
    """The two fields of a view Normal's pass reads (its hand and the rules)."""

    def __init__(self, hand: int) -> None:
        self.rules = RULES
        self.hand = tuple(CARDS[c] for c in cards_of(hand))


def normal_pass_mask(hand: int) -> int:
    return mask_of(normal_pass(cast(SeatView, _PassView(hand))))


def _swap_one(hand: int, given: int, rng: random.Random) -> int:
    out = cards_of(given)
    rest = cards_of(hand & ~given)
    out[rng.randrange(3)] = rest[rng.randrange(len(rest))]
    return mask_of(CARDS[c] for c in out)


def _random_pass(hand: int, rng: random.Random) -> int:
    g = 0
    for c in rng.sample(cards_of(hand), 3):
        g |= 1 << c
    return g


def choose_passes(hands: list[int], direction: int, rng: random.Random, weights: list[float] | None) -> list[int]:
    """Every seat's pass for training: a mix of Normal's, near it, random, and the evaluation's."""
    out = []
    for h in hands:
        r = rng.random()
        if weights is not None and r < 0.15:
            g = best_pass(weights, h, direction)
        elif r < 0.5:
            g = normal_pass_mask(h)
        elif r < 0.8:
            g = _swap_one(h, normal_pass_mask(h), rng)
        else:
            g = _random_pass(h, rng)
        out.append(g)
    return out


def play(hands: list[int], passes: list[int], direction: int, stream: int) -> list[float]:
    """Each seat's value of the round after ``passes``, played as ``PLAY`` says."""
    if PLAY[0] == "normal":
        return play_normal(hands, passes, direction)
    if PLAY[0] == "hard":
        return play_normal(hands, passes, direction, hard_seats(stream % 4), seed=stream)
    return play_fast(hands, passes, direction, stream)


def hard_seats(learner: int) -> list[int]:
    """The seats Hard plays under ``--play hard``, the learner's first (see ``HARD_TABLE``)."""
    return [(learner + off) % 4 for off in (0, 2, 1, 3)[:HARD_TABLE[0]]]


def table_passes(hands: list[int], direction: int, learner: int, given: int) -> list[int]:
    """Every seat's pass under ``--play hard``: the learner's ``given``, Hard's other seats' by the
    shipped weights, the rest by Normal's rule."""
    hard = hard_seats(learner)
    return [given if s == learner else best_pass(shipped_weights(), h, direction) if s in hard
            else normal_pass_mask(h) for s, h in enumerate(hands)]


def play_normal(hands: list[int], passes: list[int], direction: int, hard: Sequence[int] = (),
                seed: int = 0) -> list[float]:
    """Each seat's value of the round after ``passes``, every seat playing as Normal does, in the
    engine, but the seats of ``hard``, which play as Hard does with ``HARD_DEALS`` deals a card
    (the first with the bot seed ``seed``, the next ``seed + 1``...)."""
    from hearts_cli.bots import choose_moon
    from hearts_cli.bots.hard import HardBot
    from hearts_cli.bots.normal import normal_card
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.round import Round

    rnd = Round(RULES, [cards_of(h) for h in hands], direction=DIRECTIONS[direction])
    for s in range(4):
        rnd.pass_cards(tuple(CARDS[c] for c in cards_of(passes[s])), s)
    bots = {s: HardBot(seed + i, HARD_DEALS) for i, s in enumerate(hard)}
    while rnd.phase is Phase.PLAY:
        view = rnd.view(rnd.mover)
        bot = bots.get(rnd.mover)
        rnd.play(normal_card(view) if bot is None else bot.choose_card(view))
    if rnd.phase is Phase.MOON:
        rnd.choose_moon(choose_moon(rnd.view(rnd.mover)))
    scores = rnd.outcome.scores
    total = sum(scores)
    return [sc - (total - sc) / 3 for sc in scores]


def play_fast(hands: list[int], passes: list[int], direction: int, stream: int) -> list[float]:
    """Each seat's value of the round after ``passes``, played out by the heuristic policy."""
    off = DIRECTIONS[direction].receiver(0, 4)
    after = [hands[s] & ~passes[s] for s in range(4)]
    for s in range(4):
        after[(s + off) % 4] |= passes[s]
    pos = Position.start(RULES, after)
    scores = playout_steps(pos, make_policy(FACTS, random.Random(stream), EPS, flush=FLUSH))
    total = sum(scores)
    return [sc - (total - sc) / 3 for sc in scores]


Sample = tuple[list[int], float]


def round_samples(rng: random.Random, index: int, weights: list[float] | None) -> list[Sample]:
    """The samples of one training round: every seat's, or under ``--play hard`` only the
    learner's (the others pass as the table of ``HARD_TABLE`` does)."""
    direction = index % 3
    hands, _ = deal(RULES, rng)
    passes = choose_passes(hands, direction, rng, weights)
    stream = rng.getrandbits(64)
    if PLAY[0] == "hard":
        seat = stream % 4
        passes = table_passes(hands, direction, seat, passes[seat])
        val = play(hands, passes, direction, stream)[seat]
        return [(features(hands[seat] & ~passes[seat], passes[seat], direction), val)]
    vals = play(hands, passes, direction, stream)
    return [(features(hands[s] & ~passes[s], passes[s], direction), vals[s]) for s in range(4)]


def validation_set() -> list[Sample]:
    """A fixed set (the same for every seed): Normal's passes and those near it or random."""
    rng = random.Random("train/validation")
    out: list[Sample] = []
    i = 0
    while len(out) < (HARD_VALID_SAMPLES if PLAY[0] == "hard" else VALID_SAMPLES):
        out += round_samples(rng, i, None)
        i += 1
    return out


def mse(weights: list[float], samples: list[Sample]) -> float:
    return sum((sum(weights[i] for i in f) - y) ** 2 for f, y in samples) / len(samples)


def duel_deals(label: str, deals: int, part: int = 0, parts: int = 1) -> Iterator[tuple[int, list[int], int, int]]:
    """A duel's deals, from the stream ``label``: (direction, hands, the dueller's seat, the
    playouts' stream) for those whose number is ``part`` modulo ``parts``."""
    rng = random.Random(label)
    for i in range(deals):
        hands, _ = deal(RULES, rng)
        stream = rng.getrandbits(64)
        if i % parts == part:
            yield i % 3, hands, i % 4, stream


def duel(weights: list[float], deals: int = DUEL_DEALS) -> tuple[float, float]:
    """Mean and standard error of (learned pass - Normal's pass) in one seat's value, duplicate."""
    diffs = []
    for direction, hands, seat, stream in duel_deals("train/duel", deals):
        normal = [normal_pass_mask(h) for h in hands]
        mine = list(normal)
        mine[seat] = best_pass(weights, hands[seat], direction)
        if mine[seat] == normal[seat]:
            diffs.append(0.0)
            continue
        diffs.append(play(hands, mine, direction, stream)[seat] - play(hands, normal, direction, stream)[seat])
    return mean_se(diffs)


def normal_games(weights: list[float], deals: int = GAME_DEALS) -> tuple[float, float]:
    """The same duel in real rounds of the engine, every seat playing as Normal: one seat passes
    by the evaluation, then by Normal's rule, on the same deal; mean and standard error of the
    difference in that seat's round points (negative: the learned pass is better)."""
    from hearts_cli.bots import Bot, make_bot
    from hearts_cli.bots.match import match_code, play_round
    from hearts_cli.bots.normal import NormalBot
    from hearts_cli.model.cards import Card

    class _Learned(NormalBot):
        def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
            g = best_pass(weights, mask_of(view.hand), DIRECTIONS.index(view.direction))
            return tuple(CARDS[c] for c in cards_of(g))

    def make(level: str, seed: int, simulations: int | None) -> Bot:
        return _Learned(seed) if level == "learned" else make_bot(level, seed, simulations)

    diffs = []
    for i in range(deals):
        code = match_code("train", i)
        r = i % 3  # left, right, across
        seat = i % 4
        levels = ["normal"] * 4
        base = play_round(RULES, code, r, levels)[seat]
        levels[seat] = "learned"
        diffs.append(play_round(RULES, code, r, levels, make=make)[seat] - base)
    return mean_se(diffs)


def hard_duel(weights: list[float], before: list[float], deals: int = HARD_DUEL_DEALS) -> tuple[float, float]:
    """Under ``--play hard``: one seat played by Hard passes by ``weights``, then by ``before`` (the
    run's starting weights), on the same deal, the others passing and playing as Normal does; mean
    and standard error of the difference in that seat's value (negative: the new pass is better)."""
    return mean_se(hard_duel_diffs(weights, before, deals))


def hard_duel_diffs(weights: list[float], before: list[float], deals: int, label: str = "train/hard-duel",
                    part: int = 0, parts: int = 1) -> list[float]:
    """The differences of :func:`hard_duel` on the deals of stream ``label`` whose number is
    ``part`` modulo ``parts`` (0 where both passes are the same)."""
    diffs = []
    for direction, hands, seat, stream in duel_deals(label, deals, part, parts):
        passes = table_passes(hands, direction, seat, best_pass(weights, hands[seat], direction))
        old = best_pass(before, hands[seat], direction)
        if passes[seat] == old:
            diffs.append(0.0)
            continue
        new = play_normal(hands, passes, direction, hard_seats(seat), seed=stream)[seat]
        passes[seat] = old
        diffs.append(new - play_normal(hands, passes, direction, hard_seats(seat), seed=stream)[seat])
    return diffs


def mean_se(diffs: Sequence[float]) -> tuple[float, float]:
    m = sum(diffs) / len(diffs)
    var = sum((d - m) ** 2 for d in diffs) / max(1, len(diffs) - 1)
    return m, math.sqrt(var / len(diffs))


def _duel_part(job: tuple[list[float], list[float], int, str, int, int, int]) -> list[float]:
    weights, before, deals, label, part, parts, table = job
    PLAY[0] = "hard"
    HARD_TABLE[0] = table
    return hard_duel_diffs(weights, before, deals, label, part, parts)


def check_duel(out: Path, state: dict[str, Any], deals: int, workers: int) -> None:
    """The checkpoint's pass against its run's starting weights on ``deals`` fresh deals (not
    the checkpoints' own), Hard in the seat: a line on stdout and in ``OUT/duels.jsonl``."""
    from multiprocessing import Pool

    label = "train/hard-duel-check"
    jobs = [(state["weights"], state["init"]["weights"], deals, label, k, workers, HARD_TABLE[0])
            for k in range(workers)]
    with Pool(workers) as pool:
        diffs = [d for part in pool.map(_duel_part, jobs) for d in part]
    m, se = mean_se(diffs)
    line = {"batch": state["batch"], "samples": state["samples"], "deals": deals, "label": label,
            "nonzero": sum(1 for d in diffs if d != 0.0), "hard_duel_vs_start": round(m, 4), "se": round(se, 4)}
    with open(out / "duels.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps(line), flush=True)


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _fresh(seed: int, play: str, init: Path | None = None, inherit: float = 1.0,
           hard_table: int = 1) -> dict[str, Any]:
    """A new run; from ``init`` (another run's checkpoint) its weights, and its AdaGrad sums
    scaled by ``inherit`` (below 1: larger steps than where that run stopped)."""
    state: dict[str, Any] = {"version": 1, "seed": seed, "size": SIZE, "play": play,
                             "rounds_per_batch": ROUNDS_PER_BATCH, "batch": 0, "samples": 0, "elapsed": 0.0,
                             "weights": [0.0] * SIZE, "accum": [0.0] * SIZE, "hard_table": hard_table}
    if init is not None:
        base = json.loads(init.read_text(encoding="utf-8"))
        state["weights"] = list(base["weights"])
        state["accum"] = [a * inherit for a in base["accum"]]
        state["init"] = {"from": str(init), "batch": base["batch"], "inherit": inherit,
                         "weights": list(base["weights"])}
    return state


def train_batch(state: dict[str, Any]) -> None:
    """One batch of rounds: its samples drawn from the batch's own stream, then learned."""
    seed, b = state["seed"], state["batch"]
    w: list[float] = state["weights"]
    acc: list[float] = state["accum"]
    rng = random.Random(f"train/{seed}/{b}")
    # the evaluation's own passes once it knows something
    policy_w = w if b >= 100 or "init" in state else None
    samples: list[Sample] = []
    per = state["rounds_per_batch"]
    for r in range(per):
        samples += round_samples(rng, b * per + r, policy_w)
    if b == 0 and "init" not in state:
        w[0] = sum(y for _, y in samples) / len(samples)
    for f, y in samples:
        g = sum(w[i] for i in f) - y
        gg = g * g
        for i in f:
            acc[i] += gg
            w[i] -= LR * g / math.sqrt(acc[i] + 1e-8) * 10.0
    state["batch"] = b + 1
    state["samples"] += len(samples)


def checkpoint(out: Path, state: dict[str, Any], valid: list[Sample], base_mse: float) -> None:
    w = state["weights"]
    err = mse(w, valid)
    line: dict[str, Any] = {"batch": state["batch"], "samples": state["samples"],
                            "elapsed_s": round(state["elapsed"], 1),
                            "valid_mse": round(err, 4), "const_mse": round(base_mse, 4)}
    if PLAY[0] == "hard":
        h, hse = hard_duel(w, state["init"]["weights"] if "init" in state else [0.0] * SIZE)
        line |= {"hard_duel_vs_start": round(h, 4), "hard_duel_se": round(hse, 4), "hard_duel_deals": HARD_DUEL_DEALS}
    else:
        d, se = duel(w)
        g, gse = normal_games(w)
        line |= {"duel_vs_normal_pass": round(d, 4), "duel_se": round(se, 4), "duel_deals": DUEL_DEALS,
                 "normal_rounds_vs_normal_pass": round(g, 4), "normal_rounds_se": round(gse, 4),
                 "normal_rounds": GAME_DEALS}
    _write_json(out / "checkpoint.json", state)
    with open(out / "curve.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps(line), flush=True)


def export(state: dict[str, Any], path: Path) -> None:
    """The weights for the package: rounded, with where they came from."""
    data = {"about": "hearts_cli.bots.learned pass evaluation; trained by python -m bench.train",
            "seed": state["seed"], "batch": state["batch"], "samples": state["samples"],
            "weights": [round(x, 4) for x in state["weights"]]}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hours", type=float, default=1.0, help="training time in all, every session counted")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="default bench/train_runs/SEED")
    ap.add_argument("--every", type=float, default=5.0, help="minutes between checkpoints")
    ap.add_argument("--batches", type=int, default=0, help="stop after this many batches in all (0: by time)")
    ap.add_argument("--play", choices=("normal", "playout", "hard"), default="normal",
                    help="how the training rounds are played (a new run only; a checkpoint keeps its own); "
                         "hard: one seat played by Hard, its pass the only sample")
    ap.add_argument("--hard-seats", type=int, choices=(1, 2, 3, 4), default=1,
                    help="--play hard: the seats Hard plays, the learner's among them (a new run only)")
    ap.add_argument("--init", type=Path, default=None, help="a new run starts from this checkpoint's weights")
    ap.add_argument("--inherit", type=float, default=1.0,
                    help="with --init: the share of its AdaGrad sums kept (smaller: larger steps)")
    ap.add_argument("--export", type=Path, default=None, help="write the checkpoint's weights here and exit")
    ap.add_argument("--duel", type=int, default=0, metavar="DEALS",
                    help="a run of --play hard --init: duel its checkpoint against its starting weights on "
                         "this many fresh deals and exit")
    ap.add_argument("--workers", type=int, default=1, help="processes for --duel")
    args = ap.parse_args(argv)
    out: Path = args.out or Path("bench/train_runs") / str(args.seed)
    out.mkdir(parents=True, exist_ok=True)
    ck = out / "checkpoint.json"
    state = json.loads(ck.read_text(encoding="utf-8")) if ck.exists() \
        else _fresh(args.seed, args.play, args.init, args.inherit, args.hard_seats)
    state.setdefault("play", "playout")
    state.setdefault("rounds_per_batch", 500)
    PLAY[0] = state["play"]
    HARD_TABLE[0] = state.setdefault("hard_table", 1)
    if state["seed"] != args.seed or state["size"] != SIZE:
        print(f"{ck}: another seed or other features; give another --out", file=sys.stderr)
        return 2
    if args.export is not None:
        export(state, args.export)
        return 0
    if args.duel:
        if "init" not in state:
            print(f"{ck}: --duel needs a run started with --init", file=sys.stderr)
            return 2
        check_duel(out, state, args.duel, args.workers)
        return 0
    stop = []

    def _stop(signum: int, frame: object) -> None:
        stop.append(signum)

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    valid = validation_set()
    mean = sum(y for _, y in valid) / len(valid)
    base_mse = sum((y - mean) ** 2 for _, y in valid) / len(valid)
    if state["batch"] == 0:
        checkpoint(out, state, valid, base_mse)
    budget = args.hours * 3600
    last = time.monotonic()
    while not stop and state["elapsed"] < budget and not (args.batches and state["batch"] >= args.batches):
        t0 = time.monotonic()
        train_batch(state)
        now = time.monotonic()
        state["elapsed"] += now - t0
        if now - last >= args.every * 60:
            checkpoint(out, state, valid, base_mse)
            last = time.monotonic()
    checkpoint(out, state, valid, base_mse)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
