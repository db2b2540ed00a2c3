"""The table server (``hearts host``): one game shared by several people, over TCP.

Each person's terminal (``hearts join``) or script connects with an
invitation ``HOST:PORT/SEAT-TOKEN`` and speaks JSON lines (``docs/tables.md``);
CPU players fill the other seats, and play for a person whose turn timer runs
out or who has gone (until the same invitation is used again). The game is
saved after every move, as ``hearts play`` saves it, and ``--resume`` brings it
back; a finished game goes to the archive.

:class:`Server` is the listener: each connection from its accept to its end (the
TLS handshake, the hello, then the seat's requests). What a client receives is
built for its seat only (:mod:`.shared`, :mod:`.connection`). Everything a client
sends is untrusted: lines are bounded, the rate of messages is bounded, nothing
is evaluated, and every client has its own bounded write queue, so one that
stalls or floods is dropped without holding up the others or the timer. What a
stranger can make the host hold before presenting an invitation is bounded too
(:mod:`.limits`: connections per address and in all, the hello limit from the
accept, hellos per address and per seat, descriptors kept for the save), and a
move whose save fails is taken back: the game goes on, saved (docs/tables.md,
"What a host can take").

One process can serve many tables (``bench/tables.py``); ``hearts host``
serves one.
"""

from __future__ import annotations

import asyncio
import errno
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..play import requests
from ..play.replies import OK, Ok, Reply
from ..play.requests import RequestError
from ..text.catalog import LANGUAGES
from .connection import Client
from .limits import BACKLOG, BURST, HELLO_TIMEOUT, MAX_BAD, MAX_LINE, RATE, Admission, Bucket
from .shared import SharedTable
from .wire import OK_LINE, encode, fail, parse, problem, read_line

if TYPE_CHECKING:  # ssl only for a TLS table (start-up)
    from ssl import SSLContext


