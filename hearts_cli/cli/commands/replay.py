"""``hearts replay``: a game record or move log told trick by trick, a table at any position, analysis."""

import os
import sys
from typing import Annotated, Any

import typer

from ..command import Command, one_command
from ..given import load_rules, normal_code
from ..options import LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt
from ..output import echo, os_problem, refuse, setup

cli = one_command()


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
    simulations: Annotated[
        int | None, typer.Option("--simulations", metavar="N", help="help_replay_simulations")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="help_replay_seed")] = 0,
    annotate_to: Annotated[
        str | None, typer.Option("--annotate-to", metavar="FILE", help="help_replay_annotate_to")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="help_replay_json")] = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Replay a game: a trick-by-trick story, the table at any position, and analysis.

    The game is a record file, or --code with a move log (a file, - for stdin,
    or --moves). A partial log stops where it ends and shows the table there.
    Problems in the input are reported with their position and exit status 2;
    nothing is written then.
    """
    import re

    out = setup(ctx, lang, plain)
    from ...records import replay as rp
    from ...records.record import GameRecord, read_record, save_record

    if source is not None and moves is not None:
        refuse("rp_cli_two_logs")
    if source is None and moves is None:
        refuse("rp_cli_no_source")
    text, path = moves, None
    if source is not None:
        from ...base.untrusted import LIMITS, TooBig, read_limited

        path = source if source != "-" else None
        limit = max(LIMITS["record"], LIMITS["move_log"])  # a record or a move log: read first, then told apart
        try:  # the size is checked before reading: a huge file or an endless stream costs nothing
            text = read_limited(sys.stdin if source == "-" else source, limit).decode("utf-8")
        except TooBig:
            if source == "-":
                refuse("cli_stdin_too_big", limit=limit)
            refuse("cli_bad_file", path=source, problem=out.t("input_too_big", limit=limit))
        except OSError as e:
            refuse("cli_bad_file", path=source, problem=os_problem(out, e))
        except UnicodeDecodeError:
            refuse("cli_bad_file", path=source, problem=out.t("record_not_utf8"))
    assert text is not None
    if re.search(r"^format\s*:", text, re.MULTILINE):  # a game record
        if code is not None or preset is not None or players is not None or target is not None or settings:
            refuse("rp_cli_code_with_record", path=path or "-")
        from pathlib import Path

        record = read_record(Path(path) if path else text)
    else:
        from ...records.movelog import replay_log

        rule_set = load_rules(preset, players, target, settings) if (
            preset is not None or players is not None or target is not None or settings) else None
        logged = replay_log(text, normal_code(code), rule_set)
        record = GameRecord.from_game(logged.game)
    n = record.rules.players
    if seat is not None and not 0 <= seat < n:
        refuse("cli_bad_seat", seat=seat, players=n, last=n - 1)
    if all_hands and seat is not None:
        refuse("rp_cli_seat_needs")
    if annotate_to is not None:
        if not annotate_to.strip():
            refuse("cli_no_file_name", option="--annotate-to")
        if os.path.isdir(annotate_to):
            refuse("cli_cannot_write", path=annotate_to, problem=out.t("os_is_directory"))

    def emit(lines: list[str], style: str | None = None) -> None:
        if not out.color:
            for line in lines:
                echo(line)
            return
        from rich.console import Console
        from rich.text import Text

        console = Console(highlight=False, soft_wrap=True)
        for line in lines:
            console.print(Text(line, style=style or ""))

    if at is not None:
        game, made = rp.game_at(record, at)
        table = rp.table_at(game, seat, all_hands, made)
        if as_json:
            import json

            echo(json.dumps(rp.view_event(game, seat, all_hands, made), ensure_ascii=False))
        else:
            emit(rp.describe_table(table, record, out.lang, out.ascii))
        return
    decisions: list[Any] = []
    sims = simulations if simulations is not None else rp.DEFAULT_SIMULATIONS
    if analyze:
        if sims < 1:
            refuse("sim_at_least_one", option="--simulations", value=sims)
        tick = None
        if sys.stderr.isatty():
            def tick(done: int, total: int) -> None:
                filled = 24 * done // max(1, total)
                bar = ("#" * filled).ljust(24, ".")
                sys.stderr.write(f"\r[{bar}] " + out.t("rp_progress", done=done, total=total))
                if done == total:
                    sys.stderr.write("\n")
                sys.stderr.flush()
        decisions = rp.analyze(record, None if seat is None else [seat], seed=seed, simulations=sims,
                               progress=tick)
    events = rp.narrate(record, seat, decisions)
    summary = rp.summary(decisions, n, None if seat is None else [seat]) if analyze else []
    if annotate_to is not None:
        notes = rp.annotations_of(decisions, out.lang, False, keep=record.annotations)
        try:
            save_record(annotate_to, record.replay(), seats=record.seats, annotations=notes)
        except OSError as e:
            refuse("cli_cannot_write", path=annotate_to, problem=os_problem(out, e))
    if as_json:
        import json

        encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False)
        lines = [encode(ev.to_json()) for ev in events]
        method = {"method": rp.METHOD_TWO} if record.rules.decks > 1 else {}  # how it was weighed
        lines += [encode({"event": "summary"} | row | method) for row in summary]
        if events[-1].kind == "stop":
            lines.append(encode(rp.view_event(record.replay(), seat, False, len(record.moves))))
        echo("\n".join(lines))  # one write: the same lines, without a flush after each
    else:
        styles = {"round": "bold", "game_end": "bold", "moon": "bold magenta", "queen": "red",
                  "moon_attempt": "magenta", "moon_stopped": "magenta", "hearts_broken": "red"}
        for ev in events:
            lines = rp.describe(ev, record, out.lang, out.ascii)
            style = styles.get(ev.kind)
            if ev.kind == "decision":
                style = {"??": "bold red", "?": "yellow", "!": "green"}.get(ev.data["glyph"], "dim")
            emit(lines, style)
        if summary:
            emit(["", out.t("rp_summary_head", simulations=sims, seed=seed)], "bold")
            if record.rules.decks > 1:
                emit([out.t("rp_analysis_two")])
            for row in summary:
                emit(rp.describe(rp.Event("summary", row), record, out.lang, out.ascii))
        if events[-1].kind == "stop":
            emit([""] + rp.describe_table(rp.table_at(record.replay(), seat, False, len(record.moves)),
                                          record, out.lang, out.ascii))
    if annotate_to is not None:
        echo(out.t("rp_annotated", path=annotate_to), err=True)
