"""The person's seat as a client of its table: the front-end plumbing of the REPL.

:class:`TableClient` is the in-process client of a
:class:`~hearts_cli.table.local.LocalTable` (or, in ``hearts join``, of a
:class:`~hearts_cli.table.remote.RemoteTable`): it reads the table's state,
names the seats, words messages, and hands every event to its front end (the
prompt-toolkit session, the line-by-line batch mode, a test). It does no I/O of
its own. What the person types is read above it (:mod:`.table`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..model.cards import Card
from ..model.codes import new_code
from ..model.rules import Moon
from ..model.seating import place_name, seat_place, shown_name
from ..play.engine import Game, Phase
from ..play.events import Event, GameEnd, Lead, MoonChoice, Pass, Play, TrickDone
from ..table.local import LocalTable
from ..table.seats import SeatClient
from ..text.catalog import t


class FrontEnd:
    """What shows a table to its one person: the prompt-toolkit session, the line-by-line batch
    mode, a test. It is told every event of the table, in order, through :meth:`event`; the
    table never prints. (``hearts join`` is the front end of a seat at a shared table.)"""

    def event(self, ev: Event) -> None:
        """One event of the table (the same vocabulary as every other program: docs/events.md)."""


class _Calls(FrontEnd):
    """A front end made of a function (tests, and callers that pass ``emit=``)."""

    def __init__(self, fn: Callable[[Event], None]):
        self.fn = fn

    def event(self, ev: Event) -> None:
        self.fn(ev)


class TableClient(SeatClient):
    """A game seen from the person's seat: the table's state read in-process, the seats
    named, and the events (the table's and the person's own) handed to the front end."""

    def __init__(self, game: Game, seats: Sequence[Any], *, lang: str, ascii: bool = False,
                 confirm: bool = True, store: Any = None,
                 emit: Callable[[Event], None] | None = None, undo: bool = True, undos: int = 0,
                 front: FrontEnd | None = None, core: Any = None, count: bool = False):
        # the table: a local game's own (in-process), or a seat's at a shared table (``core``:
        # remote.RemoteTable, which sends the person's moves to the host)
        if core is None:
            core = LocalTable(game, seats, store=store, undos=undos)
        self.core: Any = core
        self.local: bool = core.local
        self.me: int = core.me if not self.local else next((i for i, s in enumerate(core.seats) if s.human), 0)
        self.lang = lang
        self.ascii = ascii
        self.confirm = confirm
        self.front: FrontEnd = front or (_Calls(emit) if emit is not None else FrontEnd())
        self.selection: list[Card] = []  # cards chosen to pass, in the order chosen
        self.pending: Card | None = None  # a card entered once, waiting for confirmation
        self.dirty = True  # the table changed since it was last shown
        self.failed = False  # the last line was refused (batch mode stops on it)
        self.stops = True  # the last line refused was a move, not a command (batch mode stops on it)
        self.events: deque[Event] = deque(maxlen=500)  # the latest events, newest last
        self.undo_allowed = undo  # `undo: false` in settings.yaml turns it off
        self.count_line = count  # `count: true` in settings.yaml: the toolbar counts the cards out
        self.told_how_to_leave = False  # Ctrl-C with nothing to cancel says it once
        # whom the table waits for, as its events tell it (a seat, "passes": this seat's pass is
        # made), or None: the view says. A shared table sends the view only at the seat's own
        # decisions, so between them the events are newer than the view.
        self.waits_for: int | str | None = None
        self.core.attach(self.me, self)

    # ------------------------------------------------------------ the table's state, read in-process

    @property
    def game(self) -> Game:
        game: Game = self.core.game
        return game

    @game.setter
    def game(self, game: Game) -> None:
        self.core.game = game

    @property
    def seats(self) -> tuple[Any, ...]:
        seats: tuple[Any, ...] = self.core.record_seats()
        return seats

    @property
    def store(self) -> Any:
        return self.core.keeper.store

    @property
    def undos(self) -> int:
        undos: int = self.core.keeper.undos
        return undos

    @property
    def archived(self) -> Any:
        return self.core.keeper.archived

    @archived.setter
    def archived(self, value: Any) -> None:
        self.core.keeper.archived = value

    @property
    def archived_unfinished(self) -> str | None:
        code: str | None = self.core.keeper.archived_unfinished
        return code

    @archived_unfinished.setter
    def archived_unfinished(self, value: str | None) -> None:
        self.core.keeper.archived_unfinished = value

    @property
    def auto_round(self) -> int | None:
        """The round the CPU plays for the person (``auto``, ``finish``), or None."""
        number: int | None = self.core.seats[self.me].auto_round
        return number

    @auto_round.setter
    def auto_round(self, value: int | None) -> None:
        self.core.seats[self.me].auto_round = value

    @property
    def finish_offered(self) -> set[int]:
        offered: set[int] = self.core.finish_offered
        return offered

    def points_left(self) -> bool:
        """Whether any card that scores is still to be played this round."""
        left: bool = self.core.points_left()
        return left

    def moon_default(self) -> str:
        """The better choice for the shooter's match standing (what a CPU would choose)."""
        choice: str = self.core.moon_default()
        return choice

    def moon_words(self) -> dict[str, Any]:
        """What the moon's question says: the two words to type and the default, in words."""
        default = self.moon_default()
        points = self.game.rules.penalty_total
        return {"minus": self.say("moon_word_minus"), "others": self.say("moon_word_others"),
                "points": points,
                "default": self.say("moon_opt_minus" if Moon(default) is Moon.SHOOTER_MINUS else "moon_opt_others",
                                    points=points)}

    # ------------------------------------------------------------ naming

    @property
    def players(self) -> int:
        return self.game.rules.players

    def position(self, seat: int) -> str:
        return seat_place(seat, self.me, self.players)

    def round_the_table(self) -> list[int]:
        """The seats from the person's, clockwise (left, across, right...): the order lists use."""
        n = self.players
        return [(self.me + i) % n for i in range(n)]

    def name(self, seat: int) -> str:
        if not getattr(self, "local", True):  # a shared table: a person's own name, else the seat's place
            return shown_name(self.core.seats[seat].name, seat, self.me, self.players, self.lang)
        return place_name(self.position(seat), self.lang)

    def level(self, seat: int) -> str | None:
        s = self.seats[seat]
        return None if s.kind == "human" else (s.level or "normal")

    def label(self, seat: int) -> str:
        lvl = self.level(seat)
        if lvl is None:
            return self.name(seat)
        return f"{self.name(seat)} ({t(f'level_{lvl}', self.lang)})"

    def say(self, message_id: str, **params: Any) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    # ------------------------------------------------------------ events

    def event(self, ev: Event) -> None:
        """An event of the table, for the person's seat: kept, and shown by the front end."""
        kind = ev.kind
        if kind in ("pass", "play", "round_end", "undo"):
            # (at a shared table the table is drawn when the seat's view comes: RemoteTable)
            self.dirty = self.dirty or self.local
            if kind == "play" or kind == "round_end" or kind == "undo":
                self.pending = None
            if kind == "round_end" or kind == "undo" or (isinstance(ev, Pass) and ev.seat == self.me):
                self.selection = []
        self.waits_for = self._waits_for(ev)
        if isinstance(ev, GameEnd) and ev.record is not None:  # the table's change of the record, told
            change: object = ev.record
            told = self._record_json(change if isinstance(change, dict) else None)
            ev = Event("game_end", ev.data | {"record": told})
        self._send(ev)

    def _waits_for(self, ev: Event) -> int | str | None:
        """Whom the table waits for after ``ev`` (see ``waits_for``)."""
        kind = ev.kind
        if isinstance(ev, (Lead, MoonChoice)):
            return ev.seat
        if isinstance(ev, Play):
            return (ev.seat + 1) % self.players
        if isinstance(ev, TrickDone):  # its winner leads; a trick set aside (two decks): its leader again
            return ev.winner if ev.winner is not None else ev.leader
        if isinstance(ev, Pass) and ev.seat == self.me:
            return "passes"
        if kind in ("deal", "round_end", "game_end", "undo", "start", "resume"):
            return None
        return self.waits_for

    def emit(self, kind: str, **data: Any) -> None:
        self._send(Event(kind, data))

    def attach(self, front: FrontEnd) -> None:
        """The front end that shows this table from now on (the only one: a local game has one person)."""
        self.front = front

    def _send(self, ev: Event) -> None:
        self.events.append(ev)
        self.front.event(ev)

    def info(self, topic: str, text: str) -> None:
        self.emit("info", topic=topic, text=text)

    def error(self, message_id: str, message: str | None = None, **params: Any) -> None:
        self.failed = True
        self.emit("error", code=message_id,
                  message=message if message is not None else self.say(message_id, **params))

    def _record_json(self, change: dict[str, Any] | None) -> dict[str, Any] | None:
        """How the game just archived changes the person's record ("3rd win in a row"), for game_end."""
        if change is None:
            return None
        from ..store.stats import change_text

        return {"id": change["id"], "text": change_text(change, self.lang),
                "streak": {"kind": change["kind"], "length": change["length"]},
                "won": change["won"], "played": change["played"]}

    # ------------------------------------------------------------ the table's life

    def save(self) -> None:
        self.core.save()

    def leave(self) -> None:
        """The person leaves before the end: a local game is saved (and says so); a seat at a
        shared table is left to the CPU until the person joins again."""
        if self.local:
            self.save()  # a move interrupted (Ctrl-C) between the engine and its save is kept too
            self.emit("saved")
        else:
            self.core.leave()
            self.info("leave", self.say("net_left"))

    def announce_start(self, resumed: bool = False) -> None:
        self.core.announce(self.me, resumed)

    def archive_unfinished(self) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        self.core.archive_unfinished()

    def restart(self, same_deal: bool) -> None:
        """"Another game" (a new code) or "replay this deal" (the same code), same rules and seats."""
        self.core.restart(self.game.code if same_deal else new_code())
        self.selection = []
        self.pending = None
        self.dirty = True
        self.announce_start()

    # ------------------------------------------------------------ the CPU players (the table's)

    def suggest(self, seat: int, level: str) -> Any:
        return self.core.suggest(seat, level)

    def waiting_for_person(self) -> bool:
        """Whether the next move is the person's (and not the CPU's on their behalf)."""
        g = self.game
        if g.over:
            return True
        rd = g.round
        if self.core.auto(self.me):
            return False
        if rd.phase is Phase.PASS:
            return rd.passes[self.me] is None
        return rd.turn == self.me

    def forced_card(self) -> Card | None:
        """The card the person must play now, when it is the only legal one (the 2♣ that leads,
        the last card of a hand...); None at a choice, a pass, the moon's question, or
        while it is not their move (a shared table's view may be older than its news)."""
        g = self.game
        if g is None or g.over or g.round is None or not self.waiting_for_person():
            return None
        if not self.local and not self.core.decision():
            return None
        rd = g.round
        if rd.phase is not Phase.PLAY:
            return None
        legal = rd.legal_cards()
        return legal[0] if len(legal) == 1 else None

    def cpu_step(self) -> bool:
        """Make one CPU move if one is due (a CPU seat's, or the person's under ``auto``)."""
        stepped: bool = self.core.cpu_step()
        return stepped

    def play_for_person(self) -> bool:
        """The turn timer ran out: the Normal CPU makes the person's move."""
        if self.game.over or not self.waiting_for_person():
            return False
        self.selection = []
        self.pending = None
        self.core.take_over(self.me, "timer")
        return True
