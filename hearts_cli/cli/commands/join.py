"""``hearts join``: a seat at a shared table (the client is :mod:`hearts_cli.cli.join`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..options import LangOpt, PlainOpt
from ..output import setup

cli = one_command()


@cli.command(cls=Command, epilog=(
    "\b\nExamples:\n"
    "  hearts join 127.0.0.1:7441/1-Xq3...          take seat 1 of a table\n"
    "  hearts join 127.0.0.1:7441/1-Xq3... --name Ana --lang es\n"
    "  hearts join tls://host:7441/2-... --cafile cert.pem   a table with TLS\n"
    "  hearts join 127.0.0.1:7441/3-... --json      a script: JSON lines both ways (docs/tables.md)"
))
def join(
    ctx: typer.Context,
    invitation: Annotated[str, typer.Argument(metavar="INVITATION", help="HOST:PORT/SEAT-TOKEN, as `hearts host` printed it.")],
    name: Annotated[str | None, typer.Option("--name", metavar="NAME", help="The name the table shows for you.")] = None,
    cafile: Annotated[str | None, typer.Option("--cafile", metavar="FILE", help="Trust this certificate (a table with a self-signed one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Bridge: JSON requests on stdin, the table's JSON lines on stdout.")] = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Sit at a shared table opened with `hearts host`, for the seat of the invitation.

    Joining again with the same invitation gives the seat back at once,
    mid-trick; while you are away the CPU plays for you.
    """
    out = setup(ctx, lang, plain)
    from ..join import run_join

    raise typer.Exit(run_join(invitation, name=name, lang=out.lang, plain=out.plain, as_json=as_json,
                              cafile=cafile))
