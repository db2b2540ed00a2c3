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
up the others or the timer.

One process can serve many tables (``bench/tables.py``); ``hearts host``
serves one.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..base.untrusted import LIMITS
from ..model.cards import Card, CardParseError, parse_card
from ..play.engine import MOON_CHOICES, Game, IllegalMove, PassError, Phase
from ..play.events import SCHEMA, Event, trick_json, view_json
from ..store.saves import Store
from ..text.catalog import LANGUAGES, t
from .game import GameTable, Seat, SeatClient

MAX_LINE = LIMITS["net_message"]  # bytes in one message from a client
RATE = 20.0  # messages a second a client may send, sustained (moves made are not counted) ...
BURST = 40.0  # ... and at once
MAX_BAD = 50  # refused messages (bad JSON, too long, too fast) before the connection is closed
QUEUE_MAX = 5000  # messages waiting for a client that does not read, before it is dropped
WRITE_TIMEOUT = 15.0  # seconds a client may take to accept what was sent to it
WRITE_BUFFER = 65536  # bytes waiting in the socket's buffer before the client counts as slow
HELLO_TIMEOUT = 10.0  # seconds to present an invitation
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
        self._waiting: asyncio.Task | None = None  # the client is slow: waiting for it to read
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

    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    if std.c_make_encoder is None:  # a Python without the C accelerator
        return plain

    def refuse(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")
    # markers None: no check for cycles (a message is a tree of plain values)
    once = std.c_make_encoder(None, refuse, std.encode_basestring, None, ":", ",", False, False, True)
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
                 delay: float = 0.0, store: Any = None, on_change: Callable[[str, dict], None] | None = None,
                 bot_threads: bool = True, hints: bool = False):
        super().__init__(game, seats, store=store, turn_timer=turn_timer)
        for st in self.seats:
            st.joined_once = False
        self.delay = delay
        if on_change is not None:
            self.on_change = on_change
        self.bot_threads = bot_threads
        self.hints = hints  # whether a person may ask the CPU for a suggestion (`hint`)
        self.wake = asyncio.Event()
        self.closed = asyncio.Event()

    # ------------------------------------------------------------ clients

    def attach(self, seat: int, client: Client, name: str | None = None) -> None:  # type: ignore[override]
        """A person takes (or takes back) the seat: welcome, the game so far, the view."""
        st = self.seats[seat]
        old = st.client
        if old is not None and old is not client:
            old.table = None  # its closing is not a departure: the seat is taken back
            old.close()  # type: ignore[attr-defined]
        back = st.joined_once
        super().attach(seat, client)
        client.table = self
        if name is not None:
            st.name = clean_name(name, st.name)
        st.due_since = time.monotonic() if st.due_since is not None else None  # a fresh turn timer
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

    def view_of(self, seat: int, history: bool = False) -> dict[str, Any]:
        """The seat's view; with ``history`` also the round's completed tricks (``tricks``), for a
        seat taken mid-round (and ``state``), which was not there to be told them."""
        rd = self.game.round
        view = rd.view(seat)
        out = {"event": "view"} | view_json(view, rd.result)
        if history:
            out["tricks"] = [trick_json(view, tr, i + 1) for i, tr in enumerate(view.tricks)]
        return out

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
        cmd = request.get("cmd")
        g = self.game
        if cmd == "ping":
            return {"ok": True}
        if cmd == "state":
            return {"ok": True} | self.view_of(seat, history=True)
        if cmd == "quit":
            return {"ok": True, "bye": True}
        if cmd not in ("pass", "play", "why", "hint", "moon"):
            return _fail("unknown_cmd", t("proto_unknown_cmd", lang, cmd=str(cmd)[:40]),
                         commands=["pass", "play", "why", "hint", "moon", "state", "ping", "quit"])
        if g.over:
            return _fail("wrong_phase", t("wrong_phase_over", lang))
        rd = g.round
        if cmd == "hint":
            if not self.hints:
                return _fail("no_hints", t("net_no_hints", lang))
            if seat not in self.due() or (rd.phase is Phase.PASS and rd.passes[seat] is not None):
                return _fail("wrong_phase", t("hint_not_now", lang))
            # the Normal CPU, from this seat's own view only (a hint can tell nothing more)
            choice = self.suggest(seat, "normal")
            if rd.phase is Phase.MOON:  # the shooter's choice: the better one
                return {"ok": True, "moon": str(choice)}
            if rd.phase is Phase.PASS:
                return {"ok": True, "cards": [str(c) for c in sorted(choice)]}
            return {"ok": True, "card": str(Card(choice))}
        if cmd == "moon":  # {"cmd": "moon", "choice": "others" | "shooter_minus"}
            choice = request.get("choice")
            if rd.phase is not Phase.MOON or rd.turn != seat:
                return _fail("wrong_phase", t("moon_choice_not_now", lang))
            if not isinstance(choice, str) or choice not in MOON_CHOICES:
                return _fail("bad_field", t("proto_bad_choice", lang, field="choice",
                                            choices=", ".join(MOON_CHOICES)), field="choice")
            self.choose_moon(seat, choice, "person")
            return {"ok": True}
        if cmd == "pass":
            cards = _cards(request.get("cards"), lang)
            if isinstance(cards, dict):
                return cards
            if rd.phase is not Phase.PASS:
                mid = "no_pass_round" if rd.direction.value == "none" else "wrong_phase_play"
                return _fail("wrong_phase", t(mid, lang))
            if rd.passes[seat] is not None:
                return _fail("pass_twice", t("pass_twice", lang, seat=seat))
            try:
                self.pass_cards(seat, cards, "person")
            except PassError as e:
                code = "wrong_phase" if e.message_id.startswith(("wrong_phase", "no_pass")) else e.message_id
                return _fail(code, e.message(lang, ascii=True))
            return {"ok": True}
        card = _card(request.get("card"), lang)
        if isinstance(card, dict):
            return card
        if cmd == "play" and rd.phase is Phase.PLAY and rd.turn == seat and rd.is_legal(card):
            self.play(seat, card, "person")  # the common case, without working out what the card does
            return {"ok": True}
        verdict = rd.why(card, seat)
        if cmd == "why":
            if verdict.legal:
                return {"ok": True, "card": str(card), "legal": True,
                        "message": verdict.message(lang, ascii=True)}
            assert verdict.reason is not None
            return {"ok": True, "card": str(card), "legal": False, "reason": verdict.reason.code,
                    "message": verdict.message(lang, ascii=True)}
        if not verdict.legal:
            assert verdict.reason is not None
            return _fail(verdict.reason.code, verdict.message(lang, ascii=True), card=str(card))
        try:
            self.play(seat, card, "person")
        except IllegalMove as e:  # the check above said yes; never a half-made move
            return _fail(e.reason.code, e.reason.message(lang, ascii=True), card=str(card))
        return {"ok": True}

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

    async def run(self) -> None:
        """Make the CPU moves as they fall due (:meth:`GameTable.due_move`) until the game is over."""
        if not self.game.over and self.moves == 0 and self.store is not None:
            self.save()
        await self.gather()
        while not self.game.over:
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
                continue
            seat, by = move
            if by != "cpu" or self.delay:
                # a person's seat: say so first; a pause lets people follow the CPUs
                if by in ("timer", "away"):
                    self._public(Event("takeover", {"seat": seat, "reason": by}))
                if self.delay:
                    await asyncio.sleep(self.delay)
                if self.game.over or self.due_move(time.monotonic()) != move:
                    continue  # a person came back (or moved) during the pause
            before = self.moves
            level = self.level_for(seat, by)
            view = self.game.round.view(seat)  # made here: the game may move on while the CPU thinks
            if self.bot_threads:
                choice = await asyncio.to_thread(self.suggest, seat, level, view)
            else:
                await asyncio.sleep(0)  # never a run of CPU moves without letting the clients in
                choice = self.suggest(seat, level, view)
            if self.moves != before or self.game.over or self.due_move(time.monotonic()) != move:
                continue  # the person moved (or came back) meanwhile
            self.apply(seat, by, choice)


