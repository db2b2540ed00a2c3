"""The interactive table: the game loop of a prompt-toolkit session.

The table is printed before each decision, CPU moves scroll by one at a time,
and a bottom toolbar keeps the last event (or the rule that stops the card just
tried), like the seed table's status bar. Tab completes the cards in hand,
playable ones first, each unplayable one with its reason; commands complete
too. Ctrl-C cancels a selection; Ctrl-D saves and leaves; Ctrl-Z is ``undo``.

The session's parts each have a module: the prompt itself (:mod:`.prompt`,
which assembles them), :mod:`.completer`, :mod:`.key_bindings`,
:mod:`.toolbar`, :mod:`.history`, :mod:`.style`, and the CPUs' pace
(:mod:`.pacing`). The loop is the terminal front ends' own (:mod:`.front`); this module
says how the session shows, asks and waits.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Sequence

from prompt_toolkit import print_formatted_text
from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.input.typeahead import clear_typeahead
from prompt_toolkit.output import ColorDepth

from ..play.events import Event, Pass, Play, TrickDone, Waiting
from .front import Incoming, TimeUp, TurnLoop
from .pacing import AutoPlay, CpuPause, KeyWithin, QuietInput
from .pacing import key_within as terminal_keys
from .prompt import build_session, prompt_message
from .render import Line, Renderer, wrap
from .render import plain as plain_text
from .style import table_style
from .table import Table
from .toolbar import Status

Note = str | tuple[str, str]  # a line to show first, or (a text, the path it names)


def run_interactive(table: Table, *, plain: bool, delay: float, turn_timer: int | None,
                    resumed: bool, notes: list[Note], key_within: KeyWithin | None = None,
                    auto_play: float | None = None, bell: float | None = None, deck_colors: str = "two") -> int:
    """The prompt-toolkit game loop; ``key_within(seconds)`` (tests) stands in for the
    terminal's keys during the CPUs' pauses; ``auto_play``: the pause before the only
    legal card plays by itself (None: it waits to be entered); ``bell``: the wait after which
    the terminal's bell rings when it becomes the person's turn (None: never)."""
    loop = Loop(table, plain=plain, delay=delay, turn_timer=turn_timer, key_within=key_within,
                auto_play=auto_play, bell=bell, deck_colors=deck_colors)
    table.attach(loop)
    for note in notes:
        if isinstance(note, tuple):  # (the text, the path it names)
            loop.tell_archived(*note)
        else:
            loop.show([[("class:info", line)] for line in note.split("\n")])
    table.announce_start(resumed=resumed)
    return loop.run()


class Loop(TurnLoop):
    """The game at a terminal: the table's front end (each event printed above the prompt,
    paced) and, between the CPUs' moves, the prompt."""

    def __init__(self, table: Table, *, plain: bool, delay: float, turn_timer: int | None,
                 key_within: KeyWithin | None, auto_play: float | None = None, bell: float | None = None,
                 deck_colors: str = "two"):
        super().__init__(table, turn_timer=turn_timer)
        self.style = table_style(deck_colors)  # `deck_colors: four` in settings.yaml
        self.bell = bell
        self.rung_for: tuple[object, ...] | None = None  # the decision the bell last rang for
        self.plain = plain
        self.delay = delay
        self.renderer = Renderer(table, plain=plain)
        self.status = Status()
        self.color_depth = ColorDepth.MONOCHROME if plain else None
        # the terminal itself; not a pipe standing in for it (tests), whose keys must all arrive
        self.quiet = QuietInput(None if isinstance(get_app_session().input, PipeInput) else sys.stdin)
        self.pause = CpuPause(delay, key_within or terminal_keys(self.quiet))
        self.session = build_session(table, self.status, plain=plain, style=self.style)
        self.auto_play = AutoPlay(auto_play, self.say_auto)
        self.typed = ""  # what was being typed when a shared table's news came
        self.answered = self.clock()  # when the person's last line was entered (the bell's wait)
        if self.news is not None:
            self.news.wake(self.incoming)

    # ------------------------------------------------------------ output

    def columns(self) -> int:
        try:
            return get_app_session().output.get_size().columns
        except Exception:
            return shutil.get_terminal_size((80, 24)).columns

    def show(self, lines: list[Line]) -> None:
        width = self.columns() - 1
        for whole in lines:
            for line in wrap(whole, width):  # at spaces: never a word (or a path) cut in two
                if self.plain:
                    print_formatted_text(plain_text(line))
                else:
                    print_formatted_text(FormattedText(line), style=self.style, color_depth=self.color_depth)

    def event(self, ev: Event) -> None:
        """An event of the table: printed, kept in the toolbar, and paced."""
        self.renderer.width = self.columns() - 1
        lines = self.renderer.event(ev)  # rendered once: the log shows it, the toolbar keeps its first line
        self.show(lines)
        if lines:
            self.status.text = plain_text(lines[0])
        if isinstance(ev, Play) and ev.by in ("cpu", "auto") and self.delay and not self.fast():
            self.status.paused = True
            self.pause.after_card()
        elif isinstance(ev, TrickDone) and self.delay and not self.fast():
            self.status.paused = True
            self.pause.after_trick()
        if isinstance(ev, Waiting):  # a shared table's turn timer: the toolbar counts down the host's
            mine = self.table.me in ev.seats and ev.deadline
            self.status.host_deadline = time.monotonic() + ev.deadline if mine and ev.deadline else None
        elif isinstance(ev, (Pass, Play)) and ev.seat == self.table.me:
            self.status.host_deadline = None

    def again(self, events: Sequence[Event]) -> None:
        """The last events said again (``again``): shown, without the CPUs' pauses."""
        self.renderer.width = self.columns() - 1
        for ev in events:
            self.show(self.renderer.event(ev))

    def fast(self) -> bool:
        """No waiting while the CPU finishes a round that has no points left, or one claimed."""
        return self.table.auto_round is not None and (not self.table.points_left() or self.table.claimed())

    def tell_archived(self, text: str, path: str) -> None:
        """Where a game went: the sentence, the command that opens it, and its file where the
        terminal, as wide as it is now, holds the path whole."""
        self.renderer.width = self.columns() - 1
        self.show(self.renderer.archived(text, path))

    # ------------------------------------------------------------ the prompt

    def incoming(self) -> None:
        """The table's news (from another thread): the prompt steps aside to show it."""
        app = self.session.app
        loop = getattr(app, "loop", None)
        if app.is_running and loop is not None:
            def leave() -> None:
                if app.is_running and app.future is not None and not app.future.done():  # (not leaving already)
                    self.step_aside()
            loop.call_soon_threadsafe(leave)

    def pre_run(self) -> None:
        """The prompt is open (in its event loop): a shared table's news that came meanwhile closes
        it again; else the only legal card starts its pause, with ``auto_play``."""
        app = self.session.app
        if self.news is not None and self.news.pending() and app.future is not None and not app.future.done():
            self.step_aside()
            return
        card = self.table.forced_card()
        if card is not None:
            self.auto_play.start(app, self.decision(), card.face(self.table.ascii),
                                 self.table.say("auto_play_status", card=card))

    def say_auto(self, text: str | None, card: str | None) -> None:
        """The only legal card waits to play by itself: the toolbar says so, and the card shows
        dimmed on the prompt's line until it is entered (None: as before)."""
        self.status.auto = text
        self.session.placeholder = None if card is None else FormattedText([("class:dim", card)])

    def step_aside(self) -> None:
        """Close the prompt for the table's news, keeping what was typed: the prompt is erased,
        not left in the scrollback as an empty line above each event, and comes back below them."""
        app = self.session.app
        self.typed = self.session.default_buffer.text
        app.erase_when_done = True
        app.exit(exception=Incoming())

    def prompt_text(self) -> StyleAndTextTuples:
        return [("class:prompt", prompt_message(self.table) + "> ")]

    def ring(self) -> None:
        """The terminal's bell, once a decision, when the person's turn comes after a wait of at
        least ``bell`` seconds since their last line (``bell:`` in settings.yaml)."""
        tb = self.table
        if self.bell is None or tb.over or not tb.waiting_for_person():
            return
        now = self.decision()
        if now != self.rung_for and self.clock() - self.answered >= self.bell:
            self.rung_for = now
            get_app_session().output.bell()

    def ask(self) -> str:
        """One line from the person: with the turn timer running, if there is one."""
        if self.turn_timer and not self.table.over:
            return self.ask_timed(self.turn_timer)
        self.status.deadline = self.status.host_deadline if self.news is not None else None
        self.session.app.erase_when_done = False  # (a line entered stays in the scrollback)
        default, self.typed = self.typed, ""
        try:
            return self.session.prompt(self.prompt_text(), default=default, pre_run=self.pre_run,
                                       refresh_interval=1.0 if self.status.deadline else 0)
        finally:
            self.auto_play.stop()

    def ask_timed(self, seconds: int) -> str:
        self.status.deadline = self.deadline(seconds)
        left = self.status.deadline - self.clock()
        if left <= 0:  # ran out while the last line was handled
            self.status.deadline = None
            raise TimeUp()

        def expire() -> None:
            app = self.session.app
            loop = getattr(app, "loop", None)
            if app.is_running and loop is not None:
                loop.call_soon_threadsafe(lambda: app.is_running and app.exit(exception=TimeUp()))

        timer = threading.Timer(left, expire)
        timer.daemon = True
        timer.start()
        try:
            return self.session.prompt(self.prompt_text(), pre_run=self.pre_run, refresh_interval=1.0)
        finally:
            timer.cancel()
            self.auto_play.stop()
            self.status.deadline = None

    # ------------------------------------------------------------ the loop (front.py's), as the session runs it

    def cpu_moves(self) -> bool:
        while self.table.cpu_step():
            self.status.paused = True
        return self.status.paused  # (a move shown with a pause counts too)

    def draw_table(self) -> None:
        self.renderer.width = self.columns() - 1  # laid out for the terminal as it is now
        self.show([[("", "")]] + self.renderer.table())

    def before_ask(self, moved: bool) -> None:
        if moved and self.quiet.active:
            clear_typeahead(self.session.input)  # read along with the last line
        self.quiet.stop(flush=moved)
        self.status.paused = False
        self.ring()

    def took(self, line: str) -> None:
        self.answered = self.clock()

    def hold(self, decision: tuple[object, ...]) -> None:
        self.auto_play.hold(decision)
