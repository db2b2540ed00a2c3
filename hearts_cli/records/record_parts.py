"""The parts of a game record: its seats, moves, positions and annotations, and the errors
a record or a move log names a place in the game with.

:mod:`hearts_cli.records.record` is the record made of them (``GameRecord``, its save),
:mod:`hearts_cli.records.record_writer` writes it as text and
:mod:`hearts_cli.records.record_reader` reads it back; the format is described in
``docs/record-format.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..base.values import Frozen
from ..model.errors import HeartsError
from ..model.seating import place_name, place_of, recorded_names
from ..play.dealt import PassError, Phase
from ..play.game import Game, Move
from ..text.catalog import t

__all__ = [
    "DEFAULT_SIMULATIONS",
    "FORMAT",
    "GLYPHS",
    "HEADER",
    "SEAT_KINDS",
    "Annotation",
    "MoveAddress",
    "Notes",
    "PlaceError",
    "RecordError",
    "Seat",
    "default_name",
    "default_seats",
    "display_name",
    "next_position",
]

FORMAT = "hearts-record/1"
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")  # PGN's $1..$6
# Playouts a decision is weighed with, by `replay --analyze` (whose marks are GLYPHS) and by the
# hint alike (records/hint.py), so that the two never disagree: at 600 the best choice of a clear
# call (margin at least hint.CLOSE) was the same at every seed on 30 positions, in at most about
# a second of CPU a decision (bench/hint_budget.py; docs/playing.md). `--simulations N` asks for a
# quicker, rougher look. (Here rather than with the weighing, records/evaluate.py: `hearts replay`
# without --analyze needs the number only, and the weighing imports `random`.)
DEFAULT_SIMULATIONS = 600
SEAT_KINDS = ("human", "cpu")
HEADER = "# hearts game record; the format is described in docs/record-format.md"
MOVE_LOG_MARK = "# hearts move log"  # how a move log (movelog.HEADER) starts: not a record


# ---------------------------------------------------------------- errors


class _Problem(Frozen):
    """A message not yet rendered: a part of a larger message, shown in its language."""

    message_id: str
    params: tuple[tuple[str, object], ...] = ()

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return t(self.message_id, lang, ascii=ascii, **_render_params(dict(self.params), lang, ascii))


def _problem(message_id: str, **params: object) -> _Problem:
    return _Problem(message_id, tuple(params.items()))


def _render(value: object, lang: str | None, ascii: bool) -> object:
    """A parameter that is itself a message (a Reason, a PassError, a CodeError...) as its sentence."""
    message = getattr(value, "message", None)
    if not callable(message):
        return value
    try:
        return message(lang, ascii=ascii)
    except TypeError:  # messages whose cards never show (codes, rules) take no `ascii`
        return message(lang)


def _render_reason(reason: object, lang: str | None, ascii: bool) -> object:
    """The engine's verdict on a recorded move, said about the seat that made it."""
    from ..play.verdicts import Reason  # a bad record's: the verdicts are imported when one is met

    if isinstance(reason, (Reason, PassError)):
        return reason.message(lang, ascii=ascii, third_person=True)
    return _render(reason, lang, ascii)


def _render_params(params: Mapping[str, object], lang: str | None, ascii: bool) -> dict[str, object]:
    return {k: _render(v, lang, ascii) for k, v in params.items()}


