"""An outside program at a seat: any program, in any language, that speaks the seat protocol
of docs/tables.md over its standard input and output (the seat word ``exec:COMMAND``;
docs/bots.md, "An outside program at a seat").

The table tells it what its seat may see, as it tells a script at a shared table: the
same events, each built for its seat (:mod:`.seats` never hands it another seat's cards).
When its seat has a decision to make it is sent the seat's ``view`` and answers with one
request line (``play``, ``pass`` or ``moon``), read through the checks every request from
outside goes through (:mod:`hearts_cli.play.requests`) and judged by the engine from the
view alone. Whatever it does wrong costs it that decision only: an answer later than the
move time (``slow``), a program gone (``crash``), a line that is not a move (``junk``), a
move the rules refuse (``illegal``). The CPU (``game.TAKEOVER_LEVEL``) makes that decision, the
fault is counted against the program, and the game goes on.
"""

from __future__ import annotations

import collections
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..base.jsonvalue import JsonObject, JsonValue
from ..base.untrusted import shown
from ..bots import program_argv
from ..play import requests
from ..play.engine import MOON_CHOICES, PassError, Phase, Round
from ..play.events import Event, Takeover, view_event
from ..play.requests import RequestError
from .seats import SeatClient
from .wire import OK_LINE, encode, encode_event

if TYPE_CHECKING:
    from ..bots.match import GamePlay, Job, MoonWatch, RoundLog
    from ..model.cards import Card
    from ..model.rules import Rules
    from ..play.engine import SeatView
    from .game import GameTable
    from .seats import Choice

FAULTS = ("slow", "crash", "junk", "illegal")  # the order reports list them in
MOVE_TIME = 5.0  # seconds a decision may take, by default (the first one includes the program's start)
LINE_MAX = 4096  # bytes of a line read from a program (as at a shared table)
PASS_MAX = 13  # cards read in a pass, at most (the engine says how many it takes)
QUIT_WAIT = 1.0  # seconds a program has to exit once its input is closed, before it is killed
QUEUE_MAX = 5000  # lines waiting for a program that does not read its input: then it is stopped
_GONE = b""  # what the reader queues when the program's output ends
STDERR_LINES = 5  # the last lines of a program's standard error kept for a crash's record
RECORDS_MAX = 20  # faults recorded in full for one program in one game (all are counted)
LINE_SHOWN = 200  # characters of an offending line (or of a line of stderr) kept, escaped


