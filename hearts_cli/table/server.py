"""The table server (``hearts host``): one game shared by several people, over TCP.

Each person's terminal (``hearts join``) or script connects with an
invitation ``HOST:PORT/SEAT-TOKEN`` and speaks JSON lines (``docs/tables.md``);
CPU players fill the other seats, and play for a person whose turn timer runs
out or who has gone (until the same invitation is used again). The game is
saved after every move, as ``hearts play`` saves it, and ``--resume`` brings it
back; a finished game goes to the archive.

What a client receives is built for its seat only: the events of
:mod:`hearts_cli.play.events` with the other seats' cards left out, and its seat
view. Everything a client sends is untrusted: lines are bounded, the rate of
messages is bounded, nothing is evaluated, and every client has its own
bounded write queue, so one that stalls or floods is dropped without holding
up the others or the timer. What a stranger can make the host hold before
presenting an invitation is bounded too (:class:`Server`: connections per
address and in all, the hello limit from the accept, hellos per address and
per seat, descriptors kept for the save), and a move whose save fails is taken
back: the game goes on, saved (docs/tables.md, "What a host can take").

One process can serve many tables (``bench/tables.py``); ``hearts host``
serves one.
"""

from __future__ import annotations

import asyncio
import errno
import json
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..base.untrusted import LIMITS, strict_json
from ..base.wrapping import for_terminal
from ..play import requests
from ..play.engine import Game
from ..play.events import SCHEMA, Event
from ..play.requests import RequestError
from ..store.saves import Store
from ..text.catalog import LANGUAGES, t
from .game import GameTable, Seat, SeatClient
from .seat_requests import SeatRequests

MAX_LINE = LIMITS["net_message"]  # bytes in one message from a client
RATE = 20.0  # messages a second a client may send, sustained (moves made are not counted) ...
BURST = 40.0  # ... and at once
MAX_BAD = 50  # refused messages (bad JSON, too long, too fast) before the connection is closed
QUEUE_MAX = 5000  # messages waiting for a client that does not read, before it is dropped
WRITE_TIMEOUT = 15.0  # seconds a client may take to accept what was sent to it
WRITE_BUFFER = 65536  # bytes waiting in the socket's buffer before the client counts as slow
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
RETRY = 1.0  # seconds before the clock makes again a move whose save failed
NAME_MAX = 24


def clean_name(name: Any, default: str) -> str:
    """A name a client gave, safe to show: printable characters only, short; else ``default``."""
    if not isinstance(name, str):
        return default
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    kept = " ".join(kept.split())[:NAME_MAX]
    return kept or default


def new_token(seat: int) -> str:
    """The secret of an invitation: the seat number, a dash, 128 random bits (``secrets``)."""
    return f"{seat}-{secrets.token_urlsafe(16)}"


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
        self.table: SharedTable | None = None
        # with a witness (tests): every line sent, with what the witness says of that moment
        self.witness: Callable[[Client], Any] | None = None
        self.sent: list[tuple[bytes, Any]] = []
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

    def send_obj(self, obj: dict[str, Any]) -> None:
        self.send(encode(obj))

    # what the table tells its seat (gametable.SeatClient)

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


