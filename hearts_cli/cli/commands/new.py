"""``hearts new``: a new game, saved, its code printed, then played."""

from typing import Annotated

import typer

from ..command import LEVEL_METAVAR, PresetsCommand, one_command
from ..given import check_level, load_rules, normal_code, overrides, warn_settings
from ..options import DelayOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt, TimerOpt, complete_level
from ..output import refuse, setup

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
) -> None:
    """Start a new game, save it, print its code and play it.

    The code deals exactly the same cards again, on any machine: give it to
    --code to replay the deal. A game already saved is archived as unfinished,
    never lost.
    """
    out = setup(ctx, lang, plain)
    rules = load_rules(preset, players, target, settings)
    code = normal_code(code)
    level = check_level(level)
    if not 0 <= seat < rules.players:
        refuse("cli_bad_seat", seat=seat, players=rules.players)
    warn_settings(out)
    from ... import repl as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.start_new(
        preset=preset, target=target, players=players, settings=overrides(settings), level=level,
        code=code, seat=seat, confirm=confirm, play=play_now, lang=out.lang, plain=out.plain, json_events=json_events,
        delay=delay, turn_timer=turn_timer,
    ))
