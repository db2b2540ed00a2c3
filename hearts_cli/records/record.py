"""Game records: a canonical, diffable YAML file for a whole game, finished or not.

Writing is strict and canonical (fixed key order, one hand, pass or trick per
line, never wrapped), so writing the same game twice gives the same bytes and a
one-card change is a one-line diff. Reading is forgiving about spelling (cards
in any notation, codes in any case, unknown top-level keys ignored) and strict
about the game: every pass and play is re-played through the engine, and every
derived field a record carries (hands, dealer, pass direction, trick winners
and points, round scores, totals, result) must agree with that replay.

One module a job: the parts of a record (seats, moves, positions, annotations, errors:
:mod:`~hearts_cli.records.record_parts`), the record itself and its save (here), writing it
(:mod:`~hearts_cli.records.record_writer`: ``write_record``) and reading it
(:mod:`~hearts_cli.records.record_reader`: ``read_record``). The format is described in
``docs/record-format.md``. In short::

    text = write_record(game, seats=seats, annotations={"1.3.2": Annotation("?", "too early")})
    record = read_record(text)            # or read_record(Path("game.yaml"))
    game = record.replay()                # the same game, at the same position
    save_record(path, game, seats=seats)  # atomic: temp file, fsync, os.replace

Like python-chess's PGN reader, the same reader is strict (raise
:class:`RecordError` on the first problem) or lenient (``strict=False``:
collect problems in ``record.errors`` and keep the moves before the first bad
one).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..base.files import write_atomic
from ..base.values import Plain
from ..base.version import __version__
from ..model.rules import Rules
from ..play.game import Game, Move
from .record_parts import (
    FORMAT,
    Annotation,
    MoveAddress,
    Notes,
    RecordError,
    Seat,
    _annotation_map,
    _waits_for,
    default_seats,
    next_position,
)
from .record_writer import write_record

__all__ = ["TEMP_RE", "GameRecord", "in_record_order", "save_record"]


class GameRecord(Plain):
    """A game as read from a record: what is needed to re-play it, plus notes.

    ``moves`` are every pass and play, in order (a game's :attr:`~hearts_cli.play.game.Game.move_stack`);
    :meth:`replay` pushes them
    (or the first ``upto``) into a fresh :class:`~hearts_cli.play.game.Game`.
    ``errors`` holds the problems a lenient read found (empty when strict).
    """

    __match_args__ = ("rules", "code", "seats", "moves", "annotations", "program", "format", "errors",
                      "undos")

    def __init__(self, rules: Rules, code: str, seats: tuple[Seat, ...], moves: tuple[Move, ...] = (),
                 annotations: dict[MoveAddress, Annotation] | None = None,
                 program: str = f"hearts {__version__}", format: str = FORMAT,
                 errors: list[RecordError] | None = None, undos: int = 0, lang: str | None = None,
                 date: str | None = None):
        self.rules = rules
        self.code = code
        self.seats = seats
        self.moves = moves
        self.annotations: dict[MoveAddress, Annotation] = {} if annotations is None else annotations
        self.program = program
        self.format = format
        self.errors: list[RecordError] = [] if errors is None else errors
        self.undos = undos  # moves the person took back while playing (the moves here are the game as played)
        self.lang = lang  # the language it was played in (a saved game is resumed in it), if known
        # the day it was played, YYYY-MM-DD, when known (an archived record's file name says it;
        # a PBN record's Date tag; hearts sim's games, today): PBN's Date tag (records/pbn.py)
        self.date = date

    def replay(self, upto: int | None = None) -> Game:
        """A new game with the first ``upto`` moves made (all of them by default)."""
        game = Game(self.rules, self.code)
        for move in self.moves[:upto]:
            game.push(move)
        return game

    def at(self, where: MoveAddress | int | None) -> tuple[Game, int]:
        """The game just before the move at ``where`` and how many moves were made.

        ``where`` is a :class:`MoveAddress` of a pass or a play, or a move number
        ``N`` (before move N, counting from 1); None is the end of the record.
        ``LookupError`` when the record never reaches that position.
        """
        moves = self.moves
        if where is None:
            return self.replay(), len(moves)
        if isinstance(where, int):
            if not 1 <= where <= len(moves) + 1:
                raise LookupError(where)
            return self.replay(upto=where - 1), where - 1
        game = Game(self.rules, self.code)
        for made, move in enumerate(moves):
            # seats pass in any order: a pass is found by its own seat
            found = MoveAddress.of(move) == where if where.seat is not None else next_position(game) == where
            if found and not game.over:
                return game, made
            game.push(move)
        if not game.over and _waits_for(game, where):
            return game, len(moves)
        raise LookupError(where)

    def to_text(self) -> str:
        """This record in canonical form (keeping the program that wrote it)."""
        return write_record(self.replay(), seats=self.seats, annotations=self.annotations,
                            program=self.program, undos=self.undos, lang=self.lang)

    @classmethod
    def from_game(cls, game: Game, seats: Sequence[Seat] | None = None,
                  annotations: Notes | None = None,
                  undos: int = 0, date: str | None = None) -> GameRecord:
        return cls(game.rules, game.code,
                   tuple(seats) if seats is not None else default_seats(game.rules.players),
                   in_record_order(game.move_stack), _annotation_map(annotations), undos=undos, date=date)


def in_record_order(moves: Iterable[Move]) -> tuple[Move, ...]:
    """``moves`` (a game's :attr:`~hearts_cli.play.game.Game.move_stack`) in the order a record
    keeps them: the passes of a round are made at once, so they are listed by seat, as a
    reader makes them again; every other move stays where it was made."""
    return tuple(sorted(moves, key=lambda m: (m.round, 0, m.seat) if m.kind == "pass" else (m.round, 1, 0)))


TEMP_RE = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp")


def save_record(path: str | os.PathLike[str], game: Game | GameRecord,
                seats: Sequence[Seat] | None = None,
                annotations: Notes | None = None,
                undos: int | None = None, private: bool = False, lang: str | None = None) -> Path:
    """Write the record of ``game`` to ``path`` atomically; returns the path.

    The text goes to a new file in the same directory, is flushed and
    ``fsync``-ed, then renamed over ``path`` with :func:`os.replace`, so a
    crash leaves either the old record or the new one, never half of one
    (:func:`hearts_cli.base.files.write_atomic`). ``private``: a save or an
    archived game, which holds every hand: 0600 in a 0700 directory.
    """
    if isinstance(game, GameRecord):
        text = game.to_text() if seats is None and annotations is None and undos is None else write_record(
            game.replay(), seats=seats if seats is not None else game.seats,
            annotations=annotations if annotations is not None else game.annotations,
            program=game.program, undos=undos if undos is not None else game.undos, lang=lang or game.lang)
    else:
        text = write_record(game, seats=seats, annotations=annotations, undos=undos or 0, lang=lang)
    return write_atomic(path, text.encode("utf-8"), private=private)
