"""Duplicate matches between bot levels: pure logic, no printing.

Each deal is played once per rotation of the seats, so every level plays
every hand from every seat; luck of the deal cancels out. A deal is one round
(the pass direction cycles with the deal number), scored from zero.
Decision times are measured here for reporting only: no bot ever sees them.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..base.jsonvalue import JsonValue
from ..model.cards import Card
from ..model.codes import code_from_number, seed_for
from ..model.rules import Moon, Rules
from ..play.dealt import Phase
from ..play.game import Game
from ..play.round import Round, SeatView
from . import Bot, make_bot
from .moon import choose_moon


def match_code(label: str, index: int) -> str:
    """A valid game code for deal ``index`` of a match labelled ``label``."""
    return code_from_number(seed_for("00000000", "match", label, index))


@dataclass
class DealResult:
    index: int
    points: dict[str, float]  # level -> mean points per round of that level's seats
    times: dict[str, list[float]]  # level -> seconds per play decision
    forced: dict[str, list[bool]]  # level -> was the decision forced (one legal card)


def _decide(bot: Bot, view: SeatView, level: str, times: dict[str, list[float]] | None,
            forced: dict[str, list[bool]] | None, clock: Callable[[], float] = time.perf_counter) -> Card:
    """The bot's card, noting how long it took (by ``clock``) and whether the card was forced."""
    t0 = clock()
    card = bot.choose_card(view)
    if times is not None:
        times.setdefault(level, []).append(clock() - t0)
    if forced is not None:
        forced.setdefault(level, []).append(len(view.legal) == 1)
    return card


def play_round(rules: Rules, code: str, round_index: int, levels: Sequence[str],
               simulations: dict[str, int | None] | None = None,
               times: dict[str, list[float]] | None = None,
               forced: dict[str, list[bool]] | None = None,
               clock: Callable[[], float] = time.perf_counter,
               make: Callable[[str, int, int | None], Bot] = make_bot) -> list[int]:
    """Play one round with ``levels[s]`` at seat ``s``; returns the round scores (``times``:
    each level's decisions by ``clock``, wall time unless ``time.process_time`` is given).
    ``make(level, seed, simulations)`` makes each seat's bot: a bench gives its own to try
    a variant with explicit parameters (``bench/tweak.py``)."""
    sims = simulations or {}
    rnd = Round.deal(rules, code, round_index)
    bots = [make(lv, seed_for(code, "cpu", round_index, s), sims.get(lv))
            for s, lv in enumerate(levels)]
    if rnd.phase is Phase.PASS:
        for s, bot in enumerate(bots):
            rnd.pass_cards(bot.choose_pass(rnd.view(s)), s)
    while rnd.phase is Phase.PLAY:
        s = rnd.mover
        rnd.play(_decide(bots[s], rnd.view(s), levels[s], times, forced, clock))  # checked: an illegal move raises
    if rnd.phase is Phase.MOON:  # the shooter's choice
        rnd.choose_moon(choose_moon(rnd.view(rnd.mover)))
    return list(rnd.outcome.scores)


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


# ---------------------------------------------------------------- tournaments of whole games (hearts sim)
#
# ``play_round``/``play_deal`` above score every deal from zero (the strength
# bench). A tournament plays whole games instead, through the engine's
# ``Game``: the bots see the real running scores, rounds follow the pass
# cycle, and the game ends at the preset's target with its tie policy, so
# "games won" counts games that were really played. In duplicate mode each
# game code is played once per rotation of the seats: round k of a game is the
# same deal (cards and pass direction) in every rotation that reaches it.

MAX_ROUNDS = 1000  # a game longer than this is a bug, not a long game


@dataclass(frozen=True)
class RoundLog:
    """One finished round of a tournament game (seats, not levels)."""

    scores: tuple[int, ...]  # after the moon and the J♦
    shooter: int | None  # the engine's shooter (None without a moon or with moon "off")
    threat: int | None  # first seat to make a moon threat (see moon_threshold)
    stopper: int | None  # who took the first penalty card outside the threat's seat after it
    taken: tuple[int, ...] = ()  # the cards each seat took (masks, the kitty included)


@dataclass
class GamePlay:
    """One game played with ``levels[s]`` at seat ``s``."""

    levels: tuple[str, ...]
    rounds: list[RoundLog]
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # seats with the lowest total at the end (a shared win when several)
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds per play decision
    forced: dict[str, list[bool]] = field(default_factory=dict)
    game: Game | None = None  # the game itself, every move, when it is to be exported (``keep``)
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # an outside program's, by kind (table/program.py)
    # each fault of an outside program as an author needs it (``hearts sim --faults``; table/program.py)
    fault_log: list[dict[str, JsonValue]] = field(default_factory=list)


