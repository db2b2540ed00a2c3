"""``hearts sim``: run a bot tournament and print it (the command-line side).

The games themselves are played by :mod:`hearts_cli.bots.match` (pure logic);
this module adds what only the command line does: worker processes, the
progress bar on stderr, the JSON object and the table. See docs/sim.md.
"""

from __future__ import annotations

import collections
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, TypeVar

from ..bots.match import (
    UNRELIABLE_SHARE,
    GameResult,
    TournamentStats,
    faults_of,
    rotations,
    run_tournament,
    tournament_stats,
)
from ..model.cards import cards_of
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..text.catalog import preset_name, t

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..base.jsonvalue import JsonValue
    from ..bots.match import GamePlay, Job, Mapper
    from ..bots.rating import SprtBounds
    from ..bots.tournament import Half, Standing, Tournament
    from .output import Out

if TYPE_CHECKING:  # types only: nothing to build at start-up
    _J = TypeVar("_J")
    _R = TypeVar("_R")


@dataclass
class Simulation:
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


def process_mapper(workers: int) -> Mapper:
    """An ordered, lazy ``map`` over ``workers`` spawned processes.

    It keeps ``2 * workers`` jobs in flight; when the consumer closes it, the
    jobs not started are cancelled and the pool waits for the running ones.
    """

    def mapper(fn: Callable[[_J], _R], jobs: Iterable[_J]) -> Iterator[_R]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        pending: collections.deque[Future[_R]] = collections.deque()
        it = iter(jobs)
        try:
            for job in it:
                pending.append(pool.submit(fn, job))
                if len(pending) >= 2 * workers:
                    break
            while pending:
                result = pending.popleft().result()
                for job in it:
                    pending.append(pool.submit(fn, job))
                    break
                yield result
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    return mapper


def program_job(players: Sequence[str], move_time: float | None, keep: bool
                ) -> Callable[[Job], tuple[int, GamePlay]] | None:
    """The job that plays a game where an outside program (``exec:``) sits, for worker
    processes too; None when every player is a CPU (the games are played as always)."""
    from ..bots import is_program

    if not any(is_program(p) for p in players):
        return None
    import functools

    from ..table.program import MOVE_TIME
    from ..table.program import program_job as job

    return functools.partial(job, move_time=MOVE_TIME if move_time is None else move_time, keep=keep)


def close_programs(players: Sequence[str], lang: str) -> None:
    """The run's programs closed (they live for the whole run: table/program.py); one that
    had to be stopped is said on stderr, with the time that cost."""
    from ..bots import is_program

    if not any(is_program(p) for p in players):
        return
    from ..table import program
    from .output import echo

    for line in program.close_programs(lang):
        echo(line, err=True)


def faults_lines(faults: dict[str, dict[str, int]] | None, lang: str) -> list[str]:
    """One sentence a program: how many of its decisions the CPU made, and why."""
    from ..table.game import TAKEOVER_LEVEL
    from ..table.program import FAULTS, never_in_time

    said = {"slow": "sim_fault_slow", "hung": "sim_fault_hung", "crash": "sim_fault_crash",
            "junk": "sim_fault_junk", "illegal": "sim_fault_illegal"}
    lines = []
    for level, counts in (faults or {}).items():
        kinds = ", ".join(t(said[kind], lang, count=counts.get(kind, 0)) for kind in FAULTS)
        lines.append(t("sim_faults", lang, program=level, taken=counts.get("taken", 0),
                       decisions=counts.get("decisions", 0), kinds=kinds,
                       level=t(f"level_{TAKEOVER_LEVEL}", lang)))
        if counts.get("early", 0):
            lines.append(t("sim_fault_early", lang, program=level, count=counts["early"]))
        if never_in_time(counts):
            lines.append(t("sim_fault_flush", lang, program=level))
    return lines


class ProgramDead(HeartsError):
    """A program made none of its decisions itself in its first games: the run stops there (its
    report is of what was played), and this is said in one sentence, exit status 2."""


class FaultWatch:
    """The programs of a run watched as its games come in: each fault written to ``--faults
    FILE`` (one JSON object a line), and a program that made none of its decisions itself in
    any game of its first (its first half, in a tournament) stops the run with one sentence
    (:class:`HeartsError`) that says why, as far as its faults tell."""

    def __init__(self, players: Sequence[str], path: str | None, lang: str, silence_stops: bool = True):
        from ..bots import is_program

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
                from ..text.catalog import os_problem

                raise HeartsError("cli_cannot_write", path=path, problem=os_problem(e, None)) from None

    def check(self, plays: Sequence[GamePlay]) -> None:
        """``plays`` are the first where some program sat (a game's rotations, or a pair's
        halves): :class:`ProgramDead` when it made none of its decisions itself in any."""
        from ..bots.match import silent_everywhere

        for level in list(self.unchecked):
            if any(level in p.levels for p in plays):
                self.unchecked.remove(level)
                ended = any(p.faults.get(level, {}).get("crash", 0) for p in plays)
                if silent_everywhere(level, plays) and (self.silence_stops or ended):
                    raise ProgramDead("sim_program_dead", program=level, games=len(plays),
                                      cause=dead_cause(level, plays, self.lang))

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
        from ..text.catalog import os_problem

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


