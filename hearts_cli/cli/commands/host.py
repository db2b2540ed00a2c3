"""``hearts host``: a table people join from their own terminals (:mod:`hearts_cli.cli.host`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import check_level, load_rules, normal_code
from ..options import LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt, complete_level
from ..output import refuse, setup

cli = one_command()


@cli.command(cls=Command, help="help_host", epilog="epilog_host")
def host(
    ctx: typer.Context,
    preset: PresetOpt = None,
    settings: SetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    humans: Annotated[int, typer.Option("--humans", metavar="H", help="help_host_humans")] = 2,
    level: Annotated[
        str | None,
        typer.Option("--level", metavar="easy|normal|hard", autocompletion=complete_level,
                     help="help_host_level"),
    ] = None,
    turn_timer: Annotated[
        float | None, typer.Option("--turn-timer", metavar="SECONDS", help="help_host_turn_timer")] = None,
    delay: Annotated[float, typer.Option("--delay", metavar="SECONDS", help="help_host_delay")] = 0.5,
    port: Annotated[int, typer.Option("--port", metavar="P", help="help_host_port")] = 7441,
    bind: Annotated[str, typer.Option("--bind", metavar="ADDR", help="help_host_bind")] = "127.0.0.1",
    cert: Annotated[str | None, typer.Option("--cert", metavar="FILE", help="help_host_cert")] = None,
    key: Annotated[str | None, typer.Option("--key", metavar="FILE", help="help_host_key")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="help_host_resume")] = False,
    hints: Annotated[bool, typer.Option("--hints", help="help_host_hints")] = False,
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="help_host_code")] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Open a table that people join from their own terminals (and scripts, in JSON lines).

    Prints one invitation per person's seat; CPU players fill the others, and
    play for a person whose turn timer runs out or who has gone, until they
    join again with the same invitation. The game is saved after every move;
    a finished game goes to the archive.
    """
    out = setup(ctx, lang, plain)
    rules = None if resume else load_rules(preset, players, target, settings)
    code = normal_code(code)
    level = check_level(level, 1 if rules is None else rules.players - humans)
    if not 0 <= delay <= 10:
        refuse("bad_delay")
    from ..host import run_host

    raise typer.Exit(run_host(rules=rules, humans=humans, level=level, turn_timer=turn_timer, delay=delay,
                              port=port, bind=bind, cert=cert, key=key, resume=resume, lang=out.lang,
                              code=code, hints=hints))
