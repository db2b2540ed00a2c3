"""``hearts play``: the saved game, exactly where it stopped (or a new one)."""

from pathlib import Path
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
    from ...repl import start as loop  # the game loop: prompt-toolkit is imported only once a game opens
    raise typer.Exit(loop.resume(lang=out.lang, plain=out.plain, json_events=json_events, delay=delay,
                                 turn_timer=turn_timer, confirm=confirm, screen_reader=screen_reader,
                                 archived=code, own_language=_no_language_given(ctx, lang)))


def _no_language_given(ctx: typer.Context, lang: str | None) -> bool:
    """Whether neither this command nor the group was given --lang: a game then speaks its own."""
    return lang is None and (ctx.find_root().obj or {}).get("lang") is None


def _list_unfinished(lang: str) -> None:
    """The games set aside unfinished, newest first: where each stands (its round and
    scores), then the line that brings it back, on a line of its own (a command to copy,
    whole at any width)."""
    import sys

    from ...base.wrapping import for_terminal
    from ...store.saves import unfinished_games
    from ...text.catalog import t

    games = unfinished_games()
    if not games:
        echo(for_terminal(t("unfinished_none", lang), sys.stdout))
        return
    echo(for_terminal(t("unfinished_heading", lang, count=len(games)), sys.stdout))
    for when, code, path in games:
        echo(for_terminal(_standing(when, code, path, lang), sys.stdout, hang=2))
        echo(f"  hearts play --resume {code}")


def _standing(when: str, code: str, path: Path, lang: str) -> str:
    """Where an unfinished game stands: its round (and trick, or the pass) and the scores."""
    from ...base.wrapping import scored
    from ...play.dealt import Phase
    from ...records.record_parts import display_name
    from ...records.record_reader import read_record
    from ...text.catalog import t

    try:
        record = read_record(path)
        game = record.replay()
    except Exception:  # a file damaged or written by hand: listed all the same, by its name
        return t("unfinished_unreadable", lang, when=when, code=code)
    rd = game.round
    names = [display_name(seat.name, lang) for seat in record.seats]
    totals = " · ".join(scored(list(zip(names, game.totals, strict=True))))
    mid = "unfinished_game_pass" if rd.phase is Phase.PASS else "unfinished_game"
    return t(mid, lang, when=when, code=code, round=rd.round_index + 1, trick=len(rd.tricks) + 1, totals=totals)
