"""Where a line of prose may break: at spaces, never between a name and its number or level.

The one rule of line breaking, for the table's lines (``repl/layout.py`` wraps styled
fragments with it) and for the plain lines of the commands that print to a terminal.
"""

from __future__ import annotations

import os
import re
from typing import TextIO

MARGIN = 2  # the columns a text leaves free at the right of the screen, whatever its width
# a word ending in a letter (a name, or a word before its number), or a name's last word and
# the colon that parts it from its number ("Left 2:" in "Left 2: 23", see :func:`scored`)
_NAME_END = re.compile(r"(?:[^\W\d_]|\w:)$")
_FOLLOWER = re.compile(r"[-+]?\d")  # a number
_NUMBER = re.compile(r"(?:^|\s)[-+]?\d+$")  # a word that is a whole number
_UNIT = re.compile(r"[^\W\d_A-Z]")  # a word that starts with a small letter: "pts", "points"
_NUMBERED = re.compile(r"\d:$")  # a name ending in a number, and its colon ("Right 2:")
SEPARATOR = "·"


def joins(before: str, word: str) -> bool:
    """Whether ``word`` stays on the line of the word ``before`` it: a name and the number
    after it ("East 0."), whatever is in brackets and the word before it (a level, "North
    (Easy)", "Left 2 (Easy)"; a count, "7 (6)"), a number and its unit ("2 pts", "13
    points"), a numbered name and what its colon gives it ("Right 2: 10♠"), or a separator
    and the word before it. Only a word ending in a letter takes a number, so a row of
    numbers still breaks."""
    if word == SEPARATOR or word.startswith("(") or _NUMBERED.search(before):
        return True
    if _FOLLOWER.match(word):
        return bool(_NAME_END.search(before))
    return bool(_UNIT.match(word)) and bool(_NUMBER.search(before))


def scored(pairs: list[tuple[str, object]]) -> list[str]:
    """Each name with its number: "West 13"; where a name at the table ends in a number
    ("Left 2", from nine seats) a colon parts every name from its number alike ("You: 0",
    "Left 2: 23"), so that "Left 2 3" never reads as 23."""
    colon = ":" if any(name[-1:].isdigit() for name, _ in pairs) else ""
    return [f"{name}{colon} {value}" for name, value in pairs]


def units(text: str) -> list[str]:
    """The words of ``text``, each pair that :func:`joins` keeps made one: what a line may
    break between."""
    out: list[str] = []
    for word in text.split():
        if out and joins(out[-1], word):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def wrap_text(text: str, width: int, hang: int | None = None) -> list[str]:
    """``text`` (one line) broken at spaces into lines of at most ``width`` columns, pairs kept
    whole (:func:`joins`); a word longer than the width gets a line of its own, unbroken. The
    lines after the first start at the left edge, or ``hang`` columns further in than the
    first when it is given (as far as the unit fits there: a story's lines stay apart)."""
    if width <= 0 or len(text) <= width:
        return [text]
    indent = text[: len(text) - len(text.lstrip(" "))]
    more = "" if hang is None else " " * min(len(indent) + hang, width // 2)
    out: list[str] = []
    cur = indent if len(indent) < width else ""
    for unit in units(text):
        if cur.strip() and len(cur) + 1 + len(unit) > width:
            out.append(cur)
            cur = more + unit if len(more) + len(unit) <= width else unit
        else:
            cur = cur + " " + unit if cur.strip() else cur + unit
    out.append(cur)
    return out


def text_width(columns: int, most: int | None = None) -> int:
    """The columns a text is wrapped to on a screen of ``columns``: the screen's (``most`` at
    most), less :data:`MARGIN`, the same margin at every width."""
    return max(20, min(columns, most or columns) - MARGIN)


def screen_columns(stream: TextIO) -> int | None:
    """The columns of the terminal ``stream`` writes to (its own size, not ``$COLUMNS``), or
    None for a file or a pipe."""

    try:
        if not stream.isatty():
            return None
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None


def for_terminal(text: str, stream: TextIO, hang: int | None = None) -> str:
    """``text`` wrapped to the width of the terminal ``stream`` writes to (a line is kept
    whole when the stream is a file or a pipe: a script reads it as one line)."""
    columns = screen_columns(stream)
    if columns is None:
        return text
    width = text_width(columns)
    return "\n".join(row for line in text.split("\n") for row in wrap_text(line, width, hang))


def holds(text: str, stream: TextIO) -> bool:
    """Whether the terminal ``stream`` writes to shows ``text`` whole on one line (a file or a
    pipe always does)."""
    columns = screen_columns(stream)
    return columns is None or len(text) <= text_width(columns)
