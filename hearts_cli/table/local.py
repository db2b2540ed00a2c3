"""A person's own table (``hearts play``): the game table with one in-process client, and
what a game of one's own allows that a shared one does not.

:class:`LocalTable` is :class:`~hearts_cli.table.game.GameTable` with the local
requests: ``undo`` (a move taken back with the CPU cards after it), ``auto`` and
``finish`` (the CPU plays the rest of the round for the person), a new game at the
same table (the one left archived first), the person's ``hint``; and the in-process
clock: :meth:`LocalTable.cpu_step` makes one CPU move a call, and the session's turn
timer calls :meth:`LocalTable.take_over`. The code is shown from the start, a round
with no points left offers ``finish``, and the end says how the game changes the
person's record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.cards import Card
from ..play.claims import claim_blocker, claim_order, concede_to, points_left
from ..play.dealt import Phase, RoundResult
from ..play.events import Claim, NoPointsLeft, Takeover, Undo
from ..play.game import Game
from ..play.round import SeatView
from .game import GameTable, Refused
from .seat_table import OwnTable, SeatTable

if TYPE_CHECKING:  # the hint's weighing (the analysis) is imported when a hint is asked for
    from ..model.rules import Rules
    from ..play.verdicts import Verdict
    from ..records.hint import Hint
    from ..records.record_parts import Seat
    from ..store.saves import Store
    from .program import Program
    from .seats import TableSeat


class LocalTable(GameTable, SeatTable, OwnTable):
    """The table of ``hearts play``: one person, CPUs in the other seats."""

    local = True

    def __init__(self, game: Game, seats: Sequence[Seat | TableSeat], *, store: Store | None = None,
                 undos: int = 0, lang: str | None = None):
        super().__init__(game, seats, store=store, undos=undos)
        self.keeper.lang = lang  # the person's language: the save remembers it
        self.finish_offered: set[int] = set()  # the rounds where ``finish`` was offered
        self.claimed: tuple[int, int] | None = None  # (round index, seat) of this round's claim
        # a person at a terminal: a round with nothing left to decide (no points left, or a CPU's
        # claim) is finished at once; a script plays its own cards (and may `finish`, `claim`)
        self.finishes_itself = False
        self.programs: list[Program] = []  # outside programs at CPU seats (exec:COMMAND), if any
        from ..bots import is_program

        if any(not st.human and is_program(st.level) for st in self.seats):  # (else not even imported)
            from .program import seat_programs

            self.programs = seat_programs(self)

    # ------------------------------------------------------------ the seat table (seat_table.py), from the game

    def own(self) -> OwnTable:
        """Everything a game of one's own allows: this table is one."""
        return self

    def news(self) -> None:
        """No news comes on its own: every move is made here, one a call."""
        return None

    @property
    def person(self) -> int:
        return next((i for i, st in enumerate(self.seats) if st.human), 0)

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def code(self) -> str | None:
        return self.game.code

    @property
    def game_over(self) -> bool:
        return self.game.over

    @property
    def round_number(self) -> int:
        return len(self.game.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.game.totals)

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r.scores) for r in self.game.results)

    @property
    def round_result(self) -> RoundResult | None:
        return self.game.round.result

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    def view(self, seat: int) -> SeatView:
        return self.game.round.view(seat)

    def why(self, seat: int, card: Card) -> Verdict:
        return self.game.round.why(card, seat)

    def legal(self, seat: int) -> tuple[Card, ...]:
        rd = self.game.round
        return rd.legal_cards() if rd.turn == seat and not self.game.over else ()

    def to_move(self, seat: int) -> bool:
        if self.game.over:
            return True
        rd = self.game.round
        if rd.phase is Phase.PASS:
            return rd.passes[seat] is None
        return rd.turn == seat

    # ------------------------------------------------------------ what a person's own table tells

    def _trick_taken(self) -> None:
        """A round with no points left is said once; for a person at a terminal it is finished at
        once (nothing is left to decide: the CPU plays their cards too), a script may `finish`."""
        if self.points_left():
            return
        index = len(self.game.rounds) - 1
        if index not in self.finish_offered:  # once a round
            self.finish_offered.add(index)
            for s, st in enumerate(self.seats):
                if st.human and self.finishes_itself:
                    self.set_auto(s)
            self.seats.tell_each(lambda s: NoPointsLeft(round=index + 1, auto=self.auto(s)))

    def _game_end_extra(self) -> dict[str, object]:
        """How the game changes the person's record (the client says it)."""
        return {"record": self.keeper.record_change()}

    def points_left(self) -> bool:
        """Whether any card that scores is still to be played this round (``play.claims``)."""
        return points_left(self.game.round)

    # ------------------------------------------------------------ the in-process clock

    def cpu_step(self) -> bool:
        """Make the one CPU move due now, if any (the in-process clock: one move a call)."""
        move = self.due_move()
        if move is None:
            return False
        seat, by = move
        index = len(self.game.rounds) - 1
        if by == "cpu" and self.finishes_itself and self.claimed is None and index not in self.finish_offered \
                and len(self.game.round.hand(seat)) > 1 and claim_order(self.game.round, seat) is not None:
            # (no claim once "no points are left" was said, nor of the one trick left: it plays at once)
            self._claim(seat)  # a CPU holding every winning card claims the rest
        if self.claiming(seat) and self.seats[seat].human:  # the person's claim: its cards in its order
            self.apply(seat, "person", self._claim_card(seat))
        elif by == "cpu" or by == "auto":  # a CPU's claim changes none of its cards (nor a script's game)
            self.apply(seat, by, self.suggest(seat, self.level_for(seat, by)))
        else:
            self.take_over(seat, by)
        return True

    # ------------------------------------------------------------ claims (play.claims)

    def claim(self, seat: int) -> None:
        """``claim``: the person at ``seat`` leads and holds every winning card; the rest of the
        round is played at once, their cards in the claim's order."""
        if self.game.over:
            raise Refused("game_over_cards")
        if claim_order(self.game.round, seat) is None:
            blocked = claim_blocker(self.game.round, seat)
            if blocked is not None:  # the card still out that beats one of the claimant's
                raise Refused("claim_not_decided", said="claim_blocked", card=blocked[0], mine=blocked[1])
            raise Refused("claim_not_decided")
        self._claim(seat)

    def concede(self, seat: int) -> None:
        """``concede``: the person at ``seat``, on lead, gives the rest of the round to the seat
        holding every winning card (:func:`~hearts_cli.play.claims.concede_to`), or, with no
        points left, has it played out; the round then goes at once."""
        if self.game.over:
            raise Refused("game_over_cards")
        to = concede_to(self.game.round, seat)
        if to is not None:
            self._claim(to)
        elif self.game.round.phase is Phase.PLAY and not self.points_left():
            self.set_auto(seat)
        else:
            raise Refused("concede_not_decided")

    def _claim(self, seat: int) -> None:
        """The claim told, and the round finished at once: every person's seat played by the CPU
        but a claimant's, whose cards go in the claim's order. A CPU claimant plays the cards its
        CPU would have played, so the game is the one a script makes with the same moves."""
        rnd = self.game.round
        index = len(self.game.rounds) - 1
        self.claimed = (index, seat)
        self.finish_offered.add(index)  # (no second sentence when the points run out)
        for s, st in enumerate(self.seats):
            if st.human:
                self.set_auto(s)
        pts = rnd.rules.points
        points = sum(pts[c] for s in range(rnd.players) for c in rnd.hand(s))  # every card left is its
        self.seats.tell(Claim(round=index + 1, seat=seat, tricks=len(rnd.hand(seat)), points=points))

    def claiming(self, seat: int) -> bool:
        """Whether ``seat`` plays this round out by its claim."""
        return self.claimed == (len(self.game.rounds) - 1, seat) and not self.game.over

    def _claim_card(self, seat: int) -> Card:
        """The claimant's next card: the first of its claim's order that may be played now."""
        rnd = self.game.round
        order = claim_order(rnd, seat)
        legal = set(rnd.legal_cards())
        return next(c for c in (order or ()) if c in legal) if order else rnd.legal_cards()[0]

    def take_over(self, seat: int, by: str) -> None:
        """The CPU makes the move of a person's seat now (``timer``, ``away``; ``auto``), and
        the table says so first."""
        if by in ("timer", "away"):
            self.seats.tell(Takeover(seat=seat, reason=by))
        self.apply(seat, by, self.suggest(seat, self.level_for(seat, by)))

    # ------------------------------------------------------------ the person's requests

    def hint(self, seat: int) -> Hint:
        """The person's hint at ``seat``: the analysis's best choice from that seat's view,
        with its margin (records/hint.py); the shooter's choice is the engine's."""
        from ..records.hint import hint_for

        return hint_for(self.game.round.view(seat), self.game.code)

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

        The game's move stack is popped back to just before that move (``Game.pop``
        takes each back exactly); since every CPU move derives from the code and the
        seat's view, playing the same card again brings back exactly the same game. The
        save is written before anything is told. After a pass, all the passes of that
        round go (the CPUs pass only once the person has).
        """
        game = self.game
        if game.over:
            raise Refused("undo_game_over")
        moves = game.move_stack
        mine = [i for i, m in enumerate(moves) if m.seat == seat]
        if not mine:
            raise Refused("undo_nothing")
        last = moves[mine[-1]]
        if last.kind == "pass":
            cut = next(i for i, m in enumerate(moves) if m.round == last.round and m.kind == "pass")
        else:
            cut = mine[-1]
        after = sum(1 for m in moves[mine[-1] + 1:] if m.kind == "play")
        for _ in moves[cut:]:
            game.pop()
        self.keeper.undos += 1
        self._fresh_round_state()
        self.save()  # durable before it is told
        rd = game.round
        client = self.seats[seat].client
        if client is not None:
            client.event(Undo(move=last.kind, cards=sorted(last.cards), after=after, round=len(game.rounds),
                              trick=len(rd.tricks) + 1, undos=self.keeper.undos))
        self._retell_programs(resumed=True)

    def archive_unfinished(self) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        self.keeper.archive_unfinished(self.game, self.record_seats())

    def restart(self, code: str) -> None:
        """Another game at the same table (same rules and seats): ``code`` a new one, or the
        same code to replay the deal. The game left is archived first."""
        self.archive_unfinished()
        self.game = Game(self.game.rules, code)
        self.keeper.undos = 0
        self.finish_offered = set()
        self._fresh_round_state()
        self.save()
        self._retell_programs(resumed=False)

    def _retell_programs(self, resumed: bool) -> None:
        """The game told again to the programs seated (a move taken back, another game): from
        its ``start``, as to a program that has just sat down."""
        for program in self.programs:
            if program.seat is not None:
                self.announce(program.seat, resumed)

    def _fresh_round_state(self) -> None:
        """After the game was taken back or replaced: nobody on ``auto``, ``finish`` offered only
        where it still holds, no claim (one is made again where its position comes back), the
        seats due from now."""
        self.claimed = None
        for st in self.seats:
            st.auto_round = None
        current = len(self.game.rounds) - 1
        self.finish_offered = {i for i in self.finish_offered
                               if i < current or (i == current and not self.points_left())}
        self._mark_due()
