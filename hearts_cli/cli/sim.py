"""``hearts sim``: run a bot tournament and print it (the command-line side).

The games themselves are played by :mod:`hearts_cli.bots.match` (pure logic);
this module adds what only the command line does: worker processes, the
progress bar on stderr, the JSON object and the table. See docs/sim.md.
"""

from __future__ import annotations

import collections
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, TypeVar

from ..bots.match import GameResult, TournamentStats, rotations, run_tournament, tournament_stats
from ..model.cards import cards_of
from ..model.rules import Rules
from ..text.catalog import preset_name, t

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..bots.match import Mapper

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


def run(rules: Rules, seats: Sequence[str], deals: int, seed: str, *, duplicate: bool = True,
        simulations: int | None = None, workers: int = 1, lang: str = "en",
        show_progress: bool = False) -> Simulation:
    # a level without a budget ignores it
    sims: dict[str, int | None] | None = dict.fromkeys(seats, simulations) if simulations else None
    mapper = process_mapper(workers) if workers > 1 else None
    t0 = time.perf_counter()
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(t("sim_progress", lang), total=deals)
            games = run_tournament(rules, seats, deals, seed, duplicate, sims, mapper,
                                   lambda done: bar.update(task, completed=done))
    else:
        games = run_tournament(rules, seats, deals, seed, duplicate, sims, mapper)
    seconds = time.perf_counter() - t0
    return Simulation(rules, tuple(seats), deals, seed, duplicate, simulations, workers, games,
                      tournament_stats(rules, seats, games), seconds)


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
        return "\n".join([wrapped(title), wrapped(played), "", _plain_table(head1, rows1, cols), "",
                          _plain_table(head2, rows2, cols), "", wrapped(legend)]) + "\n"
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
    prose(legend, "dim")
    return buf.getvalue()


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
