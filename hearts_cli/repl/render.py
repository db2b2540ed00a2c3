"""What a person reads: the table and each event, as styled fragments.

A line is a list of ``(style, text)`` fragments (prompt-toolkit's formatted
text); :func:`plain` joins them for plain output. In plain mode nothing relies
on colour: when some cards cannot be played the playable ones carry a star
(``3*``), and chosen cards are in brackets. Everything fits 80 columns.

The pieces: :mod:`.layout` (lines wrapped, packed and placed),
:mod:`.pieces` (cards, names, separators), :mod:`.drawing` (the table),
:mod:`.event_lines` (each event).
"""

from __future__ import annotations

from .drawing import TableDrawing
from .event_lines import EventLines
from .layout import Line, plain, shorten, wrap

__all__ = ["Line", "Renderer", "plain", "shorten", "wrap"]


class Renderer(EventLines, TableDrawing):
    """The text of one person's table: the table drawn (:meth:`table`) and each event (:meth:`event`)."""