class PlaceError(HeartsError):
    """A problem at a place in a game, as a record or a move log gives it.

    ``message_id`` and ``params`` name the message (see :mod:`hearts_cli.text.catalog`);
    ``round``, ``trick`` and ``position`` (all 1-based, as people count) and
    ``seat`` (0-based, as the engine counts) say where, when known; ``line`` is
    the line of the text; ``reason`` is the engine's verdict for a bad pass or
    play (a :class:`~hearts_cli.play.verdicts.Reason` with a stable ``.code``, or a
    :class:`~hearts_cli.play.dealt.PassError`), or the code or rules error.
    """

    echoed = ("text", "value", "word", "log")

    def __init__(self, message_id: str, *, line: int | None = None,
                 round: int | None = None, trick: int | None = None, position: int | None = None,
                 seat: int | None = None, reason: object = None, names: Sequence[str] | None = None,
                 **params: object):
        self.message_id = message_id
        self.line = line
        self.round = round
        self.trick = trick
        self.position = position
        self.seat = seat
        self.reason = reason
        self.names = tuple(names) if names is not None else None  # the seats' names; default Player 1...
        super().__init__(message_id, **params)

    @property
    def code(self) -> str | None:
        """The stable code of the rule broken (``must_follow_suit``, ``pass_count``...), if any."""
        return getattr(self.reason, "code", None) or getattr(self.reason, "message_id", None)

    def _params(self, lang: str | None, ascii: bool) -> dict[str, object]:
        """The message's parameters, rendered, with the place and the reason filled in."""
        params = _render_params(self.shown_params(), lang, ascii)
        for name in ("round", "trick", "position", "seat"):
            value = getattr(self, name)
            if value is not None:
                params.setdefault(name, value)
        if self.seat is not None:  # the seat as the story names it
            if self.names is not None and 0 <= self.seat < len(self.names):
                params.setdefault("name", display_name(self.names[self.seat], lang))
            else:
                params.setdefault("name", default_name(self.seat, lang))
        if self.reason is not None:
            params["reason"] = _render_reason(self.reason, lang, ascii)
        return params

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return t(self.message_id, lang, ascii=ascii, **self._params(lang, ascii))


class RecordError(PlaceError):
    """A record that cannot be read, or a game in it that does not hold up; ``path`` names the file."""

    def __init__(self, message_id: str, *, path: str | None = None, line: int | None = None,
                 round: int | None = None, trick: int | None = None, position: int | None = None,
                 seat: int | None = None, reason: object = None, names: Sequence[str] | None = None,
                 **params: object):
        self.path = path
        super().__init__(message_id, line=line, round=round, trick=trick, position=position, seat=seat,
                         reason=reason, names=names, **params)

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        params = self._params(lang, ascii)
        params["path"] = self.path if self.path else t("record_no_path", lang)
        text = t(self.message_id, lang, ascii=ascii, **params)
        if self.line is not None:
            text += " " + t("record_at_line", lang, line=self.line)
        return text


# ---------------------------------------------------------------- value types
#
# Frozen values with a dataclass's equality, hash and repr, on the cheaper
# bases of :mod:`hearts_cli.base.values` (start-up: see bench/startup.py).


class Seat(Frozen):
    """Who sits in a seat: a ``name``, ``kind`` ``human`` or ``cpu``, and a CPU's ``level``."""

    name: str
    kind: str = "human"
    level: str | None = None  # easy, normal, hard: the CPU levels of the rules card


def default_seats(players: int) -> tuple[Seat, ...]:
    """Seats named by place (``South``, ``West``...), as the table and records name them."""
    return tuple(Seat(name) for name in recorded_names(players))


def display_name(name: str, lang: str | None = None) -> str:
    """A recorded seat name as sentences say it in ``lang``.

    The names the program writes (the places ``West``, ``South-West``,
    ``Left 2``... and the defaults ``Player 1``...) are said in the chosen
    language, and ``You`` (older records) is said as ``South``, where the
    person sits; any other name is a name.
    """
    place = place_of(name)
    return name if place is None else place_name(place, lang)


def default_name(seat: int, lang: str | None = None, players: int | None = None) -> str:
    """The name of a seat that has none (a move log's): its place (``South`` for seat 0)
    when the number of players is known, else ``Player 1``..., in ``lang``."""
    if players and 0 <= seat < players:
        return display_name(recorded_names(players)[seat], lang)
    return t("seat_player", lang, number=seat + 1)


class Annotation(Frozen):
    """A note on a move: a PGN-style ``glyph`` (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``) and a comment."""

    glyph: str = ""
    comment: str = ""