def _fail(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, **extra}}


def _card(value: Any, lang: str) -> Card | dict:
    if not isinstance(value, str):
        return _fail("missing_field" if value is None else "bad_field",
                     t("proto_missing" if value is None else "proto_bad_type", lang, field="card",
                       expected=t("type_card", lang)), field="card")
    try:
        return parse_card(value[:40])
    except CardParseError as e:
        return _fail("bad_card", t("bad_card", lang, text=e.text[:40]), field="card")


def _cards(value: Any, lang: str) -> list[Card] | dict:
    if not isinstance(value, list) or len(value) > 13:
        return _fail("bad_field", t("proto_bad_type", lang, field="cards", expected=t("type_cards", lang)),
                     field="cards")
    out = []
    for item in value:
        c = _card(item, lang)
        if isinstance(c, dict):
            return c
        out.append(c)
    return out


# ---------------------------------------------------------------- the server


class Server:
    """Tables, the invitations that open their seats, and the TCP (or TLS) listener."""

    def __init__(self, lang: str = "en", witness: Callable[[Client], Any] | None = None):
        self.tables: list[SharedTable] = []
        self.tokens: dict[str, tuple[SharedTable, int]] = {}
        self.lang = lang
        self.witness = witness  # tests: keep every line sent to each client, and what it says then
        self.all_clients: set[Client] = set()
        self.server: asyncio.base_events.Server | None = None

    def add(self, table: SharedTable) -> None:
        self.tables.append(table)
        for s, st in enumerate(table.seats):
            if st.human and st.token:
                self.tokens[st.token] = (table, s)

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

    async def start(self, host: str, port: int, ssl: Any = None) -> int:
        self.server = await asyncio.start_server(self.serve, host, port, limit=MAX_LINE, ssl=ssl,
                                                 reuse_address=True)
        return self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for c in list(self.all_clients):
            c.close()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer, self.lang)
        self.all_clients.add(client)
        client.witness = self.witness
        bucket = _Bucket()
        bad = 0
        try:
            try:
                hello = await asyncio.wait_for(_read(reader), HELLO_TIMEOUT)
            except ValueError:  # a line longer than MAX_LINE: no invitation is that long
                hello = None
            request = _parse(hello)
            where = self.find(request.get("token")) if isinstance(request, dict) else None
            if where is None or not isinstance(request, dict) or request.get("cmd") != "hello":
                await asyncio.sleep(0.05)  # no quick guessing; and the same answer whatever was wrong
                client.send_obj(_fail("refused", t("net_refused", self.lang)))
                client.finish()
                return
            lang = request.get("lang")
            client.lang = lang if lang in LANGUAGES else self.lang
            table, seat = where
            table.attach(seat, client, request.get("name"))
            while not client.closed:
                try:
                    line = await _read(reader)
                except ValueError:  # longer than MAX_LINE: dropped
                    bad += 1
                    client.send_obj(_fail("line_too_long", t("net_line_too_long", client.lang, limit=MAX_LINE)))
                    if bad > MAX_BAD:
                        break
                    continue
                if line is None:
                    break
                if not line.strip():
                    continue
                if not bucket.take():
                    bad += 1
                    if bucket.should_say():
                        client.send_obj(_fail("too_fast", t("net_too_fast", client.lang)))
                    if bad > MAX_BAD:
                        break
                    continue
                request = _parse(line)
                if not isinstance(request, dict):
                    bad += 1
                    client.send_obj(_fail("bad_json", t("proto_bad_json", client.lang)))
                    if bad > MAX_BAD:
                        break
                    continue
                head = {"id": request["id"]} if "id" in request and _small(request["id"]) else {}
                if client.table is None:  # the seat was taken back by another connection
                    break
                try:
                    reply = client.table.act(seat, request, client.lang)
                except Exception as e:
                    reply = _fail("internal_error", t("proto_internal", client.lang, problem=type(e).__name__))
                if reply.get("ok") and request.get("cmd") in ("pass", "play"):
                    bucket.refund()  # a move made is paced by the game itself, not by the limit
                client.send(OK_LINE if reply == OK and not head else encode(head | reply))
                if reply.get("bye"):
                    break
        except (TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.all_clients.discard(client)
            if not client.closed:
                client.finish()
                # the seat is free at once: the CPU need not wait for the last bytes to go out
                if client.table is not None and client.seat is not None:
                    table, client.table = client.table, None
                    table.detach(client.seat, client)


def _small(value: Any) -> bool:
    return value is None or isinstance(value, (int, float, bool)) or (isinstance(value, str) and len(value) <= 100)


async def _read(reader: asyncio.StreamReader) -> bytes | None:
    line = await reader.readline()
    return line if line else None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _parse(line: bytes | None) -> Any:
    if line is None:
        return None
    try:
        return json.loads(line.decode("utf-8").lstrip("\ufeff"), parse_constant=_no_constant)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None


class _Bucket:
    """A token bucket: RATE messages a second, BURST at once."""

    def __init__(self) -> None:
        self.tokens = BURST
        self.last = time.monotonic()
        self.said = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(BURST, self.tokens + 1)

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
        """The invitations and settings of the table, readable by the owner only, written atomically."""
        self.meta_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(meta, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.meta_path)

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
    server = Server(lang)

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
                  invitation=invitation(shown, actual, st.token or "", ssl_context is not None)))
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
    return 0


