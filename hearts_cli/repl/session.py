"""The interactive table: one prompt-toolkit session (imported only here).

The table is printed before each decision, CPU moves scroll by one at a time,
and a bottom toolbar keeps the last event (or the rule that stops the card just
tried), like the seed table's status bar. Tab completes the cards in hand,
playable ones first, each unplayable one with its reason; commands complete
too. Ctrl-C cancels a selection; Ctrl-D saves and leaves; Ctrl-Z is ``undo``.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Iterable
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import completion_is_selected, has_completions
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.input.typeahead import clear_typeahead
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from ..model.cards import Card, card_phrases
from ..play.engine import Phase
from .render import Renderer, shorten, wrap
from .render import plain as plain_text
from .table import COMMAND_NAMES, COMMANDS, FrontEnd, Table, command_words, fold

# class names of our own: prompt-toolkit's default style already has "red" (#ff0000) and
# "black" (#000000, invisible on a dark terminal), and an empty rule here would not undo it
STYLE = Style.from_dict({
    "suit-red": "ansired",
    "suit-black": "",  # the terminal's own foreground colour, dark or light
    "red": "ansired",
    "dim": "ansibrightblack",
    "chosen": "reverse bold",
    "me": "bold",
    "turn": "bold",
    "header": "bold",
    "error": "ansired bold",
    "confirm": "ansiyellow bold",
    "info": "ansicyan",
    "moon": "ansimagenta bold",
    "trick": "",
    "bar": "ansired",
    "arrow": "bold",
    "ready": "ansigreen bold",
    "prompt": "bold",
    "bottom-toolbar": "reverse",
})

# commands whose argument is a card
CARD_COMMANDS = {"why", "por-que", "porque", "pass", "pasar", "paso"}
COMMAND_WORDS_FOLDED = frozenset(COMMANDS)


class _Shown(FrontEnd):
    """The session as the table's front end: each event printed above the prompt (and paced)."""

    def __init__(self, show: Any):
        self.show = show

    def event(self, ev: Any) -> None:
        self.show(ev)


class _TimeUp(Exception):
    """The turn timer ran out while the prompt was open."""


class _Incoming(Exception):
    """A shared table said something while the prompt was open (``hearts join``)."""


def prompt_message(table: Any) -> str:
    """What the prompt asks for: the seat's own decision, or, at a shared table between
    them, whom the table waits for (a card typed then is refused by the host)."""
    g = table.game
    if g.over:
        return table.say("prompt_over")
    r = g.round
    me = table.me
    if r.phase is Phase.PASS:
        return table.say("prompt_pass" if r.passes[me] is None else "prompt_wait_passes")
    if r.turn is not None and r.turn != me:
        return table.say("prompt_wait", seat=table.name(r.turn))
    if r.phase is Phase.MOON:
        return table.say("prompt_moon", points=g.rules.penalty_total)
    return table.say("prompt_play")


class CardCompleter(Completer):
    """Cards in hand (playable first; the others with the rule that stops them) and commands."""

    def __init__(self, table: Table, ascii: bool):
        self.table = table
        self.ascii = ascii

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        try:
            yield from self._completions(document)
        except Exception:
            return

    def _completions(self, document: Document) -> Iterable[Completion]:
        tb = self.table
        text = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        before = text[: len(text) - len(word)].strip()
        words = text.split()
        first = fold(words[0]) if words else ""
        command = bool(words) and (len(words) > 1 or text.endswith(" ")) and first in CARD_COMMANDS
        if before and not command and first in COMMAND_WORDS_FOLDED:
            return  # a command that takes no card
        if not tb.game.over and tb.game.round.phase is Phase.MOON:
            if not before:  # the shooter's choice: its two words
                for name in (tb.say("moon_word_minus"), tb.say("moon_word_others")):
                    if name.startswith(fold(word)):
                        yield Completion(name, start_position=-len(word))
            return
        if not tb.game.over:
            # the card being written: the last one, two or three words (`queen of`, `as de`),
            # in either language; the longest ending that starts some card's name
            cards = self.card_choices()
            tail = words[1:] if command else words
            if text.endswith(" ") and tail:
                tail = tail + [""]
            phrase, found = "", []
            for size in (3, 2, 1):
                if size > len(tail):
                    continue
                phrase = " ".join(tail[-size:])
                key = fold(phrase) + (" " if phrase.endswith(" ") and fold(phrase) else "")
                found = [(c, m) for c, m in cards if any(f.startswith(key) for f in card_phrases(c))]
                if found:
                    break
            if not tail:
                phrase, found = "", cards
            for card, meta in found:
                yield Completion(str(card), start_position=-len(phrase), display=card.face(self.ascii),
                                 display_meta=meta)
        key = fold(word)
        if not before and key:
            # the display language's commands; the other language's when none of those fits
            own, other = command_words(tb.lang)
            found = [cmd for cmd in own if cmd.startswith(key)] or \
                [cmd for cmd in other if cmd.startswith(key)]
            for cmd in found:
                yield Completion(cmd, start_position=-len(word))

    def card_choices(self) -> list[tuple[Card, str]]:
        tb = self.table
        rd = tb.game.round
        hand = rd.hand(tb.me)
        if rd.phase is Phase.PASS:
            return [(c, tb.say("meta_chosen") if c in tb.selection else tb.say("meta_in_hand"))
                    for c in hand]
        legal = rd.legal_mask() if rd.turn == tb.me else 0
        good = [(c, tb.say("meta_playable")) for c in hand if legal >> c & 1]
        bad = []
        for c in hand:
            if not legal >> c & 1:
                verdict = rd.why(c, tb.me)
                bad.append((c, verdict.message(tb.lang, tb.ascii)))
        return good + bad


