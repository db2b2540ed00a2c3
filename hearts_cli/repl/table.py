"""The table as the person uses it: one line at a time.

:class:`Table` is the person's seat (:class:`~.client.TableClient`: the
in-process client of its :class:`~hearts_cli.table.seat_table.SeatTable`, a game
of one's own or a seat at a shared table) reading what is typed: the shooter's choice, a
command of the registry (:mod:`.commands`), or a card (:mod:`.person`). It does
no I/O of its own: a front end (the prompt-toolkit session, or the line-by-line
batch mode) shows the events and the table, and feeds it lines. Every CPU move
is computed from the seat's view and a seed derived from the game code only,
so a resumed game makes exactly the moves an uninterrupted one would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..base.untrusted import MAX_LINE_CHARS
from ..bots import DEFAULT_LEVELS
from ..model.cards import CardParseError, HandOrder, fold, parse_card
from ..model.seating import PLACES, record_name, seat_place
from ..play.dealt import Phase
from ..play.events import Event
from ..play.game import Game
from .client import FrontEnd, TableClient
from .person import Person, moon_word

YES = frozenset({"y", "yes", "s", "si"})  # (folded) an answer that says yes to a question the table asked

if TYPE_CHECKING:
    from ..records.record_parts import Seat
    from ..store.saves import Store
    from ..table.seat_table import SeatTable
    from .commands import Signal

__all__ = ["POSITIONS", "FrontEnd", "Table", "make_seats"]

# Where each seat sits, counted clockwise (in play order) from the person, who is South:
# the one table of places and their names is hearts_cli/model/seating.py.
POSITIONS = PLACES


def make_seats(players: int, me: int, level: str | None) -> tuple[Seat, ...]:
    """The record's seats: the person's and the CPUs', Easy/Normal/Hard by default (``level``:
    one for every CPU, or one for each clockwise from the person's left: ``bots.seat_levels``)."""
    from ..bots import seat_levels
    from ..records.record_parts import Seat

    levels = seat_levels(level, players - 1)
    seats = []
    for seat in range(players):
        place = (seat - me) % players  # 1: on your left, and on clockwise
        name = record_name(seat_place(seat, me, players))
        if seat == me:
            seats.append(Seat(name, "human", None))
        else:  # by place: Easy on your left, then Normal, then Hard (across and right at four)
            seats.append(Seat(name, "cpu", levels[place - 1] if levels else DEFAULT_LEVELS[(place - 1) % 3]))
    return tuple(seats)


class Table(TableClient):
    """A game seen from the person's seat, fed lines: it asks the table for the person's
    moves and requests, and its front end shows the events."""

    def __init__(self, game: Game | None, seats: Sequence[Seat], *, lang: str, ascii: bool = False,
                 confirm: bool = True, store: Store | None = None,
                 emit: Callable[[Event], None] | None = None, undo: bool = True, undos: int = 0,
                 front: FrontEnd | None = None, core: SeatTable | None = None, count: bool = False,
                 hand_order: HandOrder | None = None):
        super().__init__(game, seats, lang=lang, ascii=ascii, confirm=confirm, store=store, emit=emit,
                         undo=undo, undos=undos, front=front, core=core, count=count, hand_order=hand_order)
        self.person = Person(self)

    def handle(self, line: str) -> Signal:
        """Act on one line; returns ``"quit"``, ``"new"``, ``"replay"`` or None."""
        self.failed, self.stops = False, True
        if len(line) > MAX_LINE_CHARS:  # a paste of a whole file is no card or command
            self.error("line_too_long", limit=MAX_LINE_CHARS)
            return None
        text = line.strip()
        self.answering, self.leaving = self.leaving, None  # a question asked is answered by this line
        if self.answering is not None and (not text or fold(text) in YES):
            from .commands import name_of

            text = name_of(self.answering, self.lang)  # Enter, or yes: the command again
        moon = False
        if not self.over:
            view = self.view()
            moon = view.phase is Phase.MOON and view.turn == self.me
        value = self.rules.penalty_total
        if moon and (not text or moon_word(text, value)):
            # your moon: -26 for you or +26 for everyone else; Enter alone takes the better one
            choice = moon_word(text, value) if text else None
            self.person.choose_moon(choice or self.moon_default())
            return None
        if not text:
            if self.pending is not None and self.verdict is not None and not self.over:
                self.person.try_card(self.pending)  # Enter alone plays the card waiting, as judged
            return None
        from . import commands  # the registry (and its hints): a table that reads no line needs none

        head, _, rest = text.partition(" ")
        found = commands.find(head, rest)
        if found is not None:
            signal = commands.run(self.person, *found)
            self.stops = found[0].move  # a command that says no is no move refused: the game goes on
            return signal
        if moon:
            self.error("moon_choice_expected", **self.moon_words())
            return None
        if self._mistyped_command(head, text):
            return None
        self.person.enter(text)
        return None

    def cancel(self) -> None:
        """Ctrl-C: drop the question `new` or `replay-deal` asked (saying the game goes on),
        the chosen cards and the card waiting for confirmation; with nothing to drop, say
        (once) how to leave, since Ctrl-C does not."""
        from .commands import name_of

        if self.leaving is not None:  # Enter next must not answer the question Ctrl-C dropped
            key, self.leaving = self.leaving, None
            self.person.cancel()
            self.info("leave", self.say("leave_kept", command=name_of(key, self.lang)))
            return
        if not self.person.cancel() and not self.told_how_to_leave:
            self.told_how_to_leave = True
            # at a shared table the game goes on without you: the CPU plays your seat
            said = "how_to_leave" if self.local else "net_how_to_leave"
            self.info("leave", self.say(said, quit=name_of("quit", self.lang)))

    def _mistyped_command(self, head: str, text: str) -> bool:
        """A word that is neither a card nor a command: say so, with the closest commands.

        Only for a word of letters (``hnit``, ``scroe``, ``pas``) when the whole
        line is no card (``rey de picas`` is one); card-like typos keep the card
        suggestions."""
        from .commands import close_commands, name_of

        word = fold(head)
        if len(word) < 3 or not word.replace("-", "").isalpha():
            return False
        try:
            parse_card(text)
            return False
        except CardParseError as e:
            suggestions = e.suggestions
        if " " in text and not self.over and self.view().phase is Phase.PASS \
                and self.person.parse_many(text, quiet=True) is not None:
            return False
        # several words that look like a card ("quen of spades") are a mistyped card
        close = close_commands(head, self.lang) if not (suggestions and " " in text) else []
        if close:
            names = close[0] if len(close) == 1 else self.say("either_or", first=close[0], second=close[1])
            self.error("bad_command_hint", text=head, commands=names)
        elif not suggestions:
            self.error("bad_command", text=head, help=name_of("help", self.lang))
        else:
            return False
        return True
