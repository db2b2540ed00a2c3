"""``hearts replay``: a game record or move log told trick by trick, a table at any position, analysis."""

import sys
from collections.abc import Callable
from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules
from ..options import LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt
from ..output import Out, echo, setup

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
    out = setup(ctx, lang, plain)
    from ...records import replay as rp

    text, path = rp.read_input(source, moves, out.lang, out.ascii)
    given = preset is not None or players is not None or target is not None or settings
    record = rp.open_game(text, path, code, (lambda: load_rules(preset, players, target, settings))
                          if given else None)
    options = rp.Options(seat=seat, at=at, all_hands=all_hands, analyze=analyze, simulations=simulations,
                         seed=seed, annotate_to=annotate_to, as_json=as_json, lang=out.lang, ascii=out.ascii)
    rp.check(record, options)
    lines = rp.output(record, options, _progress(out) if analyze and sys.stderr.isatty() else None)
    if as_json:
        echo("\n".join(line for line, _ in lines))  # one write: the same lines, without a flush after each
    else:
        _print_styled(out, lines)
    if annotate_to is not None:
        echo(out.t("rp_annotated", path=annotate_to), err=True)


def _progress(out: Out) -> Callable[[int, int], None]:
    """A progress bar on stderr (a terminal's) for a long analysis."""
    def tick(done: int, total: int) -> None:
        filled = 24 * done // max(1, total)
        bar = ("#" * filled).ljust(24, ".")
        sys.stderr.write(f"\r[{bar}] " + out.t("rp_progress", done=done, total=total))
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return tick


def _print_styled(out: Out, lines: list[tuple[str, str | None]]) -> None:
    """Lines on stdout, each in its style when the output is a colour terminal."""
    if not out.color:
        for line, _ in lines:
            echo(line)
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line, style in lines:
        console.print(Text(line, style=style or ""))
