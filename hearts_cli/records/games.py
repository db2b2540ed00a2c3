"""A :class:`~hearts_cli.play.game.Game` from a game record or a move log: what
``hearts_cli.read_record`` and ``hearts_cli.read_movelog`` give a script (as python-chess's
``pgn.read_game`` gives a board).

:func:`read_record` and :func:`read_movelog` take a file's path; :func:`parse_record` and
:func:`parse_movelog` take the text itself. Each plays the moves on a new game, which
:meth:`Game.pop` can then step back through. :func:`hearts_cli.records.record_reader.read_record`
reads the record itself (its seats, annotations, moves).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from ..base.untrusted import MAX_MOVE_LOG_BYTES, TooBig, read_text
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..play.game import Game
from ..text.catalog import os_problem, t
from .movelog import MoveLogError, replay_log
from .record_reader import read_record as read

__all__ = ["FileProblem", "parse_movelog", "parse_record", "read_movelog", "read_record"]


class FileProblem(HeartsError):
    """A file that cannot be read (not there, not allowed...): said in the language asked, the
    system's words too ("no such file")."""

    def __init__(self, path: str, error: OSError):
        self.error = error
        super().__init__("cli_bad_file", path=path)

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return t(self.message_id, lang, ascii=ascii, problem=os_problem(self.error, lang), **self.shown_params())


def _path(path: str | os.PathLike[str], name: str, text_name: str) -> Path:
    """``path`` as a file's path; a text given instead (it has a line break, or is no ``str``)
    is refused with the function that reads text."""
    if isinstance(path, os.PathLike):
        return Path(path)
    if not isinstance(path, str) or "\n" in path or not path.strip():
        raise HeartsError("library_path_expected", function=name, text_function=text_name)
    return Path(path)


def read_record(path: str | os.PathLike[str]) -> Game:
    """The game of the record in the file at ``path``, every move made. A file that is not
    there ("no such file"), is not a record, or whose moves break the rules raises
    :class:`~hearts_cli.records.record_parts.RecordError`; the record's text goes to :func:`parse_record`."""

    return read(_path(path, "read_record", "parse_record")).replay()


def parse_record(text: str) -> Game:
    """The game of a record given as its text, every move made (see :func:`read_record`)."""

    if not isinstance(text, str):
        raise HeartsError("library_text_expected", function="parse_record", path_function="read_record")
    return read(io.StringIO(text)).replay()  # as a stream: never taken for a file's name


def read_movelog(path: str | os.PathLike[str], code: str | None = None, rules: Rules | None = None) -> Game:
    """The game of the move log in the file at ``path``, every move made; ``code`` and
    ``rules`` for a log without a ``code`` line. A file that is not there ("no such file")
    raises a :class:`~hearts_cli.model.errors.HeartsError`, a log that breaks the rules
    :class:`~hearts_cli.records.movelog.MoveLogError`; the log's text goes to :func:`parse_movelog`."""

    name = os.fspath(_path(path, "read_movelog", "parse_movelog"))
    try:
        text = read_text(name, MAX_MOVE_LOG_BYTES)
    except TooBig:
        raise MoveLogError("movelog_too_big", limit=MAX_MOVE_LOG_BYTES) from None
    except OSError as e:
        raise FileProblem(name, e) from None
    except UnicodeDecodeError:
        raise HeartsError("cli_bad_file", path=name, problem=t("record_not_utf8")) from None
    return replay_log(text, code, rules).game


def parse_movelog(text: str, code: str | None = None, rules: Rules | None = None) -> Game:
    """The game of a move log given as its text, every move made (see :func:`read_movelog`)."""

    if not isinstance(text, str):
        raise HeartsError("library_text_expected", function="parse_movelog", path_function="read_movelog")
    return replay_log(text, code, rules).game
