"""``hearts engine``: the engine protocol, JSON lines on stdin and stdout (docs/engine-protocol.md)."""

import sys

import typer

from ..command import Command, one_command
from ..options import LangOpt
from ..output import setup

cli = one_command()


@cli.command(cls=Command, help="help_engine", epilog="epilog_engine")
def engine(ctx: typer.Context, lang: LangOpt = None) -> None:
    """Serve the engine protocol: one JSON request per line on stdin, one reply per line on stdout.

    See docs/engine-protocol.md. --lang sets the language of the error
    sentences in the replies (a request can still ask for another).
    """
    out = setup(ctx, lang, False)
    from ..protocol import serve

    raise typer.Exit(serve(sys.stdin, sys.stdout, lang=out.lang))
