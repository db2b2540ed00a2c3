"""Tournaments between players: a gauntlet (one against a field) or a round robin.

Each pairing (A, B) is played in *pairs* of duplicate games on one game code: a half
with A at one seat and B at every other, then a half with B at one seat and A at the
others, each half in every rotation of the seats (so every player plays every hand from
every seat). Game ``g`` of every pairing has the same code, so the whole field meets
the same deals. The stream of games is fixed by the seed alone; results come back in
that order (one process, a pool or a cluster alike), so where a run stops — at its
deals, or when the sequential test decides — depends on nothing else, and a run
interrupted and resumed from its results file ends as one that was not.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.rules import Rules
from .match import GamePlay, Job, faults_of, kept_job, match_code, reliable, rotations, tournament_job
from .rating import EloInterval, Rating, Sprt, SprtBounds, bradley_terry, elo_interval, half_outcome, sprt

if TYPE_CHECKING:  # a name only the type checker has
    from .match import Mapper

__all__ = ["Half", "Standing", "Tournament", "finished", "half_seats", "pairings", "run_pairings", "standing"]

MODES = ("gauntlet", "round-robin")


def pairings(mode: str, players: Sequence[str]) -> list[tuple[str, str]]:
    """Who meets whom: the first player against each of the others (a gauntlet), or every
    two players once (a round robin), in the order given."""
    if mode == "gauntlet":
        return [(players[0], other) for other in players[1:]]
    return list(itertools.combinations(players, 2))


def half_seats(pairing: tuple[str, str], half: int, n: int) -> tuple[str, ...]:
    """The seats of one half: one player alone at seat 0, the other at every other seat."""
    alone, others = pairing if half == 0 else pairing[::-1]
    return (alone, *([others] * (n - 1)))


@dataclass
class Half:
    """One half of a pair: game ``game`` of ``pairing`` with ``pairing[half]`` alone, every rotation."""

    game: int
    pairing: int
    half: int
    code: str
    plays: list[GamePlay]

    @property
    def deals(self) -> int:
        return max(len(p.rounds) for p in self.plays)

    def points(self, player: str) -> tuple[int, int]:
        """``player``'s points and seat-rounds over every rotation of this half."""
        points = rounds = 0
        for play in self.plays:
            for s, who in enumerate(play.levels):
                if who == player:
                    points += sum(r.scores[s] for r in play.rounds)
                    rounds += len(play.rounds)
        return points, rounds

    def outcome(self, a: str, b: str) -> float:
        """1, ½ or 0 for ``a`` against ``b`` (fewer points a seat-round wins)."""
        return half_outcome(*self.points(a), *self.points(b))


@dataclass
class Tournament:
    """What a tournament needs to be played the same way again (its results file's header)."""

    rules: Rules
    mode: str
    players: tuple[str, ...]
    deals: int  # per pairing, at least (whole games only)
    seed: str
    simulations: int | None = None
    sprt: SprtBounds | None = None
    move_time: float | None = None  # seconds a decision of an outside program may take, where one plays

    @property
    def pairings(self) -> list[tuple[str, str]]:
        return pairings(self.mode, self.players)

    @property
    def jobs_per_half(self) -> int:
        return len(rotations(half_seats(self.pairings[0], 0, self.rules.players), True))

    def jobs(self, skip_halves: int = 0) -> Iterator[Job]:
        """The endless, ordered stream of jobs from half ``skip_halves`` on: game 0's pairings'
        halves' rotations, then game 1's, ..."""
        n = self.rules.players
        sims: dict[str, int | None] | None = dict.fromkeys(self.players, self.simulations) \
            if self.simulations else None
        units = itertools.count()
        for game in itertools.count():
            for pairing in self.pairings:
                for half in (0, 1):
                    if next(units) < skip_halves:
                        continue
                    for levels in rotations(half_seats(pairing, half, n), True):
                        yield (self.rules, levels, game, self.seed, sims)


