"""The remote seat: a seat's network client, standing where a local game has its table.

``hearts join`` (:mod:`hearts_cli.cli.join`) sits at a shared table from a terminal
(or bridges it to a script). The table lives in the host's process (:mod:`hearts_cli.table.shared`). In a terminal,
and line by line without one, ``hearts join`` is the front end of ``hearts
play`` itself, for that seat only: the same :class:`~hearts_cli.repl.table.Table`
(commands, selection, confirmation, ``why``, ``hint`` when the table allows it,
English and Spanish), the same prompt-toolkit session (the drawn table, the
bottom toolbar that says why a card cannot be played, tab completion) and the
same line-by-line mode. Only the table behind it differs: :class:`RemoteTable`,
the seat's network client, stands where a local game has its in-process
:class:`~hearts_cli.table.local.LocalTable`. What it knows of the game is what the
seat is told: the events, and the seat view, from which
:meth:`~hearts_cli.play.round.Round.seen_by` answers for the seat what the engine
answers (legal cards, reasons, what a card would do).

With ``--json``, a bridge: JSON requests from stdin go to the table, the
table's JSON lines come out on stdout (docs/tables.md).

Everything the table sends is untrusted: cards are parsed as cards, names are
cleaned, a message of an unknown kind is skipped; nothing is ever evaluated.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from ..base.jsonvalue import JsonObject, JsonValue
from ..base.untrusted import LIMITS, strict_json
from ..model.cards import Card, Suit, parse_card
from ..model.rules import Direction, Rules
from ..play.dealt import Phase, RoundResult, Trick
from ..play.events import Error, Event
from ..play.round import Round, SeatView
from ..play.verdicts import Verdict
from ..records.record_parts import Seat
from .invitations import parse_invitation
from .seat_table import News, SeatTable
from .seats import SeatClient, TableSeat

if TYPE_CHECKING:  # hearts join's start-up: the CPUs only when a hint is asked for
    from ..records.hint import Hint


class Lost(Exception):
    """The connection to the table is gone."""


class BadCafile(Exception):
    """The file given with ``--cafile`` cannot be read as certificates (the person's to fix:
    not a failure of the table's)."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


# what the host sends, with no request to answer, just before it closes the connection: the
# sentence ``hearts join`` says instead of "the connection was lost" (one sentence, not two)
CLOSING = {"seat_taken": "net_seat_taken", "host_closed": "net_host_closed"}


def closing_code(msg: JsonObject) -> str | None:
    """The code of a message that says why the host closes this connection, else None."""
    err = msg.get("error")
    code = err.get("code") if msg.get("ok") is False and isinstance(err, dict) else None
    return code if isinstance(code, str) and code in CLOSING and "id" not in msg else None


def _clean(text: object) -> str:
    """Text from the network, safe for a terminal: no control characters, not too long."""
    return "".join(ch if ch.isprintable() else "?" for ch in str(text))[:200]


# what a message from the table holds, checked as it is read: a ValueError (the message is
# skipped) for a field of the wrong kind
def _object(value: JsonValue) -> JsonObject:
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


def _list(value: JsonValue) -> list[JsonValue]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value


def _int(value: JsonValue) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("not a number")
    return int(value)


def _seat_or_none(value: JsonValue) -> int | None:
    return None if value is None else _int(value)


def _ints(value: JsonValue) -> tuple[int, ...]:
    return tuple(_int(x) for x in _list(value))


def _level(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def _error_of(msg: JsonObject, default: str) -> tuple[str, str]:
    """The code and sentence of a reply that says no (cleaned: they come from the network)."""
    err = msg.get("error")
    err = err if isinstance(err, dict) else {}
    return str(err.get("code", default))[:40], _clean(err.get("message", ""))


class Connection:
    """The socket to the table (asyncio streams)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    def send(self, obj: JsonObject) -> None:
        self.writer.write(json.dumps(obj, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n")


async def _connect(invitation: str, name: str | None, lang: str,
                   cafile: str | None) -> tuple[Connection, JsonObject]:
    where = parse_invitation(invitation)
    if where is None:  # hearts join checks the invitation before it connects
        raise Lost()
    host, port, token, tls = where
    ctx = None
    if tls:
        import ssl  # only for a TLS table: start-up

        try:
            ctx = ssl.create_default_context(cafile=cafile)
        except OSError as e:  # (ssl.SSLError too: a file with no certificate in it)
            raise BadCafile(e) from None
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, ssl=ctx, limit=LIMITS["net_update"]), 15)
    conn = Connection(reader, writer)
    hello: JsonObject = {"cmd": "hello", "token": token, "lang": lang}
    if name:
        hello["name"] = name
    conn.send(hello)
    line = await asyncio.wait_for(reader.readline(), 15)
    try:
        first = strict_json(line) if line else {}
    except (ValueError, RecursionError):  # not strict JSON: no answer a table gives
        first = {}
    return conn, (first if isinstance(first, dict) else {})


class Link:
    """The connection, served by an event loop in a thread of its own, so that the table's
    messages come in while the prompt waits for the person: each one, in order, into
    ``inbox`` (and ``wake`` is called); the reply to a request goes to whoever waits for it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="hearts-join")
        self.inbox: queue.Queue[JsonObject | None] = queue.Queue()
        self.waiting: dict[int, concurrent.futures.Future[JsonObject | None]] = {}
        self.next_id = 0
        self.lost = False
        self.wake: Callable[[], None] = lambda: None
        self.conn: Connection | None = None
        self.closing: str | None = None  # why the host closed the connection, when it said so

    def connect(self, invitation: str, name: str | None, lang: str, cafile: str | None) -> JsonObject:
        self.thread.start()
        conn, first = asyncio.run_coroutine_threadsafe(_connect(invitation, name, lang, cafile),
                                                       self.loop).result(40)
        self.conn = conn
        if first.get("event") == "welcome":
            asyncio.run_coroutine_threadsafe(self._read(), self.loop)
        return first

    async def _read(self) -> None:
        assert self.conn is not None
        try:
            while True:
                line = await self.conn.reader.readline()
                if not line:
                    break
                try:
                    msg = strict_json(line)  # as the host reads its clients: no NaN, no 1e999
                except (ValueError, RecursionError):
                    continue
                if not isinstance(msg, dict):
                    continue
                rid = msg.get("id")
                fut = self.waiting.pop(rid, None) if isinstance(rid, int) else None
                if fut is not None:
                    fut.set_result(msg)
                    continue
                self.closing = closing_code(msg) or self.closing
                self.inbox.put(msg)
                self.wake()
        except (ConnectionError, OSError, ValueError):
            pass
        finally:
            self.lost = True
            for fut in list(self.waiting.values()):
                if not fut.done():
                    fut.set_result(None)
            self.waiting.clear()
            self.inbox.put(None)
            self.wake()

    def send(self, obj: JsonObject) -> None:
        if self.conn is not None and not self.lost:
            self.loop.call_soon_threadsafe(self.conn.send, obj)

    def request(self, obj: JsonObject, timeout: float = 30.0) -> JsonObject:
        """Send one request and wait for its reply (the events it caused are in ``inbox`` first)."""
        if self.lost:
            raise Lost()
        self.next_id += 1
        fut: concurrent.futures.Future[JsonObject | None] = concurrent.futures.Future()
        self.waiting[self.next_id] = fut
        self.send(obj | {"id": self.next_id})
        try:
            reply = fut.result(timeout)
        except concurrent.futures.TimeoutError:
            raise Lost() from None
        if reply is None:
            raise Lost()
        return reply

    def close(self) -> None:
        def shut() -> None:
            if self.conn is not None:
                try:
                    self.conn.writer.close()
                except Exception:
                    pass
        try:
            self.loop.call_soon_threadsafe(shut)
        except RuntimeError:
            pass


def _card(text: JsonValue) -> Card:
    if not isinstance(text, str):
        raise ValueError("not a card")
    return parse_card(text[:8])


def _cards(texts: JsonValue) -> list[Card]:
    return [_card(x) for x in _list(texts)[:60]]


def seat_view(msg: JsonObject, rules: Rules, tricks: list[Trick]) -> SeatView:
    """The :class:`~hearts_cli.play.round.SeatView` of a ``view`` message (its tricks: those the
    seat was told this round)."""

    n = rules.players
    trick = [_object(p)["card"] for p in _list(msg["trick"])]
    voids: list[frozenset[Suit]] = [frozenset() for _ in range(n)]
    for s, suits in _object(msg.get("voids") or {}).items():
        voids[int(s) % n] = frozenset(Suit("CDHS".index(x)) for x in _list(suits)
                                      if isinstance(x, str) and x in ("C", "D", "H", "S"))
    phase = Phase(msg["phase"])
    passed, received = msg["passed"], msg["received"]
    return SeatView(
        seat=_int(msg["seat"]), rules=rules, round_index=_int(msg["round"]) - 1,
        direction=Direction(msg["direction"]), phase=phase, hand=tuple(_cards(msg["hand"])),
        passed=None if passed is None else tuple(_cards(passed)),
        received=None if received is None else tuple(_cards(received)),
        leader=_seat_or_none(msg["leader"]), turn=_seat_or_none(msg["turn"]), trick=tuple(_cards(trick)),
        tricks=tuple(tricks), hearts_broken=bool(msg["hearts_broken"]), voids=tuple(voids),
        points=_ints(msg["points"]), scores=_ints(msg["totals"]), kitty=tuple(_cards(msg["kitty"])),
        legal=tuple(_cards(msg["legal"])) if phase is Phase.PLAY else ())


# the cards in each kind of event, as the table writes them (text) and as the REPL shows them (Card)
def _event(kind: str, msg: JsonObject) -> Event:
    """The event of a message from the table, with its cards as cards (a ValueError, KeyError...
    for a malformed one)."""
    data: dict[str, object] = {k: v for k, v in msg.items() if k != "event"}
    if kind == "deal":
        data["hands"] = {int(s): _cards(h) for s, h in _object(msg["hands"]).items()}
    elif kind == "pass":
        data["cards"] = None if msg["cards"] is None else _cards(msg["cards"])
    elif kind == "receive":
        data["cards"], data["hand"] = _cards(msg["cards"]), _cards(msg["hand"])
    elif kind in ("play", "hearts_broken"):
        data["card"] = _card(msg["card"])
    elif kind == "trick":
        plays = [_object(p) for p in _list(msg["plays"])]
        data["plays"] = [{"seat": _int(p["seat"]), "card": _card(p["card"])} for p in plays]
        data["kitty"] = _cards(msg["kitty"])
        for key in ("cancelled", "carried"):
            if key in msg:
                data[key] = _cards(msg[key])
        by = msg.get("by")
        if by is not None:
            data["by"] = _card(by)
    elif kind in ("seat",):
        data["name"] = _clean(msg["name"])
    return Event(kind, data)


class RemoteTable(SeatTable, News):
    """A seat at a shared table, as the REPL's table (what a local game's
    :class:`~hearts_cli.table.local.LocalTable` is to it): the seat's moves and requests go
    to the host; what the host says comes back as the events of the seat and its view."""

    def __init__(self, link: Link, welcome: JsonObject):
        self.link = link
        self.me = _int(welcome["seat"])
        self.turn_timer = welcome.get("turn_timer")
        self.names = [_clean(x) for x in _list(welcome.get("names") or [])]
        self.welcome = welcome
        self.seats: list[TableSeat] = []
        self.client: SeatClient = SeatClient()
        self.moon: JsonObject | None = None  # the last moon_choice: the shooter's question
        self.tricks: list[Trick] = []  # this round's tricks, as told
        self.blocking = False  # line by line: wait for the seat's next decision
        self.stale = False  # a move was made: the view is old until one that shows it comes
        self.seen: tuple[object, ...] = ()  # where the last view stood (round, phase, trick, cards, passed)
        self.moved_at: tuple[object, ...] = ()  # ... when the seat's last move was made
        # what the table drawn at the last decision showed: the same view again (another person
        # passed, everybody sat down) is not drawn twice
        self.drawn: tuple[object, ...] | None = None
        self.away: set[int] = set()  # seats whose absence was told: the CPU's moves for them are not
        # the game as this seat knows it: the rules once it starts, the code at the end (it would
        # reveal every deal), the round rebuilt from the seat's latest view (Round.seen_by)
        self._rules: Rules | None = None
        self._code: str | None = None
        self._over = False
        self._rounds = 1  # rounds dealt so far
        self._totals: tuple[int, ...] = ()
        self._scores: list[tuple[int, ...]] = []  # what each round scored
        self.seen_view: SeatView | None = None
        self.round: Round | None = None

    # ------------------------------------------------------------ the seat table (seat_table.py), as told

    def own(self) -> None:
        """A shared table's game is the host's: none of a game of one's own's requests."""
        return None

    def news(self) -> News:
        """The host's news, which comes on its own: this seat takes it in."""
        return self

    @property
    def person(self) -> int:
        return self.me

    def wake(self, call: Callable[[], None]) -> None:
        self.link.wake = call

    @property
    def started(self) -> bool:
        """Whether the seat's first view has come (the REPL asks nothing before it)."""
        return self.round is not None

    @property
    def rules(self) -> Rules:
        assert self._rules is not None, "the table has not started"
        return self._rules

    @property
    def code(self) -> str | None:
        return self._code

    @property
    def game_over(self) -> bool:
        return self._over

    @property
    def round_number(self) -> int:
        return self._rounds

    @property
    def totals(self) -> tuple[int, ...]:
        return self._totals

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._scores)

    @property
    def round_result(self) -> RoundResult | None:
        return self._round().result

    def _round(self) -> Round:
        assert self.round is not None, "no view of the seat yet"
        return self.round

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    def view(self, seat: int) -> SeatView:
        assert self.seen_view is not None and seat == self.me, "a seat sees its own view only"
        return self.seen_view

    def why(self, seat: int, card: Card) -> Verdict:
        return self._round().why(card, seat)

    def legal(self, seat: int) -> tuple[Card, ...]:
        rd = self._round()
        return rd.legal_cards() if rd.turn == seat and not self._over else ()

    def to_move(self, seat: int) -> bool:
        if self._over:
            return True
        rd = self._round()
        if rd.phase is Phase.PASS:
            return rd.passes[seat] is None
        return rd.turn == seat

    # ------------------------------------------------------------ what the REPL reads

    @property
    def players(self) -> int:
        return len(self.seats)

    def attach(self, seat: int, client: SeatClient) -> None:
        self.client = client

    def record_seats(self) -> tuple[Seat, ...]:
        return tuple(s.who for s in self.seats)

    def auto(self, seat: int) -> bool:
        return False

    def points_left(self) -> bool:
        return True

    def moon_default(self) -> str:
        return str((self.moon or {}).get("default", "others"))

    def decision(self) -> bool:
        """Whether the seat has a decision to make now (or the game is over), as last told."""
        if self._rules is None:
            return False
        if self._over:
            return True
        if self.stale or self.round is None:
            return False
        return self.to_move(self.me)

    # ------------------------------------------------------------ what the table says

    def announce(self, seat: int, resumed: bool = False) -> None:
        """The start of the game for this seat: what the table says until the seat's view."""
        while self.round is None:
            self._take(self._next(True))

    @staticmethod
    def _trick(msg: JsonObject) -> Trick:
        """A completed trick as the host tells it (a ``trick`` event, or one of a view's ``tricks``)."""
        winner = msg["winner"]
        return Trick(_int(msg["leader"]), tuple(_card(_object(p)["card"]) for p in _list(msg["plays"])),
                     _seat_or_none(winner), _int(msg["points"]), tuple(_cards(msg["kitty"])),
                     tuple(_cards(msg.get("carried") or [])))

    def _next(self, block: bool) -> JsonObject:
        try:
            msg = self.link.inbox.get(block=block, timeout=None)
        except queue.Empty:
            return {}
        if msg is None:
            raise Lost()
        return msg

    def cpu_step(self) -> bool:
        """Take in one message of the table (its events shown, its view kept): True while there
        was one. Line by line, it waits for the seat's next decision."""
        msg = self._next(self.blocking and not self.decision())
        if not msg:
            return False
        self._take(msg)
        return True

    def pending(self) -> bool:
        return not self.link.inbox.empty()

    def _take(self, msg: JsonObject) -> None:
        """One message of the table: a reply nobody waits for (an error is shown), the seat's view
        (kept), or an event (what it changes noted, then shown); a malformed one is skipped."""
        kind = msg.get("event")
        if kind is None:
            self._stray_reply(msg)
            return
        if not isinstance(kind, str) or kind == "welcome":  # (no event has a kind of another type)
            return
        try:
            if kind == "view":
                self._view(msg)
                return
            if kind == "takeover" and self._away_told(msg):
                return
            note = self._NOTES.get(kind)
            if note is not None:
                note(self, msg)
            ev = _event(kind, msg)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return  # a message of a later version, or a malformed one: skipped
        self.client.event(ev)

    def _stray_reply(self, msg: JsonObject) -> None:
        if closing_code(msg) is not None:  # the seat is no longer this connection's: said once, at the end
            raise Lost()
        if msg.get("ok") is False:  # told, not a refusal of the line typed now
            code, message = _error_of(msg, "error")
            self.client.event(Error(code=code, message=message))

    def _start(self, msg: JsonObject) -> None:
        spec = msg["rules"]
        rules = Rules.from_spec(spec if isinstance(spec, (str, dict)) else None if spec is None else _object(spec))
        seats = [_object(s) for s in _list(msg["seats"])]
        self.seats = [TableSeat(Seat(_clean(s["name"]), "human" if s["kind"] == "human" else "cpu",
                                     _level(s.get("level")))) for s in seats][:rules.players]
        if self._rules != rules:  # a new game: nothing of the last one's standing holds
            self._rules, self._code, self._over = rules, None, False
            self._rounds, self._totals, self._scores = 1, (0,) * rules.players, []
        if msg.get("code"):
            self._code = _clean(msg["code"])[:12]

    def _view(self, msg: JsonObject) -> None:
        """The seat's view: the round rebuilt from it (:meth:`Round.seen_by`), the totals."""
        if self._rules is None:
            return
        number, played = _int(msg["round"]), _int(msg["tricks_played"])
        if number != self._rounds and played == 0:
            self.tricks = []
        self._rounds = number
        self.seen_view = seat_view(msg, self._rules, self._tricks_of(msg, played))
        self.round = Round.seen_by(self.seen_view)
        self._totals = _ints(msg["totals"])  # the game's totals before this round
        result = msg.get("result")
        if msg["phase"] == "over" and result:
            self._totals = tuple(a + b for a, b in zip(self._totals, _ints(_object(result)["scores"])))
        self.seen = (number, msg["phase"], played, len(_list(msg["trick"])), msg["passed"] is None)
        if self.seen != self.moved_at:  # (a view sent before the move was made is no news)
            self.stale = False
        if not self.decision():
            self.drawn = None
            return
        drawn = ({k: v for k, v in msg.items() if k not in ("tricks", "id")}, tuple(s.name for s in self.seats))
        if drawn != self.drawn:
            self.drawn = drawn
            self.client.decide()  # the REPL draws the table at the seat's decisions

    def _tricks_of(self, msg: JsonObject, played: int) -> list[Trick]:
        """The round's completed tricks a view stands on: as told, or sent with the view (a seat
        taken mid-round); placeholders from a host that sends neither."""
        told = msg.get("tricks")  # the round's tricks, sent to a seat taken mid-round
        if isinstance(told, list) and len(self.tricks) < played == len(told):
            self.tricks = [self._trick(_object(t)) for t in told]
        tricks = self.tricks[:played]
        if len(tricks) < played:
            last = _object(msg.get("last_trick") or {})
            tricks += [Trick(0, (), 0, 0)] * (played - len(tricks) - 1)
            tricks.append(Trick(_int(last.get("leader", 0)),
                                tuple(_card(_object(p)["card"]) for p in _list(last.get("plays", []))),
                                _seat_or_none(last.get("winner")), _int(last.get("points", 0))))
        return tricks

    def _deal(self, msg: JsonObject) -> None:
        self.tricks = []

    def _trick_done(self, msg: JsonObject) -> None:
        self.tricks.append(self._trick(msg))

    def _round_end(self, msg: JsonObject) -> None:
        if self._rules is not None:
            self._scores.append(_ints(msg["scores"]))
            self._totals = _ints(msg["totals"])

    def _game_end(self, msg: JsonObject) -> None:
        if self._rules is not None:
            self._over = True
            self._code = _clean(msg["code"])[:12]

    def _moon_told(self, msg: JsonObject) -> None:
        self.moon = msg

    def _seat_news(self, msg: JsonObject) -> None:
        s = msg["seat"]
        if isinstance(s, int) and 0 <= s < len(self.seats):
            self.seats[s].name = _clean(msg["name"])
        if isinstance(s, int):
            if msg.get("status") == "left":  # "...has gone; the CPU plays for them until they come back"
                self.away.add(s)
            else:
                self.away.discard(s)

    def _away_told(self, msg: JsonObject) -> bool:
        """Whether a ``takeover`` for an absent person goes without saying: their absence was told
        (they left, or the CPU already moved for them), once, until they are back. The turn
        timer's is told each time: each is a move the person missed."""
        s = msg.get("seat")
        if msg.get("reason") != "away" or not isinstance(s, int):
            return False
        if s in self.away:
            return True
        self.away.add(s)
        return False

    # what each kind of event changes in what the seat knows, before it is shown
    _NOTES: ClassVar[dict[str, Callable[[RemoteTable, JsonObject], None]]] = {
        "start": _start, "deal": _deal, "trick": _trick_done, "round_end": _round_end,
        "game_end": _game_end, "moon_choice": _moon_told, "seat": _seat_news,
    }

    # ------------------------------------------------------------ the seat's moves and requests

    def _move(self, obj: JsonObject) -> None:
        from .game import Refused  # hearts join's start-up: the table and the bots only when asked

        reply = self.link.request(obj)
        if not reply.get("ok"):
            code, message = _error_of(reply, "refused")
            raise Refused(code, message=message)
        self.stale = True
        self.moved_at = self.seen

    def pass_cards(self, seat: int, cards: Sequence[Card], by: str) -> None:
        self._move({"cmd": "pass", "cards": [str(c) for c in cards]})

    def play(self, seat: int, card: Card, by: str) -> None:
        self._move({"cmd": "play", "card": str(card)})

    def choose_moon(self, seat: int, choice: str, by: str) -> None:
        self._move({"cmd": "moon", "choice": choice})

    def _hint_reply(self) -> JsonObject:
        """The host's answer to ``hint``, or Refused with its sentence."""
        from .game import Refused  # hearts join's start-up: the table and the bots only when asked

        reply = self.link.request({"cmd": "hint"})
        if not reply.get("ok"):
            code, message = _error_of(reply, "refused")
            raise Refused(code, message=message)
        return reply

    def hint(self, seat: int) -> Hint:
        """The host's hint (records.hint.Hint), naming the CPU level it comes from."""
        from ..records.hint import Hint  # hearts join's start-up: the table and the bots only when asked
        from .game import Refused  # hearts join's start-up: the table and the bots only when asked

        reply = self._hint_reply()
        level = "hard" if reply.get("level") == "hard" else "normal"
        if "cards" in reply:
            return Hint("pass", tuple(sorted(_cards(reply["cards"]))), None, None, level)
        if "moon" in reply:  # (the REPL answers the shooter's question itself: never asked)
            raise Refused("hint_not_now")
        return Hint("play", (_card(reply.get("card")),), None, None, level)

    def take_over(self, seat: int, by: str) -> None:
        """The turn timer is the host's: nothing to do here."""

    def save(self) -> None:
        """The host saves the game."""

    def leave(self) -> None:
        """Leave the seat (the CPU plays it until the same invitation comes back)."""
        self.link.send({"cmd": "quit"})
