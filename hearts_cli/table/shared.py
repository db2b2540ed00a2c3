"""The game table shared over sockets (``hearts host``): the people's seats open with
invitations, their requests come as JSON, and a clock makes the CPU moves as they fall due.

:class:`SharedTable` is the one table (:class:`~hearts_cli.table.game.GameTable`) with a
network client (:class:`~hearts_cli.table.connection.Client`) at each person's seat; the
listener that brings the connections in is :mod:`.server`.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..base.jsonvalue import JsonObject
from ..bots import DEFAULT_LEVELS, seat_levels
from ..model.cards import Card
from ..model.seating import table_names
from ..play.events import SCHEMA, Info, SeatStatus, Takeover, Welcome
from ..play.game import Game
from ..play.replies import Reply
from ..records.record_parts import Seat
from ..store.saves import Store
from ..text.catalog import t
from .connection import Client
from .game import GameTable
from .invitations import new_token
from .program import seat_programs
from .seat_requests import SeatRequests
from .seats import Choice, TableSeat
from .wire import fail, problem

if TYPE_CHECKING:  # a type of the store's, which the table only names
    from .game import Change

RETRY = 1.0  # seconds before the clock makes again a move whose save failed
NAME_MAX = 24



def clean_name(name: object, default: str) -> str:
    """A name a client gave, safe to show: printable characters only, short; else ``default``."""
    if not isinstance(name, str):
        return default
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    kept = " ".join(kept.split())[:NAME_MAX]
    return kept or default


def make_seats(players: int, humans: int, level: str | None) -> list[TableSeat]:
    """Seats 0 .. humans-1 for people (each with a fresh invitation), the rest CPUs; each named
    by its place (seat 0 South, as a record writes it) until its person gives a name."""

    names = table_names(players)
    levels = seat_levels(level, players - humans)
    out = []
    for s in range(players):
        if s < humans:
            out.append(TableSeat(Seat(names[s], "human"), new_token(s)))
        else:
            level = levels[s - humans] if levels else DEFAULT_LEVELS[(s - humans) % 3]
            out.append(TableSeat(Seat(names[s], "cpu", level)))
    return out


def missed_text(missed: Sequence[tuple[str, list[Card]]], lang: str) -> str:
    """What the CPU did for a person while they were away, in one sentence in their language."""

    moves = [t("net_missed_pass" if kind == "pass" else "net_missed_play", lang, cards=cards)
             for kind, cards in missed]
    return t("net_missed", lang, moves="; ".join(moves))


class Counting(Protocol):
    """Where a table's failures are counted (its :class:`~hearts_cli.table.server.Server`)."""

    def count(self, kind: str) -> None: ...


