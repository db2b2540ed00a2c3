"""Reading a game record: forgiving about spelling (cards in any notation, codes in any case,
unknown top-level keys ignored) and strict about the game: every pass and play is re-played
through the engine, and every derived field a record carries must agree with that replay.
As python-chess's PGN reader, strict (:class:`RecordError` on the first problem) or lenient
(``strict=False``: the problems in ``record.errors``, the moves before the first bad one).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from ..base.untrusted import BOM, DEPTH, MAX_RECORD_BYTES, YamlRefused, decoded, yaml_loader, yaml_problem
from ..base.values import Frozen
from ..model.cards import Card, CardParseError, parse_card
from ..model.codes import CodeError, normalize_code
from ..model.rules import Moon, Rules, RulesError
from ..play.dealt import MOON_CHOICES, IllegalMove, PassError, Phase, better_moon_choice, cards_of_pair
from ..play.game import Game, Move
from ..play.round import Round
from ..text.catalog import os_problem_id
from .record import GameRecord
from .record_parts import (
    FORMAT,
    GLYPHS,
    HEADER,
    MOVE_LOG_MARK,
    SEAT_KINDS,
    Annotation,
    MoveAddress,
    RecordError,
    Seat,
    _Problem,
    _problem,
    default_seats,
)
from .record_writer import yaml_flow, yaml_scalar

if TYPE_CHECKING:  # types only: nothing to build (nor PyYAML to import) at start-up
    from yaml.nodes import Node

    _T = TypeVar("_T")

__all__ = ["MAX_RECORD_BYTES", "archived_date", "iso_day", "looks_like_record", "read_record"]


class _Stop(Exception):
    """Lenient reading: a problem after which the moves cannot go on."""


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


class _Field(Frozen):
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
                raise self.bad_field(name, "record_want_cards", value, *at, text=yaml_scalar(x))
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
            raise self.error("record_bad_format", _Field(d, "format"), d, format=yaml_scalar(fmt), expected=FORMAT)
        program = d.get("program", "")
        program = program if isinstance(program, str) else yaml_scalar(program)
        code = self.read_code(d.get("code"))
        rules = self.read_rules(d.get("rules"))
        seats = self.read_seats(d.get("seats"), rules.players)
        game = Game(rules, code)
        rounds = d.get("rounds")
        if rounds is None:
            rounds = []
        rounds = self.listing(rounds, "rounds", d)
        complete = True
        try:
            for r, raw in enumerate(rounds, 1):
                self.read_round(game, r, raw, rounds)
        except _Stop:
            complete = False
        if complete:
            self.check_end(game, d)
        moves = game.move_stack  # the moves made before the first bad one
        notes = _read_annotations(self, d.get("annotations"), moves, len(game.rounds))
        undos = d.get("undos", 0)
        if undos is None:
            undos = 0
        if not isinstance(undos, int) or isinstance(undos, bool) or undos < 0:
            self.fail(self.bad_field("undos", "record_want_value", _Field(d, "undos"), d, expected="0, 1, 2..."))
            undos = 0
        lang = d.get("lang")  # a language this program speaks, or none (an unknown one is not an error)
        return GameRecord(rules, code, seats, moves, notes, program, FORMAT, self.errors, undos,
                          lang if lang in ("en", "es") else None)

    def read_code(self, raw: object) -> str:
        if raw is None:
            raise self.bad_field("code", "record_missing", self.data)
        try:
            return normalize_code(raw if isinstance(raw, str) else yaml_scalar(raw))
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

    def read_round(self, game: Game, r: int, raw: object, rounds: list[object]) -> None:
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
                    game.push_pass(chosen, key)
                except PassError as e:
                    raise self.error("record_bad_pass", cards, passes, round=r, seat=key, reason=e) from None
            tricks = raw.get("tricks") or []
            tricks = self.listing(tricks, f"{name}.tricks", raw)
            for k, trick in enumerate(tricks, 1):
                self.read_trick(game, rnd, r, k, trick, tricks, last=k == len(tricks))
            self.read_moon_choice(game, rnd, r, raw, more=r < len(rounds))
        except RecordError as e:
            self.fail(e, fatal=True)
        self.check_score(rnd, r, raw)

    def read_moon_choice(self, game: Game, rnd: Round, r: int, raw: dict[object, object], more: bool) -> None:
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
                                         expected=yaml_scalar(moon)))
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
        game.push_moon(choice)

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
                   last: bool) -> None:
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
                                 leader=rnd.leader, given=yaml_scalar(lead)))
        for i, text in enumerate(cards, 1):
            seat = rnd.turn
            if not isinstance(text, str):
                text = yaml_scalar(text)
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
            try:
                game.push(card)
            except IllegalMove as e:
                raise self.error("record_bad_move", raw, round=r, trick=k, position=i, seat=seat,
                                 card=card, reason=e.reason) from None
        if len(cards) == n:
            done = rnd.tricks[-1]
            won, points = raw.get("won"), raw.get("points")
            if (won is not None and won != done.winner) or (points is not None and points != done.points):
                self.fail(self.error("record_trick_mismatch", raw, round=r, trick=k,
                                     won=yaml_scalar(won), points=yaml_scalar(points),
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
                                     recorded=yaml_flow(score), actual=yaml_flow(result.scores)))
        if moon is not None and result is not None and moon != result.shooter:
            self.fail(self.bad_field(f"rounds.{r}.moon", "record_want_value", _Field(raw, "moon"), raw,
                                     expected=yaml_scalar(result.shooter)))

    def check_end(self, game: Game, d: dict[object, object]) -> None:
        totals = d.get("totals")
        if totals is not None and totals != list(game.totals):
            self.fail(self.error("record_totals_mismatch", _Field(d, "totals"), d, recorded=yaml_flow(totals),
                                 actual=yaml_flow(game.totals)))
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
                                 recorded=yaml_flow(winners), actual=yaml_flow(game.winners)))
        standings = result.get("standings")
        expected = [{"place": p, "seat": s, "total": v} for p, s, v in game.standings()]
        if standings is not None and standings != expected:
            self.fail(self.error("record_result_mismatch", standings, _Field(result, "standings"), result,
                                 field="standings",
                                 recorded=yaml_flow(standings), actual=yaml_flow(expected)))


def _read_annotations(problems: _Problems, raw: object, moves: tuple[Move, ...],
                      rounds: int) -> dict[MoveAddress, Annotation]:
    """The annotations of a record, each on a move it has (or a round); a bad one is a problem."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.fail(problems.bad_field("annotations", "record_want_mapping", problems.data))
        return {}

    def bad(key: str, problem: _Problem, *at: object) -> None:
        problems.fail(problems.error("record_bad_annotation", *at, raw, key=key, problem=problem))

    known = {MoveAddress.of(m) for m in moves} | {MoveAddress(r) for r in range(1, rounds + 1)}
    out: dict[MoveAddress, Annotation] = {}
    for key, body in raw.items():
        try:
            pos = MoveAddress.parse(key)
        except ValueError:
            bad(yaml_scalar(key), _problem("record_ann_position"))
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
        out[pos] = Annotation(glyph, comment if isinstance(comment, str) else yaml_scalar(comment))
    return out
