"""Positions in a record: the game before any move, and the table there as data.

:func:`game_at` finds a position (``round.trick.card``, ``round.pass.seat`` or a
move number); :func:`table_at` is the table there as plain data, from one seat or
from above, and :func:`view_event` the seat view of ``hearts replay --at --json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from ..base.jsonvalue import JsonObject
from ..model.cards import Card
from ..model.errors import HeartsError
from ..play.dealt import Phase
from ..play.events import view_event as seat_view_event
from ..play.game import Game
from ..play.round import Round, SeatView
from .record import GameRecord

__all__ = [
    "GivenPosition",
    "NoPositionError",
    "game_at",
    "is_position_text",
    "table_at",
    "text_table",
    "text_view_event",
    "view_event",
    "where",
]


if TYPE_CHECKING:  # types only: nothing to build at start-up
    from ..play.payloads import TrickPlay

    class Where(TypedDict):
        """Where a game stands (:func:`where`)."""

        round: int
        phase: str
        trick: int | None
        card: int | None
        turn: int | None

    class LastTrick(TypedDict):
        """The round's last completed trick: its cards in play order from ``leader``."""

        leader: int
        cards: list[Card]
        winner: int | None
        points: int
        number: int

    class TableData(Where):
        """The table at a position as plain data (:func:`table_at`): where it stands, the seat it
        is seen from, the hands shown, the trick on the table, points, totals, hearts, voids (suits
        as numbers, by seat), the seat's legal cards; in the pass phase the direction and the passes
        shown; once a trick is taken, the last one."""

        code: str
        seat: int
        all_hands: bool
        moves: int | None
        trick_cards: list[TrickPlay]
        hands: dict[int, list[Card]]
        points: list[int]
        totals: list[int]
        scores_before: list[int]
        hearts_broken: bool
        voids: dict[int, list[int]]
        legal: list[Card]
        over: bool
        direction: NotRequired[str]
        passed: NotRequired[dict[int, list[Card]]]
        last_trick: NotRequired[LastTrick]


def where(game: Game) -> Where:
    """Where the game stands: the round, its phase, the trick and card to come, and whose turn it is."""
    return _where(game.round)


def _where(rd: Round) -> Where:
    out: Where = {"round": rd.round_index + 1, "phase": rd.phase.value,
                  "trick": None, "card": None, "turn": None}
    if rd.phase is Phase.PLAY:
        out["trick"] = len(rd.tricks) + 1
        out["card"] = len(rd.trick) + 1
        out["turn"] = rd.turn
    elif rd.phase is Phase.PASS:
        out["turn"] = rd.passes.index(None)
    elif rd.phase is Phase.MOON:  # the shooter is still to choose
        out["turn"] = rd.turn
    return out


class NoPositionError(HeartsError):
    """A position that is not in the record; :meth:`message` is one sentence."""

    def __init__(self, text: str, moves: int):
        self.text = text
        self.moves = moves
        super().__init__("cli_no_position", text=text, moves=moves)


def game_at(record: GameRecord, at: str | None) -> tuple[Game, int]:
    """The game just before the move at ``at`` (``round.trick.card``, ``round.pass.seat``
    or a move number ``N``: before move N), and how many moves were made; the end
    when ``at`` is None. :class:`NoPositionError` when the record has no such position;
    ``explain.ExplainError`` when the text is not a position."""
    from . import explain as ex  # only when asked for: start-up of the commands that do not

    position = None if at is None else ex.parse_at(at)[1]
    try:
        return record.at(position)
    except LookupError:
        raise NoPositionError(str(at), len(record.moves)) from None


def table_at(game: Game, seat: int | None = None, all_hands: bool = False,
             made: int | None = None) -> TableData:
    """The table as plain data: whose turn, the trick on the table, hands (the seat's,
    or every one with ``all_hands``), points taken, totals, hearts, voids, legal cards."""
    return _table(game.round, game.code, game.totals, game.over, seat, all_hands, made)


