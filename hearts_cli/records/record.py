"""Game records: a canonical, diffable YAML file for a whole game, finished or not.

Writing is strict and canonical (fixed key order, one hand, pass or trick per
line, never wrapped), so writing the same game twice gives the same bytes and a
one-card change is a one-line diff. Reading is forgiving about spelling (cards
in any notation, codes in any case, unknown top-level keys ignored) and strict
about the game: every pass and play is re-played through the engine, and every
derived field a record carries (hands, dealer, pass direction, trick winners
and points, round scores, totals, result) must agree with that replay.

The format is described in ``docs/record-format.md``. In short::

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

import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NamedTuple, TypeVar, cast

from ..base.files import write_atomic
from ..base.untrusted import BOM, DEPTH, MAX_RECORD_BYTES, YamlRefused, decoded, yaml_loader, yaml_problem
from ..base.values import Frozen, Plain
from ..base.version import __version__
from ..model.cards import Card, CardParseError, parse_card
from ..model.codes import CodeError, normalize_code
from ..model.errors import HeartsError
from ..model.rules import Moon, Rules, RulesError
from ..model.seating import place_name, place_of, recorded_names
from ..play.engine import (
    MOON_CHOICES,
    Game,
    IllegalMove,
    PassError,
    Phase,
    Round,
    better_moon_choice,
    cards_of_pair,
)
from ..text.catalog import t

if TYPE_CHECKING:
    from collections.abc import Callable

    from yaml.nodes import Node

    from ..model.rules import Plain as PlainSetting
    from ..play.engine import RoundResult

if TYPE_CHECKING:  # types only: nothing to build at start-up
    _T = TypeVar("_T")

__all__ = [
    "FORMAT",
    "GLYPHS",
    "MAX_RECORD_BYTES",
    "Annotation",
    "GameRecord",
    "Move",
    "Position",
    "RecordError",
    "Seat",
    "make_pass",
    "moves_of",
    "read_record",
    "save_record",
    "write_record",
]

FORMAT = "hearts-record/1"
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")  # PGN's $1..$6
SEAT_KINDS = ("human", "cpu")
HEADER = "# hearts game record; the format is described in docs/record-format.md"
MOVE_LOG_MARK = "# hearts move log"  # how a move log (movelog.HEADER) starts: not a record


# ---------------------------------------------------------------- errors


class _Problem(Frozen):
    """A message not yet rendered: a part of a larger message, shown in its language."""

    __match_args__ = ("message_id", "params")
    __slots__ = __match_args__
    message_id: str
    params: tuple[tuple[str, object], ...]

    def __init__(self, message_id: str, params: tuple[tuple[str, object], ...] = ()):
        object.__setattr__(self, "message_id", message_id)
        object.__setattr__(self, "params", params)

    def _fields(self) -> tuple[object, ...]:
        return (self.message_id, self.params)

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
    :class:`~hearts_cli.play.engine.PassError`), or the code or rules error.
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


class _Stop(Exception):
    """Lenient reading: a problem after which the moves cannot go on."""


# ---------------------------------------------------------------- value types
#
# Frozen values with a dataclass's equality, hash and repr, on the cheaper
# bases of :mod:`hearts_cli.base.values` (start-up: see bench/startup.py).


class Seat(Frozen):
    """Who sits in a seat: a ``name``, ``kind`` ``human`` or ``cpu``, and a CPU's ``level``."""

    __match_args__ = ("name", "kind", "level")
    __slots__ = __match_args__
    name: str
    kind: str
    level: str | None  # easy, normal, hard: the CPU levels of the rules card

    def __init__(self, name: str, kind: str = "human", level: str | None = None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "level", level)

    def _fields(self) -> tuple[object, ...]:
        return (self.name, self.kind, self.level)


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

    __match_args__ = ("glyph", "comment")
    __slots__ = __match_args__
    glyph: str
    comment: str

    def __init__(self, glyph: str = "", comment: str = ""):
        object.__setattr__(self, "glyph", glyph)
        object.__setattr__(self, "comment", comment)

    def _fields(self) -> tuple[object, ...]:
        return (self.glyph, self.comment)


_POSITION_PATTERN = r"(\d+)(?:\.(?:(pass|p)\.(\d+)|(\d+)\.(\d+)))?"


class Position(Frozen):
    """Where a move is: ``"1.3.2"`` (round 1, trick 3, card 2), ``"1.pass.0"`` (round 1,
    seat 0's pass) or ``"1"`` (round 1 as a whole). Rounds, tricks and cards count
    from 1; seats from 0, as everywhere in the engine."""

    __match_args__ = ("round", "trick", "card", "seat")
    __slots__ = __match_args__
    round: int
    trick: int
    card: int
    seat: int | None  # the passing seat, for a pass

    def __init__(self, round: int, trick: int = 0, card: int = 0, seat: int | None = None):
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "seat", seat)

    def _fields(self) -> tuple[object, ...]:
        return (self.round, self.trick, self.card, self.seat)

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
    def parse(cls, text: str | int | Position) -> Position:
        """Read a position; ``ValueError`` when the text is none."""
        if isinstance(text, Position):
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


