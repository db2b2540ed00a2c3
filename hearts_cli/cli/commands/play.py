"""``hearts play``: the saved game, exactly where it stopped (or a new one)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import normal_code, warn_settings
from ..options import DelayOpt, LangOpt, PlainOpt, ScreenReaderOpt, TimerOpt
from ..output import echo, setup

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
    resume: Annotated[str | None, typer.Option("--resume", metavar="CODE", help="help_play_resume")] = None,
    unfinished: Annotated[bool, typer.Option("--unfinished", help="help_play_unfinished")] = False,
) -> None:
    """Resume the saved game exactly where it stopped; with no saved game, start a new one.

    Nothing is asked: the same round, trick and scores come back. The game
    saves itself after every move.
    """
    out = setup(ctx, lang, plain)
    if unfinished:
        _list_unfinished(out.lang)
        return
    warn_settings(out)
    code = None if resume is None else normal_code(resume)
    from ... import repl as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.resume(lang=out.lang, plain=out.plain, json_events=json_events, delay=delay,
                                 turn_timer=turn_timer, confirm=confirm, screen_reader=screen_reader,
                                 archived=code, own_language=_no_language_given(ctx, lang)))


def _no_language_given(ctx: typer.Context, lang: str | None) -> bool:
    """Whether neither this command nor the group was given --lang: a game then speaks its own."""
    return lang is None and (ctx.find_root().obj or {}).get("lang") is None


def _list_unfinished(lang: str) -> None:
    """The games set aside unfinished, newest first, each with the line that brings it back."""
    from ...store.saves import unfinished_games
    from ...text.catalog import t

    games = unfinished_games()
    if not games:
        echo(t("unfinished_none", lang))
        return
    echo(t("unfinished_heading", lang, count=len(games)))
    for when, code, _ in games:
        echo(f"  {when}  {code}  hearts play --resume {code}")
