"""The ``hearts`` command: one Typer app, each command importing only what it uses.

Start-up time matters for scripted use, so heavy modules (prompt-toolkit, the
engine itself) are imported inside the commands that need them.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from . import __version__

app = typer.Typer(
    name="hearts",
    help="Hearts (Corazones) in the terminal: play, study and script the card game.",
    add_completion=True,
    no_args_is_help=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hearts {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
) -> None:
    """Hearts (Corazones) in the terminal. With no command, `hearts` is `hearts play`."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play)


@app.command()
def engine() -> None:
    """Serve the engine protocol: one JSON request per line on stdin, one reply per line on stdout.

    See docs/engine-protocol.md. Example:

        echo '{"cmd":"hello"}' | hearts engine
    """
    from .protocol import serve

    raise typer.Exit(serve(sys.stdin, sys.stdout))


@app.command()
def play(
    code: Annotated[Optional[str], typer.Option(help="Deal this game code (default: a new one).")] = None,
    preset: Annotated[Optional[str], typer.Option(help="Rule preset (see seeds/).")] = None,
) -> None:
    """Play a game against three CPU players (a plain line-by-line loop for now)."""
    from .simple_play import run

    raise typer.Exit(run(code=code, preset=preset))


def main() -> None:
    app()
