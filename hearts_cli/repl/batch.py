"""The line-by-line mode: commands read from a pipe or file, plain text or JSON lines out.

Deterministic: the same lines give the same bytes (``hearts new --code K7Q2MXA7
< moves.txt``); on a terminal they are laid out and wrapped for its width. The first
refused move (a card, a pass, a word that is neither a card nor a command) stops with
status 2, its sentence on stderr; a refused command (``finish`` too early, ``undo`` with
nothing to take back) says its sentence and the game goes on, and the exit status is 2
at the end.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from ..base.untrusted import MAX_LINE_CHARS, json_safe, read_line
from ..play.events import Error, Event, Info, view_json
from .client import FrontEnd
from .layout import Line, wrap
from .render import Renderer, plain
from .table import Table


class Lines(FrontEnd):
    """The batch mode as the table's front end: plain lines or JSON events on ``out``."""

    def __init__(self, table: Table, out: TextIO, *, json_events: bool, width: int | None = None):
        self.table = table
        self.out = out
        self.json_events = json_events
        # the columns to fit: a terminal's less one, as the game's screen; None (a pipe, a
        # file): lines whole and the table laid out for 80 columns, the same bytes every time
        self.width = width
        self.renderer = Renderer(table, plain=True, width=width)
        self.refused = False  # a command was refused: the game went on, the exit status is 2

    def write(self, lines: list[Line]) -> None:
        for line in lines:
            for row in wrap(line, self.width) if self.width else [line]:
                self.out.write(plain(row) + "\n")

    def event(self, ev: Event) -> None:
        if self.json_events:
            self.out.write(json_safe(json.dumps(ev.to_json(), ensure_ascii=False)) + "\n")
        elif not isinstance(ev, Error):
            self.write(self.renderer.event(ev))
        if isinstance(ev, Error):
            sys.stderr.write(ev.message + "\n")
            sys.stderr.flush()

    def again(self, events: Sequence[Event]) -> None:
        """``again``: the events' lines once more; as JSON, one ``info`` event that holds them
        (the events themselves, sent twice, would be counted twice by a program)."""
        lines = [line for ev in events for line in self.renderer.event(ev)]
        if self.json_events:
            text = "\n".join(plain(line) for line in lines)
            self.out.write(json_safe(json.dumps(Info(topic="again", text=text).to_json(), ensure_ascii=False)) + "\n")
        else:
            self.write(lines)

    def show_table(self) -> None:
        if self.json_events:
            self.out.write(json_safe(json.dumps(turn_event(self.table), ensure_ascii=False)) + "\n")
        else:
            self.write(self.renderer.table())
        self.table.dirty = False


def step(table: Table, front: Lines, inp: TextIO) -> int | None:
    """The CPUs' moves, the table, and one line: None to go on, else the exit status."""
    while table.cpu_step():
        pass
    if table.dirty and not table.over:
        front.show_table()
    front.out.flush()
    if table.over and not table.local:  # a shared table closes at the end of its game
        return 0
    line, too_long = read_line(inp)  # a line without end never sits in memory whole
    if too_long:
        table.error("line_too_long", limit=MAX_LINE_CHARS)
        return 2
    if not line:
        if not table.over:
            table.leave()
        return 0
    signal = table.handle(line)
    if table.failed and table.stops:
        return 2
    front.refused = front.refused or table.failed
    if signal == "quit":
        if not table.over:
            table.leave()
        return 0
    if signal in ("new", "replay"):
        table.restart(same_deal=signal == "replay")
    return None


def turn_event(table: Table) -> dict[str, object]:
    """The position the person decides in, for ``--json``: the ``view`` event (docs/events.md)."""
    return {"event": "view"} | view_json(table.view(), table.core.round_result)
