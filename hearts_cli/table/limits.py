"""What a host holds for the people who connect, and what it refuses: the connection limits.

Everything a client sends is untrusted (docs/tables.md, "Limits" and "What a host
can take"): a line is bounded (``MAX_LINE``), so is the rate of a seated client's
requests (``RATE``, ``BURST``) and how many it may get refused (``MAX_BAD``). Before an
invitation is presented, :class:`Admission` bounds what a stranger can make the host
hold: connections that have not said hello (``PENDING_PER_ADDRESS`` from one address,
``PENDING_MAX`` in all, the oldest closed to make room for a new one), each for
``HELLO_TIMEOUT`` seconds from its TCP accept; hellos per address and per seat (rate
limited); and connections in all, kept ``FD_RESERVE`` file descriptors short of the
process's limit so that the save always has one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Generic, TypeVar

from ..base.untrusted import LIMITS

MAX_LINE = LIMITS["net_message"]  # bytes in one message from a client
RATE = 20.0  # messages a second a client may send, sustained (moves made are not counted) ...
BURST = 40.0  # ... and at once
MAX_BAD = 50  # refused messages (bad JSON, too long, too fast) before the connection is closed
HELLO_TIMEOUT = 10.0  # seconds from the TCP accept (the TLS handshake included) to present an invitation
PENDING_PER_ADDRESS = 8  # connections from one address that have not presented an invitation yet ...
PENDING_MAX = 128  # ... and from all addresses together
HELLO_RATE, HELLO_BURST = 5.0, 30.0  # hellos a second from one address, sustained, and at once
SEAT_RATE, SEAT_BURST = 0.1, 3.0  # hellos a second with one seat's invitation, and at once
BACKLOG = 64  # connections the kernel keeps waiting to be accepted; asyncio accepts as many at once
# file descriptors never given to connections: the save, the archive, the process (32), and a
# burst of accepts (a connection holds its descriptor until it is refused, on the next turn of the loop)
FD_RESERVE = 32 + BACKLOG
CONNECTIONS_MAX = 20000  # connections at most, where the system sets no lower limit

W = TypeVar("W")  # what stands for one connection at the door (the server: its task)


class Bucket:
    """A token bucket: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()
        self.said = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)

    def should_say(self) -> bool:
        now = time.monotonic()
        if now - self.said >= 1.0:
            self.said = now
            return True
        return False


def connection_cap() -> int:
    """How many connections a host holds at most: its file-descriptor limit (the soft one), less
    ``FD_RESERVE`` for the save, the archive and the rest of the process."""
    try:
        import resource  # not on every platform, and only for the server
    except ImportError:  # Windows: no such limit to keep clear of
        return CONNECTIONS_MAX
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS_MAX
    return max(4, min(CONNECTIONS_MAX, soft - FD_RESERVE))


class Admission(Generic[W]):
    """Who comes in at a host's door, and how fast: the connections open and those that have
    not said hello yet (per address and in all), and the hellos' rates (per address, per seat).

    Each connection waiting to say hello is known by a ``W`` (the server's: its task), oldest
    first. When ``PENDING_MAX`` wait, a new one is not refused: the oldest waiting makes room
    for it (:meth:`make_room`), as sshd's MaxStartups does, so that strangers from many
    addresses cannot keep a person with an invitation out; one address is still refused
    beyond its own ``PENDING_PER_ADDRESS``.

    ``exempt``: addresses free of the bounds on connections waiting to say hello and on hellos
    (a bench's own clients, hundreds of them on 127.0.0.1); the descriptor bound still holds.
    """

    def __init__(self, exempt: Sequence[str] = ()):
        self.exempt = frozenset(exempt)
        self.waiting: dict[W, str] = {}  # connection -> its address, oldest first: not said hello yet
        self.pending: dict[str, int] = {}  # address -> connections that have not said hello
        self.open = 0  # connections accepted and not yet closed
        self.max_open = connection_cap()
        self.hello_rates: dict[str, Bucket] = {}
        # each seat's invitation opens it a few times a minute at most (a rejoin now and then)
        self.seat_rates: dict[str, Bucket] = {}

    @property
    def pending_total(self) -> int:
        """Connections that have not said hello, from all addresses (the exempt not counted)."""
        return len(self.waiting)

    def refusal(self, addr: str) -> str | None:
        """Why a new connection from ``addr`` is refused at once (the kind counted), or None."""
        if addr not in self.exempt and self.pending.get(addr, 0) >= PENDING_PER_ADDRESS:
            return "waiting"
        if self.open >= self.max_open:
            return "descriptors"
        return None

    def make_room(self, addr: str) -> W | None:
        """The connection that must close so that one more from ``addr`` may wait to say hello:
        the oldest waiting, when ``PENDING_MAX`` wait (it waits no more, from now), else None."""
        if addr in self.exempt or len(self.waiting) < PENDING_MAX:
            return None
        oldest = next(iter(self.waiting))
        self.said_hello(oldest)
        return oldest

    def come_in(self, who: W, addr: str) -> None:
        """Connection ``who`` from ``addr`` let in: open, and waiting to say hello."""
        self.open += 1
        if addr not in self.exempt:
            self.waiting[who] = addr
            self.pending[addr] = self.pending.get(addr, 0) + 1

    def said_hello(self, who: W) -> None:
        """Connection ``who`` no longer waits to say hello (it did, it is gone, or it made room);
        nothing if it was not waiting."""
        addr = self.waiting.pop(who, None)
        if addr is None:
            return
        left = self.pending.get(addr, 1) - 1
        if left > 0:
            self.pending[addr] = left
        else:
            self.pending.pop(addr, None)

    def gone(self) -> None:
        """A connection let in has closed."""
        self.open -= 1

    def hello_allowed(self, addr: str) -> bool:
        if addr in self.exempt:
            return True
        bucket = self.hello_rates.get(addr)
        if bucket is None:
            if len(self.hello_rates) > 10000:  # forget the addresses whose buckets are full again
                now = time.monotonic()
                self.hello_rates = {a: b for a, b in self.hello_rates.items()
                                    if now - b.last < HELLO_BURST / HELLO_RATE}
            bucket = self.hello_rates[addr] = Bucket(HELLO_RATE, HELLO_BURST)
        return bucket.take()

    def seat_hello_allowed(self, token: str, addr: str) -> bool:
        """Whether the seat of invitation ``token`` may be taken (again) now, from ``addr``."""
        if addr in self.exempt:
            return True
        bucket = self.seat_rates.get(token)
        if bucket is None:
            bucket = self.seat_rates[token] = Bucket(SEAT_RATE, SEAT_BURST)
        return bucket.take()
