"""``hearts new``: a new game, saved, its code printed, then played."""

from typing import Annotated

import typer

from ..command import LEVEL_METAVAR, PresetsCommand, one_command
from ..given import check_level, load_rules, normal_code, overrides, warn_settings
from ..options import DelayOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt, TimerOpt, complete_level
from ..output import refuse, setup

cli = one_command()


@cli.command(cls=PresetsCommand, epilog=(
    "\b\nExamples:\n"
    "  hearts new                          another game: a fresh code, the default rules\n"
    "  hearts new --code K7Q2MXA7          replay this deal\n"
    "  hearts new --preset standard        target 100\n"
    "  hearts new --preset reference --players 5 --level hard\n"
    "  hearts new --no-play                just deal, save and print the code\n"
    "  hearts new --preset online --players 3 --set jack_of_diamonds=true\n"
    "\b\n"
    "Levels (--level):\n{level_lines}\n"
    "\b\n"
    "Settings (--set KEY=VALUE, on top of the preset; `hearts rules` shows the result):\n{setting_lines}"
))
def new(
    ctx: typer.Context,
    preset: PresetOpt = None,
    target: TargetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    level: Annotated[
        str | None,
        typer.Option("--level", metavar=LEVEL_METAVAR, autocompletion=complete_level,
                     help="How well every CPU player plays: {levels} (see below). Default: Easy on your left, then Normal, then Hard."),
    ] = None,
    code: Annotated[
        str | None,
        typer.Option("--code", metavar="CODE", help="Deal this game code again (\"replay this deal\"); default: a fresh one."),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", metavar="S", help="Your seat, from 0.")] = 0,
    confirm: Annotated[
        bool, typer.Option("--confirm/--no-confirm", help="Ask for a second touch before a card is played."),
    ] = True,
    play_now: Annotated[
        bool, typer.Option("--play/--no-play", help="Start playing at once (default) or only deal and save."),
    ] = True,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="Print the game as JSON events, one per line.")] = False,
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
        refuse("cli_bad_seat", seat=seat, players=rules.players, last=rules.players - 1)
    warn_settings(out)
    from ... import repl as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.start_new(
        preset=preset, target=target, players=players, settings=overrides(settings), level=level,
        code=code, seat=seat, confirm=confirm, play=play_now, lang=out.lang, plain=out.plain, json_events=json_events,
        delay=delay, turn_timer=turn_timer,
    ))