def mapper_of(workers: int, cluster: str | None) -> Mapper | None:
    """Where the games are played: a Ray cluster (``--cluster``), worker processes, or here."""
    if cluster is not None:
        from .cluster import cluster_mapper

        return cluster_mapper(cluster, workers)
    return process_mapper(workers) if workers > 1 else None


def run(rules: Rules, seats: Sequence[str], deals: int, seed: str, *, duplicate: bool = True,
        simulations: int | None = None, workers: int = 1, lang: str = "en",
        show_progress: bool = False, export: Export | None = None,
        move_time: float | None = None, cluster: str | None = None, faults: str | None = None) -> Simulation:
    # a level without a budget ignores it
    sims: dict[str, int | None] | None = dict.fromkeys(seats, simulations) if simulations else None
    job = program_job(seats, move_time, export is not None)
    watch = FaultWatch(seats, faults, lang, silence_stops=False)
    mapper = mapper_of(workers, cluster)
    if export is not None:
        export.event = f"hearts sim {seed}"

    ended_games: list[GameResult] = []

    def ended(game: GameResult) -> None:
        ended_games.append(game)
        if export is not None:
            export.game_over(game)
        watch.write(game.plays)
        watch.check(game.plays)

    kept = ended if job is not None or export is not None else None  # (a program seated: the job is its own)
    t0 = time.perf_counter()
    stopped = None
    try:
        if show_progress:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(t("sim_progress", lang), total=deals)
                games = run_tournament(rules, seats, deals, seed, duplicate, sims, mapper,
                                       lambda done: bar.update(task, completed=done), kept, job)
        else:
            games = run_tournament(rules, seats, deals, seed, duplicate, sims, mapper, None, kept, job)
    except ProgramDead as e:  # the report says what was played, then the sentence why it stopped
        games, stopped = ended_games, e
    finally:  # (Ctrl-C too: the games written so far stay readable)
        watch.close()
        if export is not None:
            export.close()
        close_programs(seats, lang)
    seconds = time.perf_counter() - t0
    return Simulation(rules, tuple(seats), deals, seed, duplicate, simulations, workers, games,
                      tournament_stats(rules, seats, games), seconds,
                      faults_of(p for g in games for p in g.plays), stopped)


# ---------------------------------------------------------------- JSON


def _round(x: float, digits: int = 4) -> float:
    return round(x, digits)


def to_json(sim: Simulation) -> dict[str, object]:
    """Everything about the run, as one JSON object (keys in English, for scripts)."""
    scoring = sum(1 << c for c in range(52) if sim.rules.points[c])  # the cards worth points
    levels = {}
    for lv, st in sim.stats.items():
        d = asdict(st)
        for k in ("mean", "ci95", "won", "win_rate"):
            d[k] = _round(d[k])
        d["decision_ms"] = {"count": st.decisions, "mean": _round(st.mean_ms), "median": _round(st.median_ms),
                            "p95": _round(st.p95_ms)}
        for k in ("level", "decisions", "mean_ms", "median_ms", "p95_ms"):
            del d[k]
        levels[lv] = d
    return {
        "rules": sim.rules.spec(),
        "players": sim.rules.players,
        "seats": list(sim.seats),
        "seed": sim.seed,
        "duplicate": sim.duplicate,
        "rotations": sim.rotations,
        "simulations": sim.simulations,
        "workers": sim.workers,
        "deals_requested": sim.deals_requested,
        "deals": sim.deals,
        "games": len(sim.games),
        "rounds": sim.rounds,
        "seconds": _round(sim.seconds, 2),
        "levels": levels,
        "faults": sim.faults,
        "game_log": [
            {"game": g.index, "code": g.code, "plays": [
                {"seats": list(p.levels), "totals": list(p.totals), "winners": list(p.winners),
                 "rounds": [{"scores": list(r.scores), "shooter": r.shooter, "threat": r.threat,
                             "stopped_by": r.stopper,
                             "taken": [[str(c) for c in cards_of(m & scoring)] for m in r.taken]}
                            for r in p.rounds]}
                for p in g.plays]}
            for g in sim.games],
    }


# ---------------------------------------------------------------- table


def _rows(sim: Simulation) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    head1 = ["sim_col_level", "sim_col_seats", "sim_col_rounds", "sim_col_points", "sim_col_ci",
             "sim_col_won", "sim_col_win_rate", "sim_col_moons", "sim_col_stopped", "sim_col_moon_points"]
    head2 = ["sim_col_level", "sim_col_decisions", "sim_col_mean_ms", "sim_col_median_ms", "sim_col_p95_ms"]
    rows1, rows2 = [], []
    for st in sim.stats.values():
        won = f"{st.won:.0f}" if st.won == int(st.won) else f"{st.won:.1f}"
        rows1.append([st.level, str(st.seats), str(st.rounds), f"{st.mean:.2f}", f"±{st.ci95:.2f}",
                      won, f"{100 * st.win_rate:.1f}%", str(st.moons_shot), str(st.moons_stopped),
                      str(st.moon_points)])
        rows2.append([st.level, str(st.decisions), f"{st.mean_ms:.2f}", f"{st.median_ms:.2f}", f"{st.p95_ms:.2f}"])
    return head1, rows1, head2, rows2  # message ids in the heads: the caller translates