class Move(Frozen):
    """One action: a seat's pass (``trick == 0``), one card played, or a shooter's
    choice of how its moon scores (``choice``: ``others`` or ``shooter_minus``)."""

    __match_args__ = ("round", "seat", "cards", "trick", "index", "choice")
    __slots__ = __match_args__
    round: int  # 1-based
    seat: int
    cards: tuple[Card, ...]
    trick: int  # 1-based, 0 for a pass
    index: int  # 1-based place in the trick
    choice: str | None  # the shooter's choice (moon: shooter_choice), else None

    def __init__(self, round: int, seat: int, cards: tuple[Card, ...], trick: int = 0, index: int = 0,
                 choice: str | None = None):
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "choice", choice)

    def _fields(self) -> tuple[object, ...]:
        return (self.round, self.seat, self.cards, self.trick, self.index, self.choice)

    @property
    def kind(self) -> str:
        if self.choice is not None:
            return "moon"
        return "play" if self.trick else "pass"

    @property
    def card(self) -> Card:
        return self.cards[0]

    @property
    def position(self) -> Position:
        if self.choice is not None:
            return Position(self.round)  # the round as a whole: how it scores
        if self.trick:
            return Position(self.round, self.trick, self.index)
        return Position(self.round, seat=self.seat)

    @classmethod
    def playing(cls, game: Game, card: Card) -> Move:
        """``card`` played in ``game`` now, by the seat to move, at its place in the trick
        (not made: :meth:`apply` makes it, or the engine says why not)."""
        rd = game.round
        seat = rd.turn
        return cls(len(game.rounds), -1 if seat is None else seat, (card,), len(rd.tricks) + 1,
                   len(rd.trick) + 1)

    @classmethod
    def choosing(cls, game: Game, choice: str) -> Move:
        """The shooter's choice of how its moon scores, in ``game`` now (``others`` or ``shooter_minus``)."""
        seat = game.round.turn
        return cls(len(game.rounds), -1 if seat is None else seat, (), choice=str(Moon(choice)))

    def apply(self, game: Game) -> None:
        """Make this move in ``game`` (checked by the engine)."""
        if self.choice is not None:
            game.choose_moon(self.choice, self.seat)
        elif self.trick:
            game.play(self.cards[0])
        else:
            game.pass_cards(self.seat, self.cards)


def make_pass(game: Game, seat: int, cards: Sequence[Card]) -> Move:
    """Pass ``cards`` for ``seat`` in ``game``, and the move it is. The cards go to the
    engine in the order given, so a :class:`~hearts_cli.play.engine.PassError` names
    the first it refuses as the person wrote them."""
    game.pass_cards(seat, cards)
    return Move(len(game.rounds), seat, tuple(sorted(cards)))


# annotations as a caller gives them: keyed by Position or its text ("1.3.2")
Notes = Mapping[Position, Annotation] | Mapping[str, Annotation] | Mapping[Position | str, Annotation]


def moves_of(game: Game) -> list[Move]:
    """Every pass and play of ``game`` so far, in an order that re-plays it.

    Passes are simultaneous, so they are listed in seat order.
    """
    out: list[Move] = []
    for r, rnd in enumerate(game.rounds, 1):
        out.extend(_round_moves(r, rnd))
    return out


def _round_moves(r: int, rnd: Round) -> Iterator[Move]:
    for seat, cards in enumerate(rnd.passes):
        if cards is not None:
            yield Move(r, seat, tuple(cards))
    tricks = [tr.plays() for tr in rnd.tricks] + [rnd.trick_plays()]
    for k, plays in enumerate(tricks, 1):
        for i, (seat, c) in enumerate(plays):
            yield Move(r, seat, (c,), k, i + 1)
    res = rnd.result
    if res is not None and res.shooter is not None and rnd.rules.moon is Moon.SHOOTER_CHOICE:
        yield Move(r, res.shooter, (), choice=str(res.moon))


# ---------------------------------------------------------------- the record


class GameRecord(Plain):
    """A game as read from a record: what is needed to re-play it, plus notes.

    ``moves`` are every pass and play, in order; :meth:`replay` re-plays them
    (or the first ``upto``) into a fresh :class:`~hearts_cli.play.engine.Game`.
    ``errors`` holds the problems a lenient read found (empty when strict).
    """

    __match_args__ = ("rules", "code", "seats", "moves", "annotations", "program", "format", "errors",
                      "undos")

    def __init__(self, rules: Rules, code: str, seats: tuple[Seat, ...], moves: tuple[Move, ...] = (),
                 annotations: dict[Position, Annotation] | None = None,
                 program: str = f"hearts {__version__}", format: str = FORMAT,
                 errors: list[RecordError] | None = None, undos: int = 0, lang: str | None = None,
                 date: str | None = None):
        self.rules = rules
        self.code = code
        self.seats = seats
        self.moves = moves
        self.annotations: dict[Position, Annotation] = {} if annotations is None else annotations
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
            move.apply(game)
        return game

    def at(self, where: Position | int | None) -> tuple[Game, int]:
        """The game just before the move at ``where`` and how many moves were made.

        ``where`` is a :class:`Position` of a pass or a play, or a move number
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
            found = move.position == where if where.seat is not None else next_position(game) == where
            if found and not game.over:
                return game, made
            move.apply(game)
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
                   tuple(moves_of(game)), _annotation_map(annotations), undos=undos, date=date)


def _waits_for(game: Game, where: Position) -> bool:
    """Whether the next move of ``game`` can be the one at ``where``: while passing, the
    pass of any seat that has not passed yet."""
    rd = game.round
    if where.seat is not None and rd.phase is Phase.PASS:
        return where.round == len(game.rounds) and 0 <= where.seat < len(rd.passes) \
            and rd.passes[where.seat] is None
    return next_position(game) == where


def next_position(game: Game) -> Position:
    """Where the next move of ``game`` goes: a seat's pass, or a card of a trick."""
    rd = game.round
    r = len(game.rounds)
    if rd.phase is Phase.PASS:
        return Position(r, 0, 0, rd.passes.index(None))
    if rd.phase is Phase.MOON:  # the shooter's choice: the round as a whole
        return Position(r)
    return Position(r, len(rd.tricks) + 1, len(rd.trick) + 1)