class Server:
    """Tables, the invitations that open their seats, and the TCP (or TLS) listener.

    What a stranger can make it hold is bounded (:class:`~hearts_cli.table.limits.Admission`,
    docs/tables.md, "What a host can take"); the hello must come within ``HELLO_TIMEOUT``
    seconds of the TCP accept (the TLS handshake included). What is over a bound is
    refused at the door (closed at once, with one line when the connection is plain
    TCP) while the game goes on. Each kind of refusal is told once (``notice``) and
    counted (``refused``) for the summary at the end; nothing reaches the terminal
    as a traceback.
    """

    def __init__(self, lang: str = "en", witness: Callable[[Client], object] | None = None, *,
                 notice: Callable[[str], None] | None = None, exempt: Sequence[str] = ()):
        self.tables: list[SharedTable] = []
        self.tokens: dict[str, tuple[SharedTable, int]] = {}
        self.lang = lang
        self.witness = witness  # tests: keep every line sent to each client, and what it says then
        self.all_clients: set[Client] = set()
        self.server: asyncio.base_events.Server | None = None
        self.ssl: SSLContext | None = None
        self.notice = notice  # told once per kind of refusal (hearts host: one line on its terminal)
        self.refused: dict[str, int] = {}  # kind -> how many, for the summary
        # who comes in, how fast (the bounds on strangers); a connection is known by its TCP transport
        self.admission: Admission[asyncio.Transport] = Admission(exempt)
        self.tasks: dict[asyncio.Transport, asyncio.Task[None]] = {}  # each connection's task

    def add(self, table: SharedTable) -> None:
        self.tables.append(table)
        for s, st in enumerate(table.seats):
            if st.human and st.token:
                self.tokens[st.token] = (table, s)
        table.server = self

    def find(self, token: object) -> tuple[SharedTable, int] | None:
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

    def on_loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
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

    async def start(self, host: str, port: int, ssl: SSLContext | None = None) -> int:
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
        tasks = [task for task in self.tasks.values() if not task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=2.0)

    # ------------------------------------------------------------ the door

    def accepted(self, raw: asyncio.Transport) -> None:
        """A TCP connection just accepted (reading paused): refused at once if it is over a
        bound (a plain one told why, in one line, never waited for), else served. When the
        strangers' connections waiting to say hello are at their bound, the oldest of them is
        closed to make room (``crowded``): many addresses cannot keep an invited person out."""
        peer = raw.get_extra_info("peername")
        addr = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        why = self.admission.refusal(addr)
        if why is not None:
            self.count(why)
            self._turn_away(raw)
            return
        oldest = self.admission.make_room(addr)
        if oldest is not None:
            self.count("crowded")
            self._turn_away(oldest)
            self.tasks[oldest].cancel()  # (its end is counted by _ended, whether it had begun or not)
        self.admission.come_in(raw, addr)
        loop = asyncio.get_running_loop()
        task = loop.create_task(self.serve(raw, addr, loop.time() + HELLO_TIMEOUT))
        self.tasks[raw] = task
        task.add_done_callback(lambda _: self._ended(raw))

    def _turn_away(self, raw: asyncio.Transport) -> None:
        """Close a connection that has not said hello at once (a plain one told why, in one line)."""
        if self.ssl is None:
            try:
                raw.write(encode(fail("busy", "net_busy", self.lang)))
            except Exception:
                pass
        raw.abort()

    def _ended(self, raw: asyncio.Transport) -> None:
        """A connection's task is over (even one cancelled before it began): counted out, once."""
        self.admission.said_hello(raw)
        self.admission.gone()
        self.tasks.pop(raw, None)

    async def serve(self, raw: asyncio.Transport, addr: str, deadline: float) -> None:
        """One connection, from its accept to its end: the TLS handshake, the hello, then the
        seat's requests (the hello limit, ``HELLO_TIMEOUT``, counts from the accept).

        Everything a client sends is answered here, inside one guard: whatever it
        sends, the connection ends quietly and the table goes on."""
        loop = asyncio.get_running_loop()
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
                hello = await asyncio.wait_for(read_line(reader), max(0.0, deadline - loop.time()))
            except ValueError:  # a line longer than MAX_LINE: no invitation is that long
                hello = None
            except TimeoutError:
                self.count("silent")
                return
            self.admission.said_hello(raw)
            where = await self._greet(client, addr, hello)
            if where is not None:
                await self._session(client, reader, *where)
        except (TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        except Exception:  # a fault of ours: counted and told once, never a traceback; the table goes on
            self.count("error")
        finally:  # (the admission counts it out in _ended)
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

    async def _greet(self, client: Client, addr: str, hello: bytes | None) -> tuple[SharedTable, int] | None:
        """The hello: the seat it opens, or a refusal sent (the same one whatever was wrong,
        after a pause: no quick guessing) and None."""
        if not self.admission.hello_allowed(addr):
            self.count("too_fast")
            client.send_obj(fail("too_fast", "net_hello_too_fast", self.lang))
            client.finish()
            return None
        request = parse(hello)
        where = self.find(request.get("token")) if isinstance(request, dict) else None
        if where is None or not isinstance(request, dict) or request.get("cmd") != "hello":
            self.count("refused")
            await asyncio.sleep(0.05)
            client.send_obj(fail("refused", "net_refused", self.lang))
            client.finish()
            return None
        lang = request.get("lang")
        client.lang = lang if isinstance(lang, str) and lang in LANGUAGES else self.lang
        table, seat = where
        if not self.admission.seat_hello_allowed(table.seats[seat].token or "", addr):
            # the seat's own invitation, used again and again: at most a few takings a minute
            self.count("too_fast")
            client.send_obj(fail("too_fast", "net_hello_too_fast", client.lang))
            client.finish()
            return None
        table.attach(seat, client, request.get("name"))
        return table, seat

    async def _session(self, client: Client, reader: asyncio.StreamReader, table: SharedTable, seat: int) -> None:
        """The seated client's requests, one line each, each answered (all or nothing)."""
        bucket = Bucket(RATE, BURST)
        bad = 0
        while not client.closed:
            try:
                line = await read_line(reader)
            except ValueError:  # longer than MAX_LINE: dropped
                bad += 1
                client.send_obj(fail("line_too_long", "net_line_too_long", client.lang, limit=MAX_LINE))
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
                    client.send_obj(fail("too_fast", "net_too_fast", client.lang))
                if bad > MAX_BAD:
                    self.count("dropped")
                    break
                continue
            if client.table is None:  # the seat was taken back by another connection
                break
            reply, moved = self.answer(client, table, seat, line)
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
            reply: Reply = table.act(seat, request, client.lang)
        except Exception as e:
            self.count("save" if isinstance(e, OSError) else "error")
            table.wake.set()  # the table keeps moving: the clock looks again
            reply = RequestError("internal_error", "proto_internal", {"problem": problem(e)}).answer(client.lang)
        cmd = request.get("cmd")
        moved = reply.OK and cmd in ("pass", "play")
        try:
            data = OK_LINE if reply == OK and not head else encode(head | reply.to_json())
        except (ValueError, TypeError):  # never: what is echoed was checked; but never a broken line either
            self.count("error")
            data = encode(fail("internal_error", "proto_internal", client.lang, problem="encode"))
        return data, (None if isinstance(reply, Ok) and reply.bye else moved)


class _Door(asyncio.Protocol):
    """Where each TCP connection comes in: it stops reading at once (what the client sent waits
    in the socket, for TLS to read first) and hands the connection to :meth:`Server.accepted`."""

    def __init__(self, server: Server):
        self.server = server

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.pause_reading()
        self.server.accepted(transport)