_POSITION_PATTERN = r"(\d+)(?:\.(?:(pass|p)\.(\d+)|(\d+)\.(\d+)))?"


class MoveAddress(Frozen):
    """Where a move is: ``"1.3.2"`` (round 1, trick 3, card 2), ``"1.pass.0"`` (round 1,
    seat 0's pass) or ``"1"`` (round 1 as a whole): a place in a record's moves, not a
    position text (:mod:`hearts_cli.play.position`). Rounds, tricks and cards count
    from 1; seats from 0, as everywhere in the engine."""

    round: int
    trick: int = 0
    card: int = 0
    seat: int | None = None  # the passing seat, for a pass

    @property
    def kind(self) -> str:
        if self.seat is not None:
            return "pass"
        return "play" if self.trick else "round"

    def sort_key(self) -> tuple[int, int, int, int]:
        if self.seat is not None:
            return (self.round, 1, self.seat, 0)
        if self.trick:
            return (self.round, 2, self.trick, self.card)
        return (self.round, 0, 0, 0)

    def __str__(self) -> str:
        if self.seat is not None:
            return f"{self.round}.pass.{self.seat}"
        if self.trick:
            return f"{self.round}.{self.trick}.{self.card}"
        return str(self.round)

    @classmethod
    def of(cls, move: Move) -> MoveAddress:
        """Where ``move`` was made: its card's place in its trick, its seat's pass, or (the
        shooter's choice) its round as a whole."""
        if move.moon is not None:
            return cls(move.round)  # the round as a whole: how it scores
        if move.trick:
            return cls(move.round, move.trick, move.index)
        return cls(move.round, seat=move.seat)

    @classmethod
    def parse(cls, text: str | int | MoveAddress) -> MoveAddress:
        """Read a position; ``ValueError`` when the text is none."""
        if isinstance(text, MoveAddress):
            return text
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise ValueError(f"not a move position: {text!r}")
        m = re.fullmatch(_POSITION_PATTERN, str(text).strip(), re.IGNORECASE)
        if not m:
            raise ValueError(f"not a move position: {text!r}")
        rnd = int(m.group(1))
        if m.group(2):
            pos = cls(rnd, seat=int(m.group(3)))
        elif m.group(4):
            pos = cls(rnd, int(m.group(4)), int(m.group(5)))
        else:
            pos = cls(rnd)
        if rnd < 1 or (m.group(4) is not None and (pos.trick < 1 or pos.card < 1)):
            raise ValueError(f"not a move position: {text!r}")
        return pos


# annotations as a caller gives them: keyed by MoveAddress or its text ("1.3.2")
Notes = Mapping[MoveAddress, Annotation] | Mapping[str, Annotation] | Mapping[MoveAddress | str, Annotation]


def _annotation_map(annotations: Notes | None) -> dict[MoveAddress, Annotation]:
    out: dict[MoveAddress, Annotation] = {}
    for key, note in (annotations or {}).items():
        out[MoveAddress.parse(key)] = note
    return out


def _waits_for(game: Game, where: MoveAddress) -> bool:
    """Whether the next move of ``game`` can be the one at ``where``: while passing, the
    pass of any seat that has not passed yet."""
    rd = game.round
    if where.seat is not None and rd.phase is Phase.PASS:
        return where.round == len(game.rounds) and 0 <= where.seat < len(rd.passes) \
            and rd.passes[where.seat] is None
    return next_position(game) == where


def next_position(game: Game) -> MoveAddress:
    """Where the next move of ``game`` goes: a seat's pass, or a card of a trick."""
    rd = game.round
    r = len(game.rounds)
    if rd.phase is Phase.PASS:
        return MoveAddress(r, 0, 0, rd.passes.index(None))
    if rd.phase is Phase.MOON:  # the shooter's choice: the round as a whole
        return MoveAddress(r)
    return MoveAddress(r, len(rd.tricks) + 1, len(rd.trick) + 1)
