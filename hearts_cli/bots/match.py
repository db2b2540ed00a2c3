"""Duplicate matches between bot levels: pure logic, no printing.

Each deal is played once per rotation of the seats, so every level plays
every hand from every seat; luck of the deal cancels out. A deal is one round
(the pass direction cycles with the deal number), scored from zero.
Decision times are measured here for reporting only: no bot ever sees them.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..codes import is_code, seed_for
from ..engine import Phase, Round
from ..rules import Rules
from . import make_bot

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def match_code(label: str, index: int) -> str:
    """A valid game code for deal ``index`` of a match labelled ``label``."""
    x = seed_for("00000000", "match", label, index)
    payload = "".join(_ALPHABET[(x >> (5 * i)) & 31] for i in range(7))
    for ch in _ALPHABET:
        if is_code(payload + ch):
            return payload + ch
    raise AssertionError("no check character")  # pragma: no cover


@dataclass
class DealResult:
    index: int
    points: dict[str, float]  # level -> mean points per round of that level's seats
    times: dict[str, list[float]]  # level -> seconds per play decision
    forced: dict[str, list[bool]]  # level -> was the decision forced (one legal card)


def play_round(rules: Rules, code: str, round_index: int, levels: Sequence[str],
               simulations: dict[str, int | None] | None = None,
               times: dict[str, list[float]] | None = None,
               forced: dict[str, list[bool]] | None = None) -> list[int]:
    """Play one round with ``levels[s]`` at seat ``s``; returns the round scores."""
    sims = simulations or {}
    rnd = Round.deal(rules, code, round_index)
    bots = [make_bot(lv, seed_for(code, "cpu", round_index, s), sims.get(lv))
            for s, lv in enumerate(levels)]
    if rnd.phase is Phase.PASS:
        for s, bot in enumerate(bots):
            rnd.pass_cards(s, bot.choose_pass(rnd.view(s)))
    while rnd.phase is Phase.PLAY:
        s = rnd.turn
        view = rnd.view(s)
        t0 = time.perf_counter()
        card = bots[s].choose_card(view)
        dt = time.perf_counter() - t0
        if times is not None:
            times.setdefault(levels[s], []).append(dt)
        if forced is not None:
            forced.setdefault(levels[s], []).append(len(view.legal) == 1)
        rnd.play(card)  # checked: a bot's illegal move raises
    assert rnd.result is not None
    return list(rnd.result.scores)


def play_deal(rules: Rules, seats: Sequence[str], index: int, label: str = "bench",
              simulations: dict[str, int | None] | None = None) -> DealResult:
    """Deal ``index`` played once per rotation of ``seats``."""
    n = rules.players
    if len(seats) != n:
        raise ValueError(f"{n} seats needed, got {len(seats)}")
    code = match_code(label, index)
    round_index = index % len(rules.pass_cycle)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    times: dict[str, list[float]] = {}
    forced: dict[str, list[bool]] = {}
    for r in range(n):
        levels = [seats[(s + r) % n] for s in range(n)]
        scores = play_round(rules, code, round_index, levels, simulations, times, forced)
        for s, lv in enumerate(levels):
            sums[lv] = sums.get(lv, 0.0) + scores[s]
            counts[lv] = counts.get(lv, 0) + 1
    return DealResult(index, {lv: sums[lv] / counts[lv] for lv in sums}, times, forced)


@dataclass
class LevelStats:
    level: str
    mean: float
    ci95: float
    decisions: int
    median_ms: float
    p95_ms: float
    median_ms_unforced: float


@dataclass
class MatchResult:
    seats: tuple[str, ...]
    deals: int
    stats: dict[str, LevelStats] = field(default_factory=dict)

    def ratio(self, level: str, other: str) -> float:
        return self.stats[level].mean / self.stats[other].mean


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[k]


def summarize(seats: Sequence[str], results: Iterable[DealResult]) -> MatchResult:
    results = list(results)
    out = MatchResult(tuple(seats), len(results))
    for lv in dict.fromkeys(seats):
        per = [r.points[lv] for r in results]
        mean = statistics.fmean(per) if per else 0.0
        sd = statistics.stdev(per) if len(per) > 1 else 0.0
        ts = [t for r in results for t in r.times.get(lv, [])]
        fs = [f for r in results for f in r.forced.get(lv, [])]
        unforced = [t for t, f in zip(ts, fs) if not f]
        out.stats[lv] = LevelStats(lv, mean, 1.96 * sd / math.sqrt(len(per)) if per else 0.0,
                                   len(ts), 1000 * _pct(ts, 0.5), 1000 * _pct(ts, 0.95),
                                   1000 * _pct(unforced, 0.5))
    return out


def run_match(rules: Rules, seats: Sequence[str], deals: int, label: str = "bench",
              simulations: dict[str, int | None] | None = None,
              progress: Callable[[int], None] | None = None) -> MatchResult:
    results = []
    for i in range(deals):
        results.append(play_deal(rules, seats, i, label, simulations))
        if progress:
            progress(i + 1)
    return summarize(seats, results)