# ---------------------------------------------------------------- writing


@functools.lru_cache(maxsize=4096)
def _plain_ok(text: str) -> bool:
    """Whether ``text`` can be written bare and read back as the same string."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 _.+\-]*", text) or text.endswith(" "):
        return False
    import yaml  # PyYAML is only imported by what writes or reads records

    # a method called on the class: PyYAML's own usage
    resolve = cast("Callable[[type, type, str, tuple[bool, bool]], str]", yaml.SafeLoader.resolve)
    tag = resolve(yaml.SafeLoader, yaml.ScalarNode, text, (True, False))
    return tag == "tag:yaml.org,2002:str"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _quote(text: str) -> str:
    """A double-quoted YAML scalar on one line: every break and unprintable escaped."""
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif (o < 0x20 or 0x7F <= o <= 0x9F or 0xD800 <= o <= 0xDFFF
              or o in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF)):
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if value is None:
        return "~"
    text = str(value)
    return text if _plain_ok(text) else _quote(text)


def _flow(value: object) -> str:
    """One-line YAML for a value: lists and mappings in flow style."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _cards(cards: Iterable[int]) -> str:
    return "[" + ", ".join(str(Card(c)) for c in cards) + "]"


def _rules_spec(rules: Rules) -> dict[str, PlainSetting]:
    """``{"preset": name, overrides...}`` that loads back to exactly ``rules``."""
    return rules.spec()


def _annotation_map(annotations: Notes | None) -> dict[Position, Annotation]:
    out: dict[Position, Annotation] = {}
    for key, note in (annotations or {}).items():
        out[Position.parse(key)] = note
    return out


def write_record(game: Game, seats: Sequence[Seat] | None = None,
                 annotations: Notes | None = None,
                 program: str | None = None, undos: int = 0, lang: str | None = None) -> str:
    """The canonical record of ``game`` so far (finished or not), as text.

    ``seats`` default to ``Player 1``... (all human); ``annotations`` are keyed
    by :class:`Position` or its text (``"1.3.2"``); ``undos`` is how many
    moves the person took back (written only when there were any), ``lang`` the language
    it was played in (a save's, written when given). The output
    depends on nothing but these arguments: the same game always gives the
    same bytes.
    """
    rules = game.rules
    seats = _checked_seats(seats, rules.players)
    notes = _checked_notes(annotations)
    if undos and (not isinstance(undos, int) or isinstance(undos, bool) or undos < 0):
        raise ValueError(f"undos must be a whole number from 0, not {undos!r}")
    out = [
        HEADER,
        f"format: {FORMAT}",
        f"program: {_scalar(program or f'hearts {__version__}')}",
        f"code: {_quote(game.code)}",
        "rules:",
    ]
    for key, value in _rules_spec(rules).items():
        out.append(f"  {key}: {_flow(value)}")
    out.append("seats:")
    for i, seat in enumerate(seats):
        item: dict[str, object] = {"seat": i, "name": seat.name, "kind": seat.kind}
        if seat.level is not None:
            item["level"] = seat.level
        out.append(f"  - {_flow(item)}")
    out.append("rounds:")
    for r, rnd in enumerate(game.rounds, 1):
        out.extend(_round_lines(r, rnd, game.results[r - 1] if r <= len(game.results) else None))
    out.append(f"totals: {_flow(game.totals)}")
    if game.over:
        out.append("result:")
        out.append(f"  winners: {_flow(game.winners)}")
        out.append("  standings:")
        for place, seat_no, total in game.standings():
            out.append(f"    - {_flow({'place': place, 'seat': seat_no, 'total': total})}")
    if undos:
        out.append(f"undos: {undos}")
    if lang is not None:
        out.append(f"lang: {_scalar(lang)}")
    out.extend(_annotation_lines(notes))
    return "\n".join(out) + "\n"


def _checked_seats(seats: Sequence[Seat] | None, players: int) -> tuple[Seat, ...]:
    """The seats to write (``Player 1``... by default): a ValueError for a wrong count or a bad seat."""
    chosen = tuple(seats) if seats is not None else default_seats(players)
    if len(chosen) != players:
        raise ValueError(f"{players} seats expected, got {len(chosen)}")
    for i, seat in enumerate(chosen):
        if (not isinstance(seat.name, str) or seat.kind not in SEAT_KINDS
                or not (seat.level is None or isinstance(seat.level, str))):
            raise ValueError(f"seat {i}: {seat!r} is not a name, a kind ({'/'.join(SEAT_KINDS)}) and a level")
    return chosen


