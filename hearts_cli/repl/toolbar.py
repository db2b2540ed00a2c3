"""The bottom toolbar: the last thing that happened (or the keys, or the only legal card about to
play by itself), a turn's time left, and the count of the cards still out when a setting turns it on."""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .client import TableClient
from .pieces import Writer
from .render import shorten


class Status:
    """What the toolbar shows, kept up to date by the game loop."""

    __slots__ = ("auto", "deadline", "host_deadline", "paused", "text")

    def __init__(self) -> None:
        self.text = ""  # the last event's line
        self.auto: str | None = None  # the only legal card is about to play by itself: said so
        self.deadline: float | None = None  # when the open prompt's turn timer runs out
        self.host_deadline: float | None = None  # a shared table's timer for this seat (the host's)
        self.paused = False  # something was shown with a pause since the last prompt


def bottom_toolbar(table: TableClient, status: Status,
                   columns: Callable[[], int]) -> Callable[[], StyleAndTextTuples]:
    """The toolbar of ``table``'s prompt, as wide as ``columns()`` says the terminal is."""
    def toolbar() -> StyleAndTextTuples:
        text = status.auto or status.text or table.say("toolbar_keys" if table.local else "net_toolbar_keys")
        if status.deadline is not None:  # first, so that shortening never hides it
            left = max(0, int(status.deadline - time.monotonic() + 0.999))
            text = "[" + table.say("timer_left", seconds=left) + "] " + text
        # at most two lines, broken at spaces; what is left over ends in an ellipsis
        ellipsis = "..." if table.ascii else "…"
        if table.count_line:  # `count: true` in settings.yaml: a line of its own for the count
            short = shorten(" ".join(text.split()), columns() - 2, 1, ellipsis)
            short += "\n" + shorten(Writer(table, plain=True).count_status(), columns() - 2, 1, ellipsis)
        else:
            short = shorten(" ".join(text.split()), columns() - 2, 2, ellipsis)
        return [("class:bottom-toolbar", "\n".join(" " + row for row in short.split("\n")))]
    return toolbar