def _hostname() -> str:
    import socket

    try:
        return socket.gethostname()
    except OSError:
        return "localhost"


def run_host(*, rules: Any, humans: int, level: str | None, turn_timer: float | None, delay: float,
             port: int, bind: str, cert: str | None, key: str | None, resume: bool, lang: str,
             code: str | None = None, hints: bool = False) -> int:
    """``hearts host``: check the options, open (or resume) the table, serve it to the end."""
    import sys

    def say(text: str, err: bool = False) -> None:
        stream = sys.stderr if err else sys.stdout
        stream.write(text + "\n")
        stream.flush()

    def fail(text: str, status: int = 2) -> int:
        say(text, err=True)
        return status

    if not 0 <= port <= 65535:
        return fail(t("net_bad_port", lang))
    if turn_timer is not None and not 1 <= turn_timer <= 3600:
        return fail(t("net_bad_timer", lang))
    if (cert is None) != (key is None):
        return fail(t("net_cert_key", lang))
    ssl_context = None
    if cert is not None:
        import ssl

        try:
            ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ssl_context.load_cert_chain(cert, key)
        except (OSError, ssl.SSLError) as e:
            return fail(t("net_bad_cert", lang, problem=getattr(e, "strerror", None) or str(e)))
    from ..store.saves import DamagedSave, SaveLocked

    store = HostStore()
    try:
        store.acquire()
    except SaveLocked:
        return fail(t("net_table_open", lang), 1)
    try:
        if resume:
            try:
                loaded = store.load()
            except DamagedSave as e:
                return fail(t("net_table_damaged", lang, problem=e.message(lang)))
            meta = store.read_meta()
            if loaded is None or meta is None or not isinstance(meta.get("tokens"), list) \
                    or len(meta["tokens"]) != loaded.game.rules.players:
                return fail(t("net_no_table", lang))
            game = loaded.game
            seats = []
            for rec, token in zip(loaded.seats, meta["tokens"]):
                human = rec.kind == "human" and isinstance(token, str)
                seats.append(SeatState(human, token if human else None, rec.name, rec.level))
            if turn_timer is None and isinstance(meta.get("turn_timer"), (int, float)):
                turn_timer = meta["turn_timer"]
            hints = hints or meta.get("hints") is True
            if port == DEFAULT_PORT and isinstance(meta.get("port"), int):
                port = meta["port"]
        else:
            from ..model.codes import new_code

            try:  # a table left unfinished is archived, never overwritten
                previous = store.load()
            except DamagedSave:  # moved aside by load(): nothing to lose here
                previous = None
            if previous is not None:
                where = store.archive(previous.game, previous.seats, unfinished=not previous.game.over)
                say(t("previous_archived", lang, code=previous.game.code, path=str(where)))
            code = code or new_code()
            if not 1 <= humans <= rules.players:
                return fail(t("net_bad_humans", lang, players=rules.players))
            game = Game(rules, code)
            seats = make_seats(rules.players, humans, level)
        meta = {"turn_timer": turn_timer, "level": level, "hints": hints}
        return asyncio.run(host_table(game, seats, bind=bind, port=port, turn_timer=turn_timer, delay=delay,
                                      store=store, ssl_context=ssl_context, lang=lang, hints=hints, say=say,
                                      meta=meta))
    except KeyboardInterrupt:
        return 130
    finally:
        store.release()


DEFAULT_PORT = 7441