@dataclass
class Standing:
    """Where a tournament stands after some halves: what the report and the progress line say."""

    halves: list[Half]
    deals: dict[tuple[str, str], int] = field(default_factory=dict)  # per pairing, distinct deals
    pairs: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # per pairing, each pair's score
    ratings: list[Rating] = field(default_factory=list)
    test: Sprt | None = None
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # each program's, by kind (match.faults_of)

    def reliable(self, player: str) -> bool:
        """Whether ``player``'s results are its own (the CPU did not make its decisions:
        :func:`~hearts_cli.bots.match.reliable`); no Elo is given of a player that is not."""
        return reliable(self.faults.get(player))

    def interval(self, pairing: tuple[str, str]) -> EloInterval:
        """The first player's Elo over the second, with one drawn pair added (as the ratings add
        a draw): a pairing won every time is a large number, not an infinite one."""
        scores = self.pairs.get(pairing, [])
        estimate = elo_interval([*scores, 1.0])
        return EloInterval(estimate.elo, estimate.low, estimate.high, len(scores), estimate.score)


def standing(t: Tournament, halves: Sequence[Half]) -> Standing:
    """Deals, pair scores, ratings and the sequential test over ``halves`` (complete pairs count)."""
    out = Standing(list(halves))
    pairs = t.pairings
    by_key: dict[tuple[int, int], list[Half]] = {}
    for h in halves:
        by_key.setdefault((h.game, h.pairing), []).append(h)
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for (_, p), both in by_key.items():
        a, b = pairs[p]
        out.deals[(a, b)] = out.deals.get((a, b), 0) + max(h.deals for h in both)
        if len(both) < 2:
            continue
        score = sum(h.outcome(a, b) for h in both)
        out.pairs.setdefault((a, b), []).append(score)
        points, games = results.get((a, b), (0.0, 0))
        results[(a, b)] = (points + score, games + 2)
    out.ratings = bradley_terry(t.players, results)
    out.faults = faults_of(p for h in halves for p in h.plays) or {}
    if t.sprt is not None and len(pairs) == 1:
        out.test = sprt(out.pairs.get(pairs[0], []), t.sprt)
        if not all(map(out.reliable, pairs[0])):  # the CPU played for one of them: no conclusion on it
            out.test = Sprt(out.test.bounds, out.test.llr, None)
    return out


def finished(t: Tournament, halves: Sequence[Half]) -> bool:
    """Whether the run stops after ``halves``: at the end of a game index once every pairing
    has its deals, or as soon as the sequential test decides (at a complete pair)."""
    if not halves or halves[-1].half != 1:
        return False
    if t.sprt is not None and len(t.pairings) == 1:
        test = standing(t, halves).test
        if test is not None and test.verdict is not None:
            return True
    if halves[-1].pairing != len(t.pairings) - 1:
        return False
    now = standing(t, halves)
    return all(now.deals.get(p, 0) >= t.deals for p in t.pairings)


def run_pairings(t: Tournament, done: Sequence[Half] = (), mapper: Mapper | None = None,
                 progress: Callable[[Standing], None] | None = None,
                 kept: Callable[[Half], None] | None = None, keep: bool = False,
                 job: Callable[[Job], tuple[int, GamePlay]] | None = None) -> list[Half]:
    """Play ``t`` on from the halves already ``done`` (a resumed run) until it is finished.

    ``mapper`` as in :func:`~hearts_cli.bots.match.run_tournament` (ordered, lazy);
    ``kept(half)`` is told of each half as it completes (the results file appends it),
    ``progress(standing)`` after each; ``keep``: the games are played with every move kept
    (:func:`~hearts_cli.bots.match.kept_job`), for an export; ``job`` as in
    :func:`~hearts_cli.bots.match.run_tournament`.
    """
    halves = list(done)
    if finished(t, halves):
        return halves
    per_half = t.jobs_per_half
    pairs = t.pairings
    stream = (mapper or map)(job or (kept_job if keep else tournament_job), t.jobs(len(halves)))
    plays: list[GamePlay] = []
    try:
        for game, play in stream:
            plays.append(play)
            if len(plays) < per_half:
                continue
            unit = len(halves)
            pairing = unit // 2 % len(pairs)
            half = Half(game, pairing, unit % 2, match_code(t.seed, game), plays)
            plays = []
            halves.append(half)
            if kept is not None:
                kept(half)
            if progress is not None:
                progress(standing(t, halves))
            if finished(t, halves):
                break
    finally:
        close = getattr(stream, "close", None)
        if close:
            close()
    return halves

