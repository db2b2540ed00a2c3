"""The prompt's history file, read with a limit (it comes from outside like any file)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from ..base.untrusted import LIMITS, MAX_LINE_CHARS


class BoundedHistory(FileHistory):
    """The prompt history, read from its newest end only, as far as ``LIMITS["history"]``.

    prompt-toolkit would read the whole file at start, however large it grew
    (or was made); a line too long to be a command is not kept in it either.
    """

    def load_history_strings(self) -> Iterable[str]:
        limit = LIMITS["history"]
        try:
            with open(self.filename, "rb") as fh:
                size = fh.seek(0, os.SEEK_END)
                fh.seek(max(0, size - limit))
                data = fh.read(limit)
        except OSError:
            return []
        if size > limit:  # the first entry may be cut: start at the first whole one
            cut = data.find(b"\n\n")
            data = data[cut + 1:] if cut >= 0 else b""
        return list(reversed(_entries(data.decode("utf-8", errors="replace"))))

    def store_string(self, string: str) -> None:
        if len(string) <= MAX_LINE_CHARS:
            super().store_string(string)


def _entries(text: str) -> list[str]:
    """The entries of a history file, oldest first: each a run of lines written ``+line``."""
    strings: list[str] = []
    lines: list[str] = []
    for raw in text.splitlines(keepends=True):
        if raw.startswith("+"):
            lines.append(raw[1:])
        elif lines:
            strings.append("".join(lines)[:-1])
            lines = []
    if lines:
        strings.append("".join(lines)[:-1])
    return strings


def open_history() -> History:
    """The history file in the user's data directory; kept in memory when it cannot be made."""
    from ..store.saves import history_path

    try:
        path = history_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return BoundedHistory(str(path))
    except OSError:
        return InMemoryHistory()
