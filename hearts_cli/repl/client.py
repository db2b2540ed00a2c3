"""The person's seat as a client of its table: the front-end plumbing of the REPL.

:class:`TableClient` is the in-process client of one
:class:`~hearts_cli.table.seat_table.SeatTable` (a game of one's own, or in
``hearts join`` a seat at a shared table): it reads the table's state, names the
seats, words messages, and hands every event to its front end (the
prompt-toolkit session, the line-by-line batch mode, a test). What only one kind
of table allows it reaches through the capabilities the table hands out (``own``,
``news``). It does no I/O of its own. What the person types is read above it
(:mod:`.table`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.jsonvalue import JsonObject
from ..model.cards import Card, HandOrder
from ..model.codes import new_code
from ..model.rules import Moon, Rules
from ..model.seating import place_name, seat_place, shown_name
from ..play.dealt import Phase
from ..play.events import (
    Deal,
    Error,
    Event,
    GameEnd,
    Info,
    Lead,
    MoonChoice,
    Pass,
    Play,
    Resume,
    RoundEnd,
    Saved,
    Start,
    TrickDone,
    Undo,
)
from ..play.game import Game
from ..play.round import SeatView
from ..table.keeping import Keeper
from ..table.local import LocalTable
from ..table.seat_table import News, OwnTable, SeatTable
from ..table.seats import SeatClient
from ..text.catalog import t

if TYPE_CHECKING:  # types only: nothing to build at start-up
    from typing import TypedDict

    from ..play.verdicts import Verdict
    from ..records.record_parts import Seat
    from ..store.saves import Store

    class MoonWords(TypedDict):
        """What the shooter's question says: the two words to type, the points, the default in words."""

        minus: str
        others: str
        points: int
        default: str


RECENT = 80  # the table's events kept for `again`: more than a trick's at eleven players, and a round's end


class FrontEnd:
    """What shows a table to its one person: the prompt-toolkit session, the line-by-line batch
    mode, a test. It is told every event of the table, in order, through :meth:`event`; the
    table never prints. (``hearts join`` is the front end of a seat at a shared table.)"""

    def event(self, ev: Event) -> None:
        """One event of the table (the same vocabulary as every other program: docs/events.md)."""

    def again(self, events: Sequence[Event]) -> None:
        """The last events of the table told once more (``again``): by default as they came;
        a front end that shows them says them again without pausing or counting them twice."""
        for ev in events:
            self.event(ev)


class _Calls(FrontEnd):
    """A front end made of a function (tests, and callers that pass ``emit=``)."""

    def __init__(self, fn: Callable[[Event], None]):
        self.fn = fn

    def event(self, ev: Event) -> None:
        self.fn(ev)


