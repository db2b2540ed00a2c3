"""``hearts sim``: the command line's side of a run: its options read into values, the
progress on stderr, the report printed (a table, or one JSON object).

The run itself, a tournament's results file and the export are :mod:`hearts_cli.sim`'s.
See docs/sim.md.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import typer

from ..base.wrapping import text_width, wrap_text
from ..bots import check_level, is_program
from ..bots.match import UNRELIABLE_SHARE
from ..bots.rating import SprtBounds
from ..bots.tournament import Standing, Tournament, pairings
from ..model.codes import new_code
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..model.rules_text import changes
from ..sim.export import FORMATS, Export, open_export
from ..sim.games import Simulation, run
from ..sim.report import TournamentReport, deals_played, pairing_rows, report_json, to_json, tournament_report
from ..sim.results import results_seed
from ..sim.tournaments import TournamentRun
from ..table.game import TAKEOVER_LEVEL
from ..table.program import FAULTS, MOVE_TIME, never_in_time
from ..text.catalog import preset_name, t
from .options import MAX_WORKERS
from .output import Out, echo, width, wrapped

# ---------------------------------------------------------------- the options


@dataclass(frozen=True)
class Options:
    """What ``hearts sim`` was asked, as its options give it (the rules read, the cluster's address checked)."""

    rules: Rules
    seats: str | None
    deals: int
    duplicate: bool
    seed: str | None
    workers: int
    simulations: int | None
    gauntlet: str | None
    round_robin: str | None
    sprt: str | None
    results: str | None
    export: str | None
    move_time: float | None
    cluster: str | None
    faults: str | None
    as_json: bool

    @property
    def tournament(self) -> bool:
        """Whether a tournament is asked for (a gauntlet, a round robin, a test or a results file)."""
        return any(x is not None for x in (self.gauntlet, self.round_robin, self.sprt, self.results))


def check_cluster(address: str) -> str:
    """``--cluster``: ``auto`` (the cluster this machine belongs to, else a new one here),
    ``local`` (a new one here, of ``--workers`` CPUs) or ``ray://HOST:PORT``."""
    if address in ("auto", "local") or (address.startswith("ray://") and len(address) > len("ray://")):
        return address
    raise HeartsError("sim_bad_cluster", value=address)


def seated(seats: str | None, rules: Rules) -> list[str]:
    """``--seats``: one level a seat (by default Hard and then Normal), as many as the rules seat."""
    n = rules.players
    chosen = ["hard"] + ["normal"] * (n - 1) if seats is None else [check_level(x, hook=True) for x in seats.split(",")]
    if len(chosen) != n:
        low, high = rules.min_players, rules.max_players
        raise HeartsError("sim_seat_count" if low <= len(chosen) <= high else "sim_seat_range",
                          given=len(chosen), players=n, low=low, high=high)
    return chosen


def tournament_of(rules: Rules, seats: str | None, gauntlet: str | None, round_robin: str | None,
                  sprt: str | None, deals: int, seed: str | None, simulations: int | None,
                  results: str | None, duplicate: bool, move_time: float | None = None) -> Tournament:
    """The tournament the options ask for, every option checked (a user error is a
    :class:`HeartsError`); without ``--seed`` a results file's own seed is taken up again."""
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
        bounds = sprt_bounds(sprt)
        if len(pairings(mode, players)) != 1:
            raise HeartsError("sim_sprt_two")
    if seed is None and results is not None:
        seed = results_seed(results)
    if seed is None:
        seed = new_code()
    timed = (MOVE_TIME if move_time is None else move_time) if any(map(is_program, players)) else None
    return Tournament(rules, mode, players, deals, seed, simulations, bounds, timed)


def sprt_bounds(text: str) -> SprtBounds:
    """``--sprt ELO0,ELO1[,ALPHA,BETA]``: ALPHA and BETA 0.05 unless given."""
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


def export_of(text: str | None, rules: Rules) -> Export | None:
    """The export ``--export FORMAT:FILE`` asks for, checked (OpenSpiel's only for rules it plays)."""
    if text is None:
        return None
    fmt, colon, path = text.partition(":")
    fmt = fmt.strip().lower()
    if not colon or fmt not in FORMATS or not path.strip():
        raise HeartsError("sim_bad_export", value=text)
    return open_export(fmt, path, rules)


def _check_workers(workers: int) -> None:
    if workers < 1:
        raise HeartsError("sim_at_least_one", option="--workers", value=workers)
    _check_most_workers(workers)


def _check_most_workers(workers: int) -> None:
    if workers > MAX_WORKERS:
        raise HeartsError("cli_too_many", option="--workers", most=MAX_WORKERS, value=workers)


# ---------------------------------------------------------------- the runs


def seats_command(o: Options, out: Out) -> None:
    """``hearts sim --seats``: play the games, print the report."""
    chosen = seated(o.seats, o.rules)
    for option, value in (("--deals", o.deals), ("--workers", o.workers), ("--simulations", o.simulations)):
        if value is not None and value < 1:
            raise HeartsError("sim_at_least_one", option=option, value=value)
    _check_most_workers(o.workers)
    seed = new_code() if o.seed is None else o.seed
    exporting = export_of(o.export, o.rules)
    try:
        result = run(o.rules, chosen, o.deals, seed, duplicate=o.duplicate, simulations=o.simulations,
                     workers=o.workers, lang=out.lang,
                     progress=_bar(o.deals, out.lang) if not o.as_json and stderr_is_terminal() else None,
                     export=exporting, move_time=o.move_time, cluster=o.cluster, faults=o.faults, tell=_said)
    except KeyboardInterrupt:  # Ctrl-C: where the games finished are (no results file here)
        echo(interrupted(None, exporting, out.lang), err=True)
        raise typer.Exit(130) from None
    if o.as_json:
        echo(json.dumps(to_json(result), ensure_ascii=False))
    else:
        echo(render(result, out.lang, out.color), nl=False)
    if result.stopped is not None:  # a program that never answered: said once the report is out
        raise result.stopped


def tournament_command(o: Options, out: Out) -> int:
    """``hearts sim --gauntlet/--round-robin``: the tournament checked, played (or resumed from
    its results file) and its report printed; the exit status."""
    tour = tournament_of(o.rules, o.seats, o.gauntlet, o.round_robin, o.sprt, o.deals, o.seed, o.simulations,
                         o.results, o.duplicate, o.move_time)
    _check_workers(o.workers)
    export = export_of(o.export, o.rules)
    played = TournamentRun(tour, o.results, export, o.faults, out.lang)
    live = _Live(tour, out.lang, played.deals_done) if not o.as_json and stderr_is_terminal() else None
    try:
        halves, stopped = played.play(o.workers, o.cluster, live)
    except KeyboardInterrupt:
        if live is not None:
            live.clear()
        echo(interrupted(o.results, export, out.lang), err=True)
        return 130
    if live is not None:
        live.clear()
    seconds = played.end(_said)  # its programs closed (after Ctrl-C: as the process exits)
    report = tournament_report(tour, halves, seconds)
    if o.as_json:
        echo(json.dumps(report_json(report), ensure_ascii=False))
    else:
        echo(render_tournament(report, out.lang), nl=False)
    if stopped is not None:
        raise stopped
    return 0


def _said(line: str) -> None:
    """A line the run's end says (a program that had to be stopped), on stderr."""
    echo(line, err=True)


def interrupted(results: str | None, export: Export | None, lang: str) -> str:
    """What Ctrl-C in ``hearts sim`` says: where the games finished are kept (the results
    file, from which the same command goes on; else the export's file), or that none are."""
    if results is not None:
        return t("sim_interrupted", lang, path=results)
    if export is not None:
        return t("sim_interrupted_export", lang, path=export.path, count=export.games)
    return t("sim_interrupted_unkept", lang)


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- progress on stderr


@contextmanager
def _bar(total: int, lang: str) -> Iterator[Callable[[int], None]]:
    """The progress bar of ``hearts sim --seats`` (a terminal only): deals played of ``total``."""
    from rich.console import Console  # (rich: only where a terminal draws it)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(t("sim_progress", lang), total=total)
        yield lambda done: bar.update(task, completed=done)


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


# ---------------------------------------------------------------- the report of a run of seats


def faults_lines(faults: dict[str, dict[str, int]] | None, lang: str) -> list[str]:
    """One sentence a program: how many of its decisions the CPU made, and why."""
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
        title += " " + t("rt_changed", lang, changes=changes(sim.rules))
    played_id = "sim_played_duplicate" if sim.duplicate else "sim_played"
    played = t(played_id, lang, deals=sim.deals, games=len(sim.games), rotations=sim.rotations,
               rounds=sim.rounds, seconds=f"{sim.seconds:.1f}")
    legend = t("sim_legend", lang, share=share)
    head1, rows1, head2, rows2 = _rows(sim)
    tables = (([t(h, lang) for h in head1], rows1), ([t(h, lang) for h in head2], rows2))
    faults = faults_lines(sim.faults, lang)
    if color:
        return _boxed(title, played, tables, faults, legend)
    cols = width()
    lines = [wrapped(title), wrapped(played)]
    for head, rows in tables:
        lines += ["", _plain_table(head, rows, cols)]
    lines += ["", *map(wrapped, faults)] if faults else []
    return "\n".join([*lines, "", wrapped(legend)]) + "\n"


def _boxed(title: str, played: str, tables: Sequence[tuple[list[str], list[list[str]]]], faults: list[str],
           legend: str) -> str:
    """The report for a colour terminal: rich's boxed tables, each split to fit the screen."""
    from rich.console import Console  # (rich: only where a terminal shows it)
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True,
                      width=text_width(shutil.get_terminal_size((100, 24)).columns))

    def prose(text: str, style: str | None = None) -> None:
        """Wrapped as every text is (a name or number kept with its word), not by rich."""
        console.print("\n".join(wrap_text(text, console.width)), highlight=False, style=style, soft_wrap=True)

    prose(title)
    prose(played)
    for head, rows in tables:
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
    for line in faults:
        prose(line)
    prose(legend, "dim")
    return buf.getvalue()


# ---------------------------------------------------------------- the report of a tournament


def _elo_text(elo: float) -> str:
    """An Elo as every table and line writes it: a sign always, ``+∞``/``-∞`` where unbounded."""
    return f"{elo:+.0f}" if math.isfinite(elo) else ("+∞" if elo > 0 else "-∞")


def _interval_text(low: float, high: float) -> str:
    """A 95% interval of Elo, written alike for a rating and a pairing: ``[low, high]``."""
    return f"[{_elo_text(low)}, {_elo_text(high)}]"


UNRATED = "*"  # the mark of a player the CPU played for, in the text tables


def render_tournament(r: TournamentReport, lang: str) -> str:
    """The human report: what was played, the ratings, each pairing, the test's verdict."""
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