def _checked_notes(annotations: Notes | None) -> dict[Position, Annotation]:
    """The annotations to write, by position: a ValueError for a glyph PGN lacks or a comment not text."""
    notes = _annotation_map(annotations)
    for pos, note in notes.items():
        if note.glyph and note.glyph not in GLYPHS:
            raise ValueError(f"annotation {pos}: glyph {note.glyph!r} is not one of {' '.join(GLYPHS)}")
        if not isinstance(note.comment, str):
            raise ValueError(f"annotation {pos}: the comment must be text")
    return notes


def _annotation_lines(notes: dict[Position, Annotation]) -> list[str]:
    """The ``annotations:`` block, in the order of the moves (nothing without annotations)."""
    if not notes:
        return []
    out = ["annotations:"]
    for pos in sorted(notes, key=Position.sort_key):
        note = notes[pos]
        body: dict[str, str] = {}
        if note.glyph:
            body["glyph"] = note.glyph
        if note.comment or not note.glyph:
            body["comment"] = note.comment
        parts = ", ".join(f"{k}: {_quote(v)}" for k, v in body.items())
        out.append(f"  {_quote(str(pos))}: {{{parts}}}")
    return out


def _round_lines(r: int, rnd: Round, result: RoundResult | None) -> list[str]:
    out = [f"  - round: {r}", f"    pass: {rnd.direction.value}", f"    dealer: {rnd.dealer}", "    hands:"]
    for seat, mask in enumerate(rnd.dealt):
        out.append(f"      {seat}: {_cards(cards_of_pair(mask, rnd.dealt_twice[seat]))}")
    if rnd.kitty_mask:
        out.append(f"    kitty: {_cards(cards_of_pair(rnd.kitty_mask, rnd.kitty_twice))}")
    if any(p is not None for p in rnd.passes):
        out.append("    passes:")
        for seat, cards in enumerate(rnd.passes):
            if cards is not None:
                out.append(f"      {seat}: {_cards(cards)}")
    if rnd.tricks or rnd.trick:
        out.append("    tricks:")
        for tr in rnd.tricks:
            out.append(f"      - {{lead: {tr.leader}, cards: {_cards(tr.cards)}, "
                       f"won: {'null' if tr.winner is None else tr.winner}, points: {tr.points}}}")
        if rnd.trick:
            out.append(f"      - {{lead: {rnd.leader}, cards: {_cards(rnd.trick)}}}")
    if result is not None:
        out.append(f"    score: {_flow(result.scores)}")
        if result.shooter is not None:
            out.append(f"    moon: {result.shooter}")
            if rnd.rules.moon is Moon.SHOOTER_CHOICE:
                out.append(f"    moon_choice: {result.moon}")
    return out


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


# ---------------------------------------------------------------- reading


@functools.cache
def _line_loader() -> type:
    """The guarded safe loader (:func:`hearts_cli.base.untrusted.yaml_loader`: no anchors or
    aliases, bounded depth), remembering the node of each list and mapping it builds (its
    line, and the line of each value in it: an error points at the field edited).

    It runs on libyaml's C parser when PyYAML was built with it; either way
    only plain data is ever constructed.

    A record is mostly short plain scalars, cards and numbers, the same few dozen
    again and again: a scalar's tag is remembered by its text, and a string or an
    integer is built without the bookkeeping of PyYAML's ``construct_object`` (which
    only the nodes an alias shares need, and a record has no alias). A third less
    time to load a record, the most of any start-up cost of ``hearts replay``
    (bench/startup.py); the same values.
    """
    from yaml.nodes import ScalarNode

    base = yaml_loader()
    str_tag, int_tag = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"

    class LineLoader(base):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str):
            super().__init__(stream, DEPTH["record"])
            self.nodes: dict[int, Node] = {}
            self.tags: dict[str, str] = {}  # a plain scalar's tag, by its text

        def resolve(self, kind: type[Node], value: str, implicit: tuple[bool, bool]) -> str:
            if kind is ScalarNode and implicit[0]:  # a plain scalar: its tag depends on its text alone
                tag = self.tags.get(value)
                if tag is None:
                    tag = self.tags[value] = super().resolve(kind, value, implicit)
                return tag
            resolved: str = super().resolve(kind, value, implicit)
            return resolved

        def construct_object(self, node: Node, deep: bool = False) -> object:
            if node.__class__ is ScalarNode:
                if node.tag == str_tag:
                    return node.value
                if node.tag == int_tag:
                    return self.construct_yaml_int(node)
            obj = super().construct_object(node, deep)
            if isinstance(obj, (list, dict)):
                self.nodes[id(obj)] = node
            return obj

    return LineLoader


def _load_text(source: str | os.PathLike[str] | IO[str] | IO[bytes], limit: int) -> tuple[str, str | None]:
    """The text of a record and its path (None for text given directly); size-checked first."""
    if isinstance(source, str) and "\n" not in source and source.strip() and os.path.isfile(source):
        source = Path(source)  # a one-line string naming a file: no record fits on one such line
    if isinstance(source, str):
        if len(source) > limit or len(source.encode("utf-8", "surrogatepass")) > limit:
            raise RecordError("record_too_big", limit=limit)
        return source.removeprefix(BOM), None
    path: str | None
    raw: str | bytes
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        try:
            if os.stat(path).st_size > limit:
                raise RecordError("record_too_big", path=path, limit=limit)
            with open(path, "rb") as fh:
                raw = fh.read(limit + 1)
        except OSError as e:
            from ..text.catalog import os_problem_id

            message_id, params = os_problem_id(e)
            raise RecordError("record_bad_yaml", path=path, problem=_problem(message_id, **params)) from None
    else:
        name = getattr(source, "name", None)
        path = name if isinstance(name, str) else None
        raw = source.read(limit + 1)
    if len(raw) > limit:
        raise RecordError("record_too_big", path=path, limit=limit)
    if isinstance(raw, str):
        return raw.removeprefix(BOM), path
    try:
        return decoded(raw), path
    except UnicodeDecodeError:
        raise RecordError("record_bad_yaml", path=path,
                          problem=_problem("record_not_utf8")) from None


