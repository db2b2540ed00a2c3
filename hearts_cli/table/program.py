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

import atexit
import collections
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

from ..base.jsonvalue import JsonObject, JsonValue
from ..base.untrusted import shown
from ..bots import is_program, program_argv
from ..model.cards import Card
from ..model.rules import Rules
from ..model.seating import recorded_names
from ..play import requests
from ..play.dealt import MOON_CHOICES, PassError, Phase
from ..play.events import SCHEMA, Event, NewGame, Takeover, Welcome, view_event
from ..play.game import Game
from ..play.requests import RequestError
from ..play.round import Round, SeatView
from ..records.record_parts import Seat
from ..text.catalog import t
from .game import GameTable
from .seats import Choice, SeatClient
from .wire import OK_LINE, encode, encode_event

if TYPE_CHECKING:  # the tournament's types: bots.match only when a tournament plays (start-up)
    from ..bots.match import GamePlay, Job, MoonWatch, RoundLog

FAULTS = ("slow", "hung", "crash", "junk", "illegal")  # the order reports list them in
COUNTS = (*FAULTS, "early", "taken", "decisions")  # what a play's ``faults`` counts of each program
MOVE_TIME = 5.0  # seconds a decision may take, by default (the first one includes the program's start)
HUNG_AFTER = 3  # answers in a row past the move time: the program is taken for hung and stopped
LINE_MAX = 4096  # bytes of a line read from a program (as at a shared table)
PASS_MAX = 13  # cards read in a pass, at most (the engine says how many it takes)
QUIT_WAIT = 1.0  # seconds a program has to exit once its input is closed, before it is stopped
QUEUE_MAX = 5000  # lines waiting for a program that does not read its input: then it is stopped
_GONE = b""  # what the reader queues when the program's output ends
_MOVES = ("play", "pass", "moon")
STDERR_LINES = 5  # the last lines of a program's standard error kept for a crash's record
RECORDS_MAX = 20  # faults recorded in full for one program in one game (all are counted)
LINE_SHOWN = 200  # characters of an offending line (or of a line of stderr) kept, escaped

Line = tuple[bytes, float]  # a line the program wrote, and when it was read (time.monotonic)
Told = tuple[bytes, int]  # a line it is told, and the number of the view it is (0: not a view)