class _History(FileHistory):
    """The prompt history, read from its newest end only, as far as ``LIMITS["history"]``.

    prompt-toolkit would read the whole file at start, however large it grew
    (or was made); a line too long to be a command is not kept in it either.
    """

    def load_history_strings(self) -> Iterable[str]:
        import os

        from ..base.untrusted import LIMITS

        limit = LIMITS["history"]
        try:
            with open(self.filename, "rb") as fh:
                size = fh.seek(0, os.SEEK_END)
                fh.seek(max(0, size - limit))
                data = fh.read(limit)
        except OSError:
            return []
        if size > limit:  # the first entry may be cut: start at the first whole one
            cut = data.find(b"\n\n")
            data = data[cut + 1:] if cut >= 0 else b""
        strings: list[str] = []
        lines: list[str] = []
        for raw in data.decode("utf-8", errors="replace").splitlines(keepends=True):
            if raw.startswith("+"):
                lines.append(raw[1:])
            elif lines:
                strings.append("".join(lines)[:-1])
                lines = []
        if lines:
            strings.append("".join(lines)[:-1])
        return list(reversed(strings))

    def store_string(self, string: str) -> None:
        from ..base.untrusted import MAX_LINE_CHARS

        if len(string) <= MAX_LINE_CHARS:
            super().store_string(string)


class _QuietInput:
    """Keys typed while the CPUs play: not echoed into the table, and thrown away.

    Echo is off from the moment a line is entered until the next prompt opens;
    when CPU moves were shown meanwhile, what was typed is flushed (``tcflush``,
    and prompt-toolkit's own typeahead is cleared), so it can never be played as
    the next card before the person has seen the trick. Only when stdin is a
    terminal (the line-by-line batch mode reads everything it is given).
    """

    def __init__(self, stream: Any):
        self.fd: int | None = None
        self.saved: Any = None
        try:
            import termios  # noqa: F401 - not on Windows

            if stream.isatty():
                self.fd = stream.fileno()
        except (ImportError, AttributeError, ValueError, OSError):
            self.fd = None

    @property
    def active(self) -> bool:
        return self.fd is not None

    def start(self) -> None:
        if self.fd is None or self.saved is not None:
            return
        import termios

        try:
            self.saved = termios.tcgetattr(self.fd)
            attrs = termios.tcgetattr(self.fd)
            # no echo, and each key readable at once (not after Enter): any key cuts a pause short
            attrs[3] &= ~(termios.ECHO | termios.ECHONL | termios.ICANON)
            attrs[6][termios.VMIN] = 1
            attrs[6][termios.VTIME] = 0
            termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        except (termios.error, OSError):
            self.saved = None

    def stop(self, flush: bool = True) -> None:
        """Echo on again; ``flush``: and throw away what was typed meanwhile."""
        if self.fd is None or self.saved is None:
            return
        import termios

        try:
            if flush:
                termios.tcflush(self.fd, termios.TCIFLUSH)
            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
        except (termios.error, OSError):
            pass
        self.saved = None


class CpuPause:
    """The pause after each CPU card and trick, which any key cuts short.

    ``key_within(seconds)`` waits up to that long and says whether a key came
    (and was taken); once one has, the rest of the trick goes by without
    pausing, and the next trick pauses again.
    """

    def __init__(self, delay: float, key_within: Any):
        self.delay = delay
        self.key_within = key_within
        self.skipping = False

    def after_card(self) -> None:
        if not self.skipping and self.key_within(self.delay):
            self.skipping = True

    def after_trick(self) -> None:
        self.after_card()
        self.skipping = False  # the next trick is shown at its pace again


