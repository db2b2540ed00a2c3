"""The outside programs (``exec:COMMAND``) of a ``hearts sim`` run: the job that plays a game
where one sits, their closing at the run's end, and the watch over their faults (written to
``--faults FILE``; a program that never answers stops the run). See docs/programs.md."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence

from ..bots import is_program
from ..bots.match import GamePlay, Job, silent_everywhere
from ..model.errors import HeartsError
from ..table import program
from ..text.catalog import os_problem, t


def program_job(players: Sequence[str], move_time: float | None, keep: bool
                ) -> Callable[[Job], tuple[int, GamePlay]] | None:
    """The job that plays a game where an outside program (``exec:``) sits, for worker
    processes too; None when every player is a CPU (the games are played as always)."""
    if not any(is_program(p) for p in players):
        return None
    return functools.partial(program.program_job, move_time=program.MOVE_TIME if move_time is None else move_time,
                             keep=keep)


def close_programs(players: Sequence[str], lang: str) -> list[str]:
    """The run's programs closed (they live for the whole run: table/program.py): a sentence
    for each that had to be stopped, with the time that cost (none without a program)."""
    if not any(is_program(p) for p in players):
        return []
    return program.close_programs(lang)


class ProgramDead(HeartsError):
    """A program made none of its decisions itself in its first games: the run stops there (its
    report is of what was played), and this is said in one sentence, exit status 2."""


class FaultWatch:
    """The programs of a run watched as its games come in: each fault written to ``--faults
    FILE`` (one JSON object a line), and a program that made none of its decisions itself in
    any game of its first (its first half, in a tournament) stops the run with one sentence
    (:class:`HeartsError`) that says why, as far as its faults tell."""

    def __init__(self, players: Sequence[str], path: str | None, lang: str, silence_stops: bool = True):
        # (``hearts sim --seats`` rates nobody: a program that only never answered in time plays
        # its deals on, its faults reported; one that could not play at all stops the run still)
        self.silence_stops = silence_stops
        self.unchecked = [p for p in dict.fromkeys(players) if is_program(p)]
        self.lang = lang
        self.path = path
        self.file = None
        if path is not None:
            try:
                self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - written as games end, closed by close()
            except OSError as e:
                raise HeartsError("cli_cannot_write", path=path, problem=os_problem(e, None)) from None

    def check(self, plays: Sequence[GamePlay]) -> None:
        """``plays`` are the first where some program sat (a game's rotations, or a pair's
        halves): :class:`ProgramDead` when it made none of its decisions itself in any."""
        for level in list(self.unchecked):
            if any(level in p.levels for p in plays):
                self.unchecked.remove(level)
                ended = any(p.faults.get(level, {}).get("crash", 0) for p in plays)
                if silent_everywhere(level, plays) and (self.silence_stops or ended):
                    raise ProgramDead("sim_program_dead", program=level, games=len(plays),
                                      cause=dead_cause(level, plays, self.lang))

    def resumed(self, plays: Sequence[GamePlay]) -> None:
        """``plays`` read back from a results file: watched when they were played, their faults
        written again."""
        self.unchecked = [p for p in self.unchecked if not any(p in play.levels for play in plays)]
        self.write(plays)

    def write(self, plays: Sequence[GamePlay]) -> None:
        if self.file is None:
            return
        for play in plays:
            for record in play.fault_log:
                self.file.write(json.dumps({**record, "seats": list(play.levels)}, ensure_ascii=False) + "\n")
        self.file.flush()

    def close(self) -> None:
        if self.file is not None and not self.file.closed:
            self.file.close()


def dead_cause(level: str, plays: Sequence[GamePlay], lang: str) -> str:
    """Why ``level`` likely made none of its decisions, from its first fault recorded: it could
    not be started, it exited (with its status and its last line on standard error), it
    closed its output, it did not answer in time, or what it answered."""
    records = [r for p in plays for r in p.fault_log if r.get("program") == level]
    crash = next((r for r in records if r.get("kind") == "crash"), None)
    if crash is not None and "problem" in crash:
        number, words = crash.get("errno"), crash.get("problem")
        return t("sim_dead_start", lang, problem=os_problem(OSError(number if isinstance(number, int) else 0,
                                                                     str(words)), lang))
    if crash is not None and isinstance(crash.get("status"), int):
        said = crash.get("stderr")
        if isinstance(said, list) and said:
            return t("sim_dead_exit_said", lang, status=crash["status"], line=str(said[-1]))
        return t("sim_dead_exit", lang, status=crash["status"])
    if crash is not None:
        return t("sim_dead_closed", lang)
    first = records[0] if records else {}
    if first.get("kind") in ("junk", "illegal"):
        return t(f"sim_dead_{first['kind']}", lang, line=str(first.get("line", "")), error=str(first.get("error")))
    return t("sim_dead_slow", lang)