def _parts(widths: list[int], room: int, lead: int = 0, gap: int = 2) -> list[list[int]]:
    """The columns after the first (the level) in groups that each fit ``room`` columns beside
    the first: a column takes ``gap`` more than its width, the first ``lead`` more."""
    parts: list[list[int]] = [[]]
    used = widths[0] + lead
    for i in range(1, len(widths)):
        if parts[-1] and used + gap + widths[i] > room:
            parts.append([])
            used = widths[0] + lead
        parts[-1].append(i)
        used += gap + widths[i]
    return parts


def _widths(head: list[str], rows: list[list[str]]) -> list[int]:
    return [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]


def _plain_table(head: list[str], rows: list[list[str]], width: int = 1000) -> str:
    """The table, or as many tables as it takes to fit ``width`` columns, each led by the
    first column (the level), so that no row is cut by the screen."""
    widths = _widths(head, rows)
    tables = []
    for part in _parts(widths, width):
        lines = []
        for r in [head, *rows]:
            cells = [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in part]
            lines.append("  ".join(cells).rstrip())
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def render(sim: Simulation, lang: str, color: bool) -> str:
    """The human report: a title, what was played, two tables, a legend."""
    share = f"{100 / sim.rules.players:.1f}%"
    title = t("sim_title", lang, preset=preset_name(sim.rules.preset or "quick", lang), players=sim.rules.players,
              seats=",".join(sim.seats), seed=sim.seed)
    if sim.rules.overrides:  # a preset with --set on top
        from ..model.rules_text import changes

        title += " " + t("rt_changed", lang, changes=changes(sim.rules))
    played_id = "sim_played_duplicate" if sim.duplicate else "sim_played"
    played = t(played_id, lang, deals=sim.deals, games=len(sim.games), rotations=sim.rotations,
               rounds=sim.rounds, seconds=f"{sim.seconds:.1f}")
    legend = t("sim_legend", lang, share=share)
    head1, rows1, head2, rows2 = _rows(sim)
    head1 = [t(h, lang) for h in head1]
    head2 = [t(h, lang) for h in head2]
    if not color:
        from .output import width, wrapped

        cols = width()
        faults = [wrapped(x) for x in faults_lines(sim.faults, lang)]
        return "\n".join([wrapped(title), wrapped(played), "", _plain_table(head1, rows1, cols), "",
                          _plain_table(head2, rows2, cols), *(["", *faults] if faults else []), "",
                          wrapped(legend)]) + "\n"
    import io
    import shutil

    from rich.console import Console
    from rich.table import Table

    from ..base.wrapping import text_width, wrap_text

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True,
                      width=text_width(shutil.get_terminal_size((100, 24)).columns))

    def prose(text: str, style: str | None = None) -> None:
        """Wrapped as every text is (a name or number kept with its word), not by rich."""
        console.print("\n".join(wrap_text(text, console.width)), highlight=False, style=style, soft_wrap=True)

    prose(title)
    prose(played)
    for head, rows in ((head1, rows1), (head2, rows2)):
        # a boxed column takes its width, a space each side and a rule (the first two): split
        # the columns into as many tables as the screen needs rather than let rich cut cells
        for part in _parts(_widths(head, rows), console.width, lead=4, gap=3):
            table = Table(head[0], *(head[i] for i in part))
            for column in table.columns[1:]:
                column.justify = "right"
            for column in table.columns:
                column.no_wrap = True
            for r in rows:
                table.add_row(r[0], *(r[i] for i in part))
            console.print(table)
    for line in faults_lines(sim.faults, lang):
        prose(line)
    prose(legend, "dim")
    return buf.getvalue()


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- tournaments (gauntlet, round robin)

RESULTS_FORMAT = "hearts-sim-results/1"
RESULTS_LIMIT = 256 * 1024 * 1024  # a results file read back: 100,000 deals take about 60 MB


