"""Usage errors (an unknown option, a missing argument, a bad value) in the run's language.

Click writes them in English; the group hands each one over as :class:`SaidUsageError`,
which shows the same three lines (the usage, where to find help, the error) from the
catalog (``cli_click_*``), in English exactly as Click does. Imported only on such an error.
"""

from __future__ import annotations

import re
import sys
from typing import IO, TYPE_CHECKING

from typer._click import exceptions as click_errors

from .output import ARGS, early_lang, echo

if TYPE_CHECKING:
    from collections.abc import Sequence

    from typer._click.core import Context

# Click's messages that carry no fields of their own: the message saying each
_WORDED = (
    (re.compile(r"^Option '(?P<option>.+)' requires an argument\.$"), "cli_click_needs_value"),
    (re.compile(r"^Option '(?P<option>.+)' requires (?P<count>\d+) arguments\.$"), "cli_click_needs_values"),
    (re.compile(r"^Option '(?P<option>.+)' does not take a value\.$"), "cli_click_no_value"),
    (re.compile(r"^Got unexpected extra argument\(s\) \((?P<args>.*)\)$"), "cli_click_extra_arguments"),
)


def _hint(error: click_errors.BadParameter) -> str:
    """The parameter a bad or missing value is for, as Click names it (``'--port'``)."""
    if error.param_hint is not None:
        given: Sequence[str] | str = error.param_hint
    elif error.param is not None:
        given = error.param.get_error_hint()
    else:
        return ""
    return str(click_errors._join_param_hints(given))


def message(error: click_errors.UsageError, lang: str) -> str:
    """What went wrong, in ``lang``; a message the catalog does not know, as Click words it."""
    from ..text.catalog import CATALOG, t

    if isinstance(error, click_errors.NoSuchOption):
        said = t("cli_click_no_option", lang, option=error.option_name)
        if error.possibilities:
            said = t("cli_click_possible", lang, message=said, options=", ".join(sorted(error.possibilities)))
        return said
    if isinstance(error, click_errors.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param is not None else "parameter")
        hint = _hint(error)
        if not error.message and f"cli_click_missing_{kind}" in CATALOG[lang]:
            return t(f"cli_click_missing_{kind}", lang, hint=f" {hint}" if hint else "")
        return str(error.format_message())
    if isinstance(error, click_errors.BadParameter):
        hint = _hint(error)
        if hint:
            return t("cli_click_invalid_for", lang, hint=hint, message=error.message)
        return t("cli_click_invalid", lang, message=error.message)
    for pattern, key in _WORDED:
        found = pattern.match(error.message)
        if found:
            return t(key, lang, False, **found.groupdict())  # ascii False: no suits in these
    return str(error.format_message())


class SaidUsageError(click_errors.UsageError):
    """A usage error shown in the run's language (Click's three lines, from the catalog)."""

    def __init__(self, error: click_errors.UsageError, said: str | None = None, ctx: Context | None = None):
        super().__init__(error.message, error.ctx)
        self.exit_code = error.exit_code
        self.lang = early_lang(error.ctx or ctx)
        self.said = said if said is not None else message(error, self.lang)

    def format_message(self) -> str:
        return self.said

    def show(self, file: IO[str] | None = None) -> None:
        from ..text.catalog import t

        ctx = self.ctx
        if "--json" in (ctx.meta.get(ARGS, sys.argv[1:]) if ctx is not None else sys.argv[1:]):  # a script: one object
            import json

            echo(json.dumps({"code": "usage", "message": self.said}, ensure_ascii=False), err=True)
            return
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                hint = t("cli_click_try", self.lang, command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"
            echo(f"{ctx.get_usage()}\n{hint}", err=True)
        echo(t("cli_click_error", self.lang, message=self.said), err=True)


def in_language(error: click_errors.UsageError, ctx: Context | None = None) -> SaidUsageError:
    """``error`` as it is shown in the run's language (``ctx``'s, when the error has no context)."""
    return error if isinstance(error, SaidUsageError) else SaidUsageError(error, ctx=ctx)


def no_such_command(ctx: Context, name: str, known: list[str]) -> SaidUsageError:
    """An unknown command, with the closest names (as Typer suggests them)."""
    from difflib import get_close_matches

    from ..text.catalog import t

    lang = early_lang(ctx)
    guesses = get_close_matches(name, known)
    said = (t("cli_click_no_command_guess", lang, name=name, names=", ".join(repr(g) for g in guesses))
            if guesses else t("cli_click_no_command", lang, name=name))
    return SaidUsageError(click_errors.UsageError(said, ctx), said, ctx)
