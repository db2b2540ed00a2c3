"""``hearts join``: sit at a shared table from a terminal (or bridge it to a script).

The table lives in the host's process (:mod:`hearts_cli.tables`); this side
only shows what the seat is told and sends what the person types:

- in a terminal, a prompt-toolkit prompt with the seat's hand, tab completion
  of the cards in hand (playable ones first), ``why``, a confirmation step
  before a card is played, and every sentence in English or Spanish;
- with stdin not a terminal, the same commands line by line (each line is
  read when the seat has a decision to make), plain text out;
- with ``--json``, a bridge: JSON requests from stdin go to the table, the
  table's JSON lines come out on stdout (docs/tables.md).

Everything the table sends is shown through the message catalog with names
cleaned by the host; nothing received is ever evaluated.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Callable

from .cards import Card, CardParseError, fold, parse_card, parse_card_list
from .messages import t
from .tables import MAX_LINE, parse_invitation
from .untrusted import LIMITS

COMMANDS = {
    "why": "why", "por-que": "why", "porque": "why",
    "pass": "pass", "pasar": "pass", "paso": "pass",
    "table": "table", "mesa": "table",
    "score": "score", "scores": "score", "puntos": "score",
    "help": "help", "ayuda": "help", "?": "help",
    "hint": "hint", "pista": "hint",
    "quit": "quit", "exit": "quit", "salir": "quit",
}


PASSING = {"left": "passing_left", "right": "passing_right", "across": "passing_across"}


class Seat:
    """What this seat knows of the table: the names, the last view; and how to say each event."""

    def __init__(self, lang: str, ascii: bool):
        self.lang = lang
        self.ascii = ascii
        self.seat: int | None = None
        self.names: list[str] = []
        self.view: dict[str, Any] | None = None
        self.over = False
        self.selection: list[Card] = []
        self.pending: Card | None = None
        self.moon: dict[str, Any] | None = None  # the last moon_choice event: the shooter's question

    def say(self, mid: str, **params: Any) -> str:
        return t(mid, self.lang, ascii=self.ascii, **params)

    def name(self, seat: Any) -> str:
        if seat == self.seat:
            return self.say("seat_you")
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            from .seating import shown_name

            return shown_name(self.names[seat], seat, self.seat, len(self.names), self.lang)
        return "?"

    def card(self, text: str) -> str:
        try:
            c = parse_card(text)
        except CardParseError:
            return "?"
        return str(c) if self.ascii else c.symbol

    def cards(self, texts: list[str]) -> list[Card]:
        out = []
        for x in texts or ():
            try:
                out.append(parse_card(x))
            except CardParseError:
                pass
        return out

    def scores(self, values: list[int]) -> str:
        sep = " | " if self.ascii else " · "
        n = len(values)
        me = self.seat or 0
        return sep.join(f"{self.name((me + i) % n)} {values[(me + i) % n]}" for i in range(n))

    def my_decision(self) -> bool:
        v = self.view
        if v is None or self.over or v["phase"] == "over":
            return False
        if v["phase"] == "pass":
            return v["passed"] is None and bool(v["legal"])
        return v["turn"] == self.seat

    # ------------------------------------------------------------ what the table says

    def lines(self, msg: dict[str, Any]) -> list[str]:
        """The sentences for one message from the table (none for most replies)."""
        kind = msg.get("event")
        if kind is None:
            if msg.get("ok") is False:
                err = msg.get("error") or {}
                return [_clean(str(err.get("message", "")))]
            return []
        fn = getattr(self, "ev_" + str(kind), None)
        try:
            return fn(msg) if fn is not None else []
        except (KeyError, TypeError, ValueError, IndexError):  # a message of a later version: skip it
            return []

    def ev_welcome(self, m: dict) -> list[str]:
        self.seat = m["seat"]
        self.names = [_clean(str(x)) for x in m["names"]]
        names = ", ".join(self.name(s) for s in range(len(self.names)))
        return [self.say("net_welcome", seat=m["seat"], players=m["players"], names=names)]

    def ev_start(self, m: dict) -> list[str]:
        self.names = [_clean(str(s["name"])) for s in m["seats"]]
        return []

    def moon_words(self) -> dict[str, Any]:
        """The words of the shooter's question: what to type, the moon's value, the default."""
        m = self.moon or {}
        others, minus = m["choices"]["others"], m["choices"]["shooter_minus"]
        somebody = next(s for s in range(len(others)) if s != m["seat"])
        points = others[somebody] - minus[somebody]
        default = self.say("moon_opt_minus" if m["default"] == "shooter_minus" else "moon_opt_others",
                           points=points)
        return {"minus": self.say("moon_word_minus"), "others": self.say("moon_word_others"),
                "points": points, "default": default}

    def ev_moon_choice(self, m: dict) -> list[str]:
        self.moon = m
        if m["seat"] != self.seat:
            return [self.say("moon_their_choice", name=self.name(m["seat"]))]
        return [self.say("moon_ask", **self.moon_words())]

    def ev_view(self, m: dict) -> list[str]:
        old = self.view
        self.view = m
        if old is None or (old["round"], old["phase"]) != (m["round"], m["phase"]):
            self.selection = []
        self.pending = None
        return []

    def ev_seat(self, m: dict) -> list[str]:
        if isinstance(m["seat"], int) and 0 <= m["seat"] < len(self.names):
            self.names[m["seat"]] = _clean(str(m["name"]))
        if m["seat"] == self.seat:
            return []
        mid = {"joined": "net_seat_joined", "left": "net_seat_left", "back": "net_seat_back"}.get(m["status"])
        return [self.say(mid, name=self.name(m["seat"]), seat=m["seat"])] if mid else []

    def ev_takeover(self, m: dict) -> list[str]:
        if m["seat"] == self.seat and m["reason"] == "timer":
            return []  # the play line says so
        mid = "net_takeover_timer" if m["reason"] == "timer" else "net_takeover_away"
        return [self.say(mid, name=self.name(m["seat"]))]

    def ev_deal(self, m: dict) -> list[str]:
        text = self.say("round_line", round=m["round"])
        if m["direction"] == "none":
            return [text + " - " + self.say("no_pass_round")]
        return [text + " - " + self.say(PASSING[m["direction"]], name=self.name(m["to"]))]

    def ev_pass(self, m: dict) -> list[str]:
        if m["seat"] != self.seat or m["cards"] is None:
            return []
        mid = "pass_you_timer" if m["by"] == "timer" else "pass_you"
        return [self.say(mid, cards=self.cards(m["cards"]), name=self.name(m["to"]))]

    def ev_receive(self, m: dict) -> list[str]:
        return [self.say("received", cards=self.cards(m["cards"]), name=self.name(m["source"]))]

    def ev_play(self, m: dict) -> list[str]:
        card = self.cards([m["card"]])
        if not card:
            return []
        if m["seat"] == self.seat:
            mid = {"timer": "play_timer", "away": "play_auto", "auto": "play_auto"}.get(m["by"], "play_you")
            return [self.say(mid, card=card[0])]
        return [self.say("play_other", name=self.name(m["seat"]), card=card[0])]

    def ev_hearts_broken(self, m: dict) -> list[str]:
        return [self.say("hearts_now_broken")]

    def ev_trick(self, m: dict) -> list[str]:
        out = []
        if m.get("cancelled"):  # two decks: "The two A♥ cancel: K♥ wins."
            pairs = ", ".join(self.say("cancel_pair", card=c) for c in self.cards(m["cancelled"]))
            if m.get("by") is not None:
                then = self.say("rp_cancel_wins", card=self.cards([m["by"]])[0])
            elif m["winner"] is not None:  # the last trick: the table's fallback gave it to somebody
                then = self.say("rp_cancel_last", seat=self.name(m["winner"]))
            else:
                then = self.say("rp_cancel_aside")
            said = self.say("rp_cancel", pairs=pairs, then=then)
            out.append(said[:1].upper() + said[1:])
        if m["winner"] is None:  # set aside for the winner of the next trick
            return out + [self.say("trick_aside", number=m["trick"], points=m["points"])]
        mine = m["winner"] == self.seat
        if m["points"]:
            mid = "trick_you_points" if mine else "trick_other_points"
        else:
            mid = "trick_you" if mine else "trick_other"
        text = self.say(mid, name=self.name(m["winner"]), points=m["points"], number=m["trick"])
        if m.get("kitty"):
            text += " " + self.say("trick_kitty", cards=self.cards(m["kitty"]))
        if m.get("carried"):
            text += " " + self.say("rp_carried", seat=self.name(m["winner"]), count=len(m["carried"]),
                                   cards=self.cards(m["carried"]))
        return out + [text]

    def ev_round_end(self, m: dict) -> list[str]:
        return [self.say("round_end_line", round=m["round"], scores=self.scores(m["scores"])),
                self.say("totals_line", totals=self.scores(m["totals"]))]

    def ev_game_end(self, m: dict) -> list[str]:
        self.over = True
        out = [self.say("game_over_line", rounds=len(m["rounds"]))]
        winners = m["winners"]
        if len(winners) > 1:
            out.append(self.say("winners_shared", names=", ".join(self.name(s) for s in winners)))
        elif winners == [self.seat]:
            out.append(self.say("winner_you"))
        else:
            out.append(self.say("winner_other", name=self.name(winners[0])))
        out.append(self.say("totals_line", totals=self.scores(m["totals"])))
        out.append(self.say("code_info", code=str(m["code"])[:12]))
        return out

    def table(self) -> list[str]:
        """The seat's position, in a few lines: the trick on the table and the hand."""
        v = self.view
        if v is None:
            return []
        out = []
        if v["phase"] == "pass":
            if v["direction"] != "none":
                out.append(self.say(PASSING[v["direction"]], name=self.name(v["pass_to"])))
        elif v["trick"]:
            out.append(", ".join(f"{self.name(p['seat'])} {self.card(p['card'])}" for p in v["trick"]))
        hand = " ".join(("[" + self.card(c) + "]") if c in v["legal"] and v["phase"] == "play"
                        else self.card(c) for c in v["hand"])
        out.append(self.say("your_hand") + " " + hand)
        if self.selection:
            out.append(self.say("chosen", cards=self.selection))
        return out


