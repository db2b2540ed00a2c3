"""One table: a game, its seats, and whoever sits at them (``hearts play`` and ``hearts host``).

:class:`GameTable` runs the game: the deal, the passes, the CPU seats' moves,
a person's move made by the CPU when their turn timer runs out, when they have
gone or asked for it (``auto``), the shooter's choice, the save written before
anything is told (:mod:`.keeping`), the end of a round and of the game. It does no
I/O and makes no text: what happens is told as events (:mod:`hearts_cli.play.events`)
to the :class:`~hearts_cli.table.seats.SeatClient` at each seat, each event built for
that seat only (another seat's hand, pass or received cards never reach it: :mod:`.seats`).

A local game (``hearts play``) is :class:`~hearts_cli.table.local.LocalTable`: this
table with one in-process client and the local requests a person's own game allows
(``undo``, ``auto``, ``finish``, a new game at the same table). ``hearts host`` adapts
the same table to sockets (:mod:`hearts_cli.table.shared`).

Every CPU move is a function of the seat's view and a seed derived from the
game code only, so a resumed game (or one taken back with ``undo``) makes
exactly the moves an uninterrupted one would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict

from ..base.jsonvalue import JsonObject
from ..bots import is_program, suggest, suggest_moon, suggest_pass, suggest_play
from ..model.cards import Card
from ..model.codes import seed_for
from ..model.rules import Moon
from ..play.dealt import Phase
from ..play.events import HeartsBroken, Pass, Play, Resume, Start, Tie, View, Waiting
from ..play.game import Game
from ..play.round import SeatView
from ..records.record_parts import Seat
from ..store.saves import Store
from . import news
from .keeping import Keeper
from .seats import Choice, SeatClient, Seats, TableSeat

TAKEOVER_LEVEL = "normal"  # the CPU that plays for a person (auto, timer, gone)



class Refused(Exception):
    """A request the table does not grant: ``code`` names why (a message id, or the stable code
    of several: ``said`` then names the sentence)."""

    def __init__(self, code: str, message: str | None = None, said: str | None = None, **params: object):
        super().__init__(code)
        self.code = code
        self.message = message  # already said (a shared table's own sentence), else None
        self.said = said or code  # the message id that says it, with ``params`` (a code may have several)
        self.params = params


if TYPE_CHECKING:  # types only: nothing to build at start-up
    class Change(TypedDict, total=False):
        """What a table tells whoever runs it (``on_change``): a seat ``joined`` or ``left``
        (``seat``, ``name``), the game is ``over`` (``code``, ``archived``: the file, if any), a
        move ``failed`` to be saved (``problem``)."""

        seat: int
        name: str
        code: str
        archived: str | None
        problem: str


class GameTable:
    """One game, its seats and their clients: every move of every seat goes through here."""

    me: int | None = None  # (a shared table's seat, as its client: remote.RemoteTable)
    local = False  # a person's own table (LocalTable): the code shown from the start

    def __init__(self, game: Game, seats: Sequence[TableSeat | Seat], *, store: Store | None = None,
                 turn_timer: float | None = None, undos: int = 0):
        self.game = game
        # who sits where (as a record has them), or seats already at a table (a shared one's)
        self.seats = Seats(s if isinstance(s, TableSeat) else TableSeat(s) for s in seats)
        self.keeper = Keeper(store, undos)  # the save and the archive, written before anything is told
        self.turn_timer = turn_timer
        self.moves = 0  # moves made (a CPU move computed meanwhile checks that none was)
        self.on_change: Callable[[str, Change], None] = lambda what, data: None
        self._mark_due()

    # ------------------------------------------------------------ who is who

    @property
    def players(self) -> int:
        return self.game.rules.players

    def record_seats(self) -> tuple[Seat, ...]:
        return self.seats.recorded()

    def present(self, seat: int) -> bool:
        return self.seats.present(seat)

    def clients(self) -> list[tuple[int, SeatClient]]:
        return self.seats.clients()

    def attach(self, seat: int, client: SeatClient) -> None:
        """``client`` sits at ``seat`` from now on (the only one there)."""
        self.seats.attach(seat, client)

    def due(self) -> list[int]:
        """The seats whose move the game waits for."""
        g = self.game
        if g.over:
            return []
        rd = g.round
        if rd.phase is Phase.PASS:
            return [s for s in range(self.players) if rd.passes[s] is None]
        return [rd.turn] if rd.turn is not None else []

    def _mark_due(self) -> None:
        now = time.monotonic()
        due = set(self.due())
        for s, st in enumerate(self.seats):
            if s in due:
                if st.due_since is None:
                    st.due_since = now
            else:
                st.due_since = None

    def auto(self, seat: int) -> bool:
        """Whether the CPU plays for the person at ``seat`` this round (``auto``, ``finish``)."""
        return self.seats[seat].auto_round == len(self.game.rounds) - 1 and not self.game.over

    # ------------------------------------------------------------ telling

    def start_event(self, seat: int) -> Start:
        """The ``start`` of the game for ``seat``: its code only once it reveals nothing (or
        at a person's own table)."""
        return news.start_event(self.game, self.seats.recorded(), seat, self.local or self.game.over)

    def view_of(self, seat: int, history: bool = False) -> JsonObject:
        """The seat's view (with ``history``, the round's completed tricks too)."""
        return news.view_of(self.game, seat, history)

    def seat_view(self, seat: int, history: bool = False) -> View:
        """The seat's view event (with ``history``, the round's completed tricks too)."""
        return news.seat_view(self.game, seat, history)

    def announce(self, seat: int, resumed: bool = False) -> None:
        """The game told from its start to the client at ``seat``: ``start``, then where a
        saved game carries on, or the deal."""
        client = self.seats[seat].client
        if client is None:
            return
        g = self.game
        client.event(self.start_event(seat))
        rd = g.round
        if resumed:
            client.event(Resume(round=len(g.rounds), trick=len(rd.tricks) + 1, phase=rd.phase.value))
            if rd.phase is Phase.MOON:
                client.event(news.moon_choice_event(g))
        else:
            client.event(news.deal_event(g, seat))
            if rd.phase is Phase.PLAY:  # no pass this round
                client.event(news.lead_event(g))

    def _lead(self) -> None:
        rd = self.game.round
        if rd.phase is Phase.PLAY and rd.first_trick and not rd.trick:
            self.seats.tell(news.lead_event(self.game))

    # ------------------------------------------------------------ durable before told

    def save(self) -> None:
        self.keeper.save(self.game, self.record_seats())

    def _keep(self) -> None:
        """Make the move just made durable, before any client is told of it (:mod:`.keeping`).

        A save that fails raises here, and the move is taken back first (popped: it is the
        top of the game's move stack): a move is saved and told, or refused with the
        position really unchanged.
        """
        try:
            self.keeper.keep(self.game, self.record_seats())
        except BaseException:
            self.game.pop()
            raise

    def _after_move(self) -> None:
        self.moves += 1
        self._mark_due()
        told = set(range(self.players)) if self.game.over else set(self.due())
        for s, c in self.clients():
            if s in told:
                c.decide()
        if self.turn_timer and not self.game.over:
            waiting = [s for s in self.due() if self.seats[s].human and self.present(s)]
            if waiting:
                self.seats.tell(Waiting(seats=waiting, deadline=self.turn_timer))
        if self.game.over:
            self.over()
        self.changed()

    def changed(self) -> None:
        """Something moved (a network table wakes its clock here)."""

    def over(self) -> None:
        """The game is over and told (a network table closes its connections here)."""
        g = self.game
        archived = self.keeper.archived
        self.on_change("over", {"code": g.code, "archived": str(archived) if archived else None})

    # ------------------------------------------------------------ moves (every move goes through these)

    def pass_cards(self, seat: int, cards: Sequence[Card], by: str) -> None:
        """``seat`` passes ``cards``; ``by``: ``person``, ``cpu``, ``auto``, ``timer`` or ``away``."""
        g = self.game
        rd = g.round
        number = len(g.rounds)
        g.push_pass(cards, seat)
        self._keep()
        to = rd.direction.receiver(seat, self.players)
        chosen = sorted(cards)
        self.seats.tell_each(lambda s: Pass(round=number, seat=seat, cards=chosen if s == seat else None,
                                            to=to, by=self.seats.by(seat, by, s)))
        if rd.phase is Phase.PLAY:  # everybody has passed: the exchange is made
            self.seats.tell_each(lambda s: news.receive_event(g, s))
            self._lead()
        self._after_move()

    def play(self, seat: int, card: Card, by: str) -> None:
        """``seat`` (the seat to move) plays ``card``."""
        g = self.game
        rd = g.round
        assert seat == rd.turn
        number, trick_no = len(g.rounds), len(rd.tricks) + 1
        broken = rd.hearts_broken
        done = g.push(card)
        self._keep()
        self.seats.tell_move(seat, by, lambda who: Play(round=number, trick=trick_no, seat=seat, card=card, by=who))
        if not broken and rd.hearts_broken:
            self.seats.tell(HeartsBroken(round=number, trick=trick_no, seat=seat, card=card))
        if done is not None:
            self.seats.tell(news.trick_event(number, trick_no, done))
        if rd.over:
            self._round_end()
        elif rd.phase is Phase.MOON:  # the shooter chooses how the moon scores
            self.seats.tell(news.moon_choice_event(g))
        elif done is not None:
            self._trick_taken()
        self._after_move()

    def _trick_taken(self) -> None:
        """A trick was taken and the round goes on (a person's own table offers ``finish`` here)."""

    def choose_moon(self, seat: int, choice: str, by: str) -> None:
        """The shooter's choice: ``others`` or ``shooter_minus``."""
        self.game.push_moon(choice, seat)
        self._keep()
        self._round_end()
        self._after_move()

    def moon_default(self) -> str:
        """The better choice for the shooter's match standing (what a CPU would choose)."""
        return news.moon_default(self.game)

    def _round_end(self) -> None:
        g = self.game
        self.seats.tell(news.round_end_event(g))
        tie = g.tie()
        if tie is not None:  # the target is reached with a tie for lowest
            seats, lowest, outcome = tie
            self.seats.tell_each(lambda s: Tie(seats=[x for x in self.seats.round_from(s) if x in seats],
                                               total=lowest, policy=g.rules.ties, outcome=outcome))
        if g.over:  # archived (by _keep) before it is told
            self.seats.tell(news.game_end_event(g, self._game_end_extra()))
        else:
            self.seats.tell_each(lambda s: news.deal_event(g, s))
            if g.round.phase is Phase.PLAY:  # no pass this round
                self._lead()

    def _game_end_extra(self) -> dict[str, object]:
        """What else ``game_end`` says (a person's own table: how the game changes their record)."""
        return {}

    # ------------------------------------------------------------ the CPUs and the clock

    def due_move(self, now: float | None = None) -> tuple[int, str] | None:
        """The move the CPU makes now, and for whom: a CPU seat's (``cpu``), or a person's who
        asked for it (``auto``), has gone (``away``) or is out of time (``timer``).

        While passing, the CPU seats pass once every person has (as they always have at a
        local table: taking back a pass takes back the round's passes)."""
        due = self.due()
        if not due:
            return None
        if now is None:
            now = time.monotonic()
        waiting_for_people = False
        for s in due:
            st = self.seats[s]
            if not st.human:
                continue
            why = self._takeover(s, now)
            if why is not None:
                return s, why
            waiting_for_people = True
        if waiting_for_people:
            return None
        return next((s, "cpu") for s in due if not self.seats[s].human)

    def _takeover(self, seat: int, now: float) -> str | None:
        st = self.seats[seat]
        if self.auto(seat) and self.game.round.phase is not Phase.MOON:
            return "auto"  # (cards only: how one's own moon scores is asked, however it was reached)
        if not self.present(seat):
            return "away"
        if self.turn_timer and st.due_since is not None and now - st.due_since >= self.turn_timer:
            return "timer"
        return None

    def level_for(self, seat: int, by: str) -> str:
        return (self.seats[seat].level if by == "cpu" else TAKEOVER_LEVEL) or "normal"

    def suggest(self, seat: int, level: str, view: SeatView | None = None,
                simulations: int | None = None) -> Choice:
        """What the ``level`` CPU would do at ``seat`` now, whatever the phase (from that seat's
        view only): a pass, a card or the shooter's choice, for :meth:`apply`. At a seat of
        an outside program (``exec:``), the program's move; the CPU's when it makes none."""

        if view is None:
            view = self.game.round.view(seat)
        if is_program(level):  # the CPU decides what the program does not
            client = self.seats[seat].client
            choice = client.choose(view) if client is not None else None
            if choice is not None:
                return choice
            news = client.stop_news() if client is not None else None
            if news is not None:  # a program that has stopped: said once, at its first move the CPU makes
                self.seats.tell(news)
            level = TAKEOVER_LEVEL
        return suggest(view, level, seed_for(self.game.code, "cpu", seat), simulations)

    def suggest_pass(self, seat: int, level: str) -> tuple[Card, ...]:
        """The cards the ``level`` CPU would pass from ``seat`` (in the pass phase)."""

        return suggest_pass(self.game.round.view(seat), level, seed_for(self.game.code, "cpu", seat))

    def suggest_play(self, seat: int, level: str) -> Card:
        """The card the ``level`` CPU would play at ``seat`` (at its turn)."""

        return suggest_play(self.game.round.view(seat), level, seed_for(self.game.code, "cpu", seat))

    def suggest_moon(self, seat: int) -> Moon:
        """The shooter's choice the CPU would make at ``seat`` (every level chooses alike)."""

        return suggest_moon(self.game.round.view(seat))

    def apply(self, seat: int, by: str, choice: Choice) -> None:
        """A CPU's choice made at ``seat``: the pass, the card or the shooter's choice."""
        rd = self.game.round
        if rd.phase is Phase.PASS and isinstance(choice, tuple):
            self.pass_cards(seat, list(choice), by)
        elif rd.phase is Phase.MOON:
            self.choose_moon(seat, str(choice), by)
        elif isinstance(choice, Card):
            self.play(seat, choice, by)
        else:
            raise TypeError(f"not a move now: {choice!r}")