def _table(rd: Round, code: str, totals: Sequence[int], over: bool, seat: int | None, all_hands: bool,
           made: int | None) -> TableData:
    """:func:`table_at` of a round (a game's, or one rebuilt from a seat's view)."""
    n = rd.players
    now = _where(rd)
    if seat is None:
        seat = now["turn"] if now["turn"] is not None and not over else 0
    shown = range(n) if all_hands else [seat]
    trick: list[TrickPlay] = [{"seat": s, "card": c} for s, c in rd.trick_plays()]
    view = rd.view(seat)
    out: TableData = {
        "code": code, "round": now["round"], "phase": now["phase"], "trick": now["trick"], "card": now["card"],
        "turn": now["turn"], "seat": seat, "all_hands": all_hands,
        "moves": made,
        "trick_cards": trick,
        "hands": {s: list(rd.hand(s)) for s in shown},
        "points": list(rd.points),
        "totals": list(totals),
        "scores_before": list(rd.scores_before),
        "hearts_broken": rd.hearts_broken,
        "voids": {s: sorted(int(x) for x in v) for s, v in enumerate(view.voids) if v},
        "legal": list(rd.legal_cards()) if rd.phase is Phase.PLAY and rd.turn == seat else [],
        "over": over,
    }
    if rd.phase is Phase.PASS:
        out["direction"] = rd.direction.value
        out["passed"] = {s: list(p) for s, p in enumerate(rd.passes)
                         if p is not None and (all_hands or s == seat)}
    if rd.tricks:
        last = rd.tricks[-1]
        out["last_trick"] = {"leader": last.leader, "cards": list(last.cards),
                             "winner": last.winner, "points": last.points,
                             "number": len(rd.tricks)}
    return out



def view_event(game: Game, seat: int | None = None, all_hands: bool = False,
               made: int | None = None) -> JsonObject:
    """The ``view`` event at a position (``--json``): the seat's view (the seat to move
    by default), with the game code, the moves made, and every hand with ``all_hands``."""
    rd = game.round
    if seat is None:
        turn = where(game)["turn"]
        seat = turn if turn is not None and not game.over else 0
    ev = seat_view_event(rd.view(seat), rd.result).replace(code=game.code, moves=made)
    if all_hands:
        ev = ev.replace(hands={str(s): [str(c) for c in rd.hand(s)] for s in range(rd.players)})
    return ev.to_json()


# ---------------------------------------------------------------- a position text (docs/position.md)


def is_position_text(text: str) -> bool:
    """Whether ``--at`` (or ``--position``) is given a position text rather than a move number
    or ``round.trick.card``: it starts with its kind, ``hearts``."""
    return text.lstrip().lower().startswith("hearts")


class GivenPosition:
    """A position text given to ``hearts replay --at`` and ``hearts explain --position``,
    read (:func:`hearts_cli.play.position.parse` gives its fields, a ``PositionText``): a whole
    table's is a game (``game``); a seat's is what that seat sees (``view``, and ``round``, the
    round rebuilt from it, which answers that seat as the game would)."""

    def __init__(self, text: str):
        self.game: Game | None = None
        self.view: SeatView | None = None
        if text.split(None, 1)[0].startswith("hearts@"):
            self.view = SeatView.from_position(text)
            self.round = Round.seen_by(self.view)
            self.code = ""
            self.totals = list(self.view.scores)
            self.over = False
        else:
            self.game = Game.from_position(text)
            self.round = self.game.round
            self.code = self.game.code
            self.totals = list(self.game.totals)
            self.over = self.game.over

    @property
    def seat(self) -> int | None:
        """The seat whose view it is (None: the whole table)."""
        return None if self.view is None else self.view.seat

    def made(self) -> int:
        """The moves made in this round: passes and cards (what the table's heading counts)."""
        rd = self.round
        passes = sum(p is not None for p in rd.passes) if self.view is None else 0
        return passes + sum(len(tr.cards) for tr in rd.tricks) + len(rd.trick)


def text_table(position: GivenPosition, seat: int | None = None, all_hands: bool = False) -> TableData:
    """:func:`table_at` of a position text: a seat's text shows that seat only."""
    if position.view is not None:
        if all_hands or (seat is not None and seat != position.view.seat):
            raise HeartsError("position_one_seat", seat=position.view.seat)
        seat = position.view.seat
    return _table(position.round, position.code, position.totals, position.over, seat, all_hands,
                  position.made())


def text_view_event(position: GivenPosition, seat: int | None = None,
                    all_hands: bool = False) -> JsonObject:
    """:func:`view_event` of a position text (``--json``)."""
    if position.game is not None:
        return view_event(position.game, seat, all_hands, position.made()) | {"code": position.game.code or None}
    view = position.view
    assert view is not None
    if all_hands or (seat is not None and seat != view.seat):
        raise HeartsError("position_one_seat", seat=view.seat)
    return seat_view_event(view, None).replace(code=None, moves=position.made()).to_json()
