"""What a seat's table offers the person at it: the seam between the REPL and a game.

The REPL (``repl/``) holds one :class:`SeatTable` and asks it everything: the
seat's view, why a card may or may not be played, the legal cards, the moves,
the hint, and the game's standing (rules, code, totals). A person's own table
(:class:`~hearts_cli.table.local.LocalTable`, ``hearts play``) answers from its
game; a seat at a shared table (:class:`~hearts_cli.table.remote.RemoteTable`,
``hearts join``) from what its seat was told. Both declare the protocol, so a
method with the wrong signature fails the type check.

What only some tables can do comes as a capability the table hands out, never
found by probing its class: :meth:`SeatTable.own` (:class:`OwnTable`: undo,
auto, finish, claim, concede, the game for its log, another game; None at a
shared table) and :meth:`SeatTable.news` (:class:`News`: a shared table's news,
which comes on its own while the person types; None at a table of one's own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..model.cards import Card
    from ..model.rules import Rules
    from ..play.dealt import RoundResult
    from ..play.game import Game
    from ..play.round import SeatView
    from ..play.verdicts import Verdict
    from ..records.hint import Hint
    from ..records.record_parts import Seat
    from .keeping import Keeper
    from .seats import SeatClient, Seats


class OwnTable(Protocol):
    """What a person's own table allows (``hearts play``): the game itself, kept here; the
    CPU playing the rest of a round for the person; a move taken back; another game."""

    game: Game  # the whole game (its log; its code, for the same deal again)
    keeper: Keeper  # the save and archive, and what the record notes (undos, where the game went)
    seats: Seats  # the seats (a person's ``auto_round``: the round the CPU plays for them)
    finishes_itself: bool  # a person at a terminal: a round with nothing left to decide goes at once
    finish_offered: set[int]  # the rounds where ``finish`` was offered
    claimed: tuple[int, int] | None  # (round index, seat) of this round's claim

    def set_auto(self, seat: int) -> None:
        """``auto``: the CPU plays the rest of this round for the person at ``seat``."""

    def finish(self, seat: int) -> None:
        """``finish``: the CPU plays out a round with no points left (else ``Refused``)."""

    def claim(self, seat: int) -> None:
        """``claim``: the rest of the round at once, the claimant's cards in its order."""

    def concede(self, seat: int) -> None:
        """``concede``: the rest of the round to the seat holding every winning card."""

    def undo(self, seat: int) -> None:
        """``undo``: the seat's last pass or card taken back, with the CPU cards after it."""

    def archive_unfinished(self) -> None:
        """The game put in the archive if it is unfinished (once): another replaces it."""

    def restart(self, code: str) -> None:
        """Another game at the same table: ``code`` a new one, or the same to replay the deal."""


class News(Protocol):
    """A seat at a shared table (``hearts join``): the host's news comes while the person
    types, the seat has decisions only now and then, and leaving leaves the seat to the CPU."""

    @property
    def started(self) -> bool:
        """Whether the seat's first view has come (nothing is asked before it)."""

    names: Sequence[str]  # the names of the seats, as the host told them at the welcome

    def pending(self) -> bool:
        """Whether news has come that the seat has not taken in yet."""

    def decision(self) -> bool:
        """Whether the seat has a decision to make now (or the game is over), as last told."""

    def wake(self, call: Callable[[], None]) -> None:
        """``call`` (from another thread) whenever news comes: the front end stops waiting."""

    def leave(self) -> None:
        """Leave the seat (the CPU plays it until the same invitation comes back)."""


class SeatTable(Protocol):
    """A table as one seat's person uses it (``seat`` is theirs in every call)."""

    def own(self) -> OwnTable | None:
        """What a table of one's own allows; None at a shared table."""

    def news(self) -> News | None:
        """A shared table's news; None at a table of one's own."""

    @property
    def person(self) -> int:
        """The person's seat."""

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