class TableClient(SeatClient):
    """A game seen from the person's seat: the table asked what the seat may know (its
    :class:`~hearts_cli.table.seat_table.SeatTable`), the seats named, and the events (the
    table's and the person's own) handed to the front end."""

    def __init__(self, game: Game | None, seats: Sequence[Seat], *, lang: str, ascii: bool = False,
                 confirm: bool = True, store: Store | None = None,
                 emit: Callable[[Event], None] | None = None, undo: bool = True, undos: int = 0,
                 front: FrontEnd | None = None, core: SeatTable | None = None, count: bool = False,
                 hand_order: HandOrder | None = None):
        # the table: a local game's own (in-process, made here from ``game``), or a seat's at a
        # shared table (``core``: table/remote.py's, which sends the person's moves to the host)
        if core is None:
            assert game is not None, "a game of one's own, or a seat's table"
            core = LocalTable(game, seats, store=store, undos=undos, lang=lang)
        self.core: SeatTable = core
        # what only one kind of table allows, as the table hands it out: a game of one's own
        # (undo, auto, the save...), or a shared table's news
        self.own: OwnTable | None = core.own()
        self.news: News | None = core.news()
        self.local: bool = self.own is not None
        self.keeper: Keeper = self.own.keeper if self.own is not None else Keeper(None)
        self.me: int = core.person
        self.lang = lang
        self.ascii = ascii
        self.confirm = confirm
        self.front: FrontEnd = front or (_Calls(emit) if emit is not None else FrontEnd())
        self.selection: list[Card] = []  # cards chosen to pass, in the order chosen
        self.pending: Card | None = None  # a card entered once, waiting for confirmation
        self.verdict: Verdict | None = None  # the pending card's verdict, judged when it was entered
        self.dirty = True  # the table changed since it was last shown
        self.failed = False  # the last line was refused (batch mode stops on it)
        self.stops = True  # the last line refused was a move, not a command (batch mode stops on it)
        self.events: deque[Event] = deque(maxlen=500)  # the latest events, newest last
        self.told: deque[Event] = deque(maxlen=RECENT)  # the table's own events (not answers), for `again`
        self.undo_allowed = undo  # `undo: false` in settings.yaml turns it off
        self.count_line = count  # `count: true` in settings.yaml: the toolbar counts the cards out
        self.hand_order = hand_order or HandOrder()  # `sort:` in settings.yaml: how the hand is shown
        self.told_how_to_leave = False  # Ctrl-C with nothing to cancel says it once
        # `new` or `replay-deal` asked about while the game is unfinished (the command's key), and
        # the one the line being handled answers: typed again (or Enter, or yes) it leaves the game
        self.leaving: str | None = None
        self.answering: str | None = None
        # whom the table waits for, as its events tell it (a seat, "passes": this seat's pass is
        # made), or None: the view says. A shared table sends the view only at the seat's own
        # decisions, so between them the events are newer than the view.
        self.waits_for: int | str | None = None
        self.core.attach(self.me, self)

    # ------------------------------------------------------------ what the seat knows, asked of its table

    @property
    def rules(self) -> Rules:
        return self.core.rules

    @property
    def over(self) -> bool:
        return self.core.game_over

    @property
    def code(self) -> str | None:
        """The game's code (None at a shared table until the end: it would reveal every deal)."""
        return self.core.code

    @property
    def round_number(self) -> int:
        return self.core.round_number

    @property
    def started(self) -> bool:
        """Whether the seat has its view yet (a shared table's comes after its welcome)."""
        return self.news is None or self.news.started

    def view(self) -> SeatView:
        """The person's seat view: everything they may know of the round."""
        return self.core.view(self.me)

    def why(self, card: Card) -> Verdict:
        """Whether the person may play ``card`` now, and what it would do: asked of the table."""
        return self.core.why(self.me, card)

    def legal(self) -> tuple[Card, ...]:
        """The cards the person may play now (none while it is not their card to play)."""
        return self.core.legal(self.me)

    @property
    def game(self) -> Game:
        """The whole game: a person's own table only (a seat at a shared table never holds it)."""
        assert self.own is not None, "a shared table's seat holds no game"
        return self.own.game

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.core.record_seats()

    @property
    def store(self) -> Store | None:
        store: Store | None = self.keeper.store
        return store

    @property
    def undos(self) -> int:
        return self.keeper.undos

    @property
    def archived(self) -> Path | None:
        path: Path | None = self.keeper.archived
        return path

    @archived.setter
    def archived(self, value: Path | None) -> None:
        self.keeper.archived = value

    @property
    def archived_unfinished(self) -> str | None:
        return self.keeper.archived_unfinished

    @archived_unfinished.setter
    def archived_unfinished(self, value: str | None) -> None:
        self.keeper.archived_unfinished = value

    @property
    def auto_round(self) -> int | None:
        """The round the CPU plays for the person (``auto``, ``finish``), or None."""
        return self.own.seats[self.me].auto_round if self.own is not None else None

    @auto_round.setter
    def auto_round(self, value: int | None) -> None:
        if self.own is not None:  # (a shared table's CPU plays for a seat only when its host says)
            self.own.seats[self.me].auto_round = value

    @property
    def finish_offered(self) -> set[int]:
        return self.own.finish_offered if self.own is not None else set()

    def points_left(self) -> bool:
        """Whether any card that scores is still to be played this round."""
        return self.core.points_left()

    def claimed(self) -> bool:
        """Whether this round is being played out by a claim (at a person's own table)."""
        own = self.own
        return own is not None and own.claimed is not None and own.claimed[0] == len(own.game.rounds) - 1

    def moon_default(self) -> str:
        """The better choice for the shooter's match standing (what a CPU would choose)."""
        return self.core.moon_default()

    def moon_words(self) -> MoonWords:
        """What the moon's question says: the two words to type and the default, in words."""
        default = self.moon_default()
        points = self.rules.penalty_total
        return {"minus": self.say("moon_word_minus"), "others": self.say("moon_word_others"),
                "points": points,
                "default": self.say("moon_opt_minus" if Moon(default) is Moon.SHOOTER_MINUS else "moon_opt_others",
                                    points=points)}

    # ------------------------------------------------------------ naming

    @property
    def players(self) -> int:
        return self.rules.players

    def position(self, seat: int) -> str:
        return seat_place(seat, self.me, self.players)

    def round_the_table(self) -> list[int]:
        """The seats from the person's, clockwise (left, across, right...): the order lists use."""
        n = self.players
        return [(self.me + i) % n for i in range(n)]

    def name(self, seat: int) -> str:
        if not self.local:  # a shared table: a person's own name, else the seat's place
            return shown_name(self.core.seat_name(seat), seat, self.me, self.players, self.lang)
        return place_name(self.position(seat), self.lang)

    def level(self, seat: int) -> str | None:
        s = self.seats[seat]
        return None if s.kind == "human" else (s.level or "normal")

    def label(self, seat: int) -> str:
        lvl = self.level(seat)
        if lvl is None:
            return self.name(seat)
        from ..bots import is_program

        if is_program(lvl):  # an outside program (exec:COMMAND): named by its file
            from ..table.program import program_label

            return f"{self.name(seat)} ({t('level_program', self.lang, name=program_label(lvl))})"
        return f"{self.name(seat)} ({t(f'level_{lvl}', self.lang)})"

    def say(self, message_id: str, **params: object) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    # ------------------------------------------------------------ events

    def event(self, ev: Event) -> None:
        """An event of the table, for the person's seat: kept, and shown by the front end."""
        if isinstance(ev, (Pass, Play, RoundEnd, Undo)):
            # (at a shared table the table is drawn when the seat's view comes: decide)
            self.dirty = self.dirty or self.local
            if isinstance(ev, (Play, RoundEnd, Undo)):
                self.pending, self.verdict = None, None
            if isinstance(ev, (RoundEnd, Undo)) or (isinstance(ev, Pass) and ev.seat == self.me):
                self.selection = []
        if isinstance(ev, GameEnd) and not self.local:
            self.dirty = False  # a shared table's last view is no decision to draw
        self.waits_for = self._waits_for(ev)
        if isinstance(ev, GameEnd) and ev.record is not None:  # the table's change of the record, told
            change: object = ev.record
            told = self._record_json(change if isinstance(change, dict) else None)
            ev = ev.replace(record=told)
        if isinstance(ev, Undo):
            self._forget_undone()
        self.told.append(ev)
        self._send(ev)

    def _forget_undone(self) -> None:
        """An undo took back the person's last move and what came after it: those events are
        no longer on the table, so ``again`` must not tell them (it tells what led to the
        position the person is back at, then the undo)."""
        kept = list(self.told)
        for at in range(len(kept) - 1, -1, -1):
            ev = kept[at]
            if isinstance(ev, (Pass, Play)) and ev.seat == self.me:
                del kept[at:]
                break
        else:  # (the move has left the window: nothing kept is known to be still true)
            kept = []
        self.told = deque(kept, maxlen=RECENT)

    def _waits_for(self, ev: Event) -> int | str | None:
        """Whom the table waits for after ``ev`` (see ``waits_for``)."""
        if isinstance(ev, (Lead, MoonChoice)):
            return ev.seat
        if isinstance(ev, Play):
            return (ev.seat + 1) % self.players
        if isinstance(ev, TrickDone):  # its winner leads; a trick set aside (two decks): its leader again
            return ev.winner if ev.winner is not None else ev.leader
        if isinstance(ev, Pass) and ev.seat == self.me:
            return "passes"
        if isinstance(ev, (Deal, RoundEnd, GameEnd, Undo, Start, Resume)):
            return None
        return self.waits_for

    def recent(self) -> list[Event]:
        """The table's events since the person's last move (that move first), or since the game
        was opened: what ``again`` reads once more. Answers to commands are not among them."""
        out: list[Event] = []
        for ev in reversed(self.told):
            out.append(ev)
            if isinstance(ev, (Pass, Play)) and ev.seat == self.me:
                break
            if isinstance(ev, (Start, Resume)):
                break
        out.reverse()
        return out

    def emit(self, ev: Event) -> None:
        """An event of the person's own (a command's answer), shown as the table's are."""
        self._send(ev)

    def attach(self, front: FrontEnd) -> None:
        """The front end that shows this table from now on (the only one: a local game has one person)."""
        self.front = front

    def _send(self, ev: Event) -> None:
        self.events.append(ev)
        self.front.event(ev)

    def info(self, topic: str, text: str) -> None:
        self.emit(Info(topic=topic, text=text))

    def error(self, message_id: str, message: str | None = None, **params: object) -> None:
        self.failed = True
        self.emit(Error(code=message_id, message=message if message is not None else self.say(message_id, **params)))

    def _record_json(self, change: JsonObject | None) -> JsonObject | None:
        """How the game just archived changes the person's record ("3rd win in a row"), for game_end."""
        if change is None:
            return None
        from ..store.stats import change_text

        return {"id": change["id"], "text": change_text(change, self.lang),
                "streak": {"kind": change["kind"], "length": change["length"]},
                "won": change["won"], "played": change["played"]}

    # ------------------------------------------------------------ the table's life

    def decide(self) -> None:
        """The seat has a decision to make: a shared table's news is drawn then (a table of
        one's own is drawn after every move)."""
        if not self.local:
            self.dirty = True

    def save(self) -> None:
        self.core.save()

    def leave(self) -> None:
        """The person leaves before the end: a local game is saved (and says so); a seat at a
        shared table is left to the CPU until the person joins again."""
        if self.news is None:
            self.save()  # a move interrupted (Ctrl-C) between the engine and its save is kept too
            self.emit(Saved())
        else:
            self.news.leave()
            self.info("leave", self.say("net_left"))

    def announce_start(self, resumed: bool = False) -> None:
        news = self.news
        if news is not None:  # who sits where, before the table says anything
            names = ", ".join(shown_name(n, s, self.me, len(news.names), self.lang)
                              for s, n in enumerate(news.names))
            self.info("welcome", self.say("net_welcome", seat=self.me, players=len(news.names), names=names))
        self.core.announce(self.me, resumed)

    def archive_unfinished(self) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        if self.own is not None:  # (a shared table's game is the host's)
            self.own.archive_unfinished()

    def restart(self, same_deal: bool) -> None:
        """"Another game" (a new code) or "replay this deal" (the same code), same rules and seats."""
        own = self.own
        assert own is not None, "another game is asked for at a table of one's own only"
        own.restart(own.game.code if same_deal else new_code())
        self.selection = []
        self.pending, self.verdict = None, None
        self.dirty = True
        self.announce_start()

    # ------------------------------------------------------------ the CPU players (the table's)

    def waiting_for_person(self) -> bool:
        """Whether the next move is the person's (and not the CPU's on their behalf)."""
        if self.over:
            return True
        if self.core.auto(self.me):
            return False
        return self.core.to_move(self.me)

    def forced_card(self) -> Card | None:
        """The card the person must play now, when it is the only legal one (the 2♣ that leads,
        the last card of a hand...); None at a choice, a pass, the moon's question, or
        while it is not their move (a shared table's view may be older than its news)."""
        if not self.started or self.over or not self.waiting_for_person():
            return None
        if self.news is not None and not self.news.decision():
            return None
        if self.view().phase is not Phase.PLAY:
            return None
        legal = self.legal()
        return legal[0] if len(legal) == 1 else None

    def cpu_step(self) -> bool:
        """Make one CPU move if one is due (a CPU seat's, or the person's under ``auto``)."""
        return self.core.cpu_step()

    def play_for_person(self) -> bool:
        """The turn timer ran out: the Normal CPU makes the person's move."""
        if self.over or not self.waiting_for_person():
            return False
        self.selection = []
        self.pending, self.verdict = None, None
        self.core.take_over(self.me, "timer")
        return True
