"""The ``hearts`` command: one Typer group joining one module per command (``cli/commands/``).

Start-up time matters for scripted use, so this module imports nothing but
``typer`` and the package's ``__init__`` at module level, and a command's
module is imported (and made a Click command) only when that command is asked
for: ``hearts --version`` loads none, ``hearts engine`` one; the group's help,
shell completion and a mistyped name see them all. Every command imports its
own modules when it runs: ``hearts --version``, ``rules``, ``explain`` and
``engine`` never load prompt-toolkit or rich (see ``bench/startup.py``).

Errors a person can cause (a bad card, code, preset, file or move) print one
sentence on stderr and exit with status 2, never a traceback (the one place
is ``command.Command``); set ``HEARTS_DEBUG=1`` to see tracebacks of
unexpected failures. Data goes to stdout, diagnostics to stderr. Every
sentence comes from the message catalog, in English or Spanish (``--lang``,
``$HEARTS_LANG``, then the locale); Typer's own ``--help`` text stays in
English. What stdout or stderr cannot encode (an ASCII terminal) is written as
the nearest ASCII, never an error (``output.echo``).

Like the command modules, this one has no ``from __future__ import annotations``:
Typer reads the options of ``main_callback`` from its annotations, and would
evaluate them from strings (and compile them, twice) at every start.
"""

import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.core import Command as ClickCommand  # loaded with typer: costs no start-up
from typer._click.exceptions import UsageError

from .. import __version__
from .command import HelpContext, lighten, speak, usage_words
from .options import LangOpt, PlainOpt
from .output import ARGS, degrade_unencodable, echo

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter
    from typer._click.formatting import HelpFormatter

# The commands in the order the help lists them; each is the module of that name in
# cli/commands/, whose Typer app ``cli`` holds the one command.
COMMANDS = ("play", "new", "rules", "explain", "engine", "sim", "stats", "replay", "host", "join", "help")


def _built(name: str) -> ClickCommand:
    """The Click command of ``name``, made from its module."""
    import importlib

    module = importlib.import_module(f"{__package__}.commands.{name}")
    return typer.main.get_command(module.cli)


class _Commands(MutableMapping[str, ClickCommand]):
    """The group's commands by name, each imported and built the first time it is looked up."""

    def __init__(self) -> None:
        self._made: dict[str, ClickCommand] = {}

    def __getitem__(self, name: str) -> ClickCommand:
        if name not in self._made:
            if name not in COMMANDS:
                raise KeyError(name)
            self._made[name] = _built(name)
        return self._made[name]

    def __setitem__(self, name: str, command: ClickCommand) -> None:
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        del self._made[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self._made if name not in COMMANDS)

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._made))

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self._made


class _Group(typer.core.TyperGroup):
    """The ``hearts`` group: its commands come from their modules when asked for; its help and
    usage errors are said in the run's language."""

    context_class = HelpContext

    def __init__(self, **attrs: Any) -> None:  # whatever Typer makes a group with, passed on
        super().__init__(**attrs)
        self.commands = _Commands()

    def get_params(self, ctx: "Context") -> "list[Parameter]":
        params = super().get_params(ctx)  # with the help and completion options added by Typer
        lighten(params)
        return params

    def parse_args(self, ctx: "Context", args: list[str]) -> list[str]:
        ctx.meta[ARGS] = list(args)  # --lang, wherever it is, for the help and errors said before it is read
        return list(super().parse_args(ctx, args))

    def format_help(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        speak(self, ctx, formatter.width)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        usage_words(self, ctx)
        super().format_usage(ctx, formatter)

    def resolve_command(self, ctx: "Context", args: list[str]) -> tuple[str | None, ClickCommand | None, list[str]]:
        if args and args[0] not in self.commands and not args[0].startswith("-") and not ctx.resilient_parsing:
            from .usage import no_such_command

            raise no_such_command(ctx, args[0], list(self.commands))
        return super().resolve_command(ctx, args)

    def make_context(self, info_name: str | None, args: list[str], parent: "Context | None" = None,
                     **extra: object) -> "Context":
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as e:
            from .usage import in_language

            raise in_language(e) from None

    def invoke(self, ctx: "Context") -> object:
        try:
            return super().invoke(ctx)
        except UsageError as e:
            from .usage import in_language

            raise in_language(e, ctx) from None


app = typer.Typer(
    name="hearts",
    cls=_Group,
    help="help_hearts",
    epilog="epilog_hearts",
    add_completion=True,
    no_args_is_help=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        echo(f"hearts {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="help_hearts_version"),
    ] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Hearts (Corazones) in the terminal. With no command, `hearts` is `hearts play`."""
    ctx.obj = {"lang": lang, "plain": plain}
    if ctx.invoked_subcommand is None:
        from .commands.play import play

        ctx.invoke(play, ctx=ctx)


def _open_closed_streams() -> None:
    """A closed stdin reads as empty and a closed stdout or stderr discards (``hearts play <&-``)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 (open for the run)


def main() -> None:
    """The console script: the app, with unexpected failures turned into one sentence."""
    _open_closed_streams()
    degrade_unencodable()
    _collect_later()
    try:
        app(prog_name="hearts")
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # `hearts rules | head`: the reader left; say nothing more
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        sys.exit(0)
    except Exception as e:
        if os.environ.get("HEARTS_DEBUG"):
            raise
        from ..text.catalog import default_language, t

        echo(t("cli_internal", default_language(), problem=f"{type(e).__name__}: {e}"), err=True)
        sys.exit(1)
    finally:
        _spare_the_exit()


# Objects a command may allocate (less those it frees) before the first garbage collection:
# the scripted commands stay under half of it (`hearts new --no-play`, the most, about 10,000
# once Typer and PyYAML are loaded), a game or a long replay passes it.
START_OBJECTS = 20_000


def _collect_later() -> None:
    """No garbage collection while the command starts: the first waits for :data:`START_OBJECTS`,
    and from then on Python's own thresholds are back.

    A start creates thousands of objects that live until the process ends (the modules it
    imports, their classes and functions, the rules and the deal) and few cycles to free, yet
    with Python's default threshold (700) it collects a dozen times on the way, and once the
    older generation too: about 2 ms of a scripted command's CPU, for nothing. A command
    that runs on (a game, a tournament, an analysis) passes the bound early, is collected
    then, and is collected as Python does from there on.
    """
    import gc

    young, middle, old = gc.get_threshold()
    if young >= START_OBJECTS:  # (main again in one process, before the first collection)
        return

    def restore(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            gc.set_threshold(young, middle, old)
            gc.callbacks.remove(restore)

    gc.callbacks.append(restore)
    gc.set_threshold(START_OBJECTS, middle, old)


def _spare_the_exit() -> None:
    """Leave what is alive now out of the garbage collection Python runs as it exits.

    On the way out CPython collects every object it tracks once more (Typer's,
    PyYAML's, ours): about 10 ms, as much as importing all our modules, paid by
    every command. ``gc.freeze`` moves them to the permanent generation, which
    no collection looks at; the process frees them all as it ends. ``atexit``
    handlers still run, and whatever reference counting frees still closes
    its files: only garbage in reference cycles is left unfinalized, and the
    commands leave none that holds a file or a connection (they close theirs).
    """
    import gc

    gc.freeze()