def _clean(text: str) -> str:
    """Text from the network, safe for a terminal: no control characters, not too long."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:200]


class Connection:
    """The socket to the table, with replies matched to requests by ``id``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future] = {}

    async def request(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = fut
        self.send(obj | {"id": self.next_id})
        return await fut

    def send(self, obj: dict[str, Any]) -> None:
        self.writer.write(json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n")

    def answer(self, msg: dict[str, Any]) -> bool:
        fut = self.waiting.pop(msg.get("id"), None) if isinstance(msg.get("id"), int) else None
        if fut is not None and not fut.done():
            fut.set_result(msg)
            return True
        return False


async def _connect(invitation: str, name: str | None, lang: str, cafile: str | None) -> tuple[Connection, dict]:
    host, port, token, tls = parse_invitation(invitation)  # type: ignore[misc]
    ctx = None
    if tls:
        import ssl

        ctx = ssl.create_default_context(cafile=cafile)
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, ssl=ctx, limit=LIMITS["net_update"]), 15)
    conn = Connection(reader, writer)
    hello: dict[str, Any] = {"cmd": "hello", "token": token, "lang": lang}
    if name:
        hello["name"] = name
    conn.send(hello)
    line = await asyncio.wait_for(reader.readline(), 15)
    first = json.loads(line) if line else {}
    return conn, first