@dataclass
class GameResult:
    """Game ``index`` of a tournament: its code, played once per rotation (or once)."""

    index: int
    code: str
    plays: list[GamePlay]

    @property
    def deals(self) -> int:
        """Distinct deals: round k is the same deal in every rotation, so the longest play."""
        return max(len(p.rounds) for p in self.plays)


def moon_threshold(rules: Rules) -> int:
    """Penalty cards a seat must hold, with nobody else holding any, to be a moon threat: half."""
    return (bin(rules.penalty_mask).count("1") + 1) // 2


class MoonWatch:
    """Who first threatened a moon in a round and who stopped it (a :class:`RoundLog`'s
    ``threat`` and ``stopper``), told each trick as it is taken."""

    def __init__(self, rules: Rules):
        self.pmask = rules.penalty_mask
        self.moons = rules.moon is not Moon.OFF
        self.need = moon_threshold(rules)
        self.players = rules.players
        self.threat: int | None = None
        self.stopper: int | None = None

    def trick(self, rnd: Round, winner: int | None) -> None:
        """A trick of ``rnd`` was just taken by ``winner``."""
        if not self.moons or self.stopper is not None:
            return
        n = self.players
        held = [bin(rnd.taken[x] & self.pmask).count("1") for x in range(n)]
        if self.threat is None:
            holders = [x for x in range(n) if held[x]]
            if len(holders) == 1 and held[holders[0]] >= self.need:
                self.threat = holders[0]
        elif any(held[x] for x in range(n) if x != self.threat):
            self.stopper = winner

    def log(self, rnd: Round) -> RoundLog:
        """The finished round's log; the watch starts again for the next round."""
        result = rnd.outcome
        log = RoundLog(tuple(result.scores), result.shooter, self.threat, self.stopper, tuple(rnd.taken))
        self.threat = self.stopper = None
        return log


def play_game(rules: Rules, code: str, levels: Sequence[str],
              simulations: dict[str, int | None] | None = None,
              make: Callable[[str, int, int | None], Bot] = make_bot, keep: bool = False) -> GamePlay:
    """A whole game with ``levels[s]`` at seat ``s`` (CPU seeds from the code and the seat;
    ``make`` as in :func:`play_round`); ``keep``: with the game itself, to export it."""
    n = rules.players
    if len(levels) != n:
        raise ValueError(f"{n} seats needed, got {len(levels)}")
    sims = simulations or {}
    bots = [make(lv, seed_for(code, "cpu", s), sims.get(lv)) for s, lv in enumerate(levels)]
    watch = MoonWatch(rules)
    game = Game(rules, code)
    logs: list[RoundLog] = []
    times: dict[str, list[float]] = {}
    forced: dict[str, list[bool]] = {}
    while not game.over:
        if len(logs) >= MAX_ROUNDS:
            raise RuntimeError(f"game {code} did not end in {MAX_ROUNDS} rounds")
        rnd = game.round
        if rnd.phase is Phase.PASS:
            for s, bot in enumerate(bots):
                game.push_pass(bot.choose_pass(rnd.view(s)), s)
        while rnd.phase is Phase.PLAY:
            s = rnd.mover
            done = game.push(_decide(bots[s], rnd.view(s), levels[s], times, forced))  # checked
            if done is not None:
                watch.trick(rnd, done.winner)
        if rnd.phase is Phase.MOON:  # the shooter's choice
            game.push_moon(choose_moon(rnd.view(rnd.mover)))
        logs.append(watch.log(rnd))
    return GamePlay(tuple(levels), logs, tuple(game.totals), tuple(game.winners), times, forced,
                    game if keep else None)


UNRELIABLE_SHARE = 0.05  # the share of a program's decisions made by the CPU from which it is not rated


def faults_of(plays: Iterable[GamePlay]) -> dict[str, dict[str, int]] | None:
    """Each outside program's faults over ``plays``, by kind, with ``taken`` (the decisions the
    CPU made for it), ``decisions`` and ``silent`` (the games, one seat each, in which it made
    none of its decisions itself); None when no program played."""
    out: dict[str, dict[str, int]] = {}
    for play in plays:
        for level, counts in play.faults.items():
            mine = out.setdefault(level, dict.fromkeys(counts, 0))
            for kind, count in counts.items():
                mine[kind] = mine.get(kind, 0) + count
    return out or None


def reliable(counts: dict[str, int] | None) -> bool:
    """Whether a player's results are its own: a CPU level's always; a program's unless the CPU
    made its decisions — in a whole game (it failed before its first answer there), or in
    ``UNRELIABLE_SHARE`` of them or more (its faults, and the rest of a game after a crash)."""
    if not counts:
        return True
    decisions = counts.get("decisions", 0)
    return counts.get("silent", 0) == 0 and counts.get("taken", 0) < UNRELIABLE_SHARE * decisions


