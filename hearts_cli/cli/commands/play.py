"""``hearts play``: the saved game, exactly where it stopped (or a new one)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import warn_settings
from ..options import DelayOpt, LangOpt, PlainOpt, TimerOpt
from ..output import setup

cli = one_command()


@cli.command(cls=Command, epilog="\b\nExamples:\n  hearts play\n  hearts play --lang es --plain\n  hearts play --no-confirm --delay 0")
def play(
    ctx: typer.Context,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="Print the game as JSON events, one per line.")] = False,
    confirm: Annotated[
        bool | None,
        typer.Option("--confirm/--no-confirm", help="Ask for a second touch before a card is played (default: on)."),
    ] = None,
    delay: DelayOpt = None,
    turn_timer: TimerOpt = None,
) -> None:
    """Resume the saved game exactly where it stopped; with no saved game, start a new one.

    Nothing is asked: the same round, trick and scores come back. The game
    saves itself after every move.
    """
    out = setup(ctx, lang, plain)
    warn_settings(out)
    from ... import repl as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.resume(lang=out.lang, plain=out.plain, json_events=json_events, delay=delay,
                                 turn_timer=turn_timer, confirm=confirm))
