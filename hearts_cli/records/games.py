"""A :class:`~hearts_cli.play.engine.Game` from a game record: what ``hearts_cli.read_record``
gives a script (as python-chess's ``pgn.read_game`` gives a board).

:func:`hearts_cli.records.record.read_record` reads the record itself (its seats,
annotations, moves); this plays its moves on a new game, which :meth:`Game.pop`
can then step back through. A move log gives a game the same way
(:func:`hearts_cli.records.movelog.read_movelog`).
"""

from __future__ import annotations

import os

from ..play.engine import Game

__all__ = ["read_record"]


def read_record(source: str | os.PathLike[str]) -> Game:
    """The game of a record, every move made: ``source`` is the record's text or its path (a
    ``Path``, or a one-line ``str`` naming a file). A record that is not one, or whose moves
    break the rules, raises :class:`~hearts_cli.records.record.RecordError`."""
    from .record import read_record as read

    return read(source).replay()