def run_join(invitation: str, *, name: str | None, lang: str, plain: bool, as_json: bool,
             cafile: str | None = None) -> int:
    """``hearts join``: returns the exit status (0 the game ended or you left, 1 lost, 2 refused)."""
    if parse_invitation(invitation) is None:
        sys.stderr.write(t("net_bad_invitation", lang, text=invitation[:80]) + "\n")
        return 2
    try:
        return asyncio.run(_join(invitation, name, lang, plain, as_json, cafile))
    except KeyboardInterrupt:
        return 130


async def _join(invitation: str, name: str | None, lang: str, plain: bool, as_json: bool,
                cafile: str | None) -> int:
    host, port, _, _ = parse_invitation(invitation)  # type: ignore[misc]
    try:
        conn, first = await _connect(invitation, name, lang, cafile)
    except (OSError, asyncio.TimeoutError, ValueError) as e:
        problem = getattr(e, "strerror", None) or type(e).__name__
        sys.stderr.write(t("net_cannot_connect", lang, host=host, port=port, problem=problem) + "\n")
        return 1
    if first.get("ok") is False:
        sys.stderr.write(_clean(str((first.get("error") or {}).get("message", ""))) + "\n")
        return 2
    if as_json:
        return await _bridge(conn, first)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    from .repl import wants_ascii

    seat = Seat(lang, plain or wants_ascii(sys.stdout))
    if interactive:
        return await _interactive(conn, seat, first, plain)
    return await _batch(conn, seat, first)