def silent_everywhere(level: str, plays: Sequence[GamePlay]) -> bool:
    """Whether ``level`` (a program) made none of its decisions itself at any of its seats in
    any of ``plays`` where it sat (a program that fails before its first answer)."""
    seated = [p for p in plays if level in p.levels]
    return bool(seated) and all(p.faults.get(level, {}).get("silent", 0) >= p.levels.count(level) for p in seated)


# Where a seat's round score comes from; the parts add up to the score.
BREAKDOWN = ("hearts", "queen", "other", "moons_conceded", "moon_bonus", "jack")


def round_breakdown(rules: Rules, log: RoundLog) -> list[tuple[int, ...]]:
    """Each seat's round score split into the parts of ``BREAKDOWN``.

    Without a moon: the points of the hearts it took, of the Q♠, of any other
    penalty card (Black Maria's K♠/A♠), and the J♦ (``jack``, negative when it
    is a bonus). In a moon round the penalty cards cost nobody what they are
    worth: the shooter's score less its J♦ is ``moon_bonus`` (0, or −26 when
    the shooter subtracts), every other seat's is ``moons_conceded`` (26 when
    the moon is added to the others, else 0).
    """
    pts = rules.points
    out: list[tuple[int, ...]] = []
    for s, score in enumerate(log.scores):
        taken = log.taken[s]
        jack = pts[22] if taken >> 22 & 1 and pts[22] < 0 else 0
        if log.shooter is not None:
            moon = score - jack
            out.append((0, 0, 0, 0 if s == log.shooter else moon, moon if s == log.shooter else 0, jack))
            continue
        hearts = sum(pts[c] for c in range(26, 39) if taken >> c & 1)
        queen = pts[49] if taken >> 49 & 1 else 0
        out.append((hearts, queen, score - hearts - queen - jack, 0, 0, jack))
    return out


def rotations(seats: Sequence[str], duplicate: bool) -> list[tuple[str, ...]]:
    """The seatings a game is played with: every rotation of ``seats``, or ``seats`` alone."""
    n = len(seats)
    if not duplicate:
        return [tuple(seats)]
    return [tuple(seats[(s + r) % n] for s in range(n)) for r in range(n)]


Job = tuple[Rules, tuple[str, ...], int, str, "dict[str, int | None] | None"]


def tournament_job(args: Job) -> tuple[int, GamePlay]:
    """One rotation of one game, for a worker process (a top-level function: spawn-safe)."""
    rules, levels, index, seed, simulations = args
    return index, play_game(rules, match_code(seed, index), levels, simulations)


def run_batch(fn: Callable[[_J], _R], jobs: Sequence[_J]) -> list[_R]:
    """``fn`` of each job in turn: one task of a cluster (``sim/cluster.py``), a few jobs long so
    that what a task costs to send is paid once for several games."""
    return [fn(job) for job in jobs]


def kept_job(args: Job) -> tuple[int, GamePlay]:
    """As :func:`tournament_job`, the game itself kept for an export (``hearts sim --export``)."""
    rules, levels, index, seed, simulations = args
    return index, play_game(rules, match_code(seed, index), levels, simulations, keep=True)


def tournament_jobs(rules: Rules, seats: Sequence[str], seed: str, duplicate: bool = True,
                    simulations: dict[str, int | None] | None = None) -> Iterator[Job]:
    """The endless, ordered stream of jobs: game 0's rotations, then game 1's, ..."""

    seatings = rotations(seats, duplicate)
    for index in itertools.count():
        for levels in seatings:
            yield (rules, levels, index, seed, simulations)


if TYPE_CHECKING:  # types only: nothing to build at start-up

    _J = TypeVar("_J")
    _R = TypeVar("_R")


    class Mapper(Protocol):
        """An ordered, lazy ``map``: the built-in one, or a pool of processes' (``sim/pool.py``)."""

        def __call__(self, fn: Callable[[_J], _R], jobs: Iterable[_J], /) -> Iterator[_R]: ...