def looks_like_record(text: str) -> bool:
    """Whether ``text`` is meant as a game record, however broken: it has a ``format:`` line
    (indented by mistake too), or it begins with the line hearts writes first in every record
    (:data:`HEADER`), so that a record whose ``format:`` line was damaged is still told of as
    a record, not read as a move log."""
    return text.lstrip(BOM + " \t\r\n").startswith(HEADER.split(";")[0]) \
        or re.search(r"^[ \t]*format\s*:", text, re.MULTILINE) is not None


def read_record(source: str | os.PathLike[str] | IO[str] | IO[bytes], *, strict: bool = True,
                limit: int = MAX_RECORD_BYTES) -> GameRecord:
    """Read, re-play and check a record.

    ``source`` is the record's text (a ``str``), a path (``pathlib.Path``, or a
    one-line ``str`` naming an existing file) or an open file. Files over ``limit``
    bytes are refused before parsing; the YAML is read with PyYAML's safe loader
    only. With ``strict`` (the default) the first problem raises
    :class:`RecordError`; otherwise problems with the game are collected in
    ``record.errors`` and the moves stop before the first bad one (problems that
    leave no game to speak of still raise).
    """
    import yaml

    text, path = _load_text(source, limit)
    if not text.strip():  # (not "not a mapping": there is nothing in it at all)
        raise RecordError("record_empty", path=path)
    if text.lstrip().startswith(MOVE_LOG_MARK):
        raise RecordError("record_is_move_log", path=path)
    # YAML that does not parse, in a file with no `format:` line, was never a record
    unreadable = "record_bad_yaml" if looks_like_record(text) else "record_not_record"
    loader = _line_loader()(text)
    try:
        data = loader.get_single_data()
    except YamlRefused as e:  # a bomb of aliases, or nesting without end: nothing was built
        raise RecordError(unreadable, path=path, line=e.line, problem=_problem(e.message_id, **e.params)) from None
    except yaml.MarkedYAMLError as e:  # said in words, with its line, and as a record's
        message_id, params = yaml_problem(e, text)
        problem = _problem(message_id, **params)
        if unreadable == "record_bad_yaml":
            raise RecordError("record_yaml_syntax", path=path, problem=problem) from None
        raise RecordError(unreadable, path=path, problem=problem) from None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as e:
        raise RecordError(unreadable, path=path, problem=str(e).splitlines()[0] if str(e) else
                          type(e).__name__) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise RecordError("record_not_mapping", path=path)
    record = _Reader(data, loader.nodes, path, strict).read()
    record.date = archived_date(path)
    return record


_ARCHIVED = re.compile(r"([0-9]{4})([0-9]{2})([0-9]{2})-[0-9]{6}-")  # 20261201-101112-CODE.yaml


def archived_date(path: str | None) -> str | None:
    """The day an archived record's file name says (``20261201-101112-CODE.yaml``: the
    archive names each game by when it ended), as ``2026-12-01``; None for any other name."""
    return iso_day(_ARCHIVED.match(os.path.basename(path)) if path else None)


def iso_day(m: re.Match[str] | None) -> str | None:
    """A day matched as year, month and day (groups 1 to 3), as ``2026-12-01``; None when there
    is no match or no such day."""
    import datetime

    if m is None:
        return None
    try:
        return datetime.date(int(m[1]), int(m[2]), int(m[3])).isoformat()
    except ValueError:
        return None


class _Field(NamedTuple):
    """The value of ``key`` in a mapping of the record, where a problem is: its own line,
    scalar or not (``score: [17, 6, 2, 2]`` edited by hand is named there, not at its round)."""

    mapping: object
    key: str