def _compact_encoder() -> Callable[[Any], str]:
    """Compact JSON, UTF-8 as it is. ``JSONEncoder.encode`` makes a new C encoder at every
    call (a quarter of the cost of a small message); the table server sends several lines
    a move, so it makes one, once (the same C encoder, the same output)."""
    from json import encoder as std

    # strict JSON: a number that is not finite is refused (ValueError), never sent as ``Infinity``
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
    make = getattr(std, "c_make_encoder", None)
    if make is None:  # a Python without the C accelerator
        return plain

    def refuse(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")
    # markers None: no check for cycles (a message is a tree of plain values)
    # (markers, default, encoder, indent, key separator, item separator, sort_keys, skipkeys, allow_nan)
    once = make(None, refuse, std.encode_basestring, None, ":", ",", False, False, False)
    return lambda obj: "".join(once(obj, 0))


_encode = _compact_encoder()


def encode(obj: dict[str, Any]) -> bytes:
    return (_encode(obj) + "\n").encode("utf-8")


OK = {"ok": True}
OK_LINE = encode(OK)  # the reply to most requests, encoded once


SeatState = Seat  # a seat at a shared table is a seat of the one table (gametable.Seat)


def encode_event(ev: Event) -> bytes:
    """An event as one line, encoded once however many clients it goes to."""
    line = ev.__dict__.get("_line")
    if line is None:
        line = ev.__dict__["_line"] = encode(ev.to_json())
    return line


class SharedTable(GameTable):
    """The one table (:class:`~hearts_cli.table.game.GameTable`) adapted to sockets: the people's
    seats open with invitations, their requests come as JSON (:meth:`act`), and a clock
    (:meth:`run`) makes the CPU moves as they fall due (a person's too, out of time or gone)."""

    def __init__(self, game: Game, seats: Sequence[Seat], *, turn_timer: float | None = None,
                 delay: float = 0.0, store: Any = None, on_change: Callable[[str, dict[str, Any]], None] | None = None,
                 bot_threads: bool = True, hints: bool = False):
        super().__init__(game, seats, store=store, turn_timer=turn_timer)
        for st in self.seats:
            st.joined_once = False
        # each seat's invitation opens it a few times a minute at most (a rejoin now and then)
        self.hellos = [_Bucket(SEAT_RATE, SEAT_BURST) for _ in self.seats]
        self.server: Server | None = None  # the server it is served by (counts what failed)
        self.delay = delay
        if on_change is not None:
            self.on_change = on_change
        self.bot_threads = bot_threads
        self.hints = hints  # whether a person may ask the CPU for a suggestion (`hint`)
        self.requests = SeatRequests(self, hints)
        self.wake = asyncio.Event()
        self.closed = asyncio.Event()

    # ------------------------------------------------------------ clients

    def attach(self, seat: int, client: Client, name: str | None = None) -> None:  # type: ignore[override]
        """A person takes (or takes back) the seat: welcome, the game so far, the view."""
        st = self.seats[seat]
        old = st.client
        if isinstance(old, Client) and old is not client:
            # its closing is not a departure: the seat is taken back with its own invitation,
            # and the person it was taken from is told so (in one sentence) before it closes
            old.table = None
            old.send_obj(_fail("seat_taken", "net_seat_taken", old.lang))
            old.finish()
        back = st.joined_once
        super().attach(seat, client)
        client.table = self
        if name is not None:
            st.name = clean_name(name, st.name)
        # the turn timer runs on: it measures the seat's decision, not its connection
        client.send_obj({"event": "welcome", "schema": SCHEMA, "seat": seat, "players": self.players,
                         "turn_timer": self.turn_timer, "hints": self.hints,
                         "names": [s.name for s in self.seats]})
        client.send_obj(self.start_event(seat).to_json())
        client.send_obj(self.view_of(seat, history=True))
        self._public(Event("seat", {"seat": seat, "name": st.name, "status": "back" if back else "joined"}))
        self.on_change("joined", {"seat": seat, "name": st.name})
        self.wake.set()

    def detach(self, seat: int, client: Client) -> None:
        st = self.seats[seat]
        if st.client is not client:
            return
        st.client = None
        if not self.game.over:
            self._public(Event("seat", {"seat": seat, "name": st.name, "status": "left"}))
            self.on_change("left", {"seat": seat, "name": st.name})
        self.wake.set()

    def changed(self) -> None:
        # the clock (run) wakes when it has something to do: a CPU move, a turn timer, the end;
        # a move between people alone leaves it asleep (one task switch a move saved)
        if self.game.over or self.turn_timer or self.due_move() is not None:
            self.wake.set()

    def over(self) -> None:
        super().over()
        for _, c in self.clients():
            c.finish()  # type: ignore[attr-defined]
        self.closed.set()

    # ------------------------------------------------------------ a person's requests

    def act(self, seat: int, request: dict[str, Any], lang: str) -> dict[str, Any]:
        """The reply to one request of the person at ``seat`` (moves are told as events too)."""
        return self.requests.act(seat, request, lang)

    # ------------------------------------------------------------ the clock

    def next_deadline(self) -> float | None:
        if not self.turn_timer:
            return None
        times = [st.due_since + self.turn_timer for s, st in enumerate(self.seats)
                 if st.human and st.due_since is not None and self.present(s)]
        return min(times) if times else None

    async def gather(self) -> None:
        """Before the first move (a new table, or one brought back): wait until every person's
        seat is taken, at most one turn timer when there is one."""
        deadline = time.monotonic() + self.turn_timer if self.turn_timer else None
        while not all(self.present(s) for s, st in enumerate(self.seats) if st.human):
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                return
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                return
        self._mark_due()
        for st in self.seats:  # everybody's clock starts now
            if st.due_since is not None:
                st.due_since = time.monotonic()
        due = set(self.due())
        for s, c in self.clients():  # the game is on: the seats it waits for are told again
            if s in due:
                c.decide()

    def failed(self, e: BaseException) -> None:
        """A move the table could not make (its save failed: the move was taken back): counted
        and told once on the host's terminal; the clock tries again after ``RETRY`` seconds."""
        if self.server is not None:
            self.server.count("save")
        self.on_change("failed", {"problem": _problem(e)})

    async def run(self) -> None:
        """Make the CPU moves as they fall due (:meth:`GameTable.due_move`) until the game is over.

        A move whose save fails (no descriptor left, a full disk) is taken back
        (:meth:`GameTable._keep`) and made again a moment later: the game goes on, saved."""
        if not self.game.over and self.moves == 0 and self.store is not None:
            self.save()
        await self.gather()
        while not self.game.over:
            try:
                await self._step()
            except Exception as e:  # the position is as it was: try again in a moment
                self.failed(e)
                await asyncio.sleep(RETRY)

    async def _step(self) -> None:
        """One turn of the clock: a move due now, or a wait until one may be."""
        now = time.monotonic()
        move = self.due_move(now)
        if move is None:
            deadline = self.next_deadline()
            self.wake.clear()
            timeout = None if deadline is None else max(0.0, deadline - now)
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                pass
            return
        seat, by = move
        if by != "cpu" or self.delay:
            # a person's seat: say so first; a pause lets people follow the CPUs
            if by in ("timer", "away"):
                self._public(Event("takeover", {"seat": seat, "reason": by}))
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.game.over or self.due_move(time.monotonic()) != move:
                return  # a person came back (or moved) during the pause
        before = self.moves
        level = self.level_for(seat, by)
        view = self.game.round.view(seat)  # made here: the game may move on while the CPU thinks
        if self.bot_threads:
            choice = await asyncio.to_thread(self.suggest, seat, level, view)
        else:
            await asyncio.sleep(0)  # never a run of CPU moves without letting the clients in
            choice = self.suggest(seat, level, view)
        if self.moves != before or self.game.over or self.due_move(time.monotonic()) != move:
            return  # the person moved (or came back) meanwhile
        self.apply(seat, by, choice)


def _fail(code: str, message_id: str, lang: str, **params: Any) -> dict[str, Any]:
    """The error reply (the one shape: :class:`~hearts_cli.play.requests.RequestError`)."""
    return dict(RequestError(code, message_id, params).reply(lang))


# ---------------------------------------------------------------- the server


class Server:
    """Tables, the invitations that open their seats, and the TCP (or TLS) listener.

    What a stranger can make it hold is bounded (docs/tables.md, "What a host can
    take"): connections that have not presented an invitation (``PENDING_PER_ADDRESS``
    from one address, ``PENDING_MAX`` in all), each for ``HELLO_TIMEOUT`` seconds from
    its TCP accept (the TLS handshake included); hellos per address and per seat
    (rate limited); and connections in all, kept ``FD_RESERVE`` file descriptors short
    of the process's limit so that the save always has one. What is over a bound is
    refused at the door (closed at once, with one line when the connection is plain
    TCP) while the game goes on. Each kind of refusal is told once (``notice``) and
    counted (``refused``) for the summary at the end; nothing reaches the terminal
    as a traceback.
    """

    def __init__(self, lang: str = "en", witness: Callable[[Client], Any] | None = None, *,
                 notice: Callable[[str], None] | None = None, exempt: Sequence[str] = ()):
        self.tables: list[SharedTable] = []
        self.tokens: dict[str, tuple[SharedTable, int]] = {}
        self.lang = lang
        self.witness = witness  # tests: keep every line sent to each client, and what it says then
        self.all_clients: set[Client] = set()
        self.server: asyncio.base_events.Server | None = None
        self.ssl: Any = None
        self.notice = notice  # told once per kind of refusal (hearts host: one line on its terminal)
        self.refused: dict[str, int] = {}  # kind -> how many, for the summary
        # addresses free of the bounds on connections waiting to say hello and on hellos (a bench's own
        # clients, hundreds of them on 127.0.0.1); the descriptor bound still holds for them
        self.exempt = frozenset(exempt)
        self.pending: dict[str, int] = {}  # address -> connections that have not said hello
        self.pending_total = 0
        self.open = 0  # connections accepted and not yet closed
        self.max_open = connection_cap()
        self.hello_rates: dict[str, _Bucket] = {}
        self.tasks: set[asyncio.Task[Any]] = set()

    def add(self, table: SharedTable) -> None:
        self.tables.append(table)
        for s, st in enumerate(table.seats):
            if st.human and st.token:
                self.tokens[st.token] = (table, s)
        table.server = self

    def find(self, token: Any) -> tuple[SharedTable, int] | None:
        """The seat of an invitation, comparing every token in constant time."""
        if not isinstance(token, str) or len(token) > 100:
            return None
        found = None
        given = token.encode("utf-8", "replace")
        for known, where in self.tokens.items():
            if secrets.compare_digest(known.encode(), given):
                found = where
        return found

    def count(self, kind: str) -> None:
        """One more refusal (or failure) of ``kind``; the first of each kind is told."""
        seen = self.refused.get(kind, 0)
        self.refused[kind] = seen + 1
        if not seen and self.notice is not None:
            self.notice(kind)

    def on_loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's own reports (the accept loop out of descriptors, a callback that failed):
        counted, never printed as a traceback."""
        exc = context.get("exception")
        if isinstance(exc, asyncio.CancelledError):
            return  # a connection's task cancelled at the very end (Python 3.11 reports it)
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            self.count("descriptors")
        elif isinstance(exc, (ConnectionError, OSError)):
            return  # a peer that went away mid-write: nothing to tell
        else:
            self.count("error")

    async def start(self, host: str, port: int, ssl: Any = None) -> int:
        """Listen. Each connection comes in through :class:`_Door` (counted and bounded at its
        accept); the TLS handshake, when there is one, is made inside its hello limit."""
        self.ssl = ssl
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self.on_loop_error)
        self.server = await loop.create_server(lambda: _Door(self), host, port, reuse_address=True,
                                               backlog=BACKLOG)
        port_: int = self.server.sockets[0].getsockname()[1]
        return port_

    async def close(self) -> None:
        """Stop listening, close every connection, and wait (a little) for their tasks to end, so
        that none is left to be cancelled when the loop closes."""
        if self.server is not None:
            self.server.close()
        for c in list(self.all_clients):
            c.close()
        tasks = [task for task in self.tasks if not task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=2.0)

    # ------------------------------------------------------------ the door

    def _admit(self, addr: str) -> str | None:
        """Why a new connection from ``addr`` is refused at once, or None."""
        if addr not in self.exempt and (self.pending.get(addr, 0) >= PENDING_PER_ADDRESS
                                        or self.pending_total >= PENDING_MAX):
            return "waiting"
        if self.open >= self.max_open:
            return "descriptors"
        return None

    def _hello_allowed(self, addr: str) -> bool:
        if addr in self.exempt:
            return True
        bucket = self.hello_rates.get(addr)
        if bucket is None:
            if len(self.hello_rates) > 10000:  # forget the addresses whose buckets are full again
                now = time.monotonic()
                self.hello_rates = {a: b for a, b in self.hello_rates.items()
                                    if now - b.last < HELLO_BURST / HELLO_RATE}
            bucket = self.hello_rates[addr] = _Bucket(HELLO_RATE, HELLO_BURST)
        return bucket.take()

    def accepted(self, raw: asyncio.Transport) -> None:
        """A TCP connection just accepted (reading paused): refused at once if it is over a
        bound (a plain one told why, in one line, never waited for), else served."""
        peer = raw.get_extra_info("peername")
        addr = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        why = self._admit(addr)
        if why is not None:
            self.count(why)
            if self.ssl is None:
                try:
                    raw.write(encode(_fail("busy", "net_busy", self.lang)))
                except Exception:
                    pass
            raw.abort()
            return
        self.open += 1
        if addr not in self.exempt:
            self.pending_total += 1
            self.pending[addr] = self.pending.get(addr, 0) + 1
        loop = asyncio.get_running_loop()
        task = loop.create_task(self.serve(raw, addr, loop.time() + HELLO_TIMEOUT))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def serve(self, raw: asyncio.Transport, addr: str, deadline: float) -> None:
        """One connection, from its accept to its end: the TLS handshake, the hello, then the
        seat's requests (the hello limit, ``HELLO_TIMEOUT``, counts from the accept).

        Everything a client sends is answered here, inside one guard: whatever it
        sends, the connection ends quietly and the table goes on."""
        loop = asyncio.get_running_loop()
        waiting = True
        client: Client | None = None
        transport: asyncio.BaseTransport = raw
        try:
            reader = asyncio.StreamReader(limit=MAX_LINE)
            protocol = asyncio.StreamReaderProtocol(reader)
            opened = await self._streams(raw, protocol, deadline)
            if opened is None:
                return
            transport = opened
            writer = asyncio.StreamWriter(transport, protocol, reader, loop)  # type: ignore[arg-type]
            client = Client(writer, self.lang)
            self.all_clients.add(client)
            client.witness = self.witness
            try:
                hello = await asyncio.wait_for(_read(reader), max(0.0, deadline - loop.time()))
            except ValueError:  # a line longer than MAX_LINE: no invitation is that long
                hello = None
            except TimeoutError:
                self.count("silent")
                return
            waiting = False
            self._unpend(addr)
            where = await self._greet(client, addr, hello)
            if where is not None:
                await self._session(client, reader, *where)
        except (TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        except Exception:  # a fault of ours: counted and told once, never a traceback; the table goes on
            self.count("error")
        finally:
            if waiting:
                self._unpend(addr)
            self.open -= 1
            if client is None:
                transport.abort()  # type: ignore[attr-defined]
            else:
                self.all_clients.discard(client)
                if not client.closed:
                    client.finish()
                    # the seat is free at once: the CPU need not wait for the last bytes to go out
                    if client.table is not None and client.seat is not None:
                        table, client.table = client.table, None
                        table.detach(client.seat, client)

    async def _streams(self, raw: asyncio.Transport, protocol: asyncio.StreamReaderProtocol,
                       deadline: float) -> asyncio.BaseTransport | None:
        """The connection's transport, reading into ``protocol``: the accepted one (plain TCP),
        or TLS once its handshake is made before ``deadline`` (else None: counted ``silent``)."""
        loop = asyncio.get_running_loop()
        transport: asyncio.BaseTransport = raw
        if self.ssl is not None:
            left = deadline - loop.time()
            try:
                tls = await asyncio.wait_for(loop.start_tls(raw, protocol, self.ssl, server_side=True,
                                                            ssl_handshake_timeout=max(0.1, left)), left)
            except TimeoutError:
                self.count("silent")
                return None
            if tls is None:
                return None
            transport = tls
        else:
            raw.set_protocol(protocol)
        protocol.connection_made(transport)
        if self.ssl is None:
            raw.resume_reading()
        return transport

    def _unpend(self, addr: str) -> None:
        if addr in self.exempt:
            return
        self.pending_total -= 1
        left = self.pending.get(addr, 1) - 1
        if left > 0:
            self.pending[addr] = left
        else:
            self.pending.pop(addr, None)

    async def _greet(self, client: Client, addr: str, hello: bytes | None) -> tuple[SharedTable, int] | None:
        """The hello: the seat it opens, or a refusal sent (the same one whatever was wrong,
        after a pause: no quick guessing) and None."""
        if not self._hello_allowed(addr):
            self.count("too_fast")
            client.send_obj(_fail("too_fast", "net_hello_too_fast", self.lang))
            client.finish()
            return None
        request = _parse(hello)
        where = self.find(request.get("token")) if isinstance(request, dict) else None
        if where is None or not isinstance(request, dict) or request.get("cmd") != "hello":
            self.count("refused")
            await asyncio.sleep(0.05)
            client.send_obj(_fail("refused", "net_refused", self.lang))
            client.finish()
            return None
        lang = request.get("lang")
        client.lang = lang if isinstance(lang, str) and lang in LANGUAGES else self.lang
        table, seat = where
        if addr not in self.exempt and not table.hellos[seat].take():
            # the seat's own invitation, used again and again: at most a few takings a minute
            self.count("too_fast")
            client.send_obj(_fail("too_fast", "net_hello_too_fast", client.lang))
            client.finish()
            return None
        table.attach(seat, client, request.get("name"))
        return table, seat

    async def _session(self, client: Client, reader: asyncio.StreamReader, table: SharedTable, seat: int) -> None:
        """The seated client's requests, one line each, each answered (all or nothing)."""
        bucket = _Bucket(RATE, BURST)
        bad = 0
        while not client.closed:
            try:
                line = await _read(reader)
            except ValueError:  # longer than MAX_LINE: dropped
                bad += 1
                client.send_obj(_fail("line_too_long", "net_line_too_long", client.lang, limit=MAX_LINE))
                if bad > MAX_BAD:
                    self.count("dropped")
                    break
                continue
            if line is None:
                break
            if not line.strip():
                continue
            if not bucket.take():
                bad += 1
                if bucket.should_say():
                    client.send_obj(_fail("too_fast", "net_too_fast", client.lang))
                if bad > MAX_BAD:
                    self.count("dropped")
                    break
                continue
            if client.table is None:  # the seat was taken back by another connection
                break
            reply, moved = self.answer(client, client.table, seat, line)
            if reply is None:
                bad += 1
                if bad > MAX_BAD:
                    self.count("dropped")
                    break
                continue
            if moved:
                bucket.refund()  # a move made is paced by the game itself, not by the limit
            client.send(reply)
            if moved is None:  # quit
                break

    def answer(self, client: Client, table: SharedTable, seat: int, line: bytes) -> tuple[bytes | None, bool | None]:
        """The reply to one line (encoded), and whether it made a move (None: the client leaves).

        Inside one guard: a request the table cannot grant leaves the position as it
        was (:meth:`GameTable._keep` takes back a move it could not save), the clock
        is woken whatever happened, and the reply is valid JSON whatever was sent."""
        try:
            request = requests.parse_line(line)
            if request is None:  # (a blank line is skipped before it gets here)
                raise requests.bad_json()
            head = requests.small_id(request)
        except RequestError as e:  # counted as a bad line: no request to act on
            client.send_obj(dict(e.reply(client.lang)))
            return None, False
        try:
            reply = table.act(seat, request, client.lang)
        except Exception as e:
            self.count("save" if isinstance(e, OSError) else "error")
            table.wake.set()  # the table keeps moving: the clock looks again
            reply = _fail("internal_error", "proto_internal", client.lang, problem=_problem(e))
        cmd = request.get("cmd")
        moved = bool(reply.get("ok")) and cmd in ("pass", "play")
        try:
            data = OK_LINE if reply == OK and not head else encode(head | reply)
        except (ValueError, TypeError):  # never: what is echoed was checked; but never a broken line either
            self.count("error")
            data = encode(_fail("internal_error", "proto_internal", client.lang, problem="encode"))
        return data, (None if reply.get("bye") else moved)


class _Door(asyncio.Protocol):
    """Where each TCP connection comes in: it stops reading at once (what the client sent waits
    in the socket, for TLS to read first) and hands the connection to :meth:`Server.accepted`."""

    def __init__(self, server: Server):
        self.server = server

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.pause_reading()
        self.server.accepted(transport)


def connection_cap() -> int:
    """How many connections a host holds at most: its file-descriptor limit (the soft one), less
    ``FD_RESERVE`` for the save, the archive and the rest of the process."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to keep clear of
        return CONNECTIONS_MAX
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS_MAX
    return max(4, min(CONNECTIONS_MAX, soft - FD_RESERVE))


def _problem(e: BaseException) -> str:
    """What went wrong inside, in a few words (an OS error says which: ``Too many open files``)."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return type(e).__name__


async def _read(reader: asyncio.StreamReader) -> bytes | None:
    line = await reader.readline()
    return line if line else None


def _parse(line: bytes | None) -> Any:
    """One line from a client, as strict JSON (:func:`hearts_cli.base.untrusted.strict_json`), or None."""
    if line is None:
        return None
    try:
        return strict_json(line)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None


class _Bucket:
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


# ---------------------------------------------------------------- hearts host


class HostStore(Store):
    """The host's save (``tables/`` in the data directory: the game, as ``hearts play`` saves
    it, and the table's invitations beside it in ``table.json``); finished games go to the
    common archive, where ``hearts stats`` and ``hearts replay`` find every game."""

    def __init__(self, root: Path | None = None, archive_dir: Path | None = None):
        from ..store.saves import home

        super().__init__(root or home() / "tables", archive_dir or home() / "archive")

    @property
    def meta_path(self) -> Path:
        return self.root / "table.json"

    def archive(self, game: Game, seats: Sequence[Any], unfinished: bool = False, undos: int = 0) -> Path:
        """The game to the archive; its save and invitations go with it."""
        target = super().archive(game, seats, unfinished=unfinished, undos=undos)
        try:
            self.meta_path.unlink()
        except FileNotFoundError:
            pass
        return target

    def record_change(self) -> None:
        """A host has no record of its own to tell of."""
        return None

    def write_meta(self, meta: dict[str, Any]) -> None:
        """The invitations and settings of the table: 0600 in a 0700 directory, written atomically."""
        from ..base.files import write_private

        write_private(self.meta_path, json.dumps(meta).encode("utf-8"))

    def read_meta(self) -> dict[str, Any] | None:
        try:
            if self.meta_path.stat().st_size > 65536:
                return None
            data = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None


def invitation(host: str, port: int, token: str, tls: bool = False) -> str:
    where = f"[{host}]" if ":" in host else host
    return f"{'tls://' if tls else ''}{where}:{port}/{token}"


def parse_invitation(text: str) -> tuple[str, int, str, bool] | None:
    """``HOST:PORT/TOKEN`` (``tls://`` first for TLS): host, port, token, tls; None when it is not one."""
    text = text.strip()
    tls = False
    for prefix in ("hearts://", "tls://"):
        if text.lower().startswith(prefix):
            tls = prefix == "tls://"
            text = text[len(prefix):]
    where, slash, token = text.partition("/")
    if not slash or not token or len(token) > 100 or "/" in token:
        return None
    if where.startswith("["):
        host, _, rest = where[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = where.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return host, int(port_text), token, tls


def make_seats(players: int, humans: int, level: str | None) -> list[SeatState]:
    """Seats 0 .. humans-1 for people (each with a fresh invitation), the rest CPUs; each named
    by its place (seat 0 South, as a record writes it) until its person gives a name."""
    from ..bots import DEFAULT_LEVELS
    from ..model.seating import table_names

    names = table_names(players)
    out = []
    for s in range(players):
        if s < humans:
            out.append(SeatState(True, new_token(s), names[s], None))
        else:
            out.append(SeatState(False, None, names[s], level or DEFAULT_LEVELS[(s - humans) % 3]))
    return out


async def host_table(game: Game, seats: list[SeatState], *, bind: str, port: int, turn_timer: float | None,
                     delay: float, store: HostStore | None, ssl_context: Any, lang: str, hints: bool,
                     say: Callable[..., None], meta: dict[str, Any]) -> int:
    """Serve one table until its game is over (and its clients have had the end); returns the exit status."""
    def notice(kind: str) -> None:  # the first refusal of each kind: one line
        say(t(f"net_host_refusing_{kind}", lang, per=PENDING_PER_ADDRESS, total=PENDING_MAX,
              seconds=int(HELLO_TIMEOUT), limit=server.max_open))

    server = Server(lang, notice=notice)

    def on_change(what: str, data: dict[str, Any]) -> None:
        if what in ("joined", "left"):
            from ..model.seating import shown_name

            name = shown_name(data["name"], data["seat"], None, table.players, lang)
            mid = "net_host_joined" if what == "joined" else "net_host_left"
            say(t(mid, lang, seat=data["seat"], name=name))
        elif what == "over":
            say(t("net_host_over", lang, code=data["code"]))
            if data["archived"]:
                say(t("archived_at", lang, path=data["archived"]))

    table = SharedTable(game, seats, turn_timer=turn_timer, delay=delay, store=store, on_change=on_change,
                        hints=hints)
    server.add(table)
    try:
        actual = await server.start(bind, port, ssl_context)
    except OSError as e:
        say(t("net_cannot_listen", lang, bind=bind, port=port, problem=e.strerror or str(e)), err=True)
        return 2
    if store is not None:
        store.write_meta(meta | {"port": actual, "bind": bind,
                                 "tokens": [s.token for s in seats], "names": [s.name for s in seats]})
    shown = bind if bind not in ("0.0.0.0", "::", "") else _hostname()
    say(t("net_host_ready", lang, players=table.players, humans=sum(s.human for s in seats),
          host=shown, port=actual))
    for s, st in enumerate(seats):
        if st.human:
            say(t("net_invitation", lang, seat=s,
                  invitation=invitation(shown, actual, st.token or "", ssl_context is not None)), whole=True)
    runner = asyncio.get_running_loop().create_task(table.run())
    closing = asyncio.get_running_loop().create_task(table.closed.wait())
    try:
        await asyncio.wait([runner, closing], return_when=asyncio.FIRST_COMPLETED)
        await runner  # a failure in the game loop is not swallowed: the command line reports it
        # the last events go out; then the table closes
        for _ in range(50):
            if not table.clients():
                break
            await asyncio.sleep(0.1)
    finally:
        runner.cancel()
        await server.close()
        if server.refused:  # what was refused, in one line (each kind was told once as it began)
            counts = "; ".join(t(f"net_count_{kind}", lang, n=n) for kind, n in sorted(server.refused.items()))
            say(t("net_host_summary", lang, counts=counts))
    return 0


def _hostname() -> str:
    import socket

    try:
        return socket.gethostname()
    except OSError:
        return "localhost"


def _say(text: str, err: bool = False, whole: bool = False) -> None:
    """One line on the host's terminal (stdout, or stderr for what stops it), wrapped to its
    width unless it is a command line to copy (an invitation: ``whole``)."""
    import sys

    stream = sys.stderr if err else sys.stdout
    stream.write((text if whole else for_terminal(text, stream)) + "\n")
    stream.flush()


class _Refusal(Exception):
    """An option or a save that stops ``hearts host`` before it serves: one sentence, a status."""

    def __init__(self, text: str, status: int = 2):
        super().__init__(text)
        self.text = text
        self.status = status

    def told(self) -> int:
        _say(self.text, err=True)
        return self.status


def _tls_of(port: int, turn_timer: float | None, cert: str | None, key: str | None, lang: str) -> Any:
    """The options checked; the TLS context when a certificate is given (else None)."""
    if not 0 <= port <= 65535:
        raise _Refusal(t("net_bad_port", lang))
    if turn_timer is not None and not 1 <= turn_timer <= 3600:
        raise _Refusal(t("net_bad_timer", lang))
    if (cert is None) != (key is None):
        raise _Refusal(t("net_cert_key", lang))
    if cert is None:
        return None
    import ssl

    try:
        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as e:
        raise _Refusal(t("net_bad_cert", lang, problem=getattr(e, "strerror", None) or str(e))) from None
    return ssl_context


class _Opening:
    """What ``hearts host`` serves: the game, its seats, and the settings a resumed table keeps."""

    def __init__(self, game: Game, seats: list[SeatState], turn_timer: float | None, hints: bool, port: int):
        self.game, self.seats, self.turn_timer, self.hints, self.port = game, seats, turn_timer, hints, port


def _resumed(store: HostStore, lang: str, turn_timer: float | None, hints: bool, port: int) -> _Opening:
    """``--resume``: the saved game and its invitations, with the settings it was hosted with
    (those given again on the command line win)."""
    from ..store.saves import DamagedSave

    try:
        loaded = store.load()
    except DamagedSave as e:
        raise _Refusal(t("net_table_damaged", lang, problem=e.message(lang))) from None
    meta = store.read_meta()
    if loaded is None or meta is None or not isinstance(meta.get("tokens"), list) \
            or len(meta["tokens"]) != loaded.game.rules.players:
        raise _Refusal(t("net_no_table", lang))
    seats = []
    for rec, token in zip(loaded.seats, meta["tokens"]):
        human = rec.kind == "human" and isinstance(token, str)
        seats.append(SeatState(human, token if human else None, rec.name, rec.level))
    if turn_timer is None and isinstance(meta.get("turn_timer"), (int, float)):
        turn_timer = meta["turn_timer"]
    if port == DEFAULT_PORT and isinstance(meta.get("port"), int):
        port = meta["port"]
    return _Opening(loaded.game, seats, turn_timer, hints or meta.get("hints") is True, port)


def _fresh(store: HostStore, lang: str, rules: Any, humans: int, level: str | None, code: str | None) -> Game:
    """A new game at the table; one left unfinished there is archived, never overwritten."""
    from ..model.codes import new_code
    from ..store.saves import DamagedSave

    try:
        previous = store.load()
    except DamagedSave:  # moved aside by load(): nothing to lose here
        previous = None
    if previous is not None:
        where = store.archive(previous.game, previous.seats, unfinished=not previous.game.over)
        _say(t("previous_archived", lang, code=previous.game.code, path=str(where)))
    if not 1 <= humans <= rules.players:
        raise _Refusal(t("net_bad_humans", lang, players=rules.players))
    return Game(rules, code or new_code())


def run_host(*, rules: Any, humans: int, level: str | None, turn_timer: float | None, delay: float,
             port: int, bind: str, cert: str | None, key: str | None, resume: bool, lang: str,
             code: str | None = None, hints: bool = False) -> int:
    """``hearts host``: check the options, open (or resume) the table, serve it to the end."""
    from ..store.saves import SaveLocked

    try:
        ssl_context = _tls_of(port, turn_timer, cert, key, lang)
    except _Refusal as no:
        return no.told()
    store = HostStore()
    try:
        store.acquire()
    except SaveLocked:
        return _Refusal(t("net_table_open", lang), 1).told()
    try:
        if resume:
            opening = _resumed(store, lang, turn_timer, hints, port)
        else:
            game = _fresh(store, lang, rules, humans, level, code)
            opening = _Opening(game, make_seats(rules.players, humans, level), turn_timer, hints, port)
        meta = {"turn_timer": opening.turn_timer, "level": level, "hints": opening.hints}
        return asyncio.run(host_table(opening.game, opening.seats, bind=bind, port=opening.port,
                                      turn_timer=opening.turn_timer, delay=delay, store=store,
                                      ssl_context=ssl_context, lang=lang, hints=opening.hints, say=_say, meta=meta))
    except _Refusal as no:
        return no.told()
    except KeyboardInterrupt:
        return 130
    finally:
        store.release()


DEFAULT_PORT = 7441