async def _bridge(conn: Connection, first: dict) -> int:
    """--json: the table's lines to stdout as they come; stdin's lines to the table."""
    out = sys.stdout
    out.write(json.dumps(first, ensure_ascii=False) + "\n")
    out.flush()
    loop = asyncio.get_running_loop()

    async def pump_in() -> None:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.buffer.readline)
            if not line:
                return
            if len(line) <= MAX_LINE and line.strip():
                conn.writer.write(line if line.endswith(b"\n") else line + b"\n")

    feeder = loop.create_task(pump_in())
    try:
        while True:
            line = await conn.reader.readline()
            if not line:
                return 0
            out.write(line.decode("utf-8", "replace"))
            out.flush()
    except (ConnectionError, OSError):
        return 1
    finally:
        feeder.cancel()


async def _reader(conn: Connection, seat: Seat, show: Callable[[list[str]], None],
                  changed: asyncio.Event) -> None:
    shown: dict[str, Any] = {}
    while True:
        line = await conn.reader.readline()
        if not line:
            return
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        answered = conn.answer(msg)
        if not answered or msg.get("ok") is False:
            show(seat.lines(msg))
        if msg.get("event") == "view":
            key = (msg.get("round"), msg.get("phase"), msg.get("tricks_played"), len(msg.get("trick") or ()))
            if seat.my_decision() and key != shown.get("key"):  # once per decision
                shown["key"] = key
                show([""] + seat.table())
            changed.set()
        elif msg.get("event") == "game_end":
            changed.set()


async def _act(conn: Connection, seat: Seat, line: str, show: Callable[[list[str]], None]) -> str | None:
    """One line the person typed; ``"quit"`` to leave."""
    text = line.strip()
    v = seat.view
    if v is not None and v["phase"] == "moon" and v["turn"] == seat.seat and seat.moon is not None:
        from .repl.table import moon_word

        choice = moon_word(text, seat.moon_words()["points"]) if text else seat.moon["default"]
        if choice is not None:  # your moon: Enter alone takes the better choice
            reply = await conn.request({"cmd": "moon", "choice": choice})
            if not reply.get("ok"):
                show(seat.lines(reply))
            return None
    if not text:
        return None
    head, _, rest = text.partition(" ")
    cmd = COMMANDS.get(fold(head))
    v = seat.view
    if cmd == "quit":
        return "quit"
    if cmd == "help":
        show([seat.say("net_help")])
        return None
    if cmd == "table":
        show(seat.table())
        return None
    if cmd == "score":
        if v is not None:
            show([seat.say("totals_line", totals=seat.scores(v["totals"]))])
        return None
    if seat.over or v is None:
        show([seat.say("net_closed")])
        return None
    if cmd == "hint":
        reply = await conn.request({"cmd": "hint"})
        if not reply.get("ok"):
            show(seat.lines(reply))
        elif reply.get("cards"):
            show([seat.say("net_hint_pass", cards=seat.cards(reply["cards"]))])
        else:
            for card in seat.cards([str(reply.get("card", ""))]):
                show([seat.say("net_hint_play", card=card)])
        return None
    if cmd == "why":
        card = _one(rest, seat, show)
        if card is not None:
            reply = await conn.request({"cmd": "why", "card": str(card)})
            show([_clean(str(reply.get("message") or (reply.get("error") or {}).get("message", "")))])
        return None
    if v["phase"] == "pass":
        if cmd == "pass":  # `pass` sends the cards chosen; `pass QS AS KS` sends those
            chosen = _many(rest, seat, show) if rest else list(seat.selection)
            if chosen is None:
                return None
            reply = await conn.request({"cmd": "pass", "cards": [str(c) for c in chosen]})
            if reply.get("ok"):
                seat.selection = []
            else:
                show(seat.lines(reply))
            return None
        cards = _many(text, seat, show)  # cards typed on their own are chosen (again: dropped)
        if cards is None:
            return None
        for c in cards:
            if c in seat.selection:
                seat.selection.remove(c)
            else:
                seat.selection.append(c)
        show([seat.say("chosen", cards=seat.selection)])
        return None
    if cmd == "pass":
        show([seat.say("wrong_phase_play")])
        return None
    card = _one(text, seat, show)
    if card is None:
        return None
    if seat.pending != card:
        reply = await conn.request({"cmd": "why", "card": str(card)})
        if reply.get("ok") and reply.get("legal"):
            seat.pending = card
            show([seat.say("confirm_card", effect=_clean(str(reply.get("message", ""))))])
        else:
            show([_clean(str(reply.get("message") or (reply.get("error") or {}).get("message", "")))])
        return None
    seat.pending = None
    reply = await conn.request({"cmd": "play", "card": str(card)})
    if not reply.get("ok"):
        show(seat.lines(reply))
    return None