def tournament_of(rules: Rules, seats: str | None, gauntlet: str | None, round_robin: str | None,
                  sprt: str | None, deals: int, seed: str | None, simulations: int | None,
                  results: str | None, duplicate: bool, move_time: float | None = None) -> Tournament:
    """The tournament the options ask for, every option checked (a user error is a
    :class:`HeartsError`); without ``--seed`` a results file's own seed is taken up again."""
    from ..bots import check_level
    from ..bots.tournament import Tournament
    from ..model.errors import HeartsError

    if (gauntlet is None) == (round_robin is None):
        raise HeartsError("sim_one_tournament")
    if seats is not None:
        raise HeartsError("sim_seats_or_tournament")
    mode, listed = ("gauntlet", gauntlet) if gauntlet is not None else ("round-robin", round_robin)
    assert listed is not None
    players = tuple(check_level(x, hook=True) for x in listed.split(","))
    if len(players) < 2 or len(set(players)) != len(players):
        raise HeartsError("sim_tournament_players", option=f"--{mode}")
    for option, value in (("--deals", deals), ("--simulations", simulations)):
        if value is not None and value < 1:
            raise HeartsError("sim_at_least_one", option=option, value=value)
    bounds = None
    if sprt is not None:
        bounds = _sprt_bounds(sprt)
        if len(pairings_of(mode, players)) != 1:
            raise HeartsError("sim_sprt_two")
    if seed is None and results is not None:
        seed = _results_seed(results)
    if seed is None:
        from ..model.codes import new_code

        seed = new_code()
    from ..bots import is_program
    from ..table.program import MOVE_TIME

    timed = (MOVE_TIME if move_time is None else move_time) if any(map(is_program, players)) else None
    return Tournament(rules, mode, players, deals, seed, simulations, bounds, timed)


def pairings_of(mode: str, players: Sequence[str]) -> list[tuple[str, str]]:
    from ..bots.tournament import pairings

    return pairings(mode, players)


def _sprt_bounds(text: str) -> SprtBounds:
    from ..bots.rating import SprtBounds
    from ..model.errors import HeartsError

    try:
        numbers = [float(x) for x in text.split(",")]
    except ValueError:
        raise HeartsError("sim_bad_sprt", value=text) from None
    if len(numbers) not in (2, 4):
        raise HeartsError("sim_bad_sprt", value=text)
    elo0, elo1, alpha, beta = (*numbers, 0.05, 0.05)[:4]
    if not (elo0 < elo1 and 0 < alpha < 0.5 and 0 < beta < 0.5) or not all(map(math.isfinite, numbers)):
        raise HeartsError("sim_bad_sprt", value=text)
    return SprtBounds(elo0, elo1, alpha, beta)


def _header(t: Tournament) -> dict[str, object]:
    """What the results file keeps of the run: the same command gives the same header."""
    b = t.sprt
    return {"format": RESULTS_FORMAT, "rules": t.rules.spec(), "mode": t.mode, "players": list(t.players),
            "deals": t.deals, "seed": t.seed, "simulations": t.simulations,
            "sprt": None if b is None else [b.elo0, b.elo1, b.alpha, b.beta],
            **({} if t.move_time is None else {"move_time": t.move_time})}


def _half_json(half: Half) -> str:
    plays = [{"levels": list(p.levels), "totals": list(p.totals), "winners": list(p.winners),
              "rounds": [{"scores": list(r.scores), "shooter": r.shooter, "threat": r.threat,
                          "stopper": r.stopper, "taken": list(r.taken)} for r in p.rounds],
              **({"faults": p.faults} if p.faults else {}),
              **({"fault_log": p.fault_log} if p.fault_log else {})}
             for p in half.plays]
    return json.dumps({"game": half.game, "pairing": half.pairing, "half": half.half, "code": half.code,
                       "plays": plays}, separators=(",", ":"))


def _lines(path: str) -> list[str]:
    from ..base.untrusted import TooBig, read_text
    from ..model.errors import HeartsError
    from ..text.catalog import os_problem, t

    try:
        return read_text(path, RESULTS_LIMIT).split("\n")
    except TooBig:
        raise HeartsError("cli_bad_file", path=path, problem=t("input_too_big", None, limit=RESULTS_LIMIT)) from None
    except (OSError, UnicodeDecodeError) as e:
        problem = os_problem(e, None) if isinstance(e, OSError) else t("record_not_utf8", None)
        raise HeartsError("cli_bad_file", path=path, problem=problem) from None


def _results_seed(path: str) -> str | None:
    """The seed a results file was run with (None when there is no file yet)."""
    import os

    if not os.path.exists(path):
        return None
    header = _read_header(path, _lines(path))
    seed = header.get("seed")
    return seed if isinstance(seed, str) else None


def _read_header(path: str, lines: list[str]) -> dict[str, JsonValue]:
    from ..base.untrusted import strict_json
    from ..model.errors import HeartsError

    try:
        header = strict_json(lines[0]) if lines and lines[0] else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
        raise HeartsError("sim_results_not_ours", path=path, format=RESULTS_FORMAT)
    return header


