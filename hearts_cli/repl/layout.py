"""Lines of styled text laid out in columns: wrapped at spaces, packed, placed.

A line is a list of ``(style, text)`` fragments (prompt-toolkit's formatted
text); :func:`plain` joins them for plain output.
"""

from __future__ import annotations

import re

from ..base.wrapping import SEPARATOR, joins, units

Line = list[tuple[str, str]]
WIDTH = 80  # the table is laid out for 80 columns, or fewer: down to MIN_WIDTH
MIN_WIDTH = 40
# a card's style class by its suit (♣ ♦ ♥ ♠): its colour is the style's (repl/style.py, deck_colors)
SUIT_CLASSES = ("class:suit-clubs", "class:suit-diamonds", "class:suit-hearts", "class:suit-spades")


def plain(line: Line) -> str:
    return "".join(text for _, text in line).rstrip()


def place(col: int, align: str, frags: Line, width: int = WIDTH) -> tuple[int, Line]:
    size = sum(len(text) for _, text in frags)
    if align == "c":
        start = col - size // 2
    elif align == "r":
        start = col - size + 1
    else:
        start = col
    start = max(0, min(start, width - 1 - size))
    return (start, frags)


def pack(entries: list[Line], width: int, indent: str, sep: str, first: Line | None = None) -> list[Line]:
    """``entries`` joined by ``sep`` into lines of at most ``width`` columns, each entry whole
    (one longer than a line gets a line of its own); lines after the first start with ``indent``."""
    out: list[Line] = []
    cur: Line = list(first) if first is not None else [("", indent)]
    used = sum(len(text) for _, text in cur)
    empty = True
    for entry in entries:
        size = sum(len(text) for _, text in entry)
        if not empty and used + len(sep) + size > width:
            out.append(cur)
            cur, used, empty = [("", indent)], len(indent), True
        if not empty:
            cur.append(("", sep))
            used += len(sep)
        cur += entry
        used += size
        empty = False
    out.append(cur)
    return out


def fits(items: list[tuple[int, Line]]) -> bool:
    """Whether the pieces of a row stand apart (at least one space between them)."""
    pos = -1
    for start, frags in sorted(items, key=lambda x: x[0]):
        if start <= pos:
            return False
        pos = start + sum(len(text) for _, text in frags)
    return True


def compose(items: list[tuple[int, Line]]) -> Line:
    out: Line = []
    pos = 0
    for start, frags in sorted(items, key=lambda x: x[0]):
        if start > pos:
            out.append(("", " " * (start - pos)))
            pos = start
        elif start < pos and out:
            out.append(("", " "))
            pos += 1
        out.extend(frags)
        pos += sum(len(text) for _, text in frags)
    return out


def wrap(line: Line, width: int, keep_last: bool = False) -> list[Line]:
    """``line`` broken at spaces into lines of at most ``width`` characters, styles kept.

    A word longer than the width gets a line of its own, unbroken; a line
    styled ``class:path`` (a file name to copy) is never broken. With ``keep_last``, or for a
    line styled ``class:confirm`` (a question to answer), the last word never stands alone on
    the last line: the word before it goes down with it."""
    if width <= 0 or sum(len(text) for _, text in line) <= width \
            or any("class:path" in style for style, _ in line):
        return [line]
    keep_last = keep_last or any("class:confirm" in style for style, _ in line)
    # (the spaces before a word, the word), each as fragments
    words: list[tuple[Line, Line]] = []
    spaces: Line = []
    word: Line = []
    for style, text in line:
        for chunk in re.findall(r" +|[^ ]+", text):
            if chunk.startswith(" "):
                if word:
                    words.append((spaces, word))
                    spaces, word = [], []
                spaces.append((style, chunk))
            else:
                word.append((style, chunk))
    if word:
        words.append((spaces, word))
    words = _pairs_kept(words)
    sizes = [(sum(len(t) for _, t in sp), sum(len(t) for _, t in wd)) for sp, wd in words]
    first: Line = []  # the first line's indentation, as far as it fits
    if words:
        s_len, w_len = sizes[0]
        first = words[0][0]
        if s_len + w_len > width:
            first = [("", " " * max(0, width - w_len))] if s_len else []
        sizes[0] = (sum(len(t) for _, t in first), w_len)
    rows: list[list[int]] = []  # each line's words, by index
    used = 0
    for k, (s_len, w_len) in enumerate(sizes):
        if k == 0:
            rows.append([k])
            used = s_len + w_len
        elif used + s_len + w_len <= width:
            rows[-1].append(k)
            used += s_len + w_len
        else:
            rows.append([k])
            used = w_len
    if keep_last and len(rows) > 1 and len(rows[-1]) == 1 and len(rows[-2]) > 1:
        moved = rows[-2][-1]
        if sizes[moved][1] + sizes[rows[-1][0]][0] + sizes[rows[-1][0]][1] <= width:
            rows[-1].insert(0, rows[-2].pop())
    out: list[Line] = []
    for row in rows:
        cur: Line = []
        for j, k in enumerate(row):
            sp, wd = words[k]
            cur += (first if k == 0 else sp if j else []) + wd
        out.append(cur)
    return out


def _pairs_kept(words: list[tuple[Line, Line]]) -> list[tuple[Line, Line]]:
    """The words with each pair that :func:`~hearts_cli.base.wrapping.joins` keeps made one."""
    out: list[tuple[Line, Line]] = []
    for sp, wd in words:
        if out and joins("".join(t for _, t in out[-1][1]), "".join(t for _, t in wd)):
            out[-1] = (out[-1][0], out[-1][1] + sp + wd)
        else:
            out.append((sp, wd))
    return out


def reflow(text: str) -> str:
    """``text`` with the line breaks inside a sentence made spaces: a text broken by hand for
    80 columns, wrapped line by line at 40, would leave a stub of a line after each break."""
    out: list[str] = []
    for line in text.split("\n"):
        if out and not out[-1].rstrip().endswith((".", ":")) and line.strip():
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def shorten(text: str, width: int, lines: int, ellipsis: str) -> str:
    """``text`` wrapped at spaces into at most ``lines`` lines of ``width``; what does not fit
    is cut where a line may break (never inside a word, nor between a name and its number:
    :func:`~hearts_cli.base.wrapping.units`) and marked with ``ellipsis``."""
    rows = [plain(row) for row in wrap([("", text)], width, keep_last=True)]
    if len(rows) <= lines:
        return "\n".join(rows)
    rows = rows[:lines]
    kept = units(rows[-1])

    def said(kept: list[str]) -> str:  # (a separator kept with its word is dropped before the ellipsis)
        return " ".join(kept).rstrip(" ,;:" + SEPARATOR)

    while kept and len(said(kept)) + len(ellipsis) > width:
        kept.pop()
    rows[-1] = (said(kept) if kept else rows[-1][: max(0, width - len(ellipsis))]) + ellipsis
    return "\n".join(rows)