class _Problems:
    """How a reading names a problem: the line of the YAML it is on, the field, and whether
    it stops the reading (strict) or is noted and the reading goes on (lenient)."""

    def __init__(self, data: dict[object, object], nodes: dict[int, Node], path: str | None, strict: bool):
        self.data = data
        self.nodes = nodes
        self.path = path
        self.strict = strict
        self.errors: list[RecordError] = []

    # ------------------------------------------------------------ helpers

    def line(self, *objs: object) -> int | None:
        """The line of the first of ``objs`` the YAML gave: a list or a mapping (where it
        starts), or a :class:`_Field` (where its value is written)."""
        for obj in objs:
            if isinstance(obj, _Field):
                node = self.nodes.get(id(obj.mapping))
                pairs: list[tuple[Node, Node]] = node.value if node is not None else []
                for key, value in pairs:
                    if key.value == obj.key:
                        return int(value.start_mark.line) + 1
                continue
            node = self.nodes.get(id(obj))
            if node is not None:
                return int(node.start_mark.line) + 1
        return None

    def error(self, message_id: str, *at: object, round: int | None = None, trick: int | None = None,
              position: int | None = None, seat: int | None = None, reason: object = None,
              names: Sequence[str] | None = None, **params: object) -> RecordError:
        return RecordError(message_id, path=self.path, line=self.line(*at), round=round, trick=trick,
                           position=position, seat=seat, reason=reason, names=names, **params)

    def bad_field(self, name: str, problem_id: str, *at: object, **params: object) -> RecordError:
        return self.error("record_bad_field", *at, field=name, problem=_problem(problem_id, **params))

    def fail(self, err: RecordError, fatal: bool = False) -> None:
        """Strict: raise. Lenient: note it, and stop the moves when it is ``fatal``."""
        if self.strict:
            raise err
        self.errors.append(err)
        if fatal:
            raise _Stop

    def want(self, value: object, kind: type[_T], name: str, *at: object) -> _T:
        if isinstance(value, kind) and not (isinstance(value, bool) and kind is int):
            return value
        problem = {dict: "record_want_mapping", list: "record_want_list", int: "record_want_int",
                   str: "record_want_string"}.get(kind, "record_want_string")
        raise self.bad_field(name, problem, *at)

    def mapping(self, value: object, name: str, *at: object) -> dict[object, object]:
        """``value`` as a mapping (its keys and values still to be checked), or the problem."""
        return self.want(value, dict, name, *at)

    def listing(self, value: object, name: str, *at: object) -> list[object]:
        """``value`` as a list (its items still to be checked), or the problem."""
        return self.want(value, list, name, *at)

    def cards(self, value: object, name: str, *at: object) -> tuple[Card, ...]:
        out = []
        for x in self.listing(value, name, *at):
            if not isinstance(x, str):
                raise self.bad_field(name, "record_want_cards", value, *at, text=_scalar(x))
            try:
                out.append(parse_card(x))
            except CardParseError:
                raise self.bad_field(name, "record_want_cards", value, *at, text=x) from None
        return tuple(out)