def _key_within(quiet: _QuietInput) -> Any:
    """Wait for a key on the terminal (echo is off meanwhile), reading it away; without a
    terminal, just wait."""
    def wait(seconds: float) -> bool:
        fd = quiet.fd if quiet.saved is not None else None
        if fd is None:
            time.sleep(seconds)
            return False
        import os
        import select

        try:
            ready, _, _ = select.select([fd], [], [], seconds)
            if ready:
                os.read(fd, 1024)  # thrown away, as everything typed while the CPUs play
                return True
        except (OSError, ValueError):
            time.sleep(seconds)
        return False
    return wait


def run_interactive(table: Table, *, plain: bool, delay: float, turn_timer: int | None,
                    resumed: bool, notes: list[str | tuple[str, str]], key_within: Any = None) -> int:
    """The prompt-toolkit game loop; ``key_within(seconds)`` (tests) stands in for the
    terminal's keys during the CPUs' pauses."""
    renderer = Renderer(table, plain=plain)
    status: dict[str, Any] = {"text": "", "deadline": None, "paused": False}
    color_depth = ColorDepth.MONOCHROME if plain else None
    # the terminal itself; not a pipe standing in for it (tests), whose keys must all arrive
    quiet = _QuietInput(None if isinstance(get_app_session().input, PipeInput) else sys.stdin)
    pause = CpuPause(delay, key_within or _key_within(quiet))

    def columns() -> int:
        try:
            return get_app_session().output.get_size().columns
        except Exception:
            return shutil.get_terminal_size((80, 24)).columns

    def show(lines: list) -> None:
        width = columns() - 1
        for whole in lines:
            for line in wrap(whole, width):  # at spaces: never a word (or a path) cut in two
                if plain:
                    print_formatted_text(plain_text(line))
                else:
                    print_formatted_text(FormattedText(line), style=STYLE, color_depth=color_depth)

    def emit(ev: Any) -> None:
        renderer.width = columns() - 1
        show(renderer.event(ev))
        text = renderer.status(ev)
        if text:
            status["text"] = text
        if ev.kind == "play" and ev.data["by"] in ("cpu", "auto") and delay and not fast():
            status["paused"] = True
            pause.after_card()
        elif ev.kind == "trick" and delay and not fast():
            status["paused"] = True
            pause.after_trick()
        if ev.kind == "waiting":  # a shared table's turn timer: the toolbar counts down the host's
            mine = table.me in ev.data["seats"] and ev.data["deadline"]
            status["host_deadline"] = time.monotonic() + ev.data["deadline"] if mine else None
        elif ev.kind in ("pass", "play") and ev.data["seat"] == table.me:
            status["host_deadline"] = None

    def fast() -> bool:
        # no waiting while the CPU finishes a round that has no points left
        return table.auto_round is not None and not table.points_left()

    table.attach(_Shown(emit))
    for note in notes:
        if isinstance(note, tuple):  # (the text, the path it names)
            show(renderer.note_with_path(*note))
        else:
            show([[("class:info", line)] for line in note.split("\n")])
    table.announce_start(resumed=resumed)

    from ..store.saves import history_path

    try:
        hist_path = history_path()
        hist_path.parent.mkdir(parents=True, exist_ok=True)
        history: Any = _History(str(hist_path))
    except OSError:
        history = InMemoryHistory()

    bindings = KeyBindings()

    @bindings.add("tab", filter=~has_completions)
    def _(event: Any) -> None:
        event.current_buffer.start_completion(select_first=True)

    @bindings.add("enter", filter=has_completions & completion_is_selected)
    def _(event: Any) -> None:
        event.current_buffer.complete_state = None  # accept the completion; Enter again submits

    @bindings.add("escape", filter=has_completions, eager=True)
    def _(event: Any) -> None:
        event.current_buffer.cancel_completion()

    @bindings.add("c-z")
    def _(event: Any) -> None:
        # undo, as in the classic game: at the prompt the terminal is in raw mode, so Ctrl-Z
        # reaches us as a key (prompt-toolkit's suspend binding is off unless enable_suspend)
        buffer = event.current_buffer
        buffer.text = COMMAND_NAMES.get(table.lang, COMMAND_NAMES["en"])["undo"]
        buffer.validate_and_handle()

    def toolbar() -> Any:
        text = status["text"] or table.say("toolbar_keys")
        deadline = status["deadline"]
        if deadline is not None:  # first, so that shortening never hides it
            left = max(0, int(deadline - time.monotonic() + 0.999))
            text = "[" + table.say("timer_left", seconds=left) + "] " + text
        try:
            width = session.app.output.get_size().columns - 2
        except Exception:
            width = 78
        # at most two lines, broken at spaces; what is left over ends in an ellipsis
        short = shorten(" ".join(text.split()), width, 2, "..." if table.ascii else "…")
        return [("class:bottom-toolbar", "\n".join(" " + row for row in short.split("\n")))]

    session: PromptSession = PromptSession(
        history=history,
        completer=CardCompleter(table, table.ascii),
        complete_while_typing=False,
        bottom_toolbar=toolbar,
        key_bindings=bindings,
        style=STYLE,
        color_depth=color_depth,
        reserve_space_for_menu=6,
    )

    def prompt_text() -> Any:
        return [("class:prompt", prompt_message(table) + "> ")]

    typed: dict[str, str] = {}  # what was being typed when a shared table's news came

    def incoming() -> None:
        """The table's news (from another thread): the prompt steps aside to show it."""
        app = session.app
        loop = getattr(app, "loop", None)
        if app.is_running and loop is not None:
            def leave() -> None:
                if app.is_running and app.future is not None and not app.future.done():  # (not leaving already)
                    typed["text"] = session.default_buffer.text
                    app.exit(exception=_Incoming())
            loop.call_soon_threadsafe(leave)

    remote = not table.local
    if remote:
        table.core.link.wake = incoming

    def pre_run() -> None:
        app = session.app
        if remote and table.core.pending() and app.future is not None and not app.future.done():
            typed["text"] = session.default_buffer.text
            app.exit(exception=_Incoming())

    def ask() -> str:
        timed = turn_timer and not table.game.over
        if not timed:
            status["deadline"] = status.get("host_deadline") if remote else None
            return session.prompt(prompt_text(), default=typed.pop("text", ""), pre_run=pre_run,
                                  refresh_interval=1.0 if status["deadline"] else 0)
        status["deadline"] = time.monotonic() + turn_timer

        def expire() -> None:
            app = session.app
            loop = getattr(app, "loop", None)
            if app.is_running and loop is not None:
                loop.call_soon_threadsafe(lambda: app.is_running and app.exit(exception=_TimeUp()))

        timer = threading.Timer(turn_timer, expire)
        timer.daemon = True
        timer.start()
        try:
            return session.prompt(prompt_text(), refresh_interval=1.0)
        finally:
            timer.cancel()
            status["deadline"] = None

    def show_archived() -> None:
        if table.archived is not None:
            path = str(table.archived)
            unfinished = table.archived_unfinished
            text = (table.say("previous_archived", code=unfinished, path=path) if unfinished
                    else table.say("archived_at", path=path))
            show(renderer.note_with_path(text, path))
            table.archived = table.archived_unfinished = None

    try:
        while True:
            # from one prompt to the next, what is typed is not echoed into the table; and
            # when the CPUs played (or a move was shown with a pause), it is thrown away: a
            # card typed ahead must never be played before its trick has been seen
            quiet.start()
            while table.cpu_step():
                status["paused"] = True
            if table.dirty and not table.game.over:
                renderer.width = columns() - 1  # laid out for the terminal as it is now
                show([[("", "")]] + renderer.table())
                table.dirty = False
            if table.game.over:  # the last cards are mostly the CPUs' (or auto's)
                show_archived()
                if remote:  # a shared table closes at the end of its game
                    break
            if status["paused"] and quiet.active:
                clear_typeahead(session.input)  # read along with the last line
            quiet.stop(flush=bool(status["paused"]))
            status["paused"] = False
            try:
                line = ask()
            except KeyboardInterrupt:
                table.cancel()
                continue
            except EOFError:
                break
            except _TimeUp:
                table.play_for_person()
                continue
            except _Incoming:
                continue
            signal = table.handle(line)
            if signal == "quit":
                break
            if signal in ("new", "replay"):
                table.archive_unfinished()
                show_archived()  # where the game left behind went, before the next one starts
                table.restart(same_deal=signal == "replay")
            if table.game.over:
                show_archived()
    except KeyboardInterrupt:
        pass  # Ctrl-C while the CPUs play: every move is already saved
    finally:
        quiet.stop(flush=False)
    if not table.game.over:
        table.leave()  # saved (a move interrupted between the engine and its save too), or left to the CPU
    return 0
