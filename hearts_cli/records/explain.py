"""``hearts explain``: why a card cannot be played in a position, or what it would do.

A position comes from one of three places:

- the saved game (the seat of the person playing it);
- a game code plus a move list (``--code CODE --moves "..."``): cards in play
  order, separated by spaces or commas. When a round has a pass, its first
  ``pass_count x players`` cards are the passes, seat 0's cards first, then
  seat 1's, and so on; then every card played, in order. The moves may run on
  into later rounds, each starting with its own passes (if any);
- a game record at a position (``--record FILE --at POSITION``), where
  POSITION is ``round.trick.card`` (1-based: the moment that card is about to
  be played), ``round.pass.seat``, or a move number ``N`` (the moment move
  ``N`` of the record is about to be made; a record's moves are each seat's
  pass and each card played). FILE may be a move log too, as ``hearts replay``
  reads one (a file with no ``format:`` line).

The answer is the engine's own :meth:`~hearts_cli.play.round.Round.why`; this
module only builds the position and turns the verdict into plain data. It
does no printing (the command line does that).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.untrusted import MAX_MOVE_LOG_BYTES
from ..base.values import Plain
from ..model.cards import Card, CardParseError, parse_card
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..model.seating import place_name, seat_place
from ..play.dealt import IllegalMove, PassError, Phase
from ..play.game import Game
from ..play.round import Round, SeatView
from ..play.verdicts import Reason, Verdict
from ..text.catalog import t

if TYPE_CHECKING:  # payloads.py is the type checker's; the record reader when a record is read (start-up)
    from ..play.payloads import ExplainJson
    from .record_parts import MoveAddress


class ExplainError(HeartsError):
    """A position that cannot be built; :meth:`message` is one sentence."""

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        params = self.shown_params()
        for key, value in list(params.items()):
            if isinstance(value, (Reason, PassError)):  # about a move in the log: said about its seat
                params[key] = value.message(lang, ascii=ascii, third_person=True)
            elif hasattr(value, "message") and callable(value.message):
                try:
                    params[key] = value.message(lang, ascii=ascii)
                except TypeError:
                    params[key] = value.message(lang)
        return t(self.message_id, lang, ascii=ascii, **params)


class Moment(Plain):
    """A game at some moment, and the seat whose card is being asked about; or, from a
    seat's position text, the round rebuilt from that seat's view (``seen``: no game)."""

    __match_args__ = ("game", "seat", "seen")

    def __init__(self, game: Game | None, seat: int | None, seen: Round | None = None):
        self.game = game
        self.seat = seat  # None: whoever is to move
        self.seen = seen

    @property
    def round(self) -> Round:
        if self.seen is not None:
            return self.seen
        assert self.game is not None
        return self.game.round

    @property
    def code(self) -> str:
        """The game's code; empty when the position has none (a seat's view, hands given)."""
        return self.game.code if self.game is not None else ""

    @property
    def over(self) -> bool:
        return self.game.over if self.game is not None else self.round.phase is Phase.OVER


def from_text(text: str) -> Moment:
    """The position a position text holds (docs/position.md): the whole table's game, or
    what one seat sees (its card is the one asked about)."""
    if text.lstrip().startswith("hearts@"):  # one seat's view
        view = SeatView.from_position(text)
        return Moment(None, view.seat, Round.seen_by(view))
    return Moment(Game.from_position(text), None)


# ---------------------------------------------------------------- building positions


_SPLIT = re.compile(r"[\s,;]+")


def split_moves(text: str | None) -> list[str]:
    """``"2C 3C, QS"`` -> ``["2C", "3C", "QS"]``; multi-word card names are not supported here."""
    if not text:
        return []
    return [w for w in _SPLIT.split(text.strip()) if w]


def from_code(rules: Rules, code: str, moves: str | None = None) -> Game:
    """A new game of ``code`` with the move list applied (see the module's notes)."""

    game = Game(rules, code)  # CodeError from a bad code
    if moves is not None and len(moves) > MAX_MOVE_LOG_BYTES:
        raise ExplainError("movelog_too_big", limit=MAX_MOVE_LOG_BYTES)
    apply_moves(game, split_moves(moves))
    return game


def apply_moves(game: Game, words: list[str]) -> None:
    """Make every move of ``words``, or :class:`ExplainError` naming the first bad one."""
    number = 0
    pending: list[Card] = []
    pending_start = 0
    for word in words:
        number += 1
        if game.over:
            raise ExplainError("explain_game_over", number=number)
        try:
            card = parse_card(word)
        except CardParseError as e:
            mid = "bad_card_hint" if e.suggestions else "bad_card"
            raise ExplainError("explain_bad_move_text", number=number,
                               reason=_Msg(mid, text=e.text, cards=list(e.suggestions))) from None
        rd = game.round
        if rd.phase is Phase.PASS:
            if not pending:
                pending_start = number
            pending.append(card)
            if len(pending) == game.rules.pass_count:
                seat = rd.passes.index(None)
                try:
                    game.push_pass(pending, seat)
                except PassError as e:
                    raise ExplainError("explain_bad_move_text", number=pending_start,
                                       reason=e) from None
                pending = []
            continue
        try:
            game.push(card)
        except IllegalMove as e:
            raise ExplainError("explain_bad_move", number=number, card=card, reason=e.reason) from None
    if pending:
        raise ExplainError("explain_incomplete_pass", seat=game.round.passes.index(None),
                           count=game.rules.pass_count)


class _Msg:
    """A catalog message used as a parameter of another one."""

    def __init__(self, message_id: str, **params: object):
        self.message_id = message_id
        self.params = params

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return t(self.message_id, lang, ascii=ascii, **self.params)


def parse_at(text: str) -> tuple[str, int | MoveAddress]:
    """``"17"`` -> ``("move", 17)``; ``"2.3.1"`` -> ``("position", MoveAddress)``."""
    from .record_parts import MoveAddress  # the record's modules only when a record is read: start-up

    s = text.strip()
    if s.isdigit():
        if int(s) < 1:
            raise ExplainError("cli_bad_position", text=text)
        return ("move", int(s))
    try:
        pos = MoveAddress.parse(s)
    except ValueError:
        raise ExplainError("cli_bad_position", text=text) from None
    if pos.kind == "round":
        raise ExplainError("cli_bad_position", text=text)
    return ("position", pos)


# what read_record says of a file that is no record (it has no `format:` line, or no
# mapping of fields): read as a move log, as `hearts replay FILE` reads it
_NOT_A_RECORD = ("record_is_move_log", "record_not_mapping", "record_not_record")


def from_record(path: str, at: str | None, code: str | None = None, rules: Rules | None = None) -> Moment:
    """The game of record ``path`` just before the move at ``at`` (the end when None).

    A file with no ``format:`` line is a move log, played with its own ``code`` and
    ``rules`` lines or with ``code`` and ``rules`` (a record carries its own code)."""
    from .record import GameRecord  # the record's modules only when a record is read: start-up
    from .record_parts import RecordError
    from .record_reader import read_record

    try:
        record = read_record(Path(path))  # RecordError: a bad file, a bad move in it...
    except RecordError as e:
        # (an empty file with --code: a move log of no moves yet, as hearts replay reads it)
        if e.message_id not in _NOT_A_RECORD and (e.message_id != "record_empty" or code is None):
            raise
        from .movelog import read_movelog  # only when asked for: start-up of the commands that do not

        record = GameRecord.from_game(read_movelog(Path(path), code, rules))
    else:
        if code is not None:
            raise HeartsError("rp_cli_code_with_record", path=path)
    where = None if at is None else parse_at(at)[1]
    try:
        game, _ = record.at(where)
    except LookupError:
        raise ExplainError("cli_no_position", text=at, moves=len(record.moves)) from None
    return Moment(game, None)


def _human_seat(seats: Iterable[object] | None) -> int | None:
    for i, seat in enumerate(seats or ()):
        if getattr(seat, "kind", "human") == "human":
            return i
    return None


def from_save(path: Path) -> Moment:
    """The saved game at ``path``, for the seat of the person playing it.

    Read-only: a save that cannot be read is reported, not moved or changed.
    """
    from .record_parts import RecordError  # the record's modules only when a record is read: start-up
    from .record_reader import read_record

    if not path.exists():
        raise ExplainError("cli_no_save")
    try:
        record = read_record(path)
        game = record.replay()
    except RecordError as e:
        raise ExplainError("cli_save_unreadable", problem=e) from None
    return Moment(game, _human_seat(record.seats))


# ---------------------------------------------------------------- the answer


def explain(position: Moment, card_text: str) -> Verdict:
    """The engine's verdict on ``card_text`` (``CardParseError`` when it names no card)."""
    card = parse_card(card_text)
    rd = position.round
    if rd.phase is Phase.OVER:
        return Verdict(card, False, Reason("wrong_phase", card, detail="wrong_phase_over"))
    seat = position.seat if position.seat is not None else rd.turn
    if seat is None:  # the game is over: nobody is to move
        seat = 0
    return rd.why(card, seat)


def rule_name(verdict: Verdict, lang: str | None) -> str | None:
    if verdict.reason is None:
        return None
    return t(f"rule_{verdict.reason.code}", lang)


def headline(verdict: Verdict, lang: str | None, ascii: bool = False) -> str:
    """``Q♠ cannot be played: follow suit.`` or ``Q♠ can be played.``"""
    if verdict.legal:
        return t("explain_legal", lang, ascii=ascii, card=verdict.card)
    if verdict.reason is not None and verdict.reason.code == "not_in_hand":  # the next line says why
        return t("explain_illegal_plain", lang, ascii=ascii, card=verdict.card)
    return t("explain_illegal", lang, ascii=ascii, card=verdict.card, rule=rule_name(verdict, lang))


def describe_position(position: Moment, lang: str | None, ascii: bool = False) -> str:
    rd = position.round
    code = position.code or t("position_no_code", lang)
    number = rd.round_index + 1
    if position.over:
        return t("explain_position_over", lang, code=code)
    if rd.phase is Phase.PASS:
        return t("explain_position_pass", lang, code=code, round=number,
                 direction=t(f"dir_{rd.direction.value}", lang))
    # the seat to play named as the table names it: "you" for the person's seat (seat 0
    # of a game from --code), the others by where they sit from it
    me = position.seat if position.seat is not None else 0
    where = seat_place(rd.mover, me, rd.players)
    if where == "you":
        return t("explain_position_you", lang, code=code, round=number, trick=len(rd.tricks) + 1)
    return t("explain_position", lang, code=code, round=number, trick=len(rd.tricks) + 1,
             name=place_name(where, lang))


def to_json(position: Moment, verdict: Verdict, lang: str | None, ascii: bool = False) -> ExplainJson:
    """The answer as plain data: the verdict as every surface's ``why`` gives it (``reason``, the
    one error object, with the cards the rule names; or ``effect``), its headline, and the
    position it was asked in, cards canonical."""
    rd = position.round
    seat = position.seat if position.seat is not None else rd.turn
    out: ExplainJson = {**verdict.to_json(verdict.message(lang, ascii)), "headline": headline(verdict, lang, ascii),
                        "position": {
                            "code": position.code or None,
                            "round": rd.round_index + 1,
                            "phase": rd.phase.value,
                            "trick": len(rd.tricks) + 1 if rd.phase is Phase.PLAY else None,
                            "seat": seat,
                            "turn": rd.turn,
                            "trick_cards": [str(c) for c in rd.trick],
                            "hearts_broken": rd.hearts_broken,
                            "hand": [str(c) for c in rd.hand(seat)] if seat is not None else [],
                            "legal": [str(c) for c in rd.legal_cards()] if seat == rd.turn else [],
                        }}
    if verdict.reason is not None and verdict.reason.cards and "reason" in out:
        out["reason"]["cards"] = [str(c) for c in verdict.reason.cards]
    return out


__all__ = [
    "ExplainError",
    "Moment",
    "apply_moves",
    "describe_position",
    "explain",
    "from_code",
    "from_record",
    "from_save",
    "from_text",
    "headline",
    "parse_at",
    "rule_name",
    "split_moves",
    "to_json",
]
