"""``hearts sim --seats``: whole games between the levels seated, each game once or once per
rotation of the seats (``--duplicate``), played here, in worker processes or on a cluster.

The games themselves are :mod:`hearts_cli.bots.match`'s; this adds what a run holds around
them: its outside programs and their faults, its export, and the time it took.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from ..bots.match import GameResult, TournamentStats, faults_of, rotations, run_tournament, tournament_stats
from ..model.errors import HeartsError
from ..model.rules import Rules
from .export import Export
from .pool import mapper_of
from .programs import FaultWatch, ProgramDead, close_programs, program_job

Progress = AbstractContextManager[Callable[[int], None] | None]  # told the deals played as games end


@dataclass
class Simulation:
    """A run of seats: what was asked, the games played, each level's statistics, the time it took."""

    rules: Rules
    seats: tuple[str, ...]
    deals_requested: int
    seed: str
    duplicate: bool
    simulations: int | None
    workers: int
    games: list[GameResult]
    stats: dict[str, TournamentStats]
    seconds: float
    faults: dict[str, dict[str, int]] | None = None  # each outside program's (none seated: None)
    stopped: HeartsError | None = None  # why the run stopped before its deals (a program that never answered)

    @property
    def deals(self) -> int:
        return sum(g.deals for g in self.games)

    @property
    def rounds(self) -> int:
        """Rounds played at the table, every rotation counted."""
        return sum(len(p.rounds) for g in self.games for p in g.plays)

    @property
    def rotations(self) -> int:
        return len(rotations(self.seats, self.duplicate))


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def run(rules: Rules, seats: Sequence[str], deals: int, seed: str, *, duplicate: bool = True,
        simulations: int | None = None, workers: int = 1, lang: str = "en", progress: Progress | None = None,
        export: Export | None = None, move_time: float | None = None, cluster: str | None = None,
        faults: str | None = None, tell: Callable[[str], None] = _to_stderr) -> Simulation:
    """Games until they hold ``deals`` deals (docs/sim.md). ``progress`` is entered while they
    are played; ``tell`` is given each line the run's end says (a program that had to be stopped)."""
    # a level without a budget ignores it
    sims: dict[str, int | None] | None = dict.fromkeys(seats, simulations) if simulations else None
    job = program_job(seats, move_time, export is not None)
    watch = FaultWatch(seats, faults, lang, silence_stops=False)
    mapper = mapper_of(workers, cluster)
    if export is not None:
        export.event = f"hearts sim {seed}"
    ended = _Ended(watch, export)
    kept = ended if job is not None or export is not None else None  # (a program seated: the job is its own)
    t0 = time.perf_counter()
    stopped = None
    try:
        with progress or nullcontext() as tick:
            games = run_tournament(rules, seats, deals, seed, duplicate, sims, mapper, tick, kept, job)
    except ProgramDead as e:  # the report says what was played, then the sentence why it stopped
        games, stopped = ended.games, e
    finally:  # (Ctrl-C too: the games written so far stay readable)
        watch.close()
        if export is not None:
            export.close()
        for line in close_programs(seats, lang):
            tell(line)
    seconds = time.perf_counter() - t0
    return Simulation(rules, tuple(seats), deals, seed, duplicate, simulations, workers, games,
                      tournament_stats(rules, seats, games), seconds,
                      faults_of(p for g in games for p in g.plays), stopped)


class _Ended:
    """Each game as it ends: exported, its faults written and watched."""

    def __init__(self, watch: FaultWatch, export: Export | None):
        self.watch = watch
        self.export = export
        self.games: list[GameResult] = []

    def __call__(self, game: GameResult) -> None:
        self.games.append(game)
        if self.export is not None:
            self.export.game_over(game)
        self.watch.write(game.plays)
        self.watch.check(game.plays)
