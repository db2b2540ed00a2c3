"""``hearts play``: the saved game, exactly where it stopped (or a new one)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import warn_settings
from ..options import DelayOpt, LangOpt, PlainOpt, ScreenReaderOpt, TimerOpt
from ..output import setup

cli = one_command()


@cli.command(cls=Command, help="help_play", epilog="epilog_play")
def play(
    ctx: typer.Context,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="help_play_json")] = False,
    confirm: Annotated[
        bool | None,
        typer.Option("--confirm/--no-confirm", help="help_play_confirm"),
    ] = None,
    delay: DelayOpt = None,
    turn_timer: TimerOpt = None,
    screen_reader: ScreenReaderOpt = False,
) -> None:
    """Resume the saved game exactly where it stopped; with no saved game, start a new one.

    Nothing is asked: the same round, trick and scores come back. The game
    saves itself after every move.
    """
    out = setup(ctx, lang, plain)
    warn_settings(out)
    from ... import repl as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.resume(lang=out.lang, plain=out.plain, json_events=json_events, delay=delay,
                                 turn_timer=turn_timer, confirm=confirm, screen_reader=screen_reader))