class SharedTable(GameTable):
    """The one table (:class:`~hearts_cli.table.game.GameTable`) adapted to sockets: the people's
    seats open with invitations, their requests come as JSON (:meth:`act`), and a clock
    (:meth:`run`) makes the CPU moves as they fall due (a person's too, out of time or gone)."""

    def __init__(self, game: Game, seats: Sequence[TableSeat], *, turn_timer: float | None = None,
                 delay: float = 0.0, store: Store | None = None, on_change: Callable[[str, Change], None] | None = None,
                 bot_threads: bool = True, hints: bool = False):
        super().__init__(game, seats, store=store, turn_timer=turn_timer)
        for st in self.seats:
            st.joined_once = False
        self.server: Counting | None = None  # the server it is served by (counts what failed)
        self.delay = delay
        if on_change is not None:
            self.on_change = on_change
        self.bot_threads = bot_threads
        self.hints = hints  # whether a person may ask the CPU for a suggestion (`hint`)
        self.requests = SeatRequests(self, hints)
        self.wake = asyncio.Event()
        self.closed = asyncio.Event()
        self.gathering = True  # until every person's seat is taken (or the turn timer ran out): run's gather
        # the moves the CPU made for a person while they were away, by seat: told when they are back
        self.missed: dict[int, list[tuple[str, list[Card]]]] = {}

        self.programs = seat_programs(self)  # outside programs at CPU seats (exec:COMMAND), if any

    # ------------------------------------------------------------ clients

    def attach(self, seat: int, client: Client, name: str | None = None) -> None:  # type: ignore[override]
        """A person takes (or takes back) the seat: welcome, the game so far, the view."""
        st = self.seats[seat]
        old = st.client
        if isinstance(old, Client) and old is not client:
            # its closing is not a departure: the seat is taken back with its own invitation,
            # and the person it was taken from is told so (in one sentence) before it closes
            old.table = None
            old.send_obj(fail("seat_taken", "net_seat_taken", old.lang))
            old.finish()
        back = st.joined_once
        super().attach(seat, client)
        client.table = self
        if name is not None:
            st.name = clean_name(name, st.name)
        # the turn timer runs on: it measures the seat's decision, not its connection
        client.event(Welcome(schema=SCHEMA, seat=seat, players=self.players, turn_timer=self.turn_timer,
                             hints=self.hints, names=[s.name for s in self.seats]))
        client.send_obj(self.start_event(seat).to_json())
        client.send_obj(self.view_of(seat, history=True))
        missed = self.missed.pop(seat, None)
        if missed:
            client.event(Info(topic="away", text=missed_text(missed, client.lang)))
        if self.gathering:  # the game starts once everybody sits down: who it waits for
            for s, other in enumerate(self.seats):
                if other.human and s != seat and not self.present(s):
                    client.event(SeatStatus(seat=s, name=other.name, status="awaited"))
        self.seats.tell(SeatStatus(seat=seat, name=st.name, status="back" if back else "joined"))
        self.on_change("joined", {"seat": seat, "name": st.name})
        self.wake.set()

    def detach(self, seat: int, client: Client) -> None:
        st = self.seats[seat]
        if st.client is not client:
            return
        st.client = None
        if not self.game.over:
            self.seats.tell(SeatStatus(seat=seat, name=st.name, status="left"))
            self.on_change("left", {"seat": seat, "name": st.name})
        self.wake.set()

    def changed(self) -> None:
        # the clock (run) wakes when it has something to do: a CPU move, a turn timer, the end;
        # a move between people alone leaves it asleep (one task switch a move saved)
        if self.game.over or self.turn_timer or self.due_move() is not None:
            self.wake.set()

    def over(self) -> None:
        super().over()
        for _, c in self.clients():
            c.finish()  # type: ignore[attr-defined]
        self.closed.set()

    def host_closing(self) -> None:
        """The host stops before the game's end (``hearts host`` interrupted): each person is
        told so, in one sentence, before their connection closes: the table is saved, and
        ``hearts host --resume`` may bring it back (not a lost connection to join again)."""
        if self.game.over:
            return
        for _, c in self.clients():
            if isinstance(c, Client):
                c.table = None  # (a departure nobody is told of: the table is going)
                c.send_obj(fail("host_closed", "net_host_closed", c.lang))
                c.finish()

    def apply(self, seat: int, by: str, choice: Choice) -> None:
        """A CPU's move (:meth:`GameTable.apply`); one made for a person who is away is kept,
        to be told to them when they are back."""
        passing = self.game.round.phase.value == "pass"
        super().apply(seat, by, choice)
        if by != "away":
            return
        missed = self.missed.setdefault(seat, [])
        if passing and isinstance(choice, tuple):
            missed.append(("pass", sorted(choice)))
        elif isinstance(choice, Card):
            if missed and missed[-1][0] == "play":
                missed[-1][1].append(choice)
            else:
                missed.append(("play", [choice]))

    # ------------------------------------------------------------ a person's requests

    def act(self, seat: int, request: JsonObject, lang: str) -> Reply:
        """The reply to one request of the person at ``seat`` (moves are told as events too)."""
        return self.requests.act(seat, request, lang)

    # ------------------------------------------------------------ the clock

    def next_deadline(self) -> float | None:
        if not self.turn_timer:
            return None
        times = [st.due_since + self.turn_timer for s, st in enumerate(self.seats)
                 if st.human and st.due_since is not None and self.present(s)]
        return min(times) if times else None

    async def gather(self) -> None:
        """Before the first move (a new table, or one brought back): wait until every person's
        seat is taken, at most one turn timer when there is one."""
        deadline = time.monotonic() + self.turn_timer if self.turn_timer else None
        while not all(self.present(s) for s, st in enumerate(self.seats) if st.human):
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                self.gathering = False
                return
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                self.gathering = False
                return
        self.gathering = False
        self._mark_due()
        for st in self.seats:  # everybody's clock starts now
            if st.due_since is not None:
                st.due_since = time.monotonic()
        due = set(self.due())
        for s, c in self.clients():  # the game is on: the seats it waits for are told again
            if s in due:
                c.decide()

    def failed(self, e: BaseException) -> None:
        """A move the table could not make (its save failed: the move was taken back): counted
        and told once on the host's terminal; the clock tries again after ``RETRY`` seconds."""
        if self.server is not None:
            self.server.count("save")
        self.on_change("failed", {"problem": problem(e)})

    async def run(self) -> None:
        """Make the CPU moves as they fall due (:meth:`GameTable.due_move`) until the game is over.

        A move whose save fails (no descriptor left, a full disk) is taken back
        (:meth:`GameTable._keep`) and made again a moment later: the game goes on, saved."""
        if not self.game.over and self.moves == 0 and self.keeper.store is not None:
            self.save()
        await self.gather()
        while not self.game.over:
            try:
                await self._step()
            except Exception as e:  # the position is as it was: try again in a moment
                self.failed(e)
                await asyncio.sleep(RETRY)

    async def _step(self) -> None:
        """One turn of the clock: a move due now, or a wait until one may be."""
        now = time.monotonic()
        move = self.due_move(now)
        if move is None:
            deadline = self.next_deadline()
            self.wake.clear()
            timeout = None if deadline is None else max(0.0, deadline - now)
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                pass
            return
        seat, by = move
        if by != "cpu" or self.delay:
            # a person's seat: say so first; a pause lets people follow the CPUs
            if by in ("timer", "away"):
                self.seats.tell(Takeover(seat=seat, reason=by))
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.game.over or self.due_move(time.monotonic()) != move:
                return  # a person came back (or moved) during the pause
        before = self.moves
        level = self.level_for(seat, by)
        view = self.game.round.view(seat)  # made here: the game may move on while the CPU thinks
        if self.bot_threads:
            choice = await asyncio.to_thread(self.suggest, seat, level, view)
        else:
            await asyncio.sleep(0)  # never a run of CPU moves without letting the clients in
            choice = self.suggest(seat, level, view)
        if self.moves != before or self.game.over or self.due_move(time.monotonic()) != move:
            return  # the person moved (or came back) meanwhile
        self.apply(seat, by, choice)