def run_tournament(rules: Rules, seats: Sequence[str], deals: int, seed: str,
                   duplicate: bool = True, simulations: dict[str, int | None] | None = None,
                   mapper: Mapper | None = None,
                   progress: Callable[[int], None] | None = None,
                   kept: Callable[[GameResult], None] | None = None,
                   job: Callable[[Job], tuple[int, GamePlay]] | None = None) -> list[GameResult]:
    """Games 0, 1, ... until they hold at least ``deals`` distinct deals; whole games only.

    ``mapper(function, iterable)`` must yield results in order, lazily (the
    built-in ``map`` by default; a process pool's ordered map for workers);
    it is closed once enough games are in, so a pool can drop its extra work.
    The games kept depend only on the seed, never on the mapper. ``kept(game)`` is told of
    each game as it completes: with it, the games are played with every move kept
    (:func:`kept_job`), for an export. ``job`` plays each job instead (a top-level function,
    for worker processes): where an outside program sits (``hearts_cli.table.program``).
    """
    if deals < 1:
        raise ValueError("at least one deal is needed")
    if len(seats) != rules.players:
        raise ValueError(f"{rules.players} seats needed, got {len(seats)}")
    per_game = len(rotations(seats, duplicate))
    stream = (mapper or map)(job or (tournament_job if kept is None else kept_job),
                             tournament_jobs(rules, seats, seed, duplicate, simulations))
    games: list[GameResult] = []
    plays: list[GamePlay] = []
    done = 0
    try:
        for index, play in stream:
            plays.append(play)
            if len(plays) < per_game:
                continue
            game = GameResult(index, match_code(seed, index), plays)
            plays = []
            games.append(game)
            if kept is not None:
                kept(game)
            done += game.deals
            if progress:
                progress(min(done, deals))
            if done >= deals:
                break
    finally:
        close = getattr(stream, "close", None)
        if close:
            close()
    return games


@dataclass
class TournamentStats:
    """One level's results over a tournament (every seat of that level together)."""

    level: str
    seats: int  # seats of this level at the table
    rounds: int  # seat-rounds played
    points: int  # total points scored
    mean: float  # points per round
    ci95: float  # half-width of the 95% confidence interval of ``mean``, over games
    games: int  # games played (each rotation of a game counts as one)
    won: float  # games won; a shared win counts 1/k for each of the k winners
    won_outright: int  # games won alone
    win_rate: float  # won / (games * seats): 1/players is an even share
    moons_shot: int
    moon_threats: int
    moons_stopped: int  # moon threats of other seats stopped by this level's seats
    moon_points: int  # points conceded to other seats' moons (``breakdown["moons_conceded"]``)
    breakdown: dict[str, int]  # the level's points by where they came from (BREAKDOWN): they add up to ``points``
    decisions: int
    mean_ms: float
    median_ms: float
    p95_ms: float


def tournament_stats(rules: Rules, seats: Sequence[str], games: Sequence[GameResult]
                     ) -> dict[str, TournamentStats]:
    """Per level: points per round (with a CI over games), games won, moons, decision times.

    The CI is the ratio estimator's: points per round = sum(P_g) / sum(R_g)
    over games g (P_g, R_g: the level's points and seat-rounds in game g,
    every rotation together), with the linearised standard error
    sqrt(sum((P_g - mean R_g)^2) / (G (G - 1))) / mean(R_g), times 1.96.
    """
    out: dict[str, TournamentStats] = {}
    for lv in dict.fromkeys(seats):
        per_game: list[tuple[int, int]] = []
        played = won_outright = shot = threats = stopped = 0
        won = 0.0
        ts: list[float] = []
        parts = [0] * len(BREAKDOWN)
        for g in games:
            p = r = 0
            for play in g.plays:
                mine = [s for s, x in enumerate(play.levels) if x == lv]
                played += 1
                for log in play.rounds:
                    r += len(mine)
                    split = round_breakdown(rules, log)
                    for s in mine:
                        for i, v in enumerate(split[s]):
                            parts[i] += v
                    p += sum(log.scores[s] for s in mine)
                    shot += log.shooter in mine
                    threats += log.threat in mine
                    stopped += log.stopper in mine
                winners = [s for s in play.winners if s in mine]
                won += len(winners) / len(play.winners)
                won_outright += len(play.winners) == 1 and bool(winners)
                ts.extend(play.times.get(lv, []))
            per_game.append((p, r))
        total_p = sum(p for p, _ in per_game)
        total_r = sum(r for _, r in per_game)
        mean = total_p / total_r if total_r else 0.0
        ci = 0.0
        g_count = len(per_game)
        if g_count > 1 and total_r:
            resid = sum((p - mean * r) ** 2 for p, r in per_game)
            ci = 1.96 * math.sqrt(resid / (g_count * (g_count - 1))) / (total_r / g_count)
        n_seats = list(seats).count(lv)
        out[lv] = TournamentStats(
            lv, n_seats, total_r, total_p, mean, ci, played, won, won_outright,
            won / (played * n_seats) if played else 0.0, shot, threats, stopped,
            parts[BREAKDOWN.index("moons_conceded")], dict(zip(BREAKDOWN, parts)),
            len(ts), 1000 * statistics.fmean(ts) if ts else 0.0,
            1000 * _pct(ts, 0.5), 1000 * _pct(ts, 0.95))
    return out