class _Reader(_Problems):
    """A record's data read into a game: every move re-played through the engine, every
    field the record carries checked against that replay."""

    def read(self) -> GameRecord:
        d = self.data
        fmt = d.get("format")
        if fmt != FORMAT:
            raise self.error("record_bad_format", _Field(d, "format"), d, format=_scalar(fmt), expected=FORMAT)
        program = d.get("program", "")
        program = program if isinstance(program, str) else _scalar(program)
        code = self.read_code(d.get("code"))
        rules = self.read_rules(d.get("rules"))
        seats = self.read_seats(d.get("seats"), rules.players)
        game = Game(rules, code)
        moves: list[Move] = []
        rounds = d.get("rounds")
        if rounds is None:
            rounds = []
        rounds = self.listing(rounds, "rounds", d)
        complete = True
        try:
            for r, raw in enumerate(rounds, 1):
                self.read_round(game, r, raw, rounds, moves)
        except _Stop:
            complete = False
        if complete:
            self.check_end(game, d)
        notes = _read_annotations(self, d.get("annotations"), moves, len(game.rounds))
        undos = d.get("undos", 0)
        if undos is None:
            undos = 0
        if not isinstance(undos, int) or isinstance(undos, bool) or undos < 0:
            self.fail(self.bad_field("undos", "record_want_value", _Field(d, "undos"), d, expected="0, 1, 2..."))
            undos = 0
        lang = d.get("lang")  # a language this program speaks, or none (an unknown one is not an error)
        return GameRecord(rules, code, seats, tuple(moves), notes, program, FORMAT, self.errors, undos,
                          lang if lang in ("en", "es") else None)

    def read_code(self, raw: object) -> str:
        if raw is None:
            raise self.bad_field("code", "record_missing", self.data)
        try:
            return normalize_code(raw if isinstance(raw, str) else _scalar(raw))
        except CodeError as e:
            raise self.error("record_bad_code", _Field(self.data, "code"), self.data, reason=e) from None

    def read_rules(self, raw: object) -> Rules:
        if raw is None:
            raise self.bad_field("rules", "record_missing", self.data)
        if not isinstance(raw, (str, dict)):
            raise self.bad_field("rules", "record_want_mapping", self.data)
        try:
            return Rules.from_spec(raw)
        except RulesError as e:
            raise self.error("record_bad_rules", raw, _Field(self.data, "rules"), self.data, reason=e) from None

    def read_seats(self, raw: object, players: int) -> tuple[Seat, ...]:
        if raw is None:
            return default_seats(players)
        raw = self.listing(raw, "seats", self.data)
        if len(raw) != players:
            raise self.bad_field("seats", "record_want_count", raw, count=players)
        out = []
        for i, item in enumerate(raw):
            name = f"seats.{i}"
            item = self.mapping(item, name, raw)
            if item.get("seat", i) != i:
                raise self.bad_field(f"{name}.seat", "record_want_value", item, expected=i)
            seat_name = item.get("name", f"Player {i + 1}")
            if isinstance(seat_name, (int, float)) and not isinstance(seat_name, bool):
                seat_name = str(seat_name)  # a bare 7 is a name too
            seat_name = self.want(seat_name, str, f"{name}.name", item)
            kind = item.get("kind", "human")
            if kind not in SEAT_KINDS:
                raise self.bad_field(f"{name}.kind", "record_want_value", item,
                                     expected=" / ".join(SEAT_KINDS))
            level = item.get("level")
            if level is not None:
                level = self.want(level, str, f"{name}.level", item)
            out.append(Seat(seat_name, kind, level))
        return tuple(out)

    # ------------------------------------------------------------ rounds

    def read_round(self, game: Game, r: int, raw: object, rounds: list[object], moves: list[Move]) -> None:
        name = f"rounds.{r}"
        try:
            raw = self.mapping(raw, name, rounds)
        except RecordError as e:
            self.fail(e, fatal=True)
            raise  # not reached: a fatal problem has raised, strict or lenient
        n = game.rules.players
        if game.over:
            self.fail(self.error("record_after_end", raw, round=r), fatal=True)
        if len(game.rounds) < r:
            self.fail(self.error("record_unfinished_round", raw, round=r, previous=r - 1), fatal=True)
        rnd = game.round
        try:
            number = raw.get("round", r)
            if number != r:
                self.fail(self.bad_field(f"{name}.round", "record_want_value", raw, expected=r))
            direction = raw.get("pass")
            if direction is not None and direction != rnd.direction.value:
                self.fail(self.bad_field(f"{name}.pass", "record_want_value", raw,
                                         expected=rnd.direction.value))
            dealer = raw.get("dealer")
            if dealer is not None and dealer != rnd.dealer:
                self.fail(self.bad_field(f"{name}.dealer", "record_want_value", raw, expected=rnd.dealer))
            self.check_hands(rnd, r, raw, game.code)
            passes = raw.get("passes") or {}
            passes = self.mapping(passes, f"{name}.passes", raw)
            for key in sorted(passes, key=lambda k: (not isinstance(k, int), str(k))):
                cards = passes[key]
                if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < n:
                    raise self.bad_field(f"{name}.passes", "record_want_seat", passes, players=n)
                chosen = self.cards(cards, f"{name}.passes.{key}", cards, passes)
                try:
                    moves.append(make_pass(game, key, chosen))
                except PassError as e:
                    raise self.error("record_bad_pass", cards, passes, round=r, seat=key, reason=e) from None
            tricks = raw.get("tricks") or []
            tricks = self.listing(tricks, f"{name}.tricks", raw)
            for k, trick in enumerate(tricks, 1):
                self.read_trick(game, rnd, r, k, trick, tricks, moves, last=k == len(tricks))
            self.read_moon_choice(game, rnd, r, raw, moves, more=r < len(rounds))
        except RecordError as e:
            self.fail(e, fatal=True)
        self.check_score(rnd, r, raw)

    def read_moon_choice(self, game: Game, rnd: Round, r: int, raw: dict[object, object], moves: list[Move],
                         more: bool) -> None:
        """The shooter's choice (``moon_choice``), a move of its own under ``moon: shooter_choice``.

        A record written before the choice was a move has none: its ``score`` says which
        it was, and a round followed by another took the better choice (as it then did)."""
        name = f"rounds.{r}.moon_choice"
        choice = raw.get("moon_choice")
        if choice is not None and (not isinstance(choice, str) or choice not in MOON_CHOICES):
            raise self.bad_field(name, "record_want_value", _Field(raw, "moon_choice"), raw,
                                 expected=" / ".join(MOON_CHOICES))
        if rnd.phase is not Phase.MOON:
            if choice is not None and (rnd.result is None or rnd.result.moon is not Moon(choice)):
                moon = rnd.result.moon if rnd.result is not None else None
                self.fail(self.bad_field(name, "record_want_value", _Field(raw, "moon_choice"), raw,
                                         expected=_scalar(moon)))
            return
        if choice is None:
            score = raw.get("score")
            outcomes = rnd.moon_outcomes()
            choice = next((c for c in MOON_CHOICES if score == list(outcomes[c])), None)
            if choice is None and more:  # the phase of the moon: the shooter is to move
                choice = better_moon_choice(rnd.rules, rnd.mover, rnd.taken, rnd.scores_before,
                                            rnd.taken_twice)
            if choice is None:
                return  # the game stops here, the shooter to choose
        move = Move.choosing(game, choice)
        move.apply(game)
        moves.append(move)

    def check_hands(self, rnd: Round, r: int, raw: dict[object, object], code: str) -> None:
        name = f"rounds.{r}"
        hands = raw.get("hands")
        kitty = raw.get("kitty")
        wrong = False
        where: list[object] = []  # the first hand (or kitty) that is not the deal's: its own line
        if hands is not None:
            hands = self.mapping(hands, f"{name}.hands", raw)
            if set(hands) != set(range(rnd.players)):
                wrong = True
            for seat, cards in hands.items():
                got = self.cards(cards, f"{name}.hands.{seat}", cards, hands)
                if not isinstance(seat, int) or seat not in range(rnd.players) or sorted(got) != list(
                        cards_of_pair(rnd.dealt[seat], rnd.dealt_twice[seat])):
                    wrong = True
                    where.append(cards)
        if kitty is not None:
            got = self.cards(kitty, f"{name}.kitty", raw)
            if sorted(got) != list(cards_of_pair(rnd.kitty_mask, rnd.kitty_twice)):
                wrong = True
                where.append(_Field(raw, "kitty"))
        if wrong:
            self.fail(self.error("record_hands_mismatch", *where, hands, raw, round=r, code=code))

    def read_trick(self, game: Game, rnd: Round, r: int, k: int, raw: object, tricks: list[object],
                   moves: list[Move], last: bool) -> None:
        name = f"rounds.{r}.tricks.{k}"
        n = rnd.players
        raw = self.mapping(raw, name, tricks)
        cards = raw.get("cards")
        if cards is None:
            raise self.bad_field(f"{name}.cards", "record_missing", raw)
        cards = self.listing(cards, f"{name}.cards", raw)
        if len(cards) > n or not cards or (len(cards) < n and not last):
            raise self.error("record_trick_size", raw, round=r, trick=k, players=n, given=len(cards))
        lead = raw.get("lead")
        if lead is not None and rnd.phase is Phase.PLAY and lead != rnd.leader:
            self.fail(self.error("record_trick_leader", raw, round=r, trick=k,
                                 leader=rnd.leader, given=_scalar(lead)))
        for i, text in enumerate(cards, 1):
            seat = rnd.turn
            if not isinstance(text, str):
                text = _scalar(text)
            try:
                card = parse_card(text)
            except CardParseError as e:
                raise self.error("record_bad_move", raw, round=r, trick=k, position=i, seat=seat,
                                 card=text, reason=_problem("bad_card", text=e.text)) from None
            if rnd.phase is not Phase.PLAY:  # passing still open, or the round is finished
                from ..play.verdicts import Reason

                detail = "wrong_phase_over" if rnd.over else "wrong_phase_pass"
                raise self.error("record_bad_move", raw, round=r, trick=k, position=i,
                                 card=card, reason=Reason("wrong_phase", card, detail=detail))
            move = Move.playing(game, card)
            try:
                move.apply(game)
            except IllegalMove as e:
                raise self.error("record_bad_move", raw, round=r, trick=k, position=i, seat=seat,
                                 card=card, reason=e.reason) from None
            moves.append(move)
        if len(cards) == n:
            done = rnd.tricks[-1]
            won, points = raw.get("won"), raw.get("points")
            if (won is not None and won != done.winner) or (points is not None and points != done.points):
                self.fail(self.error("record_trick_mismatch", raw, round=r, trick=k,
                                     won=_scalar(won), points=_scalar(points),
                                     actual_won=done.winner, actual_points=done.points))

    def check_score(self, rnd: Round, r: int, raw: dict[object, object]) -> None:
        score = raw.get("score")
        moon = raw.get("moon")
        result = rnd.result
        if score is not None:
            if result is None:
                self.fail(self.error("record_score_early", _Field(raw, "score"), raw, round=r))
            elif score != list(result.scores):
                self.fail(self.error("record_score_mismatch", _Field(raw, "score"), raw, round=r,
                                     recorded=_flow(score), actual=_flow(result.scores)))
        if moon is not None and result is not None and moon != result.shooter:
            self.fail(self.bad_field(f"rounds.{r}.moon", "record_want_value", _Field(raw, "moon"), raw,
                                     expected=_scalar(result.shooter)))

    def check_end(self, game: Game, d: dict[object, object]) -> None:
        totals = d.get("totals")
        if totals is not None and totals != list(game.totals):
            self.fail(self.error("record_totals_mismatch", _Field(d, "totals"), d, recorded=_flow(totals),
                                 actual=_flow(game.totals)))
        result = d.get("result")
        if result is None:
            return
        if not game.over:
            self.fail(self.error("record_result_early", result, d))
            return
        if not isinstance(result, dict):
            self.fail(self.bad_field("result", "record_want_mapping", d))
            return
        winners = result.get("winners")
        if winners is not None and winners != list(game.winners):
            self.fail(self.error("record_result_mismatch", _Field(result, "winners"), result, field="winners",
                                 recorded=_flow(winners), actual=_flow(game.winners)))
        standings = result.get("standings")
        expected = [{"place": p, "seat": s, "total": v} for p, s, v in game.standings()]
        if standings is not None and standings != expected:
            self.fail(self.error("record_result_mismatch", standings, _Field(result, "standings"), result,
                                 field="standings",
                                 recorded=_flow(standings), actual=_flow(expected)))


