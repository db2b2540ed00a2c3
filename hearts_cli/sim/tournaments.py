"""``hearts sim --gauntlet/--round-robin``: a tournament played, or resumed from its results file.

The pairings, the halves and where a run stops are :mod:`hearts_cli.bots.tournament`'s (the
sequential test too, :mod:`hearts_cli.bots.rating`); this adds what a run holds around them:
the results file, the export, its outside programs and their faults. See docs/sim.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..bots.tournament import Half, Standing, Tournament, run_pairings
from ..model.errors import HeartsError
from .export import Export
from .pool import mapper_of
from .programs import FaultWatch, ProgramDead, close_programs, program_job
from .results import ResultsFile, read_results


class TournamentRun:
    """One run of a tournament: made, it has read the halves its results file holds (``done``)
    and opened what it writes; :meth:`play` plays it to its end, :meth:`end` closes its programs."""

    def __init__(self, tour: Tournament, results: str | None, export: Export | None, faults: str | None,
                 lang: str):
        self.tour = tour
        self.export = export
        self.lang = lang
        self.done = read_results(results, tour) if results is not None else []
        if export is not None:
            export.event = f"hearts sim {tour.seed}"
        if self.done and export is not None:
            export.close()
            raise HeartsError("sim_export_resumed")
        watch: FaultWatch | None = None
        try:  # a file that cannot be written: what was opened is closed, nothing is played
            watch = FaultWatch(tour.players, faults, lang)
            sink = ResultsFile(results, tour, resumed=bool(self.done)) if results is not None else None
        except HeartsError:
            if watch is not None:
                watch.close()
            if export is not None:
                export.close()
            raise
        self.watch, self.sink = watch, sink
        for h in self.done:  # a run resumed: the games kept were watched when they were played
            self.watch.resumed(h.plays)
        self.played = list(self.done)
        self.t0 = time.perf_counter()

    @property
    def deals_done(self) -> int:
        """The deals of the halves read back from the results file."""
        return sum(h.deals for h in self.done)

    def play(self, workers: int, cluster: str | None, progress: Callable[[Standing], None] | None
             ) -> tuple[list[Half], ProgramDead | None]:
        """The halves played (those read back first), and why the run stopped early if it did (a
        program that never answered: the halves are those played until then)."""
        mapper = mapper_of(workers, cluster)
        self.t0 = time.perf_counter()
        keep = self.export is not None
        try:
            return run_pairings(self.tour, self.done, mapper, progress, self._kept, keep=keep,
                                job=program_job(self.tour.players, self.tour.move_time, keep)), None
        except ProgramDead as e:  # the report says what was played, then the sentence why it stopped
            return self.played, e
        finally:
            self.watch.close()
            if self.sink is not None:
                self.sink.close()
            if self.export is not None:
                self.export.close()

    def _kept(self, half: Half) -> None:
        """A half as it ends: exported, its faults written and watched, appended to the results file."""
        self.played.append(half)
        if self.export is not None:
            self.export.write(half.plays)
        self.watch.write(half.plays)
        if half.half == 1:
            try:
                self.watch.check([*self.played[-2].plays, *half.plays])
            except ProgramDead:
                if self.sink is not None:  # the pair is not kept: once the program is mended, it is played again
                    self.sink.drop_pair()
                raise
        if self.sink is not None:
            self.sink.add(half)

    def end(self, tell: Callable[[str], None]) -> float:
        """The run's programs closed (``tell`` is given a line for each that had to be stopped):
        the seconds since the play began."""
        for line in close_programs(self.tour.players, self.lang):
            tell(line)
        return time.perf_counter() - self.t0
