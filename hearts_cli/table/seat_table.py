"""What a seat's table offers the person at it: the seam between the REPL and a game.

The REPL (``repl/``) holds one :class:`SeatTable` and asks it everything: the
seat's view, why a card may or may not be played, the legal cards, the moves,
the hint, and the game's standing (rules, code, totals). A person's own table
(:class:`~hearts_cli.table.local.LocalTable`, ``hearts play``) answers from its
game; a seat at a shared table (:class:`~hearts_cli.table.remote.RemoteTable`,
``hearts join``) from what its seat was told. Both declare the protocol, so a
method with the wrong signature fails the type check; what one of them cannot
do is said by its :class:`Capabilities`, not found by probing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..base.values import Frozen

if TYPE_CHECKING:
    from ..model.cards import Card
    from ..model.rules import Rules
    from ..play.dealt import RoundResult
    from ..play.round import SeatView
    from ..play.verdicts import Verdict
    from ..records.hint import Hint
    from ..records.record_parts import Seat
    from .seats import SeatClient


class Capabilities(Frozen):
    """What a table allows the person at it beyond moves and ``why``."""

    __match_args__ = __slots__ = ("own", "undo", "hints")
    own: bool  # a game of one's own: kept here, code shown from the start, auto, finish, log, a new game
    undo: bool  # a move taken back (``undo``)
    hints: bool  # ``hint`` (at a shared table, when its host allows them)

    def __init__(self, own: bool, undo: bool, hints: bool):
        for name, value in zip(self.__slots__, (own, undo, hints)):
            object.__setattr__(self, name, value)


class SeatTable(Protocol):
    """A table as one seat's person uses it (``seat`` is theirs in every call)."""

    @property
    def capabilities(self) -> Capabilities: ...

    # ------------------------------------------------------------ the game's standing

    @property
    def rules(self) -> Rules: ...

    @property
    def code(self) -> str | None:
        """The game's code; None at a shared table until the end (it would reveal every deal)."""

    @property
    def game_over(self) -> bool: ...

    @property
    def round_number(self) -> int:
        """The round under way (or the last one), counted from 1."""

    @property
    def totals(self) -> tuple[int, ...]:
        """The game's totals so far."""

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """What each finished round scored."""

    @property
    def round_result(self) -> RoundResult | None:
        """The round's result once it is over (public then)."""

    def record_seats(self) -> tuple[Seat, ...]: ...

    def seat_name(self, seat: int) -> str:
        """The name the table gives ``seat`` (at a shared table, a person's own)."""

    # ------------------------------------------------------------ the seat's round

    def view(self, seat: int) -> SeatView: ...

    def why(self, seat: int, card: Card) -> Verdict:
        """Whether ``seat`` may play ``card`` now, and what it would do."""

    def legal(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may play now (none when it is not to play)."""

    def to_move(self, seat: int) -> bool:
        """Whether the table waits for ``seat``'s move now (its pass, card, or moon choice),
        as far as the seat knows; True once the game is over."""

    # ------------------------------------------------------------ the seat's moves and requests

    def pass_cards(self, seat: int, cards: Sequence[Card], by: str) -> None: ...

    def play(self, seat: int, card: Card, by: str) -> None: ...

    def choose_moon(self, seat: int, choice: str, by: str) -> None: ...

    def moon_default(self) -> str:
        """The shooter's better choice (what Enter alone chooses)."""

    def hint(self, seat: int) -> Hint: ...

    # ------------------------------------------------------------ the table's life, as its client drives it

    def attach(self, seat: int, client: SeatClient) -> None: ...

    def announce(self, seat: int, resumed: bool = False) -> None: ...

    def cpu_step(self) -> bool:
        """One step of the table's clock (a CPU move; a message from the host): True if one was made."""

    def take_over(self, seat: int, by: str) -> None: ...

    def auto(self, seat: int) -> bool:
        """Whether the CPU plays for the person at ``seat`` this round."""

    def points_left(self) -> bool: ...

    def save(self) -> None: ...
