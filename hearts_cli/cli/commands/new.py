"""``hearts new``: a new game, saved, its code printed, then played."""

from typing import Annotated

import typer

from ..command import LEVEL_METAVAR, PresetsCommand, one_command
from ..given import overrides, warn_settings
from ..options import (
    DelayOpt,
    LangOpt,
    PlainOpt,
    PlayersOpt,
    PresetOpt,
    ScreenReaderOpt,
    SetOpt,
    TargetOpt,
    TimerOpt,
    complete_level,
)
from ..output import setup

cli = one_command()


@cli.command(cls=PresetsCommand, help="help_new", epilog="epilog_new")
def new(
    ctx: typer.Context,
    preset: PresetOpt = None,
    target: TargetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    level: Annotated[
        str | None,
        typer.Option("--level", metavar=LEVEL_METAVAR, autocompletion=complete_level,
                     help="help_new_level"),
    ] = None,
    code: Annotated[
        str | None,
        typer.Option("--code", metavar="CODE", help="help_new_code"),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", metavar="S", help="help_new_seat")] = 0,
    confirm: Annotated[
        bool, typer.Option("--confirm/--no-confirm", help="help_new_confirm"),
    ] = True,
    play_now: Annotated[
        bool, typer.Option("--play/--no-play", help="help_new_play"),
    ] = True,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="help_new_json")] = False,
    delay: DelayOpt = None,
    turn_timer: TimerOpt = None,
    screen_reader: ScreenReaderOpt = False,
) -> None:
    """Start a new game, save it, print its code and play it.

    The code deals exactly the same cards again, on any machine: give it to
    --code to replay the deal. A game already saved is archived as unfinished,
    never lost.
    """
    out = setup(ctx, lang, plain)
    from ...repl import start as loop  # the game loop: prompt-toolkit is imported only once a game opens
    from ...repl.new_game import NewGame

    # the one new game, checked once; a bad option is a HeartsError, said by the one catch
    game = NewGame.of(preset=preset, target=target, players=players, settings=overrides(settings),
                           level=level, code=code, seat=seat)
    warn_settings(out)
    raise typer.Exit(loop.start_new(
        game, confirm=confirm, play=play_now, lang=out.lang, plain=out.plain, json_events=json_events,
        delay=delay, turn_timer=turn_timer, screen_reader=screen_reader,
    ))
