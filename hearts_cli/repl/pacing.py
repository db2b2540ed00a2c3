"""The pace at a terminal: the CPUs' pauses, the keys typed while they play, and the
pause before the only legal card plays by itself.

Echo is off from the moment a line is entered until the next prompt opens, so
what is typed meanwhile never lands in the middle of the table; any key cuts a
pause short (Ctrl-C too: it is a key then, not the signal that would end the
game); and a card typed ahead is thrown away, never played before its trick has
been seen. With ``auto_play`` in settings.yaml, a card that is the only
one the person may play is shown at the open prompt and entered for them after a
short pause, unless they press a key first (:class:`AutoPlay`).
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding.key_processor import KeyProcessor

KeyWithin = Callable[[float], bool]  # wait up to this many seconds: did a key come (and was taken)?

AUTO_PLAY_PAUSE = 0.8  # seconds the only legal card is shown before it plays (`auto_play: true`)


class QuietInput:
    """Keys typed while the CPUs play: not echoed into the table, and thrown away.

    Echo is off from the moment a line is entered until the next prompt opens;
    when CPU moves were shown meanwhile, what was typed is flushed (``tcflush``,
    and prompt-toolkit's own typeahead is cleared), so it can never be played as
    the next card before the person has seen the trick. Only when stdin is a
    terminal (the line-by-line batch mode reads everything it is given).
    """

    def __init__(self, stream: TextIO | None):
        self.fd: int | None = None
        self.saved: list[int | list[bytes | int]] | None = None  # the terminal's settings (termios)
        try:
            import termios  # noqa: F401 - not on Windows

            if stream is not None and stream.isatty():
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
            # no echo, and each key readable at once (not after Enter): any key cuts a pause
            # short, Ctrl-C too (no signal: a key like any other, never the end of the game)
            attrs[3] &= ~(termios.ECHO | termios.ECHONL | termios.ICANON | termios.ISIG)
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

    def __init__(self, delay: float, key_within: KeyWithin):
        self.delay = delay
        self.key_within = key_within
        self.skipping = False

    def after_card(self) -> None:
        if not self.skipping and self.key_within(self.delay):
            self.skipping = True

    def after_trick(self) -> None:
        self.after_card()
        self.skipping = False  # the next trick is shown at its pace again


def key_within(quiet: QuietInput) -> KeyWithin:
    """Wait for a key on the terminal (echo is off meanwhile), reading it away; without a
    terminal, just wait."""
    def wait(seconds: float) -> bool:
        fd = quiet.fd if quiet.saved is not None else None
        if fd is None:
            time.sleep(seconds)
            return False
        try:
            ready, _, _ = select.select([fd], [], [], seconds)
            if ready:
                os.read(fd, 1024)  # thrown away, as everything typed while the CPUs play
                return True
        except (OSError, ValueError):
            time.sleep(seconds)
        return False
    return wait


BELL_WAIT = 2.0  # `bell: true`: the bell rings when your turn comes at least this long after your last line


def bell_wait(value: object) -> float | None:
    """The wait after which ``bell`` in settings.yaml rings the terminal's bell at your turn
    (``true``: :data:`BELL_WAIT`, or a number of seconds), or None: no bell (the default)."""
    if value is True:
        return BELL_WAIT
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


def auto_play_pause(value: object) -> float | None:
    """The pause ``auto_play`` in settings.yaml asks for (``true``: :data:`AUTO_PLAY_PAUSE`, or
    a number of seconds), or None: off, the only legal card waits to be entered as any other."""
    if value is True:
        return AUTO_PLAY_PAUSE
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


class AutoPlay:
    """The only legal card, entered for the person after a pause while their prompt is open.

    :meth:`start` (when the prompt opens, in its event loop) shows the card at the
    prompt and in the toolbar, and after ``pause`` seconds enters it as if typed: the
    same line, the same move, the same "You play 2♣". A key pressed meanwhile (a
    command being typed, Tab, Ctrl-C) stops it for that decision, which then waits for
    the person as any other; so does coming back to it with ``undo`` (:meth:`hold`).
    Nothing is made during the pause, so a kill then loses nothing: the save holds the
    position before the card, and the card is shown again when the game resumes.
    """

    def __init__(self, pause: float | None, show: Callable[[str | None, str | None], None]):
        self.pause = pause
        self.show = show  # (what the toolbar says, the card on the prompt) while it waits; None: as before
        self.held: object = None  # the decision the person took over
        self.armed: tuple[Application[str], object] | None = None  # (the application, the decision) while waiting

    def hold(self, decision: object) -> None:
        """The person decides this one: no card plays by itself at it."""
        self.held = decision

    def start(self, app: Application[str], decision: object, card: str | None, said: str) -> None:
        """The prompt is open at ``decision``: ``card`` (its text, or None when there is a
        choice) is entered after the pause unless a key comes first."""
        if self.pause is None or card is None or self.held == decision or self.armed is not None:
            return
        if app.current_buffer.text:  # typing already (a line kept across a shared table's news)
            self.held = decision
            return
        armed = self.armed = (app, decision)
        app.key_processor.before_key_press += self._key
        self.show(said, card)

        async def enter() -> None:
            import asyncio

            await asyncio.sleep(self.pause or 0)
            if self.armed is not armed or app.future is None or app.future.done():
                return
            self.stop()
            app.current_buffer.text = card  # shown on the prompt's line, as if typed
            app.exit(result=card)

        app.create_background_task(enter())

    def _key(self, _processor: KeyProcessor) -> None:
        if self.armed is not None:
            self.held = self.armed[1]
            app = self.armed[0]
            self.stop()
            app.invalidate()

    def stop(self) -> None:
        """Nothing plays by itself any more (the prompt closed, or a key came)."""
        if self.armed is None:
            return
        app = self.armed[0]
        self.armed = None
        app.key_processor.before_key_press -= self._key
        self.show(None, None)
