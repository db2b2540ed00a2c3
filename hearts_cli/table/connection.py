"""One connection at a shared table: the network client of a seat, and its own bounded queue
of lines to write.

A client that does not read is dropped without holding up the table or the other
clients (``QUEUE_MAX`` lines waiting, or ``WRITE_TIMEOUT`` seconds to take them;
docs/tables.md, "Limits").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Protocol

from ..play.events import Event
from .seats import SeatClient
from .wire import encode, encode_event

QUEUE_MAX = 5000  # messages waiting for a client that does not read, before it is dropped
WRITE_TIMEOUT = 15.0  # seconds a client may take to accept what was sent to it
WRITE_BUFFER = 65536  # bytes waiting in the socket's buffer before the client counts as slow


class Seated(Protocol):
    """The table a client sits at, as the client sees it (:class:`~hearts_cli.table.shared.SharedTable`)."""

    def view_of(self, seat: int, history: bool = False) -> Mapping[str, object]: ...

    def detach(self, seat: int, client: Client) -> None: ...


class Client(SeatClient):
    """One connection, the network client of a seat, and its own bounded queue of lines to write.

    What the table sends during one turn of the event loop (a move's event, the
    view of the seat to move next, the reply) goes out in one write at the end of
    that turn. A client that does not read fills its socket buffer: lines then
    wait in its own queue while one task waits for it to read, at most
    ``WRITE_TIMEOUT`` seconds and ``QUEUE_MAX`` lines, before it is dropped;
    the table and the other clients never wait for it.
    """

    def __init__(self, writer: asyncio.StreamWriter, lang: str = "en"):
        self.writer = writer
        self.lang = lang
        self.queue: list[bytes] = []  # lines not yet handed to the socket
        self.closed = False
        self.seat: int | None = None
        self.table: Seated | None = None
        # with a witness (tests): every line sent, with what the witness says of that moment
        self.witness: Callable[[Client], object] | None = None
        self.sent: list[tuple[bytes, object]] = []
        self._loop = asyncio.get_running_loop()
        self._flush_due = False  # a flush is scheduled at the end of this turn of the loop
        self._waiting: asyncio.Task[None] | None = None  # the client is slow: waiting for it to read
        self._finishing = False

    def send(self, line: bytes) -> None:
        """Queue one line (already JSON and newline); never waits. A client that does not read is dropped."""
        if self.closed or self._finishing:
            return
        if len(self.queue) >= QUEUE_MAX:
            self.close()
            return
        if self.witness is not None:
            self.sent.append((line, self.witness(self)))
        self.queue.append(line)
        if not self._flush_due and self._waiting is None:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def send_obj(self, obj: Mapping[str, object]) -> None:
        self.send(encode(obj))

    # what the table tells its seat (seats.SeatClient)

    def event(self, ev: Event) -> None:
        self.send(encode_event(ev))

    def decide(self) -> None:
        """The seat view, when the seat has a decision to make and at the end."""
        if self.table is not None and self.seat is not None:
            self.send_obj(self.table.view_of(self.seat))

    def gone(self) -> bool:
        return self.closed

    def _flush(self) -> None:
        """Hand what is queued to the socket in one write; wait for a client that reads too slowly."""
        self._flush_due = False
        if self.closed or self._waiting is not None:
            return
        if self.queue:
            data = b"".join(self.queue) if len(self.queue) > 1 else self.queue[0]
            self.queue.clear()
            try:
                self.writer.write(data)
            except (ConnectionError, OSError, RuntimeError):
                self.close()
                return
        if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER:
            self._waiting = self._loop.create_task(self._wait())
        elif self._finishing:
            self.closed = True
            self._abort()

    async def _wait(self) -> None:
        try:
            await asyncio.wait_for(self.writer.drain(), WRITE_TIMEOUT)
        except (TimeoutError, ConnectionError, OSError):
            self.close()
            return
        self._waiting = None
        self._flush()

    def finish(self) -> None:
        """Close once everything queued has been written."""
        if not self.closed and not self._finishing:
            self._finishing = True
            if not self._flush_due and self._waiting is None:
                self._flush_due = True
                self._loop.call_soon(self._flush)

    def close(self) -> None:
        """Close at once (what is still queued is dropped)."""
        self.closed = True
        self.queue.clear()
        if self._waiting is not None and self._waiting is not asyncio.current_task():
            self._waiting.cancel()
        self._abort()

    def _abort(self) -> None:
        try:
            self.writer.close()
        except Exception:
            pass
        table, seat = self.table, self.seat
        if table is not None and seat is not None:
            self.table = None
            table.detach(seat, self)

