"""``hearts replay``: a game record or move log told trick by trick, a table at any position, analysis."""

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules
from ..options import MAX_WORKERS, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt
from ..output import Out, echo, refuse, setup

if TYPE_CHECKING:
    from ...bots.match import Mapper
    from ...model.rules import Rules
    from ...records.record import GameRecord
    from ...records.replay import Options

cli = one_command()
EXPORTS = ("pbn", "openspiel")


# the options of hearts replay that take a value (each help is the message help_replay_<name>)
SimulationsOpt = Annotated[int | None, typer.Option("--simulations", metavar="N", help="help_replay_simulations")]
WorkersOpt = Annotated[int | None, typer.Option("--workers", metavar="N", help="help_replay_workers")]
AnnotateToOpt = Annotated[str | None, typer.Option("--annotate-to", metavar="FILE", help="help_replay_annotate_to")]
ExportOpt = Annotated[str | None, typer.Option("--export", metavar="pbn|openspiel", help="help_replay_export")]


@cli.command(cls=Command, help="help_replay", epilog="epilog_replay")
def replay(
    ctx: typer.Context,
    source: Annotated[str | None, typer.Argument(metavar="FILE", help="help_replay_file")] = None,
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="help_replay_code")] = None,
    moves: Annotated[str | None, typer.Option("--moves", metavar="LOG", help="help_replay_moves")] = None,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    settings: SetOpt = None,
    at: Annotated[str | None, typer.Option("--at", metavar="POSITION", help="help_replay_at")] = None,
    seat: Annotated[int | None, typer.Option("--seat", metavar="S", help="help_replay_seat")] = None,
    all_hands: Annotated[bool, typer.Option("--all-hands", help="help_replay_all_hands")] = False,
    analyze: Annotated[bool, typer.Option("--analyze", help="help_replay_analyze")] = False,
    simulations: SimulationsOpt = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="help_replay_seed")] = 0,
    workers: WorkersOpt = None,
    annotate_to: AnnotateToOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="help_replay_json")] = False,
    export: ExportOpt = None,
    game: Annotated[int | None, typer.Option("--game", metavar="N", help="help_replay_game")] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Replay a game: a trick-by-trick story, the table at any position, and analysis.

    The game is a record file (or the code of an archived game), or --code with
    a move log (a file, - for stdin, or --moves). A partial log stops where it
    ends and shows the table there.
    Problems in the input are reported with their position and exit status 2;
    nothing is written then.
    """
    out = setup(ctx, lang, plain)
    from ...records.positions import is_position_text

    if at is not None and is_position_text(at):  # the table a position text holds (docs/position.md)
        alone = source is None and code is None and moves is None and not analyze and annotate_to is None
        return _text_position(out, at, seat, all_hands, as_json) if alone else refuse("rp_at_text_alone")
    _check_alone(export, at is not None or analyze or annotate_to is not None or as_json, workers)
    from ...records import replay as rp

    record = _opened(out, source, code, moves, game, _rules_given(preset, players, target, settings))
    options = rp.Options(seat=seat, at=at, all_hands=all_hands, analyze=analyze, simulations=simulations,
                         seed=seed, annotate_to=annotate_to, as_json=as_json, lang=out.lang, ascii=out.ascii)
    rp.check(record, options)
    if export is not None:  # the game in another program's format, and nothing else
        echo(rp.exported(record, export.lower()), nl=False)
        return
    _tell(out, record, options, workers)
    if annotate_to is not None:
        from ...base.wrapping import for_terminal

        echo(for_terminal(out.t("rp_annotated", path=annotate_to), sys.stderr), err=True)


def _check_alone(export: str | None, more: bool, workers: int | None) -> None:
    """``--export`` in a format it has, and with nothing else to print (``more``); ``--workers``
    from 1 to :data:`MAX_WORKERS`."""
    if export is not None:
        if export.lower() not in EXPORTS:
            refuse("rp_export_format", value=export)
        if more:
            refuse("rp_export_alone")
    if workers is not None and workers < 1:
        refuse("sim_at_least_one", option="--workers", value=workers)
    if workers is not None and workers > MAX_WORKERS:
        refuse("cli_too_many", option="--workers", most=MAX_WORKERS, value=workers)


def _rules_given(preset: str | None, players: int | None, target: int | None,
                 settings: list[str] | None) -> "Callable[[], Rules] | None":
    """The rules the options give a move log (read when it needs them), or None when none is given."""
    given = preset is not None or players is not None or target is not None or settings
    return (lambda: load_rules(preset, players, target, settings)) if given else None


def _opened(out: Out, source: str | None, code: str | None, moves: str | None, game: int | None,
            rules: "Callable[[], Rules] | None") -> "GameRecord":
    """The game to replay: a record, or a move log with its code, read and played through."""
    from ...records import replay as rp

    text, path = rp.read_input(_from_archive(source), moves, out.lang, out.ascii)
    if source is not None and code is None and not text.strip():  # (with --code: a log of no moves yet)
        refuse("rp_empty_stdin" if source == "-" else "rp_empty", path=path)
    return rp.open_game(text, path, code, rules, game)


def _tell(out: Out, record: "GameRecord", options: "Options", workers: int | None) -> None:
    """The story, the table or the analysis on stdout (a progress line on a terminal's stderr
    while an analysis weighs its decisions); Ctrl-C stops it with status 130."""
    from ...records import replay as rp

    progress = _progress(out) if options.analyze and sys.stderr.isatty() else None
    stop: _Interrupts | None = None
    try:
        mapper = _mapper(workers, options.simulations) if options.analyze and options.at is None else None
        if progress is not None and mapper is None:
            stop = _Interrupts()
            progress = stop.checked(progress)
        lines = rp.output(record, options, progress, mapper)
        if stop is not None:
            stop.check()  # (a Ctrl-C after the last decision weighed)
    except KeyboardInterrupt:
        if progress is not None:  # the progress line (and the ^C echoed) ends: the shell's prompt starts a line
            sys.stderr.write("\n")
        raise typer.Exit(130) from None
    finally:
        if stop is not None:
            stop.close()
    if options.as_json:
        echo("\n".join(line for line, _ in lines))  # one write: the same lines, without a flush after each
    else:
        _print_styled(out, lines)


def _text_position(out: Out, text: str, seat: int | None, all_hands: bool, as_json: bool) -> None:
    """``--at TEXT``: the table a position text holds, as ``--at`` shows a record's (a seat's
    text shows that seat only)."""
    for line, _ in _text_lines(out, text, seat, all_hands, as_json):
        echo(line)


def _text_lines(out: Out, text: str, seat: int | None, all_hands: bool,
                as_json: bool) -> list[tuple[str, str | None]]:
    from ...records import positions as ps

    position = ps.GivenPosition(text)
    n = position.round.players
    if seat is not None and not 0 <= seat < n:
        refuse("cli_bad_seat", seat=seat, players=n, last=n - 1)
    if all_hands and seat is not None:
        refuse("rp_cli_seat_needs")
    if as_json:
        import json

        return [(json.dumps(ps.text_view_event(position, seat, all_hands), ensure_ascii=False), None)]
    from ...records.record import GameRecord
    from ...records.record_parts import default_seats
    from ...records.sentences import describe_table

    table = ps.text_table(position, seat, all_hands)
    table["code"] = code = position.code or out.t("position_no_code")
    record = GameRecord(position.round.rules, code, default_seats(n))
    return [(line, None) for line in describe_table(table, record, out.lang, out.ascii)]


def _from_archive(source: str | None) -> str | None:
    """FILE as given, or, when no file has that name and it is a game code, the newest game
    archived with that code (what the end of a game tells a person to type)."""
    import os

    if source is None or source == "-" or os.path.exists(source):
        return source
    from ...model.codes import is_code, looks_like_code, normalize_code

    if not is_code(source):
        if looks_like_code(source):  # a code mistyped: said as `hearts new --code` says it
            normalize_code(source)
        return source
    from ...store.saves import archived_game

    found = archived_game(normalize_code(source))
    if found is None:
        refuse("rp_no_archived", code=source)
    return str(found)


POOL_FROM = 200  # deals a decision from which worker processes pay for their start, by default


def _mapper(workers: int | None, simulations: int) -> "Mapper | None":
    """Worker processes for --analyze: ``--workers``, or one per core the process may use for a
    deep analysis (a quick look, under :data:`POOL_FROM` deals a decision, stays in this process:
    starting the workers would cost more than they save). The decisions come back in order and
    each is weighed at its own seed: the same output whatever the number."""
    if workers is None and simulations < POOL_FROM:
        return None
    if workers is None:
        import os

        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        workers = min(workers, MAX_WORKERS)
    if workers < 2:
        return None
    from ...sim.pool import process_mapper

    return process_mapper(workers)


def _progress(out: Out) -> Callable[[int, int], None]:
    """A progress line on stderr (a terminal's) for a long analysis: decisions weighed of how
    many and about how long is left, a bar when the terminal has room for it; one line at any
    width (its margin kept, as every screen's), written over in place."""
    import shutil
    import time

    from ...base.wrapping import screen_columns, text_width

    start = time.monotonic()
    shown = 0

    def tick(done: int, total: int) -> None:
        nonlocal shown
        # the terminal stderr is (stdout may be a file), else as $COLUMNS says
        width = text_width(screen_columns(sys.stderr) or shutil.get_terminal_size((80, 24)).columns)
        text = out.t("rp_progress", done=done, total=total)
        if 0 < done < total:  # the time left, in fewer words where the terminal is narrow
            left = _duration(out, (time.monotonic() - start) / done * (total - done))
            text = out.t("rp_progress_left", done=done, total=total, left=left)
            if len(text) > width:
                text = out.t("rp_progress_left_short", done=done, total=total, left=left)
        room = min(24, width - len(text) - 3)
        if room >= 8:
            bar = ("#" * (room * done // max(1, total))).ljust(room, ".")
            text = f"[{bar}] {text}"
        text = text[:width]
        sys.stderr.write("\r" + text.ljust(shown))
        shown = len(text)
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return tick


class _Interrupts:
    """Ctrl-C during an analysis in this process, noted by a handler and raised where it is
    checked: before each decision weighed (the progress line's tick) and once the analysis is
    done. A KeyboardInterrupt raised at any other point, in a finalizer among them, can be
    swallowed, and the analysis then ran to its end. ``close`` gives SIGINT back."""

    def __init__(self) -> None:
        import signal

        self.hit = False
        self._previous = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum: int, frame: object) -> None:
        self.hit = True

    def check(self) -> None:
        if self.hit:
            raise KeyboardInterrupt

    def checked(self, progress: Callable[[int, int], None]) -> Callable[[int, int], None]:
        def tick(done: int, total: int) -> None:
            self.check()
            progress(done, total)
        return tick

    def close(self) -> None:
        import signal

        signal.signal(signal.SIGINT, self._previous)


def _duration(out: Out, seconds: float) -> str:
    """About how long: ``40 s`` under two minutes, else ``3 min``."""
    if seconds < 120:
        return out.t("rp_seconds", seconds=max(1, round(seconds)))
    return out.t("rp_minutes", minutes=round(seconds / 60))


def _print_styled(out: Out, lines: list[tuple[str, str | None]]) -> None:
    """Lines on stdout, each in its style when the output is a colour terminal; on a terminal,
    wrapped to its width (a line broken goes on two columns in, so the story's lines stay
    apart), whole in a file or a pipe."""
    from ...base.wrapping import for_terminal

    lines = [(row, style) for line, style in lines for row in for_terminal(line, sys.stdout, 2).split("\n")]
    if not out.color:
        for line, _ in lines:
            echo(line)
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line, style in lines:
        console.print(Text(line, style=style or ""))