class Program(SeatClient):
    """One running outside program, seated at one seat of one table.

    ``faults`` counts what went wrong by kind (:data:`FAULTS`), ``decisions`` the decisions
    asked of it and ``taken`` those the CPU made for it; ``records`` holds each fault with what
    its author needs to find it (``hearts sim --faults``). Its standard error is ours with
    ``stderr`` (a bot author's log), else not shown; its last lines are kept either way.
    """

    def __init__(self, level: str, move_time: float = MOVE_TIME, stderr: bool = False, lang: str = "en"):
        self.level = level
        self.move_time = move_time
        self.lang = lang
        self.faults = dict.fromkeys(FAULTS, 0)
        self.decisions = 0
        self.taken = 0
        self.owed = 0  # answers still to come to views whose time ran out: dropped when they come
        self.lines: queue.Queue[bytes] = queue.Queue()  # what it writes, for choose()
        self.out: queue.Queue[bytes | None] = queue.Queue(QUEUE_MAX)  # what it is told, for the writer
        self.dead = False
        self.stop_told = False
        # what an author needs to fix a fault (``records``, see :meth:`_note`): its last lines on
        # standard error, why it could not start, the last line it wrote, the reply refusing it
        self.records: list[dict[str, JsonValue]] = []
        self.tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.problem: tuple[int, str] | None = None  # (errno, its words) when it could not be started
        self.last_line = b""
        self.refused: str | None = None
        self._noted = dict(self.faults)
        self._stderr: threading.Thread | None = None
        try:
            self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                program_argv(level), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except (OSError, ValueError) as e:
            self.proc = None
            self.problem = (e.errno or 0, e.strerror or str(e)) if isinstance(e, OSError) else (0, str(e))
            self._died()
            return
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()
        self._stderr = threading.Thread(target=self._read_stderr, args=(stderr,), daemon=True)
        self._stderr.start()

    # ------------------------------------------------------------ what the table tells it

    def event(self, ev: Event) -> None:
        self._send(encode_event(ev))

    def gone(self) -> bool:
        return False  # a program that is gone is still told nothing it should not see: its seat stays

    def stop_news(self) -> Event | None:
        """Once it has stopped (a crash): a ``takeover`` with its exit status, the first time asked."""
        if not self.dead or self.stop_told or self.seat is None:
            return None
        self.stop_told = True
        return Takeover(seat=self.seat, reason="program", status=self.status())

    def _send(self, line: bytes) -> None:
        """Queued for the writer: a program that does not read never holds up the table; one
        that leaves QUEUE_MAX lines unread is stopped (a crash)."""
        if self.dead:
            return
        try:
            self.out.put_nowait(line)
        except queue.Full:
            self._died()
            self._stop()

    def _write(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        try:
            while (line := self.out.get()) is not None:
                stdin.write(line)
                stdin.flush()
            stdin.close()  # the end of the game: its input ends
        except (OSError, ValueError):  # a broken pipe: the program has exited
            self._died()

    def _read(self) -> None:
        """The program's lines, as they come, for :meth:`choose` (a line too long is junk)."""
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        while True:
            line = out.readline(LINE_MAX + 1)
            if not line:
                break
            if len(line) > LINE_MAX and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # the rest of the long line, dropped
                    line = out.readline(LINE_MAX + 1)
                line = b"\x00"  # not JSON: junk
            self.lines.put(line)
        out.close()
        self.lines.put(_GONE)

    def _read_stderr(self, passed: bool) -> None:
        """Its standard error: passed on to ours (``passed``, a bot author's log), the last
        lines kept for a crash's record."""
        import sys

        assert self.proc is not None and self.proc.stderr is not None
        err = self.proc.stderr
        for line in iter(lambda: err.readline(LINE_MAX + 1), b""):
            if passed:
                try:
                    sys.stderr.buffer.write(line)
                    sys.stderr.buffer.flush()
                except (AttributeError, OSError, ValueError):
                    passed = False
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            if text.strip():
                self.tail.append(shown(text, LINE_SHOWN))
        err.close()

    def _died(self) -> None:
        if not self.dead:
            self.dead = True
            self.faults["crash"] += 1

    # ------------------------------------------------------------ a decision

    def choose(self, view: SeatView) -> Choice | None:
        """The program's move for ``view`` (its seat's decision), or None: the CPU makes it."""
        self.decisions += 1
        self.last_line, self.refused = b"", None
        choice = None if self.dead else self._ask(view)
        if choice is None:
            self.taken += 1
        self._note(view)
        return choice

    def _note(self, view: SeatView | None) -> None:
        """A record of each fault counted since the last note, with where it happened (``view``:
        the decision it cost; None at the game's end) and what it was: the line refused, or, for
        a crash, its exit status and last lines of standard error (filled in by :meth:`close`)."""
        for kind in FAULTS:
            for _ in range(self.faults.get(kind, 0) - self._noted.get(kind, 0)):
                if len(self.records) >= RECORDS_MAX:
                    break
                record: dict[str, JsonValue] = {"kind": kind, "decision": self.decisions if view else None}
                if view is not None:
                    record["round"] = view.round_index + 1
                    record["trick"] = len(view.tricks) + 1 if view.phase is Phase.PLAY else None
                    record["phase"] = view.phase.value
                if kind in ("junk", "illegal") and self.last_line:
                    record["line"] = shown(self.last_line.decode("utf-8", "replace").rstrip("\r\n"), LINE_SHOWN)
                    record["error"] = self.refused
                if kind == "crash" and self.problem is not None:
                    record["errno"], record["problem"] = self.problem
                self.records.append(record)
        self._noted = dict(self.faults)

    def _ask(self, view: SeatView) -> Choice | None:
        self._drop_waiting()
        self._send(encode(view_event(view).to_json()))
        deadline = time.monotonic() + self.move_time
        while not self.dead:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.faults["slow"] += 1
                self.owed += 1
                return None
            if line == _GONE:
                self._died()
                return None
            self.last_line = line
            try:
                request = requests.parse_line(line)
                if request is None:
                    continue
                cmd = requests.command(request, ("play", "pass", "moon", "state", "ping"))
                if cmd == "ping":
                    self._send(OK_LINE)
                    continue
                if cmd == "state":
                    self._send(encode({"ok": True, **view_event(view).to_json()}))
                    continue
                if self.owed:  # the answer to a view whose time ran out: dropped
                    self.owed -= 1
                    continue
                choice = self._move(view, cmd, request)
            except RequestError as e:
                self.faults["illegal" if e.code not in _JUNK else "junk"] += 1
                self.refused = e.code
                self._send(encode(e.reply(self.lang)))
                return None
            self._send(OK_LINE)
            return choice
        return None

    def _drop_waiting(self) -> None:
        """Lines the program wrote unasked are dropped; a late answer pays what it owes."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line == _GONE:
                self._died()
                return
            if self.owed:
                self.owed -= 1

    def _move(self, view: SeatView, cmd: str, request: JsonObject) -> Choice:
        """The move ``request`` makes, judged by the engine from the seat's view alone."""
        seen = Round.seen_by(view)
        seat = view.seat
        phase = view.phase
        if phase is Phase.MOON:
            if cmd != "moon":
                raise RequestError("wrong_phase", "moon_choice_not_now")
            return requests.choice(request.get("choice"), "choice", MOON_CHOICES)
        if phase is Phase.PASS:
            if cmd != "pass":
                raise RequestError("wrong_phase", "wrong_phase_pass")
            cards = requests.cards(request.get("cards"), "cards", limit=PASS_MAX)
            try:
                seen.pass_cards(seat, cards)
            except PassError as e:
                raise requests.refused_pass(e) from None
            return tuple(sorted(cards))
        if cmd != "play":
            raise RequestError("wrong_phase", "wrong_phase_play")
        card: Card = requests.card(requests.required(request, "card"), "card")
        verdict = seen.why(card, seat)
        if not verdict.legal:
            assert verdict.reason is not None
            raise RequestError(verdict.reason.code, text=verdict.message(self.lang, ascii=True), card=str(card))
        return card

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        """Its input ends once all it was told is written (the end of the game); it is killed if
        it has not exited QUIT_WAIT seconds later."""
        proc = self.proc
        if proc is None:
            return
        if not self.dead:
            try:
                self.out.put(None, timeout=QUIT_WAIT)
            except queue.Full:
                pass
        self.dead = True
        try:
            proc.wait(QUIT_WAIT)
        except subprocess.TimeoutExpired:
            self._stop()
        self._note(None)
        if self._stderr is not None:
            self._stderr.join(QUIT_WAIT)  # (what it wrote last, for the record of a crash)
        for record in self.records:
            if record["kind"] == "crash" and "problem" not in record:
                record["status"] = proc.returncode
                record["stderr"] = list(self.tail)

    def status(self) -> int | None:
        """Its exit status once it has stopped (waiting a moment for it), else None."""
        proc = self.proc
        if proc is None:
            return None
        try:
            return proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return None

    def _stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


# a refused line that is not a move at all (the rest are moves the rules refuse)
_JUNK = frozenset({"bad_json", "missing_field", "bad_field", "unknown_cmd", "bad_card", "line_too_long"})


# ---------------------------------------------------------------- a table's programs (hearts play, hearts host)


def seat_programs(table: GameTable, move_time: float = MOVE_TIME, stderr: bool = False) -> list[Program]:
    """The program of each CPU seat whose level is ``exec:COMMAND``, started and told the game
    from its start (or, for a game resumed, where it carries on); ``stderr`` as for
    :class:`Program`. Only the command line or the player's own save names a program: a
    record read from elsewhere never starts one."""
    from ..bots import is_program
    from ..play.events import SCHEMA, Welcome

    started = []
    names = [st.name for st in table.seats]
    for s, st in enumerate(table.seats):
        if st.human or not is_program(st.level) or st.client is not None:
            continue
        assert st.level is not None
        program = Program(st.level, move_time, stderr)
        table.seats.attach(s, program)  # (a shared table's attach is a network client's)
        program.event(Welcome(schema=SCHEMA, seat=s, players=table.players, turn_timer=move_time, hints=False,
                              names=names))
        table.announce(s, resumed=bool(table.game.move_stack))
        started.append(program)
    return started


def program_label(level: str) -> str:
    """How a program's seat is named at the table: its script's (or command's) file name."""
    from pathlib import PurePath

    try:
        argv = program_argv(level)
    except ValueError:
        argv = []
    named = [a for a in argv if not a.startswith("-")]
    return PurePath(named[-1]).name if named else level


# ---------------------------------------------------------------- hearts sim: a game with programs seated


def play_table_game(rules: Rules, code: str, levels: Sequence[str],
                    simulations: dict[str, int | None] | None = None, *, move_time: float = MOVE_TIME,
                    keep: bool = False, stderr: bool = False) -> GamePlay:
    """A whole game with ``levels[s]`` at seat ``s``, a program started at each ``exec:`` seat:
    :func:`~hearts_cli.bots.match.play_game`'s result, played through a table so that each
    program is told its seat's events. The CPU seats move as at any table (the seed of the
    code and the seat); each program's faults come back in ``faults``, by kind."""
    from ..bots.match import MAX_ROUNDS, GamePlay, MoonWatch
    from ..model.seating import recorded_names
    from ..play.engine import Game
    from .game import GameTable
    from .seats import Seat

    names = recorded_names(rules.players)
    game = Game(rules, code)
    table = GameTable(game, [Seat(False, None, names[s], lv) for s, lv in enumerate(levels)])
    programs: list[Program] = []
    try:
        programs = seat_programs(table, move_time, stderr)
        logs, times, forced = _play_out(table, levels, simulations or {}, MoonWatch(rules), MAX_ROUNDS)
    finally:
        for program in programs:
            program.close()
    faults: dict[str, dict[str, int]] = {}
    records: list[dict[str, JsonValue]] = []
    for program in programs:
        mine = faults.setdefault(program.level, dict.fromkeys((*FAULTS, "taken", "decisions", "silent"), 0))
        # ``silent``: the games (a seat each) where it made none of its decisions itself
        silent = int(program.decisions > 0 and program.taken == program.decisions)
        for kind, count in (*program.faults.items(), ("taken", program.taken), ("decisions", program.decisions),
                            ("silent", silent)):
            mine[kind] = mine.get(kind, 0) + count
        records += [{"program": program.level, "code": code, "seat": program.seat, **r} for r in program.records]
    return GamePlay(tuple(levels), logs, tuple(game.totals), tuple(game.winners), times, forced,
                    game if keep else None, faults, records)


def _play_out(table: GameTable, levels: Sequence[str], sims: dict[str, int | None], watch: MoonWatch,
              most: int) -> tuple[list[RoundLog], dict[str, list[float]], dict[str, list[bool]]]:
    """Every move of the game, each seat's by its level (a program's by the program)."""
    game = table.game
    logs: list[RoundLog] = []
    times: dict[str, list[float]] = {}
    forced: dict[str, list[bool]] = {}
    while not game.over:
        if len(logs) >= most:
            raise RuntimeError(f"game {game.code} did not end in {most} rounds")
        rnd = game.round
        due = table.due_move()
        assert due is not None  # every seat is a CPU's or a program's: somebody is always to move
        seat = due[0]
        level = levels[seat]
        view = rnd.view(seat)
        t0 = time.perf_counter()
        choice = table.suggest(seat, level, view, sims.get(level))
        if rnd.phase is Phase.PLAY:
            times.setdefault(level, []).append(time.perf_counter() - t0)
            forced.setdefault(level, []).append(len(view.legal) == 1)
        tricks = len(rnd.tricks)
        table.apply(seat, "cpu", choice)
        if len(rnd.tricks) > tricks:
            watch.trick(rnd, rnd.tricks[-1].winner)
        if rnd.over:
            logs.append(watch.log(rnd))
    return logs, times, forced


def program_job(args: Job, move_time: float = MOVE_TIME, keep: bool = False) -> tuple[int, GamePlay]:
    """One rotation of one game of ``hearts sim`` (a top-level function, for worker processes:
    given with ``functools.partial``): through a table where a program sits, else as
    :func:`~hearts_cli.bots.match.play_game` plays it."""
    from ..bots import is_program
    from ..bots.match import kept_job, match_code, tournament_job

    rules, levels, index, seed, simulations = args
    if not any(is_program(lv) for lv in levels):
        return kept_job(args) if keep else tournament_job(args)
    return index, play_table_game(rules, match_code(seed, index), levels, simulations, move_time=move_time,
                                  keep=keep, stderr=not _quiet())


def _quiet() -> bool:
    """Whether the programs' standard error is dropped (HEARTS_PROGRAM_STDERR=0)."""
    import os

    return os.environ.get("HEARTS_PROGRAM_STDERR", "1") == "0"
