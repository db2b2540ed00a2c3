"""One table: a game, its seats, and whoever sits at them (``hearts play`` and ``hearts host``).

:class:`GameTable` runs the game: the deal, the passes, the CPU seats' moves,
a person's move made by the CPU when their turn timer runs out, when they have
gone or asked for it (``auto``), the shooter's choice, the save written before
anything is told, the end of a round and of the game, the archive. It does no
I/O and makes no text: what happens is told as events (:mod:`hearts_cli.play.events`)
to the :class:`SeatClient` at each seat, each event built for that seat only
(another seat's hand, pass or received cards never reach it).

A local game (``hearts play``) is a table whose only client is in-process
(:mod:`hearts_cli.repl.table`), with the local requests a person's own game
allows (``undo``, ``auto``, ``finish``, a new game at the same table).
``hearts host`` adapts the same table to sockets (:mod:`hearts_cli.table.server`).

Every CPU move is a function of the seat's view and a seed derived from the
game code only, so a resumed game (or one taken back with ``undo``) makes
exactly the moves an uninterrupted one would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..model.cards import Card, cards_of
from ..model.codes import seed_for
from ..play.engine import Game, Phase
from ..play.events import Event
from ..records.hint import Hint
from . import news

TAKEOVER_LEVEL = "normal"  # the CPU that plays for a person (auto, timer, gone)


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


class Seat:
    """A seat at a table: a person's (with an invitation at a shared table) or a CPU's."""

    def __init__(self, human: bool, token: str | None, name: str, level: str | None):
        self.human = human
        self.token = token
        self.name = name
        self.level = level
        self.client: SeatClient | None = None
        self.due_since: float | None = None  # when its current decision started (turn timer)
        self.joined_once = False
        self.auto_round: int | None = None  # the round the CPU plays for this person (auto, finish)


class Refused(Exception):
    """A request the table does not grant: ``code`` names why (a message id)."""

    def __init__(self, code: str, message: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.message = message  # already said (a shared table's own sentence), else None
        self.params = params


class GameTable:
    """One game, its seats and their clients: every move of every seat goes through here."""

    me: int | None = None  # (a shared table's seat, as its client: join.RemoteTable)

    def __init__(self, game: Game, seats: Sequence[Any], *, store: Any = None,
                 turn_timer: float | None = None, local: bool = False, undos: int = 0):
        self.game = game
        # record seats (name, kind, level) or Seat values
        self.seats: list[Seat] = [s if isinstance(s, Seat) else Seat(s.kind == "human", None, s.name, s.level)
                                  for s in seats]
        self.store = store
        self.turn_timer = turn_timer
        # a person's own game: the code shown from the start, their record told at the end, and
        # the local requests (undo, auto, finish, another game at the same table)
        self.local = local
        self.undos = undos  # moves taken back in this game (the record notes how many)
        self.moves = 0  # moves made (a CPU move computed meanwhile checks that none was)
        self.finish_offered: set[int] = set()
        self.archived: Any = None  # where the finished (or left) game went
        self.archived_unfinished: str | None = None  # the code of a game left unfinished there
        self._archived_game: Game | None = None
        self._left: Game | None = None
        self.on_change: Callable[[str, dict[str, Any]], None] = lambda what, data: None
        self._mark_due()

    # ------------------------------------------------------------ who is who

    @property
    def players(self) -> int:
        return self.game.rules.players

    def record_seats(self) -> tuple[Any, ...]:
        from ..records.record import Seat as Recorded

        return tuple(Recorded(s.name, "human" if s.human else "cpu", None if s.human else s.level)
                     for s in self.seats)

    def present(self, seat: int) -> bool:
        c = self.seats[seat].client
        return c is not None and not c.gone()

    def clients(self) -> list[tuple[int, SeatClient]]:
        return [(s, st.client) for s, st in enumerate(self.seats) if st.client is not None and not st.client.gone()]

    def attach(self, seat: int, client: SeatClient) -> None:
        """``client`` sits at ``seat`` from now on (the only one there)."""
        st = self.seats[seat]
        st.client = client
        client.seat = seat
        st.joined_once = True

    def round_from(self, seat: int) -> list[int]:
        """The seats from ``seat``'s, clockwise (left, across, right...): the order lists use."""
        n = self.players
        return [(seat + i) % n for i in range(n)]

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

    def _public(self, ev: Event) -> None:
        for _, c in self.clients():
            c.event(ev)

    def _each(self, make: Callable[[int], Event | None]) -> None:
        for s, c in self.clients():
            ev = make(s)
            if ev is not None:
                c.event(ev)

    def _moved(self, mover: int, by: str, make: Callable[[str], Event]) -> None:
        """A move told to everyone: one event for the mover and one for the others."""
        if by == "person":
            mine = make("you")
            others = Event(mine.kind, mine.data | {"by": "player"})
        else:
            mine = others = make(by)
        for s, c in self.clients():
            c.event(mine if s == mover else others)

    def start_event(self, seat: int) -> Event:
        """The ``start`` of the game for ``seat``: its code only once it reveals nothing (or
        at a person's own table)."""
        return news.start_event(self.game, self.seats, seat, self.local or self.game.over)

    def view_of(self, seat: int, history: bool = False) -> dict[str, Any]:
        """The seat's view (with ``history``, the round's completed tricks too)."""
        return news.view_of(self.game, seat, history)

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
            client.event(Event("resume", {"round": len(g.rounds), "trick": len(rd.tricks) + 1,
                                          "phase": rd.phase.value}))
            if rd.phase is Phase.MOON:
                client.event(news.moon_choice_event(g))
        else:
            client.event(news.deal_event(g, seat))
            if rd.phase is Phase.PLAY:  # no pass this round
                client.event(news.lead_event(g))

    def _lead(self) -> None:
        rd = self.game.round
        if rd.leader is not None and rd.first_trick and not rd.trick:
            self._public(news.lead_event(self.game))

    @staticmethod
    def _by(mover: int, by: str, seat: int) -> str:
        if by == "person":
            return "you" if seat == mover else "player"
        return by

    # ------------------------------------------------------------ durable before told

    def save(self) -> None:
        if self.store is not None and not self.game.over:
            self.store.save(self.game, self.record_seats(), undos=self.undos)

    def _keep(self, passed: int | None = None) -> None:
        """Make the move just made durable, before any client is told of it.

        An event told means the save already holds that move: the save (or, once
        the game is over, the archive) is written first. A save that fails raises
        here, and the move is taken back first (:meth:`_take_back`): a move is saved
        and told, or refused with the position really unchanged. ``passed``: the
        move was that seat's pass (else it was the last move of the game).
        """
        g = self.game
        if self.store is None:
            return
        try:
            if g.over:
                if self._archived_game is not g:  # once
                    self.archived = self.store.archive(g, self.record_seats(), undos=self.undos)
                    self._archived_game = g
            else:
                self.store.save(g, self.record_seats(), undos=self.undos)
        except BaseException:
            self._take_back(passed)
            raise

    def _take_back(self, passed: int | None) -> None:
        """The game as it was before the move just made (its save failed): re-played from its
        code without that move, as :meth:`undo` does (the same moves give the same game)."""
        from ..records.record import moves_of

        g = self.game
        moves = moves_of(g)
        if passed is None:
            moves = moves[:-1]
        else:  # passes are listed in seat order: the one of this seat, this round
            number = len(g.rounds)
            moves = [m for m in moves if not (m.kind == "pass" and m.round == number and m.seat == passed)]
        game = Game(g.rules, g.code)
        for move in moves:
            move.apply(game)
        self.game = game

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
                self._public(Event("waiting", {"seats": waiting, "deadline": self.turn_timer}))
        if self.game.over:
            self.over()
        self.changed()

    def changed(self) -> None:
        """Something moved (a network table wakes its clock here)."""

    def over(self) -> None:
        """The game is over and told (a network table closes its connections here)."""
        g = self.game
        self.on_change("over", {"code": g.code, "archived": str(self.archived) if self.archived else None})

    # ------------------------------------------------------------ moves (every move goes through these)

    def pass_cards(self, seat: int, cards: Sequence[Card], by: str) -> None:
        """``seat`` passes ``cards``; ``by``: ``person``, ``cpu``, ``auto``, ``timer`` or ``away``."""
        g = self.game
        rd = g.round
        number = len(g.rounds)
        g.pass_cards(seat, cards)
        self._keep(passed=seat)
        to = rd.direction.receiver(seat, self.players)
        chosen = sorted(cards)
        self._each(lambda s: Event("pass", {"round": number, "seat": seat, "cards": chosen if s == seat else None,
                                            "to": to, "by": self._by(seat, by, s)}))
        if rd.phase is Phase.PLAY:  # everybody has passed: the exchange is made
            self._each(lambda s: news.receive_event(g, s))
            self._lead()
        self._after_move()

    def play(self, seat: int, card: Card, by: str) -> None:
        """``seat`` (the seat to move) plays ``card``."""
        g = self.game
        rd = g.round
        assert seat == rd.turn
        number, trick_no = len(g.rounds), len(rd.tricks) + 1
        broken = rd.hearts_broken
        done = g.play(card)
        self._keep()
        self._moved(seat, by, lambda who: Event("play", {"round": number, "trick": trick_no, "seat": seat,
                                                         "card": card, "by": who}))
        if not broken and rd.hearts_broken:
            self._public(Event("hearts_broken", {"round": number, "trick": trick_no, "seat": seat, "card": card}))
        if done is not None:
            self._public(news.trick_event(number, trick_no, done))
        if rd.over:
            self._round_end()
        elif rd.phase is Phase.MOON:  # the shooter chooses how the moon scores
            self._public(news.moon_choice_event(g))
        elif done is not None and self.local and not self.points_left():
            index = len(g.rounds) - 1
            if index not in self.finish_offered:  # once a round
                self.finish_offered.add(index)
                self._each(lambda s: Event("no_points_left", {"round": index + 1, "auto": self.auto(s)}))
        self._after_move()

    def choose_moon(self, seat: int, choice: str, by: str) -> None:
        """The shooter's choice: ``others`` or ``shooter_minus``."""
        self.game.choose_moon(choice, seat)
        self._keep()
        self._round_end()
        self._after_move()

    def moon_default(self) -> str:
        """The better choice for the shooter's match standing (what a CPU would choose)."""
        return news.moon_default(self.game)

    def _round_end(self) -> None:
        g = self.game
        self._public(news.round_end_event(g))
        tie = g.tie()
        if tie is not None:  # the target is reached with a tie for lowest
            seats, lowest, outcome = tie
            self._each(lambda s: Event("tie", {"seats": [x for x in self.round_from(s) if x in seats],
                                               "total": lowest, "policy": g.rules.ties, "outcome": outcome}))
        if g.over:  # archived (by _keep) before it is told
            extra: dict[str, Any] = {}
            if self.local:  # how the game changes the person's record (the client says it)
                extra["record"] = self.store.record_change() if self.store is not None else None
            self._public(news.game_end_event(g, extra))
        else:
            self._each(lambda s: news.deal_event(g, s))
            if g.round.phase is Phase.PLAY:  # no pass this round
                self._lead()

    def points_left(self) -> bool:
        """Whether any card that scores is still to be played this round."""
        rd = self.game.round
        held = 0
        for m in rd.hands:
            held |= m
        if not rd.kitty_taken:
            held |= rd.kitty_mask
        pts = self.game.rules.points
        return any(pts[c] for c in cards_of(held))

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

    def suggest(self, seat: int, level: str, view: Any = None) -> Any:
        """What the ``level`` CPU would do at ``seat`` (from that seat's view only)."""
        from ..bots import suggest

        if view is None:
            view = self.game.round.view(seat)
        return suggest(view, level, seed_for(self.game.code, "cpu", seat))

    def hint(self, seat: int) -> Hint:
        """The person's hint at ``seat``: the analysis's best choice from that seat's view,
        with its margin (records/hint.py); the shooter's choice is the engine's."""
        from ..records.hint import hint_for

        return hint_for(self.game.round.view(seat), self.game.code)

    def apply(self, seat: int, by: str, choice: Any) -> None:
        """A CPU's choice made at ``seat``: the pass, the card or the shooter's choice."""
        rd = self.game.round
        if rd.phase is Phase.PASS:
            self.pass_cards(seat, list(choice), by)
        elif rd.phase is Phase.MOON:
            self.choose_moon(seat, str(choice), by)
        else:
            self.play(seat, choice, by)

    def take_over(self, seat: int, by: str) -> None:
        """The CPU makes the move of a person's seat now (``timer``, ``away``; ``auto``), and
        the table says so first."""
        if by in ("timer", "away"):
            self._public(Event("takeover", {"seat": seat, "reason": by}))
        self.apply(seat, by, self.suggest(seat, self.level_for(seat, by)))

    def cpu_step(self) -> bool:
        """Make the one CPU move due now, if any (the in-process clock: one move a call)."""
        move = self.due_move()
        if move is None:
            return False
        seat, by = move
        if by == "cpu" or by == "auto":
            self.apply(seat, by, self.suggest(seat, self.level_for(seat, by)))
        else:
            self.take_over(seat, by)
        return True

    # ------------------------------------------------------------ a person's own table (local requests)

    def set_auto(self, seat: int) -> None:
        """``auto``: the CPU plays the rest of this round for the person at ``seat``."""
        self.seats[seat].auto_round = len(self.game.rounds) - 1

    def finish(self, seat: int) -> None:
        """``finish``: the CPU plays out a round that has no points left."""
        if self.game.over:
            raise Refused("game_over_cards")
        if self.game.round.phase is not Phase.PLAY or self.points_left():
            raise Refused("finish_not_yet")
        self.set_auto(seat)

    def undo(self, seat: int) -> None:
        """Take back the last pass or card of ``seat``, and the CPU cards played after it.

        The game is re-played from its code up to just before that move; since
        every CPU move derives from the code and the seat's view, playing the
        same card again brings back exactly the same game. The save is written
        before anything is told. After a pass, all the passes of that round go
        (the CPUs pass only once the person has).
        """
        from ..records.record import moves_of

        g = self.game
        if not self.local:
            raise Refused("undo_off")
        if g.over:
            raise Refused("undo_game_over")
        moves = moves_of(g)
        mine = [i for i, m in enumerate(moves) if m.seat == seat]
        if not mine:
            raise Refused("undo_nothing")
        last = moves[mine[-1]]
        if last.kind == "pass":
            cut = next(i for i, m in enumerate(moves) if m.round == last.round and m.kind == "pass")
        else:
            cut = mine[-1]
        game = Game(g.rules, g.code)
        for move in moves[:cut]:
            move.apply(game)
        after = sum(1 for m in moves[mine[-1] + 1:] if m.kind == "play")
        self.game = game
        self.undos += 1
        for st in self.seats:
            st.auto_round = None
        current = len(game.rounds) - 1
        self.finish_offered = {i for i in self.finish_offered
                               if i < current or (i == current and not self.points_left())}
        self._mark_due()
        self.save()  # durable before it is told
        rd = game.round
        client = self.seats[seat].client
        if client is not None:
            client.event(Event("undo", {"move": last.kind, "cards": sorted(last.cards), "after": after,
                                        "round": len(game.rounds), "trick": len(rd.tricks) + 1,
                                        "undos": self.undos}))

    def archive_unfinished(self) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        g = self.game
        if self.store is not None and not g.over and self._left is not g:
            self.archived = self.store.archive(g, self.record_seats(), unfinished=True, undos=self.undos)
            self.archived_unfinished = g.code
            self._left = g

    def restart(self, code: str) -> None:
        """Another game at the same table (same rules and seats): ``code`` a new one, or the
        same code to replay the deal. The game left is archived first."""
        self.archive_unfinished()
        self.game = Game(self.game.rules, code)
        self.undos = 0
        for st in self.seats:
            st.auto_round = None
        self.finish_offered = set()
        self._mark_due()
        self.save()
