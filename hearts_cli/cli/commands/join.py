"""``hearts join``: a seat at a shared table (the client is :mod:`hearts_cli.cli.join`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..options import LangOpt, PlainOpt, ScreenReaderOpt
from ..output import setup

cli = one_command()


@cli.command(cls=Command, help="help_join", epilog="epilog_join")
def join(
    ctx: typer.Context,
    invitation: Annotated[str, typer.Argument(metavar="INVITATION", help="help_join_invitation")],
    name: Annotated[str | None, typer.Option("--name", metavar="NAME", help="help_join_name")] = None,
    cafile: Annotated[str | None, typer.Option("--cafile", metavar="FILE", help="help_join_cafile")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="help_join_json")] = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    screen_reader: ScreenReaderOpt = False,
) -> None:
    """Sit at a shared table opened with `hearts host`, for the seat of the invitation.

    Joining again with the same invitation gives the seat back at once,
    mid-trick; while you are away the CPU plays for you.
    """
    out = setup(ctx, lang, plain)
    from ..join import run_join

    raise typer.Exit(run_join(invitation, name=name, lang=out.lang, plain=out.plain, as_json=as_json,
                              cafile=cafile, screen_reader=screen_reader))