def _one(text: str, seat: Seat, show: Callable[[list[str]], None]) -> Card | None:
    try:
        return parse_card(text)
    except CardParseError as e:
        show([seat.say("bad_card_hint", text=e.text, cards=list(e.suggestions)) if e.suggestions
              else seat.say("bad_card", text=e.text)])
        return None


def _many(text: str, seat: Seat, show: Callable[[list[str]], None]) -> list[Card] | None:
    try:
        return parse_card_list(text)
    except CardParseError as e:
        show([seat.say("bad_card", text=e.text)])
        return None


async def _batch(conn: Connection, seat: Seat, first: dict) -> int:
    """Commands line by line, each read when the seat has a decision to make; plain text out."""
    out = sys.stdout

    def show(lines: list[str]) -> None:
        for line in lines:
            out.write(line + "\n")
        out.flush()

    show(seat.lines(first))
    changed = asyncio.Event()
    reading = asyncio.get_running_loop().create_task(_reader(conn, seat, show, changed))
    loop = asyncio.get_running_loop()
    try:
        while True:
            while not seat.over and not seat.my_decision() and not reading.done():
                changed.clear()
                await asyncio.wait([reading, loop.create_task(changed.wait())],
                                   return_when=asyncio.FIRST_COMPLETED)
            if reading.done():
                if not seat.over:
                    show([seat.say("net_lost")])
                    return 1
                return 0
            if seat.over:
                await asyncio.wait_for(reading, 5)
                return 0
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return 0
            before = seat.view
            if await _act(conn, seat, line, show) == "quit":
                conn.send({"cmd": "quit"})
                return 0
            if seat.view is before and seat.my_decision():
                changed.clear()  # the line made no move: read the next one
    except (ConnectionError, OSError, asyncio.TimeoutError):
        if seat.over:
            return 0
        show([seat.say("net_lost")])
        return 1
    finally:
        reading.cancel()
        conn.writer.close()


async def _interactive(conn: Connection, seat: Seat, first: dict, plain: bool) -> int:
    """A prompt-toolkit prompt; the table's events print above it as they come."""
    from prompt_toolkit import PromptSession, print_formatted_text
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.patch_stdout import patch_stdout

    def show(lines: list[str]) -> None:
        for line in lines:
            print_formatted_text(line)

    class Cards(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            v = seat.view
            if v is None:
                return
            word = document.get_word_before_cursor(WORD=True)
            key = fold(word)
            legal = set(v["legal"])
            hand = sorted(v["hand"], key=lambda c: c not in legal)
            for c in hand:
                if not key or c.lower().startswith(key):
                    meta = seat.say("meta_playable") if c in legal and v["phase"] == "play" \
                        else seat.say("meta_in_hand")
                    yield Completion(c, start_position=-len(word), display=seat.card(c), display_meta=meta)
            if key:
                for cmd in COMMANDS:
                    if cmd.startswith(key):
                        yield Completion(cmd, start_position=-len(word))

    show(seat.lines(first))
    changed = asyncio.Event()
    session: PromptSession = PromptSession(completer=Cards(), complete_while_typing=False)
    with patch_stdout():
        reading = asyncio.get_running_loop().create_task(_reader(conn, seat, show, changed))
        try:
            while not reading.done():
                def prompt_text() -> str:
                    v = seat.view
                    if seat.over or v is None:
                        return seat.say("prompt_over") + "> "
                    return seat.say("prompt_pass" if v["phase"] == "pass" else "prompt_play") + "> "
                asking = asyncio.get_running_loop().create_task(session.prompt_async(prompt_text))
                done, _ = await asyncio.wait([asking, reading], return_when=asyncio.FIRST_COMPLETED)
                if asking not in done:
                    asking.cancel()
                    break
                try:
                    line = asking.result()
                except KeyboardInterrupt:
                    seat.selection, seat.pending = [], None
                    continue
                except EOFError:
                    conn.send({"cmd": "quit"})
                    return 0
                if await _act(conn, seat, line, show) == "quit":
                    conn.send({"cmd": "quit"})
                    return 0
        except (ConnectionError, OSError):
            pass
        finally:
            reading.cancel()
            conn.writer.close()
    if seat.over:
        return 0
    show([seat.say("net_lost")])
    return 1
