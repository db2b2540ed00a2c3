"""The CPUs' pace at a terminal: their pauses, and the keys typed while they play.

Echo is off from the moment a line is entered until the next prompt opens, so
what is typed meanwhile never lands in the middle of the table; any key cuts a
pause short; and a card typed ahead is thrown away, never played before its
trick has been seen.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable
from typing import Any, TextIO

KeyWithin = Callable[[float], bool]  # wait up to this many seconds: did a key come (and was taken)?


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
        self.saved: list[Any] | None = None
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
