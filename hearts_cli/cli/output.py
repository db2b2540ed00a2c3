"""What one run of a command prints in, and how it reaches the terminal.

The language (``--lang``, ``$HEARTS_LANG``, then the locale), ASCII suits,
colour and width of a run, and the one way text goes out: :func:`echo`, which
writes what stdout or stderr cannot encode (an ASCII terminal) as the nearest
ASCII, never an error. Imports nothing of the game at module level: every
command's start-up pays for this module.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from typer._click.core import Context

LANGUAGES = ("en", "es")
SUITS = "♣♦♥♠−"  # what a terminal must show for the cards to be drawn with their symbols
ARGS = "hearts.args"  # where the group keeps its arguments in the context (``ctx.meta``)


class Out:
    """What one command run prints in: language, ASCII suits, colour, width."""

    def __init__(self, lang: str, ascii: bool, color: bool, plain: bool = False):
        self.lang = lang
        self.ascii = ascii
        self.color = color
        self.plain = plain

    def t(self, message_id: str, **params: object) -> str:
        from ..text.catalog import t

        return t(message_id, self.lang, ascii=self.ascii, **params)


def echo(text: str = "", err: bool = False, nl: bool = True) -> None:
    """Print to stdout (or stderr), through the stream as it is set up (see :func:`degrade_unencodable`).

    Not ``typer.echo``: Click swaps a stream whose encoding is ASCII for a UTF-8
    one of its own, which an ASCII terminal shows as garbage. DEL and the C1 controls,
    which only a string from outside can hold (in JSON), go out as ``\\u`` escapes.
    """
    stream = sys.stderr if err else sys.stdout
    if not text.isascii() or "\x7f" in text:  # (plain ASCII needs no look, nor the import)
        from ..base.untrusted import json_safe

        text = json_safe(text)
    stream.write(text + "\n" if nl else text)
    stream.flush()


# What a character the output cannot encode becomes; other letters lose their accents
# ("Puntuación" -> "Puntuacion") and anything left is "?".
_FALLBACK = {
    "«": '"', "»": '"', "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "¿": "", "¡": "",
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "▶": ">", "◀": "<", "·": "-", "•": "*",
    "—": "-", "–": "-", "−": "-", "…": "...", "×": "x", "≤": "<=", "≥": ">=", "±": "+/-",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "█": "#", "▓": "#", "▒": ":", "░": ".", "\u00a0": " ",
}
FALLBACK_ERRORS = "hearts-ascii"


def _ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the nearest ASCII for what the stream cannot encode."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    import unicodedata

    out = []
    for ch in error.object[error.start:error.end]:
        text = _FALLBACK.get(ch)
        if text is None:
            text = "".join(c for c in unicodedata.normalize("NFKD", ch)
                           if c.isascii() and not unicodedata.combining(c)) or "?"
        out.append(text)
    return "".join(out), error.end


def degrade_unencodable() -> None:
    """Let stdout and stderr write what their encoding cannot hold as near ASCII, never fail on it."""
    import codecs

    registered = False
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):
            continue
        try:
            if codecs.lookup(encoding).name.startswith("utf"):
                continue  # writes anything
            if not registered:
                codecs.register_error(FALLBACK_ERRORS, _ascii_fallback)
                registered = True
            stream.reconfigure(errors=FALLBACK_ERRORS)
        except (LookupError, ValueError, OSError):
            pass


def stdout_can(text: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def early_lang(ctx: Context | None) -> str:
    """The language while options are still being parsed: --lang if given so far, else the default."""
    from ..text.catalog import default_language

    candidates: list[object] = []
    args = sys.argv[1:]
    if ctx is not None:
        candidates.append((getattr(ctx, "params", None) or {}).get("lang"))
        candidates.append((ctx.find_root().obj or {}).get("lang"))
        args = ctx.meta.get(ARGS, args)  # the group's arguments, as it was given them
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            candidates.append(args[i + 1])
        elif arg.startswith("--lang="):
            candidates.append(arg.split("=", 1)[1])
    for value in candidates:
        if isinstance(value, str) and value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return default_language(_saved_language)


def _saved_language() -> str | None:
    """``lang:`` of settings.yaml, asked by :func:`~hearts_cli.text.catalog.default_language` only
    when ``HEARTS_LANG`` does not say: the save store is imported then (start-up)."""
    from ..store.saves import settings_language

    return settings_language()


def setup(ctx: typer.Context, lang: str | None, plain: bool) -> Out:
    """Language, ASCII and colour for this run: the command's options, then the global ones."""
    from ..text.catalog import default_language

    top = ctx.find_root().obj or {}
    lang = lang if lang is not None else top.get("lang")
    plain = plain or bool(top.get("plain"))
    if lang is not None:
        chosen = lang.strip().lower()
        if chosen not in LANGUAGES:
            refuse("cli_bad_lang", value=lang)
        lang = chosen
    else:
        lang = default_language(_saved_language)
    ascii = plain or not stdout_can(SUITS)
    color = not plain and not os.environ.get("NO_COLOR") and sys.stdout.isatty()
    return Out(lang, ascii, color, plain)


def refuse(message_id: str, **params: object) -> NoReturn:
    """Something given on the command line is not right: said by ``Command.invoke``, exit status 2."""
    from ..model.errors import HeartsError

    raise HeartsError(message_id, **params)


def os_problem(out: Out, error: OSError) -> str:
    """What went wrong with a file, in words of the run's language."""
    from ..text.catalog import os_problem as said

    return said(error, out.lang)


def wrapped(text: str) -> str:
    """``text`` wrapped at the columns of :func:`width`, each name with its number or level."""
    from ..base.wrapping import wrap_text

    return "\n".join(row for line in text.split("\n") for row in wrap_text(line, width()))


def wrapped_for_terminal(text: str) -> str:
    """``text`` wrapped to the terminal stdout is (whole lines for a script reading a pipe)."""
    from ..base.wrapping import for_terminal

    return for_terminal(text, sys.stdout)


def screen_width() -> int | None:
    """The columns text is wrapped to on the terminal stdout is (its margin kept), or None for
    a file or a pipe, where a script reads whole lines."""
    from ..base.wrapping import screen_columns, text_width

    columns = screen_columns(sys.stdout)
    return None if columns is None else text_width(columns)


def width() -> int:
    """The columns text is wrapped to: the terminal's (``$COLUMNS`` first), 100 at most, less
    the margin every screen keeps (:data:`~hearts_cli.base.wrapping.MARGIN`: 38 at 40 columns,
    78 at 80)."""
    import shutil

    from ..base.wrapping import text_width

    return text_width(shutil.get_terminal_size((80, 24)).columns, 100)