def _read_annotations(problems: _Problems, raw: object, moves: list[Move],
                      rounds: int) -> dict[Position, Annotation]:
    """The annotations of a record, each on a move it has (or a round); a bad one is a problem."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.fail(problems.bad_field("annotations", "record_want_mapping", problems.data))
        return {}

    def bad(key: str, problem: _Problem, *at: object) -> None:
        problems.fail(problems.error("record_bad_annotation", *at, raw, key=key, problem=problem))

    known = {m.position for m in moves} | {Position(r) for r in range(1, rounds + 1)}
    out: dict[Position, Annotation] = {}
    for key, body in raw.items():
        try:
            pos = Position.parse(key)
        except ValueError:
            bad(_scalar(key), _problem("record_ann_position"))
            continue
        if pos not in known:
            bad(str(pos), _problem("record_ann_missing"))
            continue
        if isinstance(body, str):
            body = {"comment": body}  # forgiving: a bare comment
        if not isinstance(body, dict):
            bad(str(pos), _problem("record_want_mapping"))
            continue
        glyph = body.get("glyph") or ""
        comment = body.get("comment")
        comment = "" if comment is None else comment
        if glyph not in GLYPHS and glyph != "":
            bad(str(pos), _problem("record_ann_glyph", glyphs=" ".join(GLYPHS)), body)
            continue
        out[pos] = Annotation(glyph, comment if isinstance(comment, str) else _scalar(comment))
    return out