def read_results(path: str, t: Tournament) -> list[Half]:
    """The halves a results file holds for ``t`` (none when the file does not exist yet).

    A last line cut short (the run was stopped while writing it) is dropped, and the file
    is cut back to the halves kept; any other problem is one sentence: the file is not of
    this run, or a line is not a half of it.
    """
    import os

    from ..base.untrusted import strict_json
    from ..model.errors import HeartsError

    if not os.path.exists(path):
        return []
    lines = _lines(path)
    header = _read_header(path, lines)
    if header != strict_json(json.dumps(_header(t))):
        raise HeartsError("sim_results_other_run", path=path)
    body = lines[1:]
    while body and not body[-1]:
        body.pop()
    halves: list[Half] = []
    for number, line in enumerate(body, 2):
        half = _half_of(line, t, len(halves))
        if half is None:
            if number == len(body) + 1:  # the last line, cut short: dropped
                break
            raise HeartsError("sim_results_bad_line", path=path, line=number)
        halves.append(half)
    kept = "\n".join([lines[0], *(_half_json(h) for h in halves)]) + "\n"
    if kept != "\n".join(lines):  # a line cut short: the file is cut back to the games kept
        from ..base.files import write_atomic

        write_atomic(path, kept.encode("utf-8"), private=False)
    return halves


def _half_of(line: str, t: Tournament, unit: int) -> Half | None:
    """Half number ``unit`` of ``t`` as a results line holds it, or None if the line is not that."""
    from ..base.untrusted import strict_json
    from ..bots.match import match_code, rotations
    from ..bots.tournament import Half, half_seats

    pairs = t.pairings
    game, pairing, half = unit // (2 * len(pairs)), unit // 2 % len(pairs), unit % 2
    code = match_code(t.seed, game)
    try:
        item = strict_json(line)
        if not isinstance(item, dict) or [item.get(k) for k in ("game", "pairing", "half", "code")] \
                != [game, pairing, half, code]:
            return None
        seatings = rotations(half_seats(pairs[pairing], half, t.rules.players), True)
        plays = item.get("plays")
        if not isinstance(plays, list) or len(plays) != len(seatings):
            return None
        return Half(game, pairing, half, code,
                    [_play_of(play, levels, t.rules.players) for play, levels in zip(plays, seatings, strict=True)])
    except ValueError:
        return None


def _play_of(play: JsonValue, levels: tuple[str, ...], n: int) -> GamePlay:
    """One rotation of a half as the results file keeps it (a ValueError when it is not one)."""
    from ..bots.match import GamePlay, RoundLog

    if not isinstance(play, dict) or play.get("levels") != list(levels) or not isinstance(play.get("rounds"), list):
        raise ValueError("not a play")
    rounds = []
    for r in play["rounds"]:  # type: ignore[union-attr]
        if not isinstance(r, dict):
            raise ValueError("not a round")
        rounds.append(RoundLog(_ints(r.get("scores"), n), _seat(r.get("shooter"), n), _seat(r.get("threat"), n),
                               _seat(r.get("stopper"), n), _ints(r.get("taken"), n)))
    log = play.get("fault_log", [])
    if not isinstance(log, list) or not all(isinstance(x, dict) for x in log):
        raise ValueError("not a fault log")
    return GamePlay(levels, rounds, _ints(play.get("totals"), n), _ints(play.get("winners")),
                    faults=_faults(play.get("faults", {})), fault_log=[x for x in log if isinstance(x, dict)])


def _faults(value: JsonValue) -> dict[str, dict[str, int]]:
    """A play's faults as the results file keeps them: program -> kind -> count."""
    if not isinstance(value, dict):
        raise ValueError("not faults")
    out = {}
    for level, counts in value.items():
        if not isinstance(counts, dict):
            raise ValueError("not faults")
        out[level] = dict(zip(counts, _ints(list(counts.values())), strict=True))
    return out


