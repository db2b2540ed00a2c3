"""Shared tables (`hearts host`): real sockets on 127.0.0.1 only.

Whole games with several clients, a disconnect and a rejoin mid-trick, the turn timer, kill -9 of
the host and --resume, a hostile client beside an honest game, and a scan of every byte sent to
every client for a card its seat could not see. The server's story and seat views are checked
against `hearts replay` (the fourth output of the shared vocabulary, see test_events.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import HOST, check_schema, self_signed, serve_table

from hearts_cli.model.cards import Card, mask_of, parse_card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.events import VIEW_FIELDS, Event, view_json
from hearts_cli.play.game import Game
from hearts_cli.records import replay as rp
from hearts_cli.records.record_parts import Seat
from hearts_cli.records.record_reader import read_record
from hearts_cli.table.invitations import new_token, parse_invitation
from hearts_cli.table.limits import MAX_LINE
from hearts_cli.table.remote import CLOSING, closing_code
from hearts_cli.table.seats import TableSeat
from hearts_cli.table.server import Server
from hearts_cli.table.shared import SharedTable, make_seats

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
SHARED = ("pass", "receive", "lead", "trick", "hearts_broken", "round_end", "game_end")


class Conn:
    """A JSON-lines client over a real socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.got: list[dict] = []
        self.checked = False  # each line checked against docs/schema (a whole game: a few seconds)

    @classmethod
    async def open(cls, port: int, token: str, name: str = "Ana", ssl=None, **hello) -> Conn:
        reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 20, ssl=ssl)
        c = cls(reader, writer)
        await c.send({"cmd": "hello", "token": token, "name": name, **hello})
        return c

    async def send(self, obj) -> None:
        self.writer.write((obj if isinstance(obj, bytes) else json.dumps(obj).encode()) + b"\n")
        await self.writer.drain()

    async def recv(self, timeout: float = 10.0) -> dict | None:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            return None
        msg = check_schema(line) if self.checked else json.loads(line)
        self.got.append(msg)
        return msg

    async def until(self, test, timeout: float = 10.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, end - time.monotonic()))
            assert msg is not None, "the connection closed first"
            if test(msg):
                return msg

    async def seen(self, test, timeout: float = 10.0) -> dict:
        """A message another task has read on this connection (it is never read twice)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = next((m for m in self.got if test(m)), None)
            if found is not None:
                return found
            await asyncio.sleep(0.005)
        raise AssertionError("never seen")

    def close(self) -> None:
        self.writer.close()


async def play_honestly(c: Conn, stop=None, timeout: float = 60.0, first: dict | None = None,
                        choose=None) -> dict:
    """Answer every view that asks this seat to move (first three cards; highest legal card,
    or ``choose(view)``), until the game ends (returns game_end) or ``stop(msg)`` says so
    (returns that message). ``first``: a message already read, to answer first."""
    asked = None
    end = time.monotonic() + timeout
    while True:
        msg, first = (first, None) if first is not None else (await c.recv(max(0.01, end - time.monotonic())), None)
        assert msg is not None, "the table closed before the game ended"
        if stop is not None and stop(msg):
            return msg
        if msg.get("event") == "game_end":
            return msg
        if msg.get("event") != "view" or msg["phase"] == "over":
            continue
        key = (msg["round"], msg["phase"], msg["tricks_played"], len(msg["trick"]))
        if key == asked:
            continue
        if msg["phase"] == "pass" and msg["passed"] is None and msg["legal"]:
            asked = key
            await c.send({"cmd": "pass", "cards": msg["hand"][:3]})
        elif msg["phase"] == "play" and msg["turn"] == msg["seat"]:
            asked = key
            await c.send({"cmd": "play", "card": choose(msg) if choose else msg["legal"][-1]})


def new_table(code: str, humans: int, *, preset: str = "quick", players: int | None = None, **kw):
    rules = Rules.from_spec(preset if players is None else {"preset": preset, "players": players})
    game = Game(rules, code)
    seats = make_seats(rules.players, humans, None)
    return SharedTable(game, seats, bot_threads=False, **kw)


async def serve(*tables: SharedTable, witness=None) -> tuple[Server, int]:
    server = Server("en", witness=witness)
    for tb in tables:
        server.add(tb)
    port = await server.start(HOST, 0)
    return server, port


def tokens(tb: SharedTable) -> list[str]:
    return [s.token for s in tb.seats if s.human]


def _view(msg: dict) -> dict:
    return {k: msg[k] for k in VIEW_FIELDS}


# ---------------------------------------------------------------- a whole game


@pytest.mark.slow
def test_several_clients_play_a_whole_game_and_tell_it_as_the_replay_does(tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTS_HOME", str(tmp_path))
    from hearts_cli.store.hosted import HostStore

    store = HostStore()
    store.acquire()
    tb = new_table("JYR35SWD", 3, store=store)

    async def main():
        server, port = await serve(tb)
        conns = [await Conn.open(port, tok, name) for tok, name in zip(tokens(tb), ("Ana", "Bea", "Cy"))]
        for c in conns:  # every line the table server sends is valid against the published schema
            c.checked = True
        for c in conns:  # everybody is seated before the first move
            await c.until(lambda m: m.get("event") == "view")
        runner = asyncio.create_task(tb.run())
        ends = await asyncio.gather(*(play_honestly(c) for c in conns))
        await asyncio.wait_for(runner, 10)
        await server.close()
        return conns, ends

    try:
        conns, ends = asyncio.run(main())
    finally:
        store.release()
    assert ends[0] == ends[1] == ends[2] and ends[0]["code"] == "JYR35SWD"
    (path,) = (tmp_path / "archive").glob("*.yaml")  # finished games are archived, and replay
    record = read_record(path)
    assert [s.name for s in record.seats][:3] == ["Ana", "Bea", "Cy"] and record.seats[3].kind == "cpu"
    assert record.replay().over
    assert not (tmp_path / "tables" / "current.yaml").exists()
    for seat, c in enumerate(conns):
        got = [m for m in c.got if "event" in m]
        for m in got:
            if m["event"] not in ("welcome", "view"):
                Event.from_json(m)  # every event is a valid event of its kind
        assert got[1]["event"] == "start" and got[1]["code"] is None  # the code would reveal the deal
        # the same story as `hearts replay --seat` tells of the archived game
        told = [e.to_json() for e in rp.narrate(record, seat)]
        for kind in SHARED:
            live = [m for m in got if m["event"] == kind]
            again = [m for m in told if m["event"] == kind]
            if kind == "pass":  # made in any order; a record keeps them seat by seat
                assert {m["by"] for m in live} <= {"you", "player", "cpu"}
                live = sorted((m | {"by": None} for m in live), key=lambda m: (m["round"], m["seat"]))
                again = sorted(again, key=lambda m: (m["round"], m["seat"]))
            assert live and live == again, (seat, kind)
        # and every seat view is the replay's view at that moment
        plays, passes, views = 0, set(), 0
        for m in got:
            if m["event"] == "play":
                plays += 1
            elif m["event"] == "pass":
                passes.add((m["round"], m["seat"]))
            elif m["event"] == "view":
                game = _game_like(record, plays, passes)
                assert _view(m) == _view(rp.view_event(game, seat)), (seat, plays)
                views += 1
        assert views > 30  # one at each of its decisions at least


def _game_like(record, plays: int, passes: set) -> Game:
    """The recorded game after its first ``plays`` cards and the passes named (in any order)."""
    game = Game(record.rules, record.code)
    made = 0
    for mv in record.moves:
        if mv.kind == "pass":
            if (mv.round, mv.seat) in passes:
                game.push(mv)
        elif made < plays:
            made += 1
            game.push(mv)
    return game


# ---------------------------------------------------------------- disconnect and rejoin


def test_a_player_who_goes_is_played_for_and_rejoins_mid_trick():
    """Bea goes mid-trick: the table says so and the CPU plays her card. Her invitation gives the
    seat back at once, mid-trick: while the table waits for Ana (who holds her card), Bea's new
    connection is welcomed with the seat's view, and no move is made meanwhile (a seat given
    back only at the next trick or round would never come: nothing moves until Ana plays)."""
    tb = new_table("K7Q2MXA7", 2, delay=0)

    async def main():
        server, port = await serve(tb)
        a_tok, b_tok = tokens(tb)
        a = await Conn.open(port, a_tok, "Ana")
        b = await Conn.open(port, b_tok, "Bea")
        await b.until(lambda m: m.get("event") == "view")
        runner = asyncio.create_task(tb.run())

        def away_played() -> bool:
            return any(m.get("event") == "play" and m["seat"] == 1 and m["by"] == "away" for m in a.got)

        # Ana plays until Bea's seat has been played for, then holds her card at her next turn mid-trick
        holding = asyncio.create_task(play_honestly(a, stop=lambda m: away_played() and m.get("event") == "view"
                                                    and m["phase"] == "play" and m["turn"] == 0 and m["trick"]))
        # Bea plays until it is her turn in the middle of a trick, then goes away
        mid = await play_honestly(b, stop=lambda m: m.get("event") == "view" and m["phase"] == "play"
                                  and m["turn"] == 1 and m["trick"] and m["tricks_played"] >= 2)
        b.close()
        # the table says so, and the CPU plays her card
        # (Ana's own task reads her connection: the test looks at what it read)
        await a.seen(lambda m: m.get("event") == "seat" and m["seat"] == 1 and m["status"] == "left")
        await a.seen(lambda m: m == {"event": "takeover", "seat": 1, "reason": "away"})
        away = await a.seen(lambda m: m.get("event") == "play" and m["seat"] == 1
                            and m["trick"] == mid["trick_number"] and m["round"] == mid["round"])
        assert away["by"] == "away" and away["trick"] == mid["trick_number"]
        hold = await holding
        assert hold.get("event") == "view" and hold["trick"], "the game ended before Ana could hold a card"
        moves = tb.moves
        # the same invitation gives the seat back at once, in the middle of a trick
        b2 = await Conn.open(port, b_tok, "Bea")
        welcome = await b2.recv()
        assert welcome["event"] == "welcome" and welcome["seat"] == 1
        start = await b2.recv()
        view = await b2.recv()
        assert start["event"] == "start" and view["event"] == "view" and view["phase"] == "play"
        assert tb.moves == moves and view["trick"] == hold["trick"]  # nothing moved: mid-trick, as it stood
        assert (view["round"], view["tricks_played"]) == (hold["round"], hold["tricks_played"])
        assert _view(view) == _view(view_json(tb.game.round.view(1), tb.game.round.result))
        await a.until(lambda m: m.get("event") == "seat" and m["seat"] == 1 and m["status"] == "back")
        honest = asyncio.create_task(play_honestly(a, first=hold))  # Ana plays the card she held
        end_b = await play_honestly(b2)
        end_a = await honest
        await runner
        await server.close()
        return end_a, end_b, b2

    end_a, end_b, b2 = asyncio.run(main())
    assert end_a == end_b
    # after coming back, Bea's own cards were hers again ("you"), not the CPU's
    assert any(m.get("event") == "play" and m["seat"] == 1 and m["by"] == "you" for m in b2.got)


def test_a_resumed_table_tells_who_it_waits_for_and_a_player_back_what_the_cpu_played_for_them():
    """Issue 33 §4: at a table brought back (`hearts host --resume`) the first person to sit down
    saw nothing happen and was not told why: the table waits for the others. And a person back
    from an absence was not told what the CPU had played for them."""
    from hearts_cli.repl.render import Renderer, plain
    from hearts_cli.repl.table import Table
    from hearts_cli.repl.table import make_seats as local_seats
    from hearts_cli.table.shared import missed_text

    rules = Rules.from_spec("quick")
    game = Game(rules, "K7Q2MXA7")
    game.push_pass(tuple(game.round.hand(2)[:3]), 2)  # a game under way, as a save brings it back
    tb = SharedTable(game, make_seats(4, 2, None), bot_threads=False)

    async def main():
        server, port = await serve(tb)
        a_tok, b_tok = tokens(tb)
        a = await Conn.open(port, a_tok, "Ana")
        a.checked = True
        awaited = await a.until(lambda m: m.get("event") == "seat" and m["status"] == "awaited")
        assert awaited == {"event": "seat", "seat": 1, "name": "West", "status": "awaited"}
        b = await Conn.open(port, b_tok, "Bea")
        await b.until(lambda m: m.get("event") == "view")
        runner = asyncio.create_task(tb.run())
        b.close()  # Bea goes before she passes: the CPU passes for her; Ana holds her pass
        await a.until(lambda m: m.get("event") == "pass" and m["seat"] == 1 and m["by"] == "away")
        b2 = await Conn.open(port, b_tok, "Bea")
        b2.checked = True
        told = await b2.until(lambda m: m.get("event") == "info")
        assert not any(m.get("status") == "awaited" for m in b2.got)  # nobody is missing now
        runner.cancel()
        await server.close()
        return told

    told = asyncio.run(main())
    passed = [Card(c) for c in sorted(tb.game.round.passes[1])]
    assert told == {"event": "info", "topic": "away", "text": missed_text([("pass", passed)], "en")}
    assert told["text"] == "While you were away, the CPU played for you: it passed " + \
        ", ".join(c.face() for c in passed) + "."
    # the REPL at a seat says who the table waits for
    local = Table(Game(rules, "K7Q2MXA7"), local_seats(4, 0, None), lang="en")
    seat = Event("seat", {"seat": 1, "name": "West", "status": "awaited"})
    assert [plain(x) for x in Renderer(local, plain=True).event(seat)] == [
        "The table waits for West to sit down: the game goes on once they do."]


def test_what_the_cpu_played_for_a_person_away_is_kept_in_order_and_said_in_their_language():
    from hearts_cli.table.shared import missed_text

    tb = new_table("K7Q2MXA7", 1)  # nobody sits down: the CPU plays for seat 0, away
    while tb.game.round.phase is not Phase.PLAY or len(tb.game.round.tricks) < 3:
        seat, by = tb.due_move()
        tb.apply(seat, by, tb.suggest(seat, tb.level_for(seat, by)))
    mine = [m for m in list(tb.game.move_stack) if m.seat == 0]
    passed, played = sorted(mine[0].cards), [m.cards[0] for m in mine[1:]]
    assert tb.missed[0] == [("pass", passed), ("play", played)] and len(played) >= 3
    assert missed_text(tb.missed[0], "es") == "Mientras no estabas, la CPU jugó por ti: pasó " + \
        ", ".join(Card(c).face() for c in passed) + "; jugó " + ", ".join(Card(c).face() for c in played) + "."


# ---------------------------------------------------------------- the turn timer


def test_the_turn_timer_lets_the_cpu_play_and_the_table_says_so():
    """A person who does not move is played for once their turn timer is up, not before (on the
    table's own clock: ``due_move`` at a given time), and the table says so (``takeover``)."""
    tb = new_table("K7Q2MXA7", 2, turn_timer=0.3)

    async def main():
        server, port = await serve(tb)
        a_tok, b_tok = tokens(tb)
        a = await Conn.open(port, a_tok, "Ana")  # plays
        b = await Conn.open(port, b_tok, "Bea")  # connected, but never moves
        await b.until(lambda m: m.get("event") == "view")
        # both people are due to pass since the same moment: the CPU waits for them until their
        # time is up, and then plays for the first of them
        since = tb.seats[1].due_since
        assert since is not None and tb.seats[0].due_since == since
        assert tb.due_move(since) is None and tb.due_move(since + 0.29) is None
        assert tb.due_move(since + 0.31) == (0, "timer")
        runner = asyncio.create_task(tb.run())
        honest = asyncio.create_task(play_honestly(a, stop=lambda m: m.get("event") == "trick"
                                                   and m["round"] == 1 and m["trick"] == 2))
        over = await b.until(lambda m: m.get("event") == "takeover" and m["seat"] == 1)
        assert over == {"event": "takeover", "seat": 1, "reason": "timer"}
        mine = await b.until(lambda m: m.get("event") == "pass" and m["seat"] == 1)
        assert mine["by"] == "timer" and len(mine["cards"]) == 3  # her own pass, made for her
        played = await b.until(lambda m: m.get("event") == "play" and m["seat"] == 1, timeout=20)
        assert played["by"] == "timer"
        await asyncio.wait_for(honest, 20)
        runner.cancel()
        await server.close()

    asyncio.run(main())


# ---------------------------------------------------------------- kill -9 and --resume


def _host(home: Path, *args: str) -> subprocess.Popen:
    env = os.environ | {"HEARTS_HOME": str(home), "LANG": "C.UTF-8", "HEARTS_LANG": "en"}
    # Ctrl-C as a terminal sends it: a suite started in the background (`cmd &`) hands its
    # children SIGINT ignored, and then the host never hears it
    return subprocess.Popen([sys.executable, "-m", "hearts_cli", "host", "--port", "0", "--delay", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            preexec_fn=_sigint_as_a_terminal)


def _sigint_as_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _invitations(p: subprocess.Popen, count: int, tls: bool = False,
                 lines: list | None = None) -> list[tuple[int, str]]:
    found = []
    deadline = time.monotonic() + 20
    while len(found) < count and time.monotonic() < deadline:
        line = p.stdout.readline()
        assert line, p.stderr.read()
        if lines is not None:
            lines.append(line)
        if "hearts join" in line:
            host, port, token, secure = parse_invitation(line.split()[-1])
            assert host == HOST and secure == tls
            found.append((port, token))
    return found


@pytest.mark.slow
def test_kill_9_of_the_host_and_resume_bring_the_table_back(tmp_path):
    home = tmp_path / "home"
    p = _host(home, "--humans", "1", "--code", "JYR35SWD")
    try:
        ((port, token),) = _invitations(p, 1)

        async def first() -> dict:
            c = await Conn.open(port, token, "Ana")
            last = {}
            moves = 0

            def enough(m):
                nonlocal moves, last
                if m.get("event") == "view":
                    last = m
                if m.get("ok") is True:
                    moves += 1
                return moves >= 12 and m.get("event") == "view" and m["phase"] == "play" and m["turn"] == 0

            stop = await play_honestly(c, stop=enough)
            # killed while Ana is still connected: a host that saw her go first would play
            # for her (a seat whose person left is played for) before the kill
            p.send_signal(signal.SIGKILL)
            p.wait(timeout=10)
            return stop

        before = asyncio.run(first())
    finally:
        if p.poll() is None:
            p.kill()
    assert (home / "tables" / "current.yaml").exists()
    q = _host(home, "--resume")
    try:
        said: list[str] = []
        ((port2, token2),) = _invitations(q, 1, lines=said)
        assert token2 == token  # the same invitation opens the same seat
        # where the game stands, for the host to tell the people invited again (issue 33 §4)
        totals = ", ".join(f"{name} {total}" for name, total in zip(("Ana", "West", "North", "East"),
                                                                    before["totals"]))
        assert said[0] == f"Game JYR35SWD resumes at round {before['round']}. Scores: {totals}.\n", said

        async def second():
            c = await Conn.open(port2, token2, "Ana")
            await c.until(lambda m: m.get("event") == "welcome")
            view = await c.until(lambda m: m.get("event") == "view")
            assert _view(view) == _view(before)  # exactly where it stopped
            return await play_honestly(c, first=view)

        end = asyncio.run(second())
        assert end["code"] == "JYR35SWD"
        assert q.wait(timeout=20) == 0
    finally:
        if q.poll() is None:
            q.kill()
    archived = list((home / "archive").glob("*JYR35SWD*.yaml"))
    assert len(archived) == 1 and read_record(archived[0]).replay().over


@pytest.mark.slow
def test_ctrl_c_on_the_host_says_the_table_is_saved_and_how_to_bring_it_back(tmp_path):
    """Ctrl-C ended `hearts host` with status 130 and not a word: the host did not know the game
    was kept. Now one line says so, and that `--resume` brings it back (still status 130)."""
    from hearts_cli.text.catalog import t

    home = tmp_path / "home"
    p = _host(home, "--humans", "1")
    try:
        ((port, token),) = _invitations(p, 1)
        deadline = time.monotonic() + 20
        while not (home / "tables" / "current.yaml").exists():  # saved as the table opens
            assert time.monotonic() < deadline
            time.sleep(0.02)

        async def seated_then_closed() -> list[dict]:
            # the person at the table is told the host closed it, not that the connection was
            # lost (issue 33 §4: they were told to join again, to a table no longer there)
            c = await Conn.open(port, token, "Ana")
            await c.until(lambda m: m.get("event") == "view")
            p.send_signal(signal.SIGINT)
            while await c.recv(20) is not None:
                pass
            return c.got

        got = asyncio.run(seated_then_closed())
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130
    assert err == t("net_host_interrupted", "en") + "\n"
    last = check_schema(got[-1])
    assert last == {"ok": False, "error": {"code": "host_closed", "message": t("net_host_closed", "en")}}
    assert CLOSING[closing_code(last)] == "net_host_closed"  # what `hearts join` says of it
    assert "has gone" not in out  # the host is told no departure: it is the one going


# ---------------------------------------------------------------- a hostile client


def test_a_hostile_client_cannot_harm_an_honest_game():
    """Wrong invitations, garbage, a client that floods and one that never reads: each is
    answered or cut off, and beside them two honest people play their whole game, every card
    their own (never played for by their 1 s turn timer while the table serves the flood)."""
    tb = new_table("JYR35SWD", 4, turn_timer=1.0)

    async def main():
        server, port = await serve(tb)
        a_tok, b_tok, g_tok, f_tok = tokens(tb)
        a = await Conn.open(port, a_tok, "Ana")
        b = await Conn.open(port, b_tok, "Bea")
        await b.until(lambda m: m.get("event") == "view")
        # wrong tokens: refused, nothing revealed (the same answer whatever was wrong), closed
        refusals = []
        for wrong in (a_tok[:-1] + ("A" if a_tok[-1] != "A" else "B"), "", "x" * 5000, None, 7):
            reader, writer = await asyncio.open_connection(HOST, port)
            writer.write(json.dumps({"cmd": "hello", "token": wrong}).encode() + b"\n")
            await writer.drain()
            reply = json.loads(await asyncio.wait_for(reader.readline(), 5))
            assert reply == {"ok": False, "error": {"code": "refused", "message": reply["error"]["message"]}}
            refusals.append(reply)
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed
            writer.close()
        reader, writer = await asyncio.open_connection(HOST, port)  # garbage instead of a hello
        writer.write(b"\x00\xff garbage {{{\n")
        await writer.drain()
        refusals.append(json.loads(await asyncio.wait_for(reader.readline(), 5)))
        writer.close()
        assert all(r == refusals[0] for r in refusals) and len(refusals) == 6

        runner = asyncio.create_task(tb.run())
        honest = asyncio.gather(play_honestly(a), play_honestly(b))
        # seat 2 sends garbage and reads each answer, then requests faster than the limit until
        # one is refused as too fast, then floods until it is cut off. The answers are read
        # before the flood: a socket closed on unread input is reset, and a reset may throw
        # away what was sent just before it (the answers, on a loaded machine).
        g = await Conn.open(port, g_tok, "\x1b[31mEvil\x07")
        refused = lambda m: m.get("ok") is False  # noqa: E731
        codes = set()
        for bad in (b"not json", b'{"cmd": [1, 2]}', b'{"cmd": "fly"}', b"[]",
                    {"cmd": "play", "card": "__import__('os').system('true')"},
                    b"{" * (MAX_LINE * 4),  # one line far too long
                    b'{"a":' * 2000 + b"1" + b"}" * 2000):  # too deep for the parser
            await g.send(bad)
            codes.add((await g.until(refused))["error"]["code"])
        sent = 0
        while "too_fast" not in codes:  # bursts of requests that are not moves, each read to its end
            assert sent < 900, "never refused as too fast"
            for _ in range(30):
                sent += 1
                await g.send({"cmd": "state", "id": sent})
            m = await g.until(lambda m, last=sent: refused(m) or m.get("id") == last)
            if refused(m):
                codes.add(m["error"]["code"])
        for _ in range(200):  # a flood of them
            await g.send({"cmd": "state"})
        while True:
            try:
                m = await g.recv()
            except ConnectionError:  # cut off while our flood was still unread: a reset
                break
            if m is None:  # cut off: too many refused messages
                break
        # seat 3 floods and never reads a byte: it is dropped, the CPU plays for it
        _, f_writer = await asyncio.open_connection(HOST, port)
        f_writer.write(json.dumps({"cmd": "hello", "token": f_tok, "name": "Flood"}).encode() + b"\n")
        f_writer.write(b'{"cmd":"state"}\n' * 3000 + b"[" * 100000)
        try:
            await asyncio.wait_for(f_writer.drain(), 5)
        except (TimeoutError, ConnectionError):
            pass
        ends = await asyncio.wait_for(honest, 60)
        await runner
        f_writer.close()
        await server.close()
        return ends, codes, a.got

    ends, codes, seen_by_ana = asyncio.run(main())
    assert ends[0] == ends[1] and ends[0]["event"] == "game_end" and tb.game.over
    # the honest seats were served all along: every pass and card of theirs was their own
    moves = [m for m in seen_by_ana if m.get("event") in ("pass", "play") and m["seat"] in (0, 1)]
    assert len(moves) > 50 and {m["by"] for m in moves} <= {"you", "player"}, \
        [m for m in moves if m["by"] not in ("you", "player")]
    assert not [m for m in seen_by_ana if m.get("event") == "takeover" and m["seat"] in (0, 1)]
    # every kind of bad input got its answer
    # (a cmd that is not a string: bad_field, as the engine protocol says it; one it does not know: unknown_cmd)
    assert {"bad_json", "bad_field", "unknown_cmd", "bad_card", "line_too_long", "too_fast"} <= codes
    # the flooders were cut off, and the CPU played for their seats
    for seat in (2, 3):
        assert any(m.get("event") == "seat" and m["seat"] == seat and m["status"] == "left" for m in seen_by_ana)
        assert any(m.get("event") == "play" and m["seat"] == seat and m["by"] == "away" for m in seen_by_ana)
    # its name was cleaned before anybody saw it: no escape sequence, no bell
    assert tb.seats[2].name == "[31mEvil"


class _Pipe:
    """A connection's writing end, without a socket: what was written, and how full it is."""

    def __init__(self, stuck: bool = False):
        self.transport = self
        self.stuck = stuck  # a reader that never reads: the buffer stays full
        self.written: list[bytes] = []
        self.closed = False

    def get_write_buffer_size(self) -> int:
        return 10 ** 6 if self.stuck else 0

    def write(self, data: bytes) -> None:
        self.written.append(data)

    async def drain(self) -> None:
        while self.stuck:
            await asyncio.sleep(0.01)

    def close(self) -> None:
        self.closed = True

    def lines(self) -> list[dict]:
        return [json.loads(x) for x in b"".join(self.written).splitlines()]


def test_a_client_that_stops_reading_is_dropped_and_the_table_goes_on(monkeypatch):
    """Lines for a client whose socket stays full wait in its own queue; after WRITE_TIMEOUT
    it is dropped and the CPU plays its seat, and the others never waited. A client that
    lets QUEUE_MAX lines pile up is dropped at once."""
    import hearts_cli.table.connection as connection

    monkeypatch.setattr(connection, "WRITE_TIMEOUT", 0.3)
    tb = new_table("K7Q2MXA7", 4)

    async def main():
        pipes = [_Pipe(stuck=(s == 3)) for s in range(4)]
        clients = [connection.Client(p) for p in pipes]
        for s, c in enumerate(clients):
            tb.attach(s, c, f"P{s}")
        await asyncio.sleep(0.01)
        # the stuck client got its first lines into the "socket", then the rest wait for it
        assert pipes[3].written and not clients[3].closed
        for s in range(3):  # the people pass; every client is told at once (no waiting for seat 3)
            assert tb.act(s, {"cmd": "pass", "cards": [str(c) for c in tb.game.round.hand(s)[:3]]}, "en").OK
        await asyncio.sleep(0.01)
        told = [m for m in pipes[0].lines() if m.get("event") == "pass"]
        assert [m["seat"] for m in told] == [0, 1, 2]
        assert clients[3].queue and tb.present(3)  # queued for seat 3, which still has time
        await asyncio.sleep(0.5)  # past WRITE_TIMEOUT
        assert clients[3].closed and pipes[3].closed and not tb.present(3)
        assert any(m.get("event") == "seat" and m["seat"] == 3 and m["status"] == "left" for m in pipes[0].lines())
        # one that lets too many lines pile up goes at once
        monkeypatch.setattr(connection, "QUEUE_MAX", 5)
        pipes[2].stuck = True
        for _ in range(10):
            clients[2].send(b"{}\n")
        assert clients[2].closed and not tb.present(2)

    asyncio.run(main())


# ---------------------------------------------------------------- nobody sees what they should not


def _known(client) -> int:
    """The cards the client's seat may know at this moment (from the server's own game)."""
    tb, seat = client.table, client.seat
    if tb is None or seat is None:
        return 0
    g = tb.game
    mask = 0
    for rd in g.rounds[:-1]:  # a finished round: every card was played or turned up
        mask |= rd.rules.in_play_mask
    rd = g.round
    mask |= rd.hands[seat]
    mask |= mask_of(rd.passes[seat] or ())
    if rd.phase is not Phase.PASS:
        mask |= mask_of(rd.received[seat] or ())
    for tr in rd.tricks:
        mask |= mask_of(tr.cards) | mask_of(tr.kitty)
    mask |= mask_of(rd.trick)
    if g.over:
        mask |= rd.rules.in_play_mask
    return mask


@pytest.mark.slow
@pytest.mark.parametrize("preset, players, games", [("quick", 4, 6), ("kitty", 3, 2), ("reference", 5, 2)])
def test_every_byte_sent_to_a_client_shows_only_what_its_seat_may_see(preset, players, games):
    seen: list = []

    def witness(client):
        if client not in seen:
            seen.append(client)
        return _known(client)

    from hearts_cli.model.codes import new_code

    rules = Rules.from_spec({"preset": preset, "players": players})
    tables = []
    for _ in range(games):
        game = Game(rules, new_code())
        seats = [TableSeat(Seat(f"P{s}", "human"), new_token(s)) for s in range(players)]
        seats[-1] = TableSeat(Seat("Cpu", "cpu", "normal"))  # and a CPU at each table
        tables.append(SharedTable(game, seats, bot_threads=False))

    async def main():
        server, port = await serve(*tables, witness=witness)
        conns = []
        for tb in tables:
            for tok in tokens(tb):
                c = await Conn.open(port, tok, "X")
                await c.until(lambda m: m.get("event") == "view")
                conns.append(c)
        runners = [asyncio.create_task(tb.run()) for tb in tables]
        await asyncio.gather(*(play_honestly(c, timeout=120) for c in conns))
        await asyncio.gather(*runners)
        await server.close()

    asyncio.run(main())
    assert all(tb.game.over for tb in tables)
    lines = 0
    for client in seen:
        for line, known in client.sent:
            lines += 1
            for text in CARD.findall(line.decode()):
                card = parse_card(text)
                assert known >> card & 1, f"seat {client.seat} was sent {text}: {line[:200]!r}"
    assert lines > 500 * games


def test_an_invitation_reads_back():
    assert parse_invitation("127.0.0.1:7441/2-abc_DEF") == ("127.0.0.1", 7441, "2-abc_DEF", False)
    assert parse_invitation("tls://example.org:443/0-x") == ("example.org", 443, "0-x", True)
    assert parse_invitation("[::1]:7441/1-y") == ("::1", 7441, "1-y", False)
    for bad in ("", "127.0.0.1", "127.0.0.1:7441", "127.0.0.1:99999/x", "host:port/x", ":7441/x"):
        assert parse_invitation(bad) is None, bad


# ---------------------------------------------------------------- hearts host + hearts join, as commands


_certificate = self_signed


@pytest.mark.slow
@pytest.mark.parametrize("tls", [False, True])
def test_two_people_and_a_script_play_a_whole_game_through_the_commands(tmp_path, tls):
    """`hearts host` in one process; `hearts join` for a person (line by line), `hearts join --json`
    for a script, and a third seat for a raw socket client; over TCP, and over TLS. The host's
    terminal gets its own lines only: no traceback, no asyncio report, even after a TLS game."""
    home = tmp_path / "home"
    secure: list[str] = []
    join_tls: list[str] = []
    raw_ssl = None
    if tls:
        import ssl

        cert, key = _certificate(tmp_path)
        secure = ["--cert", str(cert), "--key", str(key)]
        join_tls = ["--cafile", str(cert)]
        raw_ssl = ssl.create_default_context(cafile=str(cert))
    host = _host(home, "--humans", "3", "--code", "K7Q2MXA7", "--delay", "0", *secure)
    env = os.environ | {"HEARTS_HOME": str(tmp_path / "joiner"), "LANG": "C.UTF-8", "HEARTS_LANG": "en"}
    scheme = "tls://" if tls else ""
    procs = []
    try:
        (p0, t0), (p1, t1), (p2, t2) = _invitations(host, 3, tls)
        # a wrong invitation: one sentence, exit 2
        wrong = subprocess.run([sys.executable, "-m", "hearts_cli", "join", f"{scheme}{HOST}:{p0}/0-nope", *join_tls],
                               capture_output=True, text=True, env=env, timeout=30)
        assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "Traceback" not in wrong.stderr
        bad = subprocess.run([sys.executable, "-m", "hearts_cli", "join", "not-an-invitation"],
                             capture_output=True, text=True, env=env, timeout=30)
        assert bad.returncode == 2 and "HOST:PORT/SEAT-TOKEN" in bad.stderr
        # seat 1: a script through `hearts join --json`; seat 2: a raw socket
        script = subprocess.Popen([sys.executable, "-m", "hearts_cli", "join", f"{scheme}{HOST}:{p1}/{t1}", "--json",
                                   *join_tls],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)
        procs.append(script)
        assert json.loads(script.stdout.readline())["event"] == "welcome"

        async def raw() -> dict:
            c = await Conn.open(p2, t2, "Cy", ssl=raw_ssl)
            return await play_honestly(c, timeout=60)

        import threading

        result = {}
        th = threading.Thread(target=lambda: result.setdefault("end", asyncio.run(raw())))
        th.start()
        def drive_script() -> None:
            asked = None
            for line in script.stdout:
                msg = json.loads(line)
                if msg.get("event") == "game_end":
                    result["script"] = msg
                    return
                if msg.get("event") == "view" and msg["phase"] != "over":
                    key = (msg["round"], msg["phase"], msg["tricks_played"], len(msg["trick"]))
                    if key == asked:
                        continue
                    if msg["phase"] == "pass" and msg["passed"] is None and msg["legal"]:
                        asked = key
                        script.stdin.write(json.dumps({"cmd": "pass", "cards": msg["hand"][:3]}) + "\n")
                    elif msg["phase"] == "play" and msg["turn"] == msg["seat"]:
                        asked = key
                        script.stdin.write(json.dumps({"cmd": "play", "card": msg["legal"][0]}) + "\n")
                    script.stdin.flush()

        th2 = threading.Thread(target=drive_script)
        th2.start()
        # seat 0: a person's terminal, line by line: the table, the help, a question; then leaves
        # (the seat is the CPU's until then, and after)
        person = subprocess.run([sys.executable, "-m", "hearts_cli", "join", f"{scheme}{HOST}:{p0}/{t0}", "--name",
                                 "Ana", "--plain", *join_tls], input="table\nhelp\nwhy QS\nquit\n",
                                capture_output=True, text=True,
                                env=env, timeout=30)
        assert person.returncode == 0, person.stderr
        assert "You sit at seat 0 of 4" in person.stdout and "Your hand:" in person.stdout
        assert "why CARD" in person.stdout
        th2.join(60)
        th.join(60)
        end = result.get("script")
        assert end is not None and result["end"] == end and end["code"] == "K7Q2MXA7"
        out, err = host.communicate(timeout=30)
        assert host.returncode == 0, err
        assert err == "", err  # (a TLS game used to end with two tracebacks here)
        assert "Traceback" not in out and "Exception" not in out
    finally:
        for p in [host, *procs]:
            if p.poll() is None:
                p.kill()
    (archived,) = (home / "archive").glob("*.yaml")
    seats = read_record(archived).seats
    # a person's --name (cleaned) is the seat's name; a seat without one keeps its place, as in
    # `hearts play` (seat 0 South, then West...), and each screen names it from where it sits
    assert [s.name for s in seats] == ["Ana", "West", "Cy", "East"]


@pytest.mark.slow
def test_host_refuses_bad_options_in_one_sentence(tmp_path):
    env = os.environ | {"HEARTS_HOME": str(tmp_path), "LANG": "C.UTF-8", "HEARTS_LANG": "en"}
    for args in (["--humans", "9"], ["--turn-timer", "0"], ["--cert", "x.pem"], ["--resume"],
                 ["--set", "nonsense"], ["--set", "moon=sideways"], ["--port", "70000"]):
        r = subprocess.run([sys.executable, "-m", "hearts_cli", "host", "--port", "0", *args],
                           capture_output=True, text=True, env=env, timeout=30)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr, args


def test_tls_when_a_certificate_is_given(tmp_path):
    import ssl

    cert, key = self_signed(tmp_path)
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(str(cert), str(key))
    tb = new_table("K7Q2MXA7", 1)

    async def main():
        from hearts_cli.table.invitations import invitation
        from hearts_cli.table.remote import _connect

        server = Server("en")
        server.add(tb)
        port = await server.start(HOST, 0, server_ctx)
        inv = invitation(HOST, port, tokens(tb)[0], tls=True)
        assert inv.startswith("tls://")
        conn, first = await _connect(inv, "Ana", "en", str(cert))  # checks the certificate
        assert first["event"] == "welcome" and first["seat"] == 0
        conn.writer.close()
        # without TLS the table does not answer in clear text
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(json.dumps({"cmd": "hello", "token": tokens(tb)[0]}).encode() + b"\n")
        await writer.drain()
        got = await asyncio.wait_for(reader.read(100), 5)
        assert b"welcome" not in got
        writer.close()
        # and a client that does not trust the certificate refuses it
        with pytest.raises(ssl.SSLError):
            await _connect(inv, "Ana", "en", None)
        await server.close()

    asyncio.run(main())


# ---------------------------------------------------------------- hearts join in a real terminal


@pytest.mark.slow
def test_join_in_a_terminal_completes_confirms_and_plays(tmp_path):
    """The seat's table in a pseudo-terminal: the prompt, the hand, `why`, a pass, Tab completion
    of the cards in hand, the only legal card played at its first entry, another played only
    when entered a second time; the table's news never leaves an empty prompt behind."""
    pytest.importorskip("pexpect")
    pytest.importorskip("pyte")
    from test_pty import Term

    tb = new_table("JYR35SWD", 1)
    port = serve_table(tb, when_present=0)
    term = Term(["join", f"{HOST}:{port}/{tokens(tb)[0]}", "--name", "Ana"], tmp_path / "home")
    try:
        term.wait_prompt("Cards to pass>")
        screen = term.text()
        assert "You sit at seat 0 of 4" in screen and "Your hand:" in screen
        hand = [str(c) for c in tb.game.round.hand(0)]
        term.send("why " + hand[0] + "\r")
        term.wait_for("no card can be played yet")  # the table says why not, in a sentence
        term.send("pass " + " ".join(hand[-3:]) + "\r")
        term.wait_for("You pass")
        term.wait_prompt("Your card>", timeout=30)
        # the table of `hearts play`: the seats drawn around yours, named from where you sit
        screen = term.text()
        assert "West (Easy)" in screen and "North (Normal)" in screen and "East (Hard)" in screen
        rd = tb.game.round
        legal = [str(c) for c in rd.legal_cards()]
        bad = [c for c in rd.hand(0) if str(c) not in legal]
        if bad:  # a card the rules refuse: the reason, the engine's own sentence (and the toolbar's)
            term.send(str(bad[0]) + "\r")
            term.wait_for(rd.why(bad[0], 0).message("en")[:24])
        term.send(legal[0][0])
        term.send("\t")  # Tab: the cards in hand that fit, playable ones first
        term.wait_for("playable")
        term.send("\x15")  # Ctrl-U: clear the line
        while len(legal) == 1:  # the only legal card (the 2♣ lead here): played at its first entry
            played = len(tb.game.round.tricks), len(tb.game.round.trick)
            term.send(legal[0] + "\r")
            term.wait_for(lambda s: (len(tb.game.round.tricks), len(tb.game.round.trick)) != played)
            term.wait_prompt("Your card>", timeout=30)
            rd = tb.game.round
            legal = [str(c) for c in rd.legal_cards()]
        # each event printed above the prompt took the prompt's place: no empty prompt is left
        lines = term.text().split("\n")
        assert not [x for i, x in enumerate(lines) if x.endswith(">") and i != term.screen.cursor.y], term.dump()
        term.send(legal[0] + "\r")
        term.wait_for(lambda s: "Press Enter to play it." in " ".join(s.split()))
        assert tb.game.round.hand(0).count(parse_card(legal[0])) == 1  # not played yet
        term.send(legal[0] + "\r")
        term.wait_for("You play")
        # Ctrl-D at the seat's next turn (keys typed while the table's news comes are thrown
        # away, as while the CPUs play): leave; the CPU plays the seat
        term.wait_prompt("Your card>", timeout=30)
        term.send("\x04")
        term.wait_for(lambda s: term.eof or not term.child.isalive(), timeout=10)
    finally:
        term.close()


@pytest.mark.parametrize("hints", [False, True])
def test_a_hint_only_where_the_table_allows_it_and_only_from_the_seats_view(hints):
    tb = new_table("K7Q2MXA7", 1, hints=hints)

    async def main():
        server, port = await serve(tb)
        c = await Conn.open(port, tokens(tb)[0], "Ana")
        view = await c.until(lambda m: m.get("event") == "view")
        await c.send({"cmd": "hint", "id": 1})
        reply = await c.until(lambda m: m.get("id") == 1)
        await server.close()
        return view, reply

    view, reply = asyncio.run(main())
    if not hints:
        assert reply["ok"] is False and reply["error"]["code"] == "no_hints"
        return
    assert reply["ok"] is True and len(reply["cards"]) == 3 and set(reply["cards"]) <= set(view["hand"])
    # what the Normal CPU suggests from the seat's own view, nothing else
    from hearts_cli.bots import suggest
    from hearts_cli.model.codes import seed_for

    expected = suggest(tb.game.round.view(0), "normal", seed_for(tb.game.code, "cpu", 0))
    assert reply["cards"] == [str(c) for c in sorted(expected)]
    assert reply["level"] == "normal"  # for the hint to name the level it comes from
    assert reply["seat"] == 0  # issue 34 §9: the engine's go reply's shape, one suggestion
    check_schema(reply, "suggestion")


def test_the_state_reply_and_the_suggestion_are_the_engines():
    """Issue 34 §9: the table server's state reply and hint are the engine's state reply and
    go reply: the same classes, the same keys in the same order."""
    from hearts_cli.cli.protocol import Session

    tb = new_table("K7Q2MXA7", 1, hints=True)
    state = tb.act(0, {"cmd": "state", "id": 1}, "en").to_json()
    hint = tb.act(0, {"cmd": "hint"}, "en").to_json()
    s = Session("en")
    engine_state = s.handle({"cmd": "position", "rules": "quick", "code": "K7Q2MXA7"})
    engine_go = s.handle({"cmd": "go", "level": "normal"})
    assert list(state)[:3] == list(engine_state)[:3] == ["ok", "event", "seat"]
    assert {k: state[k] for k in ("event", "seat", "hand", "legal")} == \
        {k: engine_state[k] for k in ("event", "seat", "hand", "legal")}
    assert list(hint) == list(engine_go) == ["ok", "seat", "cards", "level"]
    for reply, name in ((state, "state_reply"), (engine_state, "state_reply"), (hint, "suggestion"),
                        (engine_go, "suggestion")):
        check_schema(reply, name)


@pytest.mark.slow
def test_a_new_table_archives_the_unfinished_one_instead_of_losing_it(tmp_path):
    home = tmp_path / "home"
    p = _host(home, "--humans", "1", "--code", "JYR35SWD")
    try:
        ((port, token),) = _invitations(p, 1)

        async def a_few_moves() -> None:
            c = await Conn.open(port, token, "Ana")
            moves = 0

            def enough(m):
                nonlocal moves
                moves += m.get("ok") is True
                return moves >= 3

            await play_honestly(c, stop=enough)

        asyncio.run(a_few_moves())
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
    q = _host(home, "--humans", "1", "--code", "K7Q2MXA7")
    try:
        _invitations(q, 1)
    finally:
        q.kill()
        q.wait(timeout=10)
    (kept,) = (home / "archive").glob("*JYR35SWD-unfinished.yaml")
    assert len(read_record(kept).moves) >= 3


# ---------------------------------------------------------------- one table for hearts play and hearts host


@pytest.mark.slow
def test_a_local_game_and_a_shared_table_are_the_same_table():
    """`hearts play` is the table of `hearts host` with one in-process client: the same person's
    moves at both give the same story, event for event, payload for payload."""
    from hearts_cli.repl.table import Table
    from hearts_cli.repl.table import make_seats as local_seats

    def first_three(hand):
        return hand[:3]

    rules = Rules.from_spec("quick")
    local: list[dict] = []
    tb = Table(Game(rules, "K7Q2MXA7"), local_seats(4, 0, None), lang="en", confirm=False,
               emit=lambda ev: local.append(ev.to_json()))
    tb.announce_start()
    while not tb.game.over:
        while tb.cpu_step():
            pass
        if tb.game.over:
            break
        rd = tb.game.round
        if rd.phase is Phase.PASS:
            assert tb.handle("pass " + " ".join(str(c) for c in first_three(rd.hand(0)))) is None
        else:
            assert tb.handle(str(rd.legal_cards()[-1])) is None
        assert not tb.failed

    shared = new_table("K7Q2MXA7", 1)

    async def main():
        server, port = await serve(shared)
        c = await Conn.open(port, tokens(shared)[0], "Ana")
        first = await c.until(lambda m: m.get("event") == "view")
        runner = asyncio.create_task(shared.run())
        await play_honestly(c, first=first)
        await asyncio.wait_for(runner, 30)
        await server.close()
        return c.got

    got = asyncio.run(main())
    story = ("deal", "pass", "receive", "lead", "play", "hearts_broken", "trick", "moon_choice", "round_end",
             "tie", "game_end")
    # (the first deal is told to a network client by its view: a client may come in at any point)
    mine = [m for m in local if m["event"] in story][1:]
    theirs = [m for m in got if m.get("event") in story]
    mine = [{k: v for k, v in m.items() if k != "record"} for m in mine]  # a person's own record
    assert len(mine) > 100 and mine == theirs


# ---------------------------------------------------------------- two decks at a shared table


def _known_counts(client):
    """How many copies of each card the client's seat may know of at this moment (two decks:
    a card is in play twice): its hand, its pass, the cards played and turned up this round."""
    from collections import Counter

    tb, seat = client.table, client.seat
    if tb is None or seat is None:
        return Counter()
    g = tb.game
    every = Counter({c: k for c, k in enumerate(g.rules.copies) if k})
    if g.over:
        return every
    rd = g.round
    known = Counter(int(c) for c in rd.hand(seat))
    mine = Counter(int(c) for c in rd.passes[seat] or ())  # now in the receiver's hand
    for tr in rd.tricks:
        known.update(int(c) for c in tr.cards)
        known.update(int(c) for c in tr.kitty)
    known.update(int(c) for c in rd.trick)
    played = Counter(int(c) for tr in rd.tricks for c in tr.cards) + Counter(int(c) for c in rd.trick)
    known.update(mine - played)  # passed and not yet played (a played one is counted once)
    return (Counter({c: min(k, every[c]) for c, k in known.items()}), len(g.rounds),
            Counter(str(c) for c in rd.hand(seat)))


def _card_lists(obj):
    """Every list of cards in a message: lists of card names, and the cards of lists of plays."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _card_lists(v)
    elif isinstance(obj, list):
        names = [x for x in obj if isinstance(x, str) and CARD.fullmatch(f'"{x}"')]
        if names:
            yield names
        plays = [x["card"] for x in obj if isinstance(x, dict) and isinstance(x.get("card"), str)]
        if plays:
            yield plays
        for x in obj:
            if isinstance(x, (dict, list)):
                yield from _card_lists(x)


@pytest.mark.slow
def test_a_two_deck_table_plays_a_whole_game_and_sends_no_copy_a_seat_cannot_see(tmp_path, monkeypatch):
    """Cancellation Hearts at a shared table over real sockets: 6 seats, two scripted
    clients (who cancel a card of the trick when they can) and four CPUs. No line sent to a
    client names a card more often than its seat may know of it (a card is there twice:
    counts, not presence), the story is the replay's, and the archived record replays."""
    from collections import Counter

    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.store.hosted import HostStore

    monkeypatch.setenv("HEARTS_HOME", str(tmp_path))
    store = HostStore()
    store.acquire()
    rules = Rules.from_spec({"preset": "cancellation", "players": 6, "target": 60})
    game = Game(rules, "GC489SKH")  # a game with a trick set aside and carried off
    tb = SharedTable(game, make_seats(6, 2, "normal"), bot_threads=False, store=store)
    seen: list = []

    def witness(client):
        if client not in seen:
            seen.append(client)
        return _known_counts(client)

    def twin_first(view: dict) -> str:  # cancel a card of the trick when it can: set-aside tricks come up
        on_table = {p["card"] for p in view["trick"]}
        return next((c for c in view["legal"] if c in on_table), view["legal"][-1])

    async def main():
        server, port = await serve(tb, witness=witness)
        conns = [await Conn.open(port, tok, name) for tok, name in zip(tokens(tb), ("Ana", "Bea"))]
        for c in conns:
            await c.until(lambda m: m.get("event") == "view")
        runner = asyncio.create_task(tb.run())
        ends = await asyncio.gather(*(play_honestly(c, timeout=240, choose=twin_first) for c in conns))
        await asyncio.wait_for(runner, 30)
        await server.close()
        return conns, ends

    try:
        conns, ends = asyncio.run(main())
    finally:
        store.release()
    assert ends[0] == ends[1] and ends[0]["event"] == "game_end" and tb.game.over
    # what each client was sent, line by line, against what its seat may know then
    lines = twice_held = cancels = 0
    for client in seen:
        for line, known in client.sent:
            lines += 1
            if not known:
                continue
            counts, rnd, hand = known if isinstance(known, tuple) else (known, None, None)
            msg = json.loads(line)
            if rnd is not None and isinstance(msg.get("round"), int) and msg["round"] < rnd:
                continue  # about a round that is over: every card of it has been played
            for text in CARD.findall(line.decode()):
                assert counts[parse_card(text)] >= 1, f"seat {client.seat} was sent {text}: {line[:200]!r}"
            for cards in _card_lists(msg):
                for text, k in Counter(cards).items():
                    assert k <= counts[parse_card(text)], (
                        f"seat {client.seat} was sent {text} {k} times, may know of {counts[parse_card(text)]}: "
                        f"{line[:300]!r}")
            if msg.get("event") == "view" and msg["seat"] == client.seat and hand is not None:
                assert Counter(msg["hand"]) == hand  # a card held twice is sent twice, no more
                twice_held += len(msg["hand"]) - len(set(msg["hand"]))
            cancels += bool(msg.get("event") == "trick" and msg.get("cancelled"))
    assert lines > 500 and twice_held > 0 and cancels > 0
    # the story told live is the one `hearts replay --seat` tells of the archived game
    (path,) = (tmp_path / "archive").glob("*.yaml")
    record = read_record(path)
    assert record.rules.decks == 2 and record.replay().over
    assert any(tr.carried for rd in tb.game.rounds for tr in rd.tricks)  # a trick set aside, then taken
    assert [s.name for s in record.seats][:2] == ["Ana", "Bea"] and record.seats[2].kind == "cpu"
    for seat, c in enumerate(conns):
        got = [m for m in c.got if "event" in m]
        told = [e.to_json() for e in rp.narrate(record, seat)]
        for kind in SHARED:
            live = [m for m in got if m["event"] == kind]
            again = [m for m in told if m["event"] == kind]
            if kind == "pass":
                live = sorted((m | {"by": None} for m in live), key=lambda m: (m["round"], m["seat"]))
                again = sorted(again, key=lambda m: (m["round"], m["seat"]))
            assert live and live == again, (seat, kind)
    out = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert out.exit_code == 0 and " cancel: " in out.stdout and "Winner" in out.stdout


def test_hearts_join_tells_cancelled_and_set_aside_tricks():
    """`hearts join` says a two-deck trick as the game loop does (it is the game loop's REPL):
    what cancelled, a trick set aside (nobody takes it), and the set-aside cards the next
    winner takes too."""
    import queue

    from hearts_cli.repl.render import Renderer, plain
    from hearts_cli.repl.table import Table
    from hearts_cli.table.remote import RemoteTable

    class Link:
        inbox: queue.Queue = queue.Queue()

    rules = Rules.from_spec({"preset": "cancellation", "players": 8})
    for lang, words in (("en", ("The two K♥ cancel", "set aside", "also takes the 8 set-aside cards")),
                        ("es", ("Los dos K♥ se anulan", "se aparta", "se lleva también las 8 cartas apartadas"))):
        remote = RemoteTable(Link(), {"event": "welcome", "seat": 0, "names": [f"P{i}" for i in range(8)]})
        me = Table(None, (), lang=lang, core=remote)
        remote._take({"event": "start", "schema": 2, "code": None, "preset": "cancellation", "rules": rules.spec(),
                      "target": rules.target, "players": 8, "you": 0,
                      "seats": [{"seat": i, "name": f"P{i}", "kind": "human", "level": None} for i in range(8)]})

        def lines(msg: dict) -> list[str]:
            remote._take(msg)
            return [plain(x) for x in Renderer(me, plain=True).event(me.events[-1])]

        plays = [{"seat": s, "card": c} for s, c in enumerate(["KH", "2C", "KH", "3S", "4S", "5S", "6S", "7S"])]
        aside = lines({"event": "trick", "round": 1, "trick": 4, "leader": 0, "plays": plays, "winner": None,
                       "points": 2, "kitty": [], "cancelled": ["KH"], "by": None, "carried": []})
        text = " ".join(aside)
        assert words[0] in text and words[1] in text and "?" not in text, aside
        plays = [{"seat": s, "card": c} for s, c in enumerate(["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"])]
        taken = lines({"event": "trick", "round": 1, "trick": 5, "leader": 0, "plays": plays, "winner": 3,
                       "points": 10, "kitty": [], "carried": ["KH", "KH", "2C", "3S", "4S", "5S", "6S", "7S"]})
        assert words[2] in " ".join(taken) and "P3" in " ".join(taken), taken
        last = lines({"event": "trick", "round": 1, "trick": 13, "leader": 2, "plays": plays, "winner": 2,
                      "points": 0, "kitty": [], "cancelled": ["KH"], "by": None, "carried": []})
        assert "P2" in " ".join(last) and "?" not in " ".join(last), last


def test_a_table_and_the_engine_refuse_a_request_in_the_same_words():
    """One reader of requests (play/requests.py): the host refuses what the engine protocol
    refuses with the same reply, suggestions included, in either language; before, the host
    said a bad card without them, and a missing cmd was an unknown command named 'None'."""
    from hearts_cli.cli.protocol import Session

    async def main():
        tb = new_table("K7Q2MXA7", 4)
        engine = Session("en")
        engine.handle({"cmd": "position", "code": "K7Q2MXA7"})
        for request in ({"cmd": "play", "card": "Q?"}, {"cmd": "why", "card": 7}, {"cmd": "play"},
                        {"cmd": "pass", "cards": ["2C", "zz", "3C"], "seat": 0}, {"card": "2C"},
                        {"cmd": ["play"]}, {"cmd": "moon", "choice": "both"}):
            for lang in ("en", "es"):
                host_says = check_schema(tb.act(0, request, lang).to_json())
                engine_says = check_schema(engine.handle(request | {"lang": lang}))
                assert host_says["ok"] is False and host_says["error"]["code"] != "internal_error"
                if request.get("cmd") != "moon":  # (the engine's position is not at the shooter's choice)
                    assert host_says == engine_says
        said = tb.act(0, {"cmd": "play", "card": "Q?"}, "es").to_json()["error"]
        assert said["suggestions"] == ["QC", "QD", "QH", "QS"] and said["field"] == "card"
        in_english = tb.act(0, {"cmd": "play", "card": "Q?"}, "en").to_json()["error"]["message"]
        assert "QC" in said["message"] and said["message"] != in_english
        # why: the one verdict, its reason the one error object (the host once said a bare code)
        host_why = check_schema(tb.act(0, {"cmd": "why", "card": "7H"}, "en").to_json())
        assert host_why == check_schema(engine.handle({"cmd": "why", "card": "7H", "seat": 0}))
        assert host_why["reason"] == {"code": "wrong_phase", "message": host_why["reason"]["message"]}

    asyncio.run(main())
