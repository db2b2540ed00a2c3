"""The seats of a table and whoever sits at them: a person's or a CPU's seat, its client,
and how the table's news reaches each client.

Every event is told through :class:`Seats`, to the clients that are there, each
one built for its seat (another seat's hand, pass or received cards never reach
it). :class:`~hearts_cli.table.game.GameTable` decides what is told and when.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.cards import Card
from ..play.events import Event
from ..play.round import SeatView
from ..records.record_parts import Seat

Choice = tuple[Card, ...] | Card | str  # a move: a pass, a card, or the shooter's choice


class SeatClient:
    """Whoever sits at a seat: the in-process REPL, a network connection, a test.

    The table tells it, in order, every event its seat may see (:meth:`event`),
    and when its seat has a decision to make or the game is over
    (:meth:`decide`: a network client sends the seat's view then).
    """

    seat: int | None = None

    def event(self, ev: Event) -> None:
        """One event, built for this seat (the vocabulary of docs/events.md)."""

    def decide(self) -> None:
        """This seat has a decision to make now (or the game just ended)."""

    def gone(self) -> bool:
        """Whether the client has left (its seat is then played by the CPU)."""
        return False

    def choose(self, view: SeatView) -> Choice | None:
        """The seat's move, for a client the table asks (an outside program: ``table/program.py``);
        None: the CPU makes it."""
        return None

    def stop_news(self) -> Event | None:
        """What the table says, once, of a client it asks that has stopped (a program: a
        ``takeover``); None otherwise."""
        return None


class TableSeat:
    """A seat at a table as it is played: who sits there (:class:`Seat`, as the game's record
    keeps it: no conversion when it is saved), the invitation of a person's seat at a shared
    table, and the client sitting there now."""

    def __init__(self, who: Seat, token: str | None = None):
        self.who = who
        self.token = token
        self.client: SeatClient | None = None
        self.due_since: float | None = None  # when its current decision started (turn timer)
        self.joined_once = False
        self.auto_round: int | None = None  # the round the CPU plays for this person (auto, finish)

    @property
    def human(self) -> bool:
        return self.who.kind == "human"

    @property
    def name(self) -> str:
        return self.who.name

    @name.setter
    def name(self, name: str) -> None:  # a person who joins a shared table gives a name
        self.who = Seat(name, self.who.kind, self.who.level)

    @property
    def level(self) -> str | None:
        """A CPU's level (None at a person's seat: the table's takeover level plays it then)."""
        return self.who.level


class Seats(list[TableSeat]):
    """A table's seats, in order (seat 0 first), and the clients sitting at them."""

    def present(self, seat: int) -> bool:
        c = self[seat].client
        return c is not None and not c.gone()

    def clients(self) -> list[tuple[int, SeatClient]]:
        return [(s, st.client) for s, st in enumerate(self) if st.client is not None and not st.client.gone()]

    def attach(self, seat: int, client: SeatClient) -> None:
        """``client`` sits at ``seat`` from now on (the only one there)."""
        st = self[seat]
        st.client = client
        client.seat = seat
        st.joined_once = True

    def recorded(self) -> tuple[Seat, ...]:
        """The seats as a game record writes them (name, kind, level)."""
        return tuple(s.who for s in self)

    def round_from(self, seat: int) -> list[int]:
        """The seats from ``seat``'s, clockwise (left, across, right...): the order lists use."""
        n = len(self)
        return [(seat + i) % n for i in range(n)]

    # ------------------------------------------------------------ telling

    def tell(self, ev: Event) -> None:
        """One event, the same for every seat."""
        for _, c in self.clients():
            c.event(ev)

    def tell_each(self, make: Callable[[int], Event | None]) -> None:
        """An event built for each seat (None: nothing for that one)."""
        for s, c in self.clients():
            ev = make(s)
            if ev is not None:
                c.event(ev)

    def tell_move(self, mover: int, by: str, make: Callable[[str], Event]) -> None:
        """A move told to everyone: one event for the mover and one for the others (``make``
        builds it, given who made the move as that seat is told it)."""
        if by == "person":
            mine, others = make("you"), make("player")
        else:
            mine = others = make(by)
        for s, c in self.clients():
            c.event(mine if s == mover else others)

    @staticmethod
    def by(mover: int, by: str, seat: int) -> str:
        """Who made ``mover``'s move, as ``seat`` is told it (``you``, ``player``, or the CPU's reason)."""
        if by == "person":
            return "you" if seat == mover else "player"
        return by