def _ints(value: JsonValue, count: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise ValueError("not a list of whole numbers")
    out = tuple(x for x in value if isinstance(x, int) and not isinstance(x, bool))
    if len(out) != len(value):
        raise ValueError("not a list of whole numbers")
    return out


def _seat(value: JsonValue, n: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError("not a seat")
    return value


class _Live:
    """The progress line on stderr (a terminal only): deals, their rate, the estimate and
    its interval, the test's LLR, the time left; drawn over itself."""

    def __init__(self, t: Tournament, lang: str, start: int):
        self.t = t
        self.lang = lang
        self.start = start
        self.t0 = time.perf_counter()
        self.shown = 0

    def __call__(self, now: Standing) -> None:
        from .output import width

        deals = sum(now.deals.values())
        target = self.t.deals * len(self.t.pairings)
        rate = (deals - self.start) / max(time.perf_counter() - self.t0, 1e-9)
        parts = [t("sim_live_deals", self.lang, deals=deals, rate=f"{rate:.1f}")]
        if len(self.t.pairings) == 1:
            a, b = self.t.pairings[0]
            e = now.interval((a, b))
            unrated = next((p for p in (a, b) if not now.reliable(p)), None)
            parts.append(t("sim_live_unrated", self.lang, player=unrated) if unrated is not None else
                         t("sim_live_elo", self.lang, player=a, b=b, elo=_elo_text(e.elo),
                           interval=_interval_text(e.low, e.high)))
        if now.test is not None:
            parts.append(t("sim_live_llr", self.lang, llr=f"{now.test.llr:.2f}",
                           lower=f"{now.test.bounds.lower:.2f}", upper=f"{now.test.bounds.upper:.2f}"))
        if rate > 0 and deals < target:
            parts.append(t("sim_live_left", self.lang, seconds=f"{(target - deals) / rate:.0f}"))
        line = " · ".join(parts)[: width()]
        sys.stderr.write("\r" + line.ljust(self.shown))
        sys.stderr.flush()
        self.shown = len(line)

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * self.shown + "\r")
            sys.stderr.flush()


def interrupted(results: str | None, export: Export | None, lang: str) -> str:
    """What Ctrl-C in ``hearts sim`` says: where the games finished are kept (the results
    file, from which the same command goes on; else the export's file), or that none are."""
    if results is not None:
        return t("sim_interrupted", lang, path=results)
    if export is not None:
        return t("sim_interrupted_export", lang, path=export.path, count=export.games)
    return t("sim_interrupted_unkept", lang)


def run_tournament_command(tour: Tournament, results: str | None, workers: int, out: Out,
                           as_json: bool, export: Export | None = None, cluster: str | None = None,
                           faults: str | None = None) -> int:
    """``hearts sim --gauntlet/--round-robin``: play (or resume) the tournament, print its report."""
    from ..bots.tournament import run_pairings
    from .output import echo

    done = read_results(results, tour) if results is not None else []
    if export is not None:
        export.event = f"hearts sim {tour.seed}"
    if done and export is not None:
        export.close()
        raise HeartsError("sim_export_resumed")
    try:
        watch = FaultWatch(tour.players, faults, out.lang)
    except HeartsError:
        if export is not None:
            export.close()
        raise
    sink = None
    if results is not None:
        sink = open(results, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run, closed below
        if not done and sink.tell() == 0:
            sink.write(json.dumps(_header(tour), separators=(",", ":")) + "\n")
            sink.flush()

    for h in done:  # a run resumed: the games kept were watched when they were played
        watch.unchecked = [p for p in watch.unchecked if not any(p in play.levels for play in h.plays)]
        watch.write(h.plays)

    played = list(done)
    mark = sink.tell() if sink is not None else 0  # where the results file stood before the pair being played

    def kept(half: Half) -> None:
        nonlocal mark
        played.append(half)
        if export is not None:
            export.write(half.plays)
        watch.write(half.plays)
        if half.half == 1:
            try:
                watch.check([*played[-2].plays, *half.plays])
            except ProgramDead:
                if sink is not None:  # the pair is not kept: once the program is mended, it is played again
                    sink.truncate(mark)
                raise
        if sink is not None:
            import os

            if half.half == 0:
                mark = sink.tell()
            sink.write(_half_json(half) + "\n")
            sink.flush()
            os.fsync(sink.fileno())

    live = _Live(tour, out.lang, sum(max(h.deals for h in [x]) for x in done)) \
        if not as_json and stderr_is_terminal() else None
    mapper = mapper_of(workers, cluster)
    t0 = time.perf_counter()
    stopped = None
    try:
        halves = run_pairings(tour, done, mapper, live, kept, keep=export is not None,
                              job=program_job(tour.players, tour.move_time, export is not None))
    except KeyboardInterrupt:
        if live is not None:
            live.clear()
        echo(interrupted(results, export, out.lang), err=True)
        return 130
    except ProgramDead as e:  # the report says what was played, then the sentence why it stopped
        halves, stopped = played, e
    finally:
        watch.close()
        if sink is not None:
            sink.close()
        if export is not None:
            export.close()
    if live is not None:
        live.clear()
    close_programs(tour.players, out.lang)  # (after Ctrl-C, as the process exits)
    seconds = time.perf_counter() - t0
    report = tournament_report(tour, halves, seconds)
    if as_json:
        echo(json.dumps(report_json(report), ensure_ascii=False))
    else:
        echo(render_tournament(report, out.lang), nl=False)
    if stopped is not None:
        raise stopped
    return 0


@dataclass
class TournamentReport:
    tournament: Tournament
    halves: list[Half]
    standing: Standing
    stats: dict[str, TournamentStats]
    seconds: float

    @property
    def rounds(self) -> int:
        return sum(len(p.rounds) for h in self.halves for p in h.plays)


def tournament_report(tour: Tournament, halves: list[Half], seconds: float) -> TournamentReport:
    from ..bots.tournament import standing

    games = [GameResult(h.game, h.code, h.plays) for h in halves]
    return TournamentReport(tour, halves, standing(tour, halves), tournament_stats(tour.rules, tour.players, games),
                            seconds)


def _bound(elo: float) -> float | None:
    """An Elo for JSON: None where the interval has no bound (every game won, or lost)."""
    return _round(elo, 1) if math.isfinite(elo) else None


def _elo_text(elo: float) -> str:
    """An Elo as every table and line writes it: a sign always, ``+∞``/``-∞`` where unbounded."""
    return f"{elo:+.0f}" if math.isfinite(elo) else ("+∞" if elo > 0 else "-∞")


def _interval_text(low: float, high: float) -> str:
    """A 95% interval of Elo, written alike for a rating and a pairing: ``[low, high]``."""
    return f"[{_elo_text(low)}, {_elo_text(high)}]"


PENTANOMIAL = (0.0, 0.5, 1.0, 1.5, 2.0)  # what a pair can score for its first player


@dataclass(frozen=True)
class PairingRow:
    """One pairing as the report gives it: its pairs won, drawn and lost by the first player
    (more than 1 of a pair's 2 points wins it), the pentanomial counts (pairs scoring 0, ½, 1,
    1½, 2), the first player's Elo over the second with its interval, and whether both
    players' results are their own."""

    a: str
    b: str
    pairs: int
    deals: int
    wins: int
    draws: int
    losses: int
    pentanomial: tuple[int, ...]
    score: float
    elo: float
    low: float
    high: float
    reliable: bool


def pairing_rows(r: TournamentReport) -> list[PairingRow]:
    now = r.standing
    out = []
    for a, b in r.tournament.pairings:
        scores = now.pairs.get((a, b), [])
        e = now.interval((a, b))
        out.append(PairingRow(a, b, len(scores), now.deals.get((a, b), 0), sum(x > 1 for x in scores),
                              sum(x == 1 for x in scores), sum(x < 1 for x in scores),
                              tuple(scores.count(x) for x in PENTANOMIAL), e.score, e.elo, e.low, e.high,
                              now.reliable(a) and now.reliable(b)))
    return out


def deals_played(r: TournamentReport) -> int:
    """The deals of the pairing that played fewest (every pairing plays the same games)."""
    return min((r.standing.deals.get(p, 0) for p in r.tournament.pairings), default=0)


def report_json(r: TournamentReport) -> dict[str, object]:
    """The tournament as one JSON object: the same run gives the same object, but for ``seconds``
    and the decision times. A player the CPU played for (:meth:`Standing.reliable`) has
    ``"reliable": false`` and no Elo, nor does any pairing of it."""
    tour, now = r.tournament, r.standing
    pairs = [{"players": [x.a, x.b], "pairs": x.pairs, "deals": x.deals, "wins": x.wins, "draws": x.draws,
              "losses": x.losses, "pentanomial": list(x.pentanomial), "score": _round(x.score),
              "reliable": x.reliable, "elo": _bound(x.elo) if x.reliable else None,
              "low": _bound(x.low) if x.reliable else None, "high": _bound(x.high) if x.reliable else None}
             for x in pairing_rows(r)]
    test = None
    if now.test is not None:
        bounds = now.test.bounds
        test = {"elo0": bounds.elo0, "elo1": bounds.elo1, "alpha": bounds.alpha, "beta": bounds.beta,
                "llr": _round(now.test.llr), "lower": _round(bounds.lower), "upper": _round(bounds.upper),
                "verdict": now.test.verdict}
    ratings = []
    for x in now.ratings:
        ok = now.reliable(x.player)
        ratings.append({"player": x.player, "reliable": ok, "elo": _round(x.elo, 1) if ok else None,
                        "ci95": _round(x.ci95, 1) if ok else None,
                        "low": _bound(x.elo - x.ci95) if ok else None, "high": _bound(x.elo + x.ci95) if ok else None,
                        "faults": now.faults.get(x.player), "games": x.games, "score": x.score,
                        "points_per_round": _round(r.stats[x.player].mean),
                        "points_ci95": _round(r.stats[x.player].ci95)})
    return {
        "mode": tour.mode, "rules": tour.rules.spec(), "players": list(tour.players), "seed": tour.seed,
        "deals_requested": tour.deals, "deals": deals_played(r), "simulations": tour.simulations,
        "halves": len(r.halves), "rounds": r.rounds, "seconds": _round(r.seconds, 2),
        "ratings": ratings,
        "pairings": pairs,
        "sprt": test,
        "faults": now.faults or None,
        "decision_ms": {lv: {"count": st.decisions, "mean": _round(st.mean_ms), "median": _round(st.median_ms),
                             "p95": _round(st.p95_ms)} for lv, st in r.stats.items()},
    }


UNRATED = "*"  # the mark of a player the CPU played for, in the text tables


def render_tournament(r: TournamentReport, lang: str) -> str:
    """The human report: what was played, the ratings, each pairing, the test's verdict."""
    from .output import width, wrapped

    tour, now = r.tournament, r.standing
    title = t({"gauntlet": "sim_title_gauntlet", "round-robin": "sim_title_round_robin"}[tour.mode], lang,
              preset=preset_name(tour.rules.preset or "quick", lang), players=tour.rules.players,
              first=tour.players[0], field=", ".join(tour.players[1:]), seed=tour.seed)
    decided = now.test is not None and now.test.verdict is not None
    played = t("sim_tournament_decided" if decided else "sim_tournament_played", lang, halves=len(r.halves),
               rounds=r.rounds, deals=tour.deals, played=deals_played(r), seconds=f"{r.seconds:.1f}")

    def name(player: str) -> str:
        return player if now.reliable(player) else f"{player} {UNRATED}"

    head = [t(x, lang) for x in ("sim_col_player", "sim_col_rating", "sim_col_interval", "sim_col_games",
                                 "sim_col_score", "sim_col_points", "sim_col_ci")]
    rows = [[name(x.player), f"{x.elo:+.0f}" if now.reliable(x.player) else "—",
             _interval_text(x.elo - x.ci95, x.elo + x.ci95) if now.reliable(x.player) else "—",
             str(x.games), f"{x.score:g}", f"{r.stats[x.player].mean:.2f}", f"±{r.stats[x.player].ci95:.2f}"]
            for x in sorted(now.ratings, key=lambda x: (not now.reliable(x.player), -x.elo))]
    head2 = [t(x, lang) for x in ("sim_col_pairing", "sim_col_pairs", "sim_col_wdl", "sim_col_pentanomial",
                                  "sim_col_pair_elo", "sim_col_interval")]
    rows2 = [[f"{x.a} – {x.b}" + ("" if x.reliable else f" {UNRATED}"), str(x.pairs),
              f"{x.wins}-{x.draws}-{x.losses}", "-".join(map(str, x.pentanomial)),
              _elo_text(x.elo) if x.reliable else "—", _interval_text(x.low, x.high) if x.reliable else "—"]
             for x in pairing_rows(r)]
    cols = width()
    parts = [wrapped(title), wrapped(played), "", _plain_table(head, rows, cols), "", _plain_table(head2, rows2, cols)]
    unrated = [p for p in tour.players if not now.reliable(p)]
    parts += [""] if unrated else []
    for player in unrated:
        counts = now.faults.get(player, {})
        parts.append(wrapped(t("sim_unrated", lang, mark=UNRATED, program=player, taken=counts.get("taken", 0),
                               decisions=counts.get("decisions", 0), silent=counts.get("silent", 0),
                               share=f"{100 * UNRELIABLE_SHARE:g}%")))
    if now.test is not None:
        bounds = now.test.bounds
        first, other = tour.pairings[0]
        verdict = {"H1": "sim_sprt_h1", "H0": "sim_sprt_h0", None: "sim_sprt_open"}[now.test.verdict]
        if now.test.verdict is None and not (now.reliable(first) and now.reliable(other)):
            verdict = "sim_sprt_unrated"
        parts += ["", wrapped(t(verdict, lang, a=first, b=other, elo0=f"{bounds.elo0:g}", elo1=f"{bounds.elo1:g}",
                                alpha=f"{bounds.alpha:g}", beta=f"{bounds.beta:g}", llr=f"{now.test.llr:.2f}",
                                lower=f"{bounds.lower:.2f}", upper=f"{bounds.upper:.2f}",
                                program=next((p for p in (first, other) if not now.reliable(p)), first)))]
    faults = faults_lines(now.faults or None, lang)
    if faults:
        parts += ["", *(wrapped(x) for x in faults)]
    parts += ["", wrapped(t("sim_tournament_legend", lang))]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- --export: every game, for other programs


class Export:
    """``--export pbn:FILE`` or ``openspiel:FILE``: every game of the run written as it ends
    (PBN-style sections, docs/pbn.md; or OpenSpiel's actions, one JSON line a round)."""

    def __init__(self, fmt: str, path: str):
        self.fmt = fmt
        self.path = path
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - written as games end, closed by close()
        self.games = 0
        self.event = "hearts sim"  # the PBN Event tag: the run's seed is added when known
        import datetime

        self.date = datetime.date.today().isoformat()  # the day the games are played: PBN's Date tag

    def game_over(self, game: GameResult) -> None:
        self.write(game.plays)

    def write(self, plays: Sequence[GamePlay]) -> None:
        from ..records.record import GameRecord
        from ..records.record_parts import Seat

        for play in plays:
            game, play.game = play.game, None  # written, then let go
            if game is None:
                continue
            if self.fmt == "pbn":
                from ..records.pbn import write_pbn

                seats = tuple(Seat(lv, "cpu", lv) for lv in play.levels)
                text = write_pbn(GameRecord.from_game(game, seats, date=self.date), event=self.event)
                self.file.write(("\n" if self.games else "") + text)
            else:
                from ..records.openspiel import write_openspiel

                self.file.write(write_openspiel(game, list(play.levels)))
            self.games += 1
        self.file.flush()

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()


def export_of(text: str | None, rules: Rules) -> Export | None:
    """The export ``--export FORMAT:FILE`` asks for, checked (OpenSpiel's only for rules it plays)."""
    if text is None:
        return None
    from ..model.errors import HeartsError

    fmt, colon, path = text.partition(":")
    fmt = fmt.strip().lower()
    if not colon or fmt not in ("pbn", "openspiel") or not path.strip():
        raise HeartsError("sim_bad_export", value=text)
    if fmt == "openspiel":
        from ..records.openspiel import openspiel_params

        openspiel_params(rules)  # NotOpenSpiel: the setting OpenSpiel cannot play, before any game
    try:
        return Export(fmt, path)
    except OSError as e:
        from ..text.catalog import os_problem

        raise HeartsError("cli_cannot_write", path=path, problem=os_problem(e, None)) from None
