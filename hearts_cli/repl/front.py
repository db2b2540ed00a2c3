"""The REPL's loop, once: what a terminal's front ends share.

:class:`TurnLoop` is the loop of both terminal front ends, the prompt-toolkit
session (:mod:`.session`) and the screen-reader mode (:mod:`.reader`): the
CPUs' moves, the table shown when it changed, one line asked of the person, and
the line handled by the table, until the person leaves (or a shared table's game
ends). The person's line gives way when the turn timer runs out
(:class:`TimeUp`) or a shared table's news comes (:class:`Incoming`). Each
front end says how it shows, asks and waits; nothing here draws.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .client import FrontEnd

if TYPE_CHECKING:
    from .pacing import QuietInput
    from .table import Table


class TimeUp(Exception):
    """The turn timer ran out while the person's line was awaited."""


class Incoming(Exception):
    """A shared table said something while the person's line was awaited (``hearts join``)."""


class TurnLoop(FrontEnd):
    """A table's front end at a terminal, and its loop: between the CPUs' moves, one line."""

    quiet: QuietInput  # keys typed while the table speaks: not echoed, and dropped after a move

    def __init__(self, table: Table, *, turn_timer: int | None):
        self.table = table
        self.turn_timer = turn_timer
        self.news = table.news  # a shared table's seat: its news comes while a line is awaited
        self.clock = time.monotonic
        self.timed: tuple[tuple[object, ...], float] | None = None  # the decision timed, and its deadline

    # ------------------------------------------------------------ what each front end says

    def ask(self) -> str:
        """One line from the person (``TimeUp``, ``Incoming``; EOFError at the end)."""
        raise NotImplementedError

    def cpu_moves(self) -> bool:
        """The CPUs' moves due now, made (and shown as they come): whether any was, or paused."""
        moved = False
        while self.table.cpu_step():
            moved = True
        return moved

    def draw_table(self) -> None:
        """The table, shown after it changed."""
        raise NotImplementedError

    def tell_archived(self, text: str, path: str) -> None:
        """Where a game went: the sentence and the file."""
        raise NotImplementedError

    def before_ask(self, moved: bool) -> None:
        """Just before the line is asked for; ``moved``: the CPUs played (typed-ahead keys go)."""
        self.quiet.stop(flush=moved)

    def interrupted(self) -> None:
        """Ctrl-C at the prompt (the table then cancels what was being entered)."""

    def ended(self) -> None:
        """The end of the input (Ctrl-D): the person leaves."""

    def timed_out(self) -> None:
        """The turn timer ran out (the CPU then makes the person's move)."""

    def took(self, line: str) -> None:
        """The person entered ``line``, before the table handles it."""

    def hold(self, decision: tuple[object, ...]) -> None:
        """Back at ``decision`` on purpose (a move taken back): its only card waits to be entered."""

    def close(self) -> None:
        """The loop is over: what it held is let go."""

    # ------------------------------------------------------------ shared

    def decision(self) -> tuple[object, ...]:
        """Which decision the person is at: the same one until a move is made (or taken back)."""
        tb = self.table
        view = tb.view()
        return (tb.code, tb.round_number, view.phase, len(view.tricks), len(view.trick), tb.undos)

    def deadline(self, seconds: int) -> float:
        """When the turn timer runs out: ``seconds`` after the decision began, however many lines
        (``score``, a card to confirm, a typo) are typed meanwhile."""
        now = self.decision()
        if self.timed is None or self.timed[0] != now:
            self.timed = (now, self.clock() + seconds)
        return self.timed[1]

    def show_archived(self) -> None:
        """Where the game just left (or finished) went, once."""
        table = self.table
        if table.archived is not None:
            path = str(table.archived)
            unfinished = table.archived_unfinished
            text = (table.say("previous_archived", code=unfinished) if unfinished
                    else table.say("archived_at", code=table.code))
            self.tell_archived(text, path)
            table.archived = table.archived_unfinished = None

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Until the person leaves (or a shared table's game ends); a local game is saved."""
        try:
            while self.turn():
                pass
        except KeyboardInterrupt:
            pass  # a SIGINT while the CPUs play (or from outside): every move is already saved
        finally:
            self.quiet.stop(flush=False)
            self.close()
        if not self.table.over:
            self.table.leave()  # saved (a move interrupted between the engine and its save too), or left to the CPU
        return 0

    def turn(self) -> bool:
        """The CPUs' moves, the table, and one line from the person; False: leave."""
        table = self.table
        # from one prompt to the next, what is typed is not echoed into the table; and when the
        # CPUs played, it is thrown away: a card typed ahead is never played before its trick is seen
        self.quiet.start()
        moved = self.cpu_moves()
        if table.dirty and not table.over:
            self.draw_table()
            table.dirty = False
        if table.over:  # the last cards are mostly the CPUs' (or auto's)
            self.show_archived()
            if self.news is not None:  # a shared table closes at the end of its game
                return False
        self.before_ask(moved)
        try:
            line = self.ask()
        except KeyboardInterrupt:
            self.interrupted()
            table.cancel()
            return True
        except EOFError:
            self.ended()
            return False
        except TimeUp:
            self.timed_out()
            table.play_for_person()
            return True
        except Incoming:
            return True
        self.took(line)
        return self.act(line)

    def act(self, line: str) -> bool:
        """The person's line, handled by the table; False: leave."""
        table = self.table
        undos = table.undos
        signal = table.handle(line)
        if table.undos != undos:  # back at a decision on purpose: the card waits to be entered there
            self.hold(self.decision())
        if signal == "quit":
            return False
        if signal in ("new", "replay"):
            table.archive_unfinished()
            self.show_archived()  # where the game left behind went, before the next one starts
            table.restart(same_deal=signal == "replay")
        if table.over:
            self.show_archived()
        return True