class Program(SeatClient):
    """One running outside program, seated at one seat of one table.

    ``faults`` counts what went wrong by kind (:data:`FAULTS`), ``early`` the answers dropped
    because they were written before their view (or were a second answer to one),
    ``decisions`` the decisions asked of it and ``taken`` those the CPU made for it; ``records``
    holds each fault with what its author needs to find it (``hearts sim --faults``). Its
    standard error is ours with ``stderr`` (a bot author's log), else not shown; its last
    lines are kept either way. ``streak``:
    its answers in a row past the move time so far (a program started again after it was
    taken for hung carries them: one more slow answer and it is hung again).
    """

    def __init__(self, level: str, move_time: float = MOVE_TIME, stderr: bool = False, lang: str = "en",
                 streak: int = 0):
        self.level = level
        self.move_time = move_time
        self.lang = lang
        self.stderr = stderr
        self.faults = dict.fromkeys(FAULTS, 0)
        self.early = 0
        self.decisions = 0
        self.taken = 0
        self.streak = streak
        self.games = 1  # the games its process has been told (``new_game`` numbers the next)
        self.seq = 0  # the views it was sent: each view's number (``seq``)
        self.seq_base = 0  # ``seq`` before this game's first view (a process lives for a run)
        self.expired: set[int] = set()  # views whose time ran out, their answers still to come: dropped then
        # a process kept from the game before, not yet answered in this one: what it is told, so
        # that a process that ended with its last game (as a program may) is started again and
        # told this game so far, with no fault
        self.told: list[Told] | None = None
        self.lines: queue.Queue[Line] = queue.Queue()  # what it writes, for choose()
        self.out: queue.Queue[Told | None] = queue.Queue(QUEUE_MAX)  # what it is told, for the writer
        self._shown: tuple[int, float] = (0, 0.0)  # the last view written to it, and when its writing began
        self._closed_at = 0.0
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
        self.proc: subprocess.Popen[bytes] | None = None
        self._start()

    def _start(self) -> None:
        self.lines = queue.Queue()
        self.out = queue.Queue(QUEUE_MAX)
        self._shown = (0, 0.0)
        self.dead = False
        self.tail.clear()
        try:
            self.proc = subprocess.Popen(
                program_argv(self.level), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except (OSError, ValueError) as e:
            self.proc = None
            self.problem = (e.errno or 0, e.strerror or str(e)) if isinstance(e, OSError) else (0, str(e))
            self._died()
            return
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        threading.Thread(target=self._write, args=(self.proc, self.out), daemon=True).start()
        self._stderr = threading.Thread(target=self._read_stderr, args=(self.proc, self.stderr), daemon=True)
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

    def _send(self, line: bytes, seq: int = 0) -> None:
        """Queued for the writer: a program that does not read never holds up the table; one
        that leaves QUEUE_MAX lines unread is stopped (a crash)."""
        if self.told is not None:
            self.told.append((line, seq))
        if self.dead:
            return
        try:
            self.out.put_nowait((line, seq))
        except queue.Full:
            self._died()
            self._stop()

    def _write(self, proc: subprocess.Popen[bytes], out: queue.Queue[Told | None]) -> None:
        assert proc.stdin is not None
        stdin = proc.stdin
        try:
            while (item := out.get()) is not None:
                line, seq = item
                if seq:  # (what it reads from now on may be its answer)
                    self._shown = (seq, time.monotonic())
                stdin.write(line)
                stdin.flush()
            stdin.close()  # the end of the game, or of the run: its input ends
        except (OSError, ValueError):  # a broken pipe: the program has exited
            if proc is self.proc:
                self._died()

    def _read(self, proc: subprocess.Popen[bytes], lines: queue.Queue[Line]) -> None:
        """The program's lines, as they come, for :meth:`choose` (a line too long is junk)."""
        assert proc.stdout is not None
        out = proc.stdout
        while True:
            line = out.readline(LINE_MAX + 1)
            if not line:
                break
            if len(line) > LINE_MAX and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # the rest of the long line, dropped
                    line = out.readline(LINE_MAX + 1)
                line = b"\x00"  # not JSON: junk
            lines.put((line, time.monotonic()))
        out.close()
        lines.put((_GONE, time.monotonic()))

    def _read_stderr(self, proc: subprocess.Popen[bytes], passed: bool) -> None:
        """Its standard error: passed on to ours (``passed``, a bot author's log), the last
        lines kept for a crash's record."""
        assert proc.stderr is not None
        err = proc.stderr
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
            if self.told is None:  # (a process that ended with its last game is started again: no fault)
                self.faults["crash"] += 1

    # ------------------------------------------------------------ a run's next game

    def new_game(self) -> bool:
        """Another game for this process (``hearts sim``'s next, at the same seat word), told
        ``new_game``: whether it is still there to play it (else a new one is started). Its
        counts start again from nothing; its streak of slow answers goes on."""
        proc = self.proc
        if self.dead or proc is None or proc.poll() is not None:
            return False

        self.games += 1
        self.seq_base = self.seq
        self.faults = dict.fromkeys(FAULTS, 0)
        self._noted = dict(self.faults)
        self.records = []  # (the game before's were taken with its play)
        self.early = self.decisions = self.taken = 0
        self.told = []  # (from now: a process that ended with its last game is no crash)
        self._send(encode_event(NewGame(game=self.games)))
        self.told = []  # (a process started again is told this game from its welcome)
        return True

    def _again(self) -> None:
        """The process kept from the game before ended before it answered in this one (a
        program that exits at the end of each game): a new one, told this game so far."""
        told = self.told or []
        self.told = None
        self._reap()
        self.games = 1
        self.expired.clear()
        self._start()
        for line, seq in told:
            self._send(line, seq)

    # ------------------------------------------------------------ a decision

    def choose(self, view: SeatView) -> Choice | None:
        """The program's move for ``view`` (its seat's decision), or None: the CPU makes it."""
        self.decisions += 1
        self.last_line, self.refused = b"", None
        choice = self._ask(view)
        if choice is None:
            self.taken += 1
        self._note(view)
        return choice

    def _note(self, view: SeatView | None) -> None:
        """A record of each fault counted since the last note, with where it happened (``view``:
        the decision it cost, and the view's number in the game; None at the game's end) and what it was:
        the line refused, or, for a crash, its exit status and last lines of standard error
        (filled in by :meth:`settle`)."""
        for kind in FAULTS:
            for _ in range(self.faults.get(kind, 0) - self._noted.get(kind, 0)):
                if len(self.records) >= RECORDS_MAX:
                    break
                record: dict[str, JsonValue] = {"kind": kind, "decision": self.decisions if view else None}
                if view is not None:
                    record["view"] = self.seq - self.seq_base  # (its number in this game: the same on a resume)
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

    def settle(self) -> None:
        """The game's faults noted, and a crash's record given its exit status and the last
        lines of its standard error, once the process has ended."""
        self._note(None)
        proc = self.proc
        if proc is None or proc.poll() is None:
            return
        if self._stderr is not None:
            self._stderr.join(QUIT_WAIT)  # (what it wrote last, for the record of a crash)
        for record in self.records:
            if record["kind"] == "crash" and "problem" not in record and "status" not in record:
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

    def _ask(self, view: SeatView) -> Choice | None:
        self._drop_waiting()
        if self.dead and self.told is not None:
            self._again()
        if self.dead:
            return None
        self.seq += 1
        seq = self.seq
        self._send(encode(view_event(view, seq=seq).to_json()), seq)
        deadline = time.monotonic() + self.move_time
        while True:
            if self.dead:
                if self.told is None:
                    return None
                self._again()  # (told the view again, with the rest)
                deadline = time.monotonic() + self.move_time
            try:
                line, at = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._late(seq)
                return None
            if line == _GONE:
                self._died()
                continue
            self.last_line = line
            try:
                request = requests.parse_line(line)
                if request is None:
                    continue
                cmd = requests.command(request, (*_MOVES, "state", "ping"))
                if cmd == "ping":
                    self._send(OK_LINE)
                    continue
                if cmd == "state":
                    self._send(encode({"ok": True, **view_event(view, seq=seq).to_json()}))
                    continue
                if not self._answers(request, seq, at):  # late, or early: dropped
                    continue
                self._answered()
                choice = self._move(view, cmd, request)
            except RequestError as e:
                self._answered()
                self.faults["illegal" if e.code not in _JUNK else "junk"] += 1
                self.refused = e.code
                self._send(encode(e.reply(self.lang)))
                return None
            self._send(OK_LINE)
            return choice

    def _answered(self) -> None:
        """An answer in time, good or bad: the streak of slow ones ends, and a process kept
        from the game before is judged from now on as any."""
        self.streak = 0
        self.told = None

    def _late(self, seq: int) -> None:
        """No answer within the move time: ``slow``; the third in a row, ``hung`` (it is
        stopped, and the CPU plays its seat to the end of the game)."""
        self.faults["slow"] += 1
        self.expired.add(seq)
        self.streak += 1
        if self.streak >= HUNG_AFTER:
            self.faults["hung"] += 1
            self.told = None
            self.dead = True
            self._reap()

    def _answers(self, request: JsonObject, seq: int, at: float) -> bool:
        """Whether a move read while view ``seq`` is asked is its answer: it echoes ``seq``,
        or echoes none and was read once the view was being written. Else it is dropped: a
        late answer to a view whose time ran out, or an early one (counted)."""
        given = request.get("seq")
        if given is not None and not requests.whole(given):
            raise requests.bad_type("seq", "type_int")
        if given == seq:
            return True
        written, written_at = self._shown  # (the view being written, and since when)
        if given is None and written == seq and at >= written_at:
            if not self.expired:
                return True
            self.expired.discard(min(self.expired))  # (the answer to the oldest view whose time ran out)
            return False
        self._unasked(given)
        return False

    def _unasked(self, given: int | None) -> None:
        """A move written before its view: a late answer to a view whose time ran out is
        dropped as it is owed; any other is early (dropped and counted)."""
        if given is None and self.expired:
            self.expired.discard(min(self.expired))
        elif given is not None and given in self.expired:
            self.expired.discard(given)
        else:
            self.early += 1

    def _drop_waiting(self) -> None:
        """Lines the program wrote unasked are dropped; a move among them is a late answer,
        or an early one."""
        while True:
            try:
                line, _ = self.lines.get_nowait()
            except queue.Empty:
                return
            if line == _GONE:
                self._died()
                return
            try:
                request = requests.parse_line(line)
            except RequestError:
                continue
            if request is not None and request.get("cmd") in _MOVES:
                given = request.get("seq")
                self._unasked(given if requests.whole(given) else None)

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
                seen.pass_cards(cards, seat)
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

    def close(self) -> float:
        """Its input ends once all it was told is written (the end of the game, or of the
        run); it is stopped if it has not exited QUIT_WAIT seconds later. The seconds that cost
        (0 when it exited, or was gone)."""
        self.end_input()
        cost = self.finish()
        self.settle()
        return cost

    def end_input(self) -> None:
        """Its input closed (:meth:`finish` then waits for it to exit)."""
        self.told = None
        self._closed_at = time.monotonic()
        if self.proc is None:
            return
        if not self.dead:
            self.dead = True  # (nothing more is asked of it: its end is no crash)
            try:
                self.out.put(None, timeout=QUIT_WAIT)
            except queue.Full:
                pass

    def finish(self) -> float:
        """Waits for the program to exit, until QUIT_WAIT after its input ended, then stops
        it: the seconds that cost when it had to be stopped, else 0."""
        proc = self.proc
        if proc is None:
            return 0.0
        try:
            proc.wait(max(0.0, self._closed_at + QUIT_WAIT - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._stop()
            return time.monotonic() - self._closed_at
        return 0.0

    def _reap(self) -> None:
        """The process gone for good (before another is started in its place)."""
        try:
            self.out.put_nowait(None)  # (its writer ends)
        except queue.Full:
            pass
        self._stop()

    def _stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        if proc is not None:
            proc.wait()


def never_in_time(counts: dict[str, int]) -> bool:
    """Whether a program's counts (:data:`COUNTS`) say it answered no view in time, and did
    nothing else wrong: likely a program that does not flush its output."""
    wrong = sum(counts.get(kind, 0) for kind in ("crash", "junk", "illegal"))
    return counts.get("slow", 0) > 0 and not wrong and counts.get("taken", 0) == counts.get("decisions", 0)


# a refused line that is not a move at all (the rest are moves the rules refuse)
_JUNK = frozenset({"bad_json", "missing_field", "bad_field", "unknown_cmd", "bad_card", "line_too_long"})


# ---------------------------------------------------------------- a table's programs (hearts play, hearts host)


def seat_programs(table: GameTable, move_time: float = MOVE_TIME, stderr: bool = False,
                  kept: Programs | None = None) -> list[Program]:
    """The program of each CPU seat whose level is ``exec:COMMAND``, started (or, with
    ``kept``, the process of that seat word kept from the run's game before, told
    ``new_game``) and told the game from its start (or, for a game resumed, where it carries
    on); ``stderr`` as for :class:`Program`. Only the command line or the player's own save
    names a program: a record read from elsewhere never starts one."""

    started: list[Program] = []
    names = [st.name for st in table.seats]
    for s, st in enumerate(table.seats):
        if st.human or not is_program(st.level) or st.client is not None:
            continue
        assert st.level is not None
        if kept is None:
            program = Program(st.level, move_time, stderr)
        else:
            program = kept.take(st.level, sum(p.level == st.level for p in started), move_time, stderr)
        table.seats.attach(s, program)  # (a shared table's attach is a network client's)
        program.event(Welcome(schema=SCHEMA, seat=s, players=table.players, turn_timer=move_time, hints=False,
                              names=names))
        table.announce(s, resumed=bool(table.game.move_stack))
        started.append(program)
    return started


class Programs:
    """The programs of a run (``hearts sim``), kept from one game to the next: the process
    of each seat word (the first ``exec:`` word of a kind, the second...) plays every game of
    its seat, told ``new_game`` before each after its first, and is started again only when
    it is gone (a fault, or a program that exits at the end of each game)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int], Program] = {}
        self.seed: str | None = None  # the run's (a worker that outlives a run: a cluster's)

    def take(self, level: str, nth: int, move_time: float, stderr: bool) -> Program:
        """The ``nth`` program of seat word ``level`` for the next game."""
        old = self.kept.get((level, nth))
        if old is not None and old.move_time == move_time and old.new_game():
            return old
        if old is not None:
            old.close()
        program = Program(level, move_time, stderr, streak=old.streak if old is not None else 0)
        self.kept[level, nth] = program
        return program

    def close(self) -> dict[str, float]:
        """Every program's input ends; those that have not exited QUIT_WAIT seconds later are
        stopped: the seconds each seat word's cost that way (none when they all exited)."""
        kept = list(self.kept.values())
        self.kept.clear()
        for program in kept:
            program.end_input()
        self.seed = None
        cost: dict[str, float] = {}
        for program in kept:
            seconds = program.finish()
            if seconds:
                cost[program.level] = cost.get(program.level, 0.0) + seconds
        return cost


_RUN = Programs()  # this process's programs in the run under way (hearts sim; a worker's own)


def close_programs(lang: str | None = None) -> list[str]:
    """The run's programs closed (its end: ``hearts sim``, and a worker process as it
    exits): one sentence for each program that did not exit at the end of its input and was
    stopped, with the time that cost."""

    return [t("program_stopped", lang, program=level, wait=f"{QUIT_WAIT:g}", seconds=f"{seconds:.1f}")
            for level, seconds in _RUN.close().items()]


def _closed_at_exit() -> None:
    """A worker process's programs, as it exits (``hearts sim --workers``) or as another run
    begins (a cluster's worker): each one stopped is said on stderr, as the run's end says
    it of its own."""

    for line in close_programs():
        sys.stderr.write(line + "\n")


def program_label(level: str) -> str:
    """How a program's seat is named at the table: its script's (or command's) file name."""

    try:
        argv = program_argv(level)
    except ValueError:
        argv = []
    named = [a for a in argv if not a.startswith("-")]
    return PurePath(named[-1]).name if named else level


# ---------------------------------------------------------------- hearts sim: a game with programs seated


def play_table_game(rules: Rules, code: str, levels: Sequence[str],
                    simulations: dict[str, int | None] | None = None, *, move_time: float = MOVE_TIME,
                    keep: bool = False, stderr: bool = False, kept: Programs | None = None) -> GamePlay:
    """A whole game with ``levels[s]`` at seat ``s``, a program started at each ``exec:`` seat
    (or taken from ``kept``, a run's programs, and left running for its next game):
    :func:`~hearts_cli.bots.match.play_game`'s result, played through a table so that each
    program is told its seat's events. The CPU seats move as at any table (the seed of the
    code and the seat); each program's faults come back in ``faults``, by kind (:data:`COUNTS`)."""
    from ..bots.match import MAX_ROUNDS, GamePlay, MoonWatch  # the tournament's, not a table's: start-up

    names = recorded_names(rules.players)
    game = Game(rules, code)
    table = GameTable(game, [Seat(names[s], "cpu", lv) for s, lv in enumerate(levels)])
    programs: list[Program] = []
    try:
        programs = seat_programs(table, move_time, stderr, kept)
        logs, times, forced = _play_out(table, levels, simulations or {}, MoonWatch(rules), MAX_ROUNDS)
    finally:
        if kept is None:
            for program in programs:
                program.close()
    faults: dict[str, dict[str, int]] = {}
    records: list[dict[str, JsonValue]] = []
    for program in programs:
        if kept is not None:
            program.settle()  # (closed at the run's end: its faults of this game noted now)
        mine = faults.setdefault(program.level, dict.fromkeys((*COUNTS, "silent"), 0))
        # ``silent``: the games (a seat each) where it made none of its decisions itself
        silent = int(program.decisions > 0 and program.taken == program.decisions)
        for kind, count in (*program.faults.items(), ("early", program.early), ("taken", program.taken),
                            ("decisions", program.decisions), ("silent", silent)):
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
    :func:`~hearts_cli.bots.match.play_game` plays it. The programs are kept for the
    process's next game (:class:`Programs`) until :func:`close_programs` (the run's end)."""
    from ..bots.match import kept_job, match_code, tournament_job  # the tournament's, not a table's: start-up

    rules, levels, index, seed, simulations = args
    if not any(is_program(lv) for lv in levels):
        return kept_job(args) if keep else tournament_job(args)
    if _RUN.seed != seed:  # (another run: not this one's programs)
        _closed_at_exit()
        _RUN.seed = seed
    if not _RUN.kept:
        atexit.unregister(_closed_at_exit)
        atexit.register(_closed_at_exit)  # (a worker process's programs, as it exits)
    return index, play_table_game(rules, match_code(seed, index), levels, simulations, move_time=move_time,
                                  keep=keep, stderr=not _quiet(), kept=_RUN)


def _quiet() -> bool:
    """Whether the programs' standard error is dropped (HEARTS_PROGRAM_STDERR=0)."""

    return os.environ.get("HEARTS_PROGRAM_STDERR", "1") == "0"
