"""Statistics of the archived games (``hearts stats``), and the line a finished game adds.

The archive (``archive/*.yaml``, one game record per game, written by
:meth:`hearts_cli.store.saves.Store.archive`) is the truth. ``stats.sqlite3`` in the
same data directory is only an index of it: one row per archived file with
what the statistics need (who won, the person's points, moons, undos...),
keyed by the file's name, size and modification time. Each run compares the
index with the archive directory and reads only the files that are new or
changed (and drops the rows of files that are gone), so with thousands of
games it answers in a fraction of a second. An index that is missing, of an
older layout or damaged is deleted and rebuilt from the archive; nothing is
lost, since it holds nothing the archive does not. When the data directory
cannot be written the index lives in memory for the run.

An archived file is read by :func:`scan`, which picks the figures out of the
lines the record writer always writes (each round's score and moon, the totals,
the winners: the engine's own results, as the game loop archived them), some 50
times faster than re-playing the game. A file in any other layout goes to the
full reader (:func:`hearts_cli.records.record_reader.read_record`, which re-plays every move
through the engine); a file that is no good record is counted as unreadable
and left out. Games set aside unfinished are not counted.

sqlite3 (and, for the chart, rich) are imported only here, when a command
needs them.
"""

from __future__ import annotations

import datetime
import os
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TextIO, TypeAlias, TypedDict

from ..base.untrusted import MAX_RECORD_BYTES as MAX_RECORD  # what the record reader accepts too
from ..base.untrusted import decoded
from ..base.wrapping import wrap_text
from ..text.catalog import CATALOG, ordinal, preset_name, t

if TYPE_CHECKING:  # sqlite3 only when the index is opened (start-up)
    import sqlite3

# what sqlite3 hands back for a column (no converters are registered; typeshed says Any)
SqlValue: TypeAlias = "int | float | str | bytes | None"
SqlRow: TypeAlias = "tuple[SqlValue, ...]"

INDEX_NAME = "stats.sqlite3"
SCHEMA = 2  # PRAGMA user_version of the index; another value means: rebuild (2: shared tables apart)
RECENT = 10  # games in the chart
LEVEL_ORDER = ("easy", "normal", "hard", "random")

_STAMP = re.compile(r"^(\d{8})-(\d{6})-")

_COLUMNS = ("file", "size", "mtime", "status", "stamp", "code", "preset", "players", "levels",
            "won", "shared", "total", "rounds", "points", "moons", "moons_against", "undos")

_CREATE = """
CREATE TABLE games (
    file TEXT PRIMARY KEY,      -- the name in archive/
    size INTEGER NOT NULL,      -- with mtime: how the index knows the file is the one it read
    mtime INTEGER NOT NULL,     -- st_mtime_ns
    status TEXT NOT NULL,       -- 'game' (finished), 'unfinished', 'bad' (not a readable record),
                                -- 'shared' (finished with several people: a hosted table)
    stamp TEXT,                 -- when it was archived, 'YYYY-MM-DDTHH:MM:SS' (local time)
    code TEXT,
    preset TEXT,
    players INTEGER,
    levels TEXT,                -- the CPU levels faced, in order easy, normal, hard: 'easy,normal,hard'
    won INTEGER,                -- 1 when the person is among the winners
    shared INTEGER,             -- 1 when the first place was shared
    total INTEGER,              -- the person's final total
    rounds INTEGER,
    points INTEGER,             -- the person's points over all rounds (= total)
    moons INTEGER,              -- moons the person shot
    moons_against INTEGER,      -- moons another seat shot
    undos INTEGER
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value);
"""


if TYPE_CHECKING:  # types only: nothing to build at start-up
    class Facts(TypedDict):
        """What an archived game states: its seats (kind, level), each round's score and moon,
        the totals, the winners (None: unfinished), the undos, the preset and the code."""

        seats: list[tuple[str, str | None]]
        scores: list[list[int]]
        moons: list[int | None]
        totals: list[int] | None
        winners: list[int] | None
        undos: int
        preset: str | None
        code: str | None


    class Streak(TypedDict):
        kind: str  # win, loss
        length: int


    class Streaks(TypedDict):
        current: Streak | None
        longest_win: int
        longest_loss: int


    class Figures(TypedDict):
        games: int
        won: int
        win_rate: float


    class PresetFigures(Figures):
        preset: str


    class LevelsFigures(Figures):
        levels: list[str]


    class RecentGame(TypedDict):
        date: str
        code: str
        preset: str
        total: int
        won: bool
        shared: bool


    class Summary(TypedDict):
        """Every figure of ``hearts stats``, as ``--json`` prints them."""

        games: int
        won: int
        lost: int
        win_rate: float
        streaks: Streaks
        rounds: int
        points: int
        points_per_round: float
        moons: int
        moons_against: int
        undos: int
        games_with_undo: int
        by_preset: list[PresetFigures]
        by_levels: list[LevelsFigures]
        recent: list[RecentGame]
        unreadable: int
        shared_tables: int
        filters: NotRequired[dict[str, str | None]]  # what ``--json`` was asked for


    class Change(TypedDict):
        """How the last game changes the person's record (:func:`change_of`)."""

        id: str  # the sentence's message id
        kind: str  # win, loss
        length: int
        count: int
        won: int
        played: int


class GameRow:
    """What the index keeps of one archived file."""

    __slots__ = _COLUMNS
    file: str
    size: int
    mtime: int
    status: str | None
    stamp: str | None
    code: str | None
    preset: str | None
    players: int | None
    levels: str | None
    won: int | None
    shared: int | None
    total: int | None
    rounds: int | None
    points: int | None
    moons: int | None
    moons_against: int | None
    undos: int | None

    def __init__(self, **values: str | int | None):
        for name in _COLUMNS:
            setattr(self, name, values.get(name))

    def values(self) -> tuple[str | int | None, ...]:
        return tuple(getattr(self, name) for name in _COLUMNS)


# ---------------------------------------------------------------- reading one archived file


def _stamp_of(name: str, mtime_ns: int) -> str:
    """When the game was archived: from the file name (``20261201-101112-CODE.yaml``), else its time."""
    m = _STAMP.match(name)
    if m:
        d, t = m.groups()
        text = f"{d[:4]}-{d[4:6]}-{d[6:]}T{t[:2]}:{t[2:4]}:{t[4:]}"
        try:
            datetime.datetime.fromisoformat(text)
            return text
        except ValueError:
            pass
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(mtime_ns / 1e9))



_SEAT_LINE = re.compile(r"^  - \{seat: (\d+), name: .*, kind: (human|cpu)(?:, level: ([a-z]+))?\}$")
_INTS = re.compile(r"^\[(-?\d+(?:, -?\d+)*)\]$")


def _ints(text: str) -> list[int] | None:
    m = _INTS.match(text)
    return [int(x) for x in m.group(1).split(", ")] if m else None


def scan(text: str) -> Facts | None:
    """The figures a record in the writer's own layout states, or None for any other text.

    The archive is written by :func:`hearts_cli.records.record_writer.write_record`, which
    states each round's score, the moon, the totals and the winners as the
    engine computed them; reading those lines is some 50 times faster than
    re-playing the game, which matters when the index is rebuilt from
    thousands of files. Anything unexpected (a file edited by hand, another
    layout) returns None, and the caller reads the file with the full reader.
    """
    lines = text.split("\n")
    if len(lines) < 8 or lines[1] != "format: hearts-record/1":
        return None
    out: Facts = {"seats": [], "scores": [], "moons": [], "totals": None, "winners": None,
                "undos": 0, "preset": None, "code": None}
    section = ""
    for line in lines[2:]:
        if not line or line[0] == "#":
            continue
        if line[0] != " ":
            key, _, value = line.partition(": ")
            section = key.rstrip(":")
            if not _scan_top(out, key, value):
                return None
        elif not _scan_inside(out, section, line):
            return None
    return out if _scan_adds_up(out) else None


def _scan_top(out: Facts, key: str, value: str) -> bool:
    """A top-level ``key: value`` line into ``out``; False when it is not as the writer writes it."""
    if key == "code":
        if not (value.startswith('"') and value.endswith('"')):
            return False
        out["code"] = value[1:-1]
    elif key == "totals":
        out["totals"] = _ints(value)
        return out["totals"] is not None
    elif key == "undos":
        if not value.isdigit():
            return False
        out["undos"] = int(value)
    return True


def _scan_inside(out: Facts, section: str, line: str) -> bool:
    """An indented line of ``section`` into ``out``; False when it is not as the writer writes it."""
    if section == "rules" and line.startswith("  preset: "):
        out["preset"] = line[10:]
    elif section == "seats":
        m = _SEAT_LINE.match(line)
        if m is None or int(m.group(1)) != len(out["seats"]):
            return False
        out["seats"].append((m.group(2), m.group(3)))
    elif section == "rounds":
        if line.startswith("    score: "):
            scores = _ints(line[11:])
            if scores is None:
                return False
            out["scores"].append(scores)
            out["moons"].append(None)
        elif line.startswith("    moon: "):
            if not out["scores"] or not line[10:].isdigit():
                return False
            out["moons"][-1] = int(line[10:])
    elif section == "result" and line.startswith("  winners: "):
        out["winners"] = _ints(line[11:])
        return out["winners"] is not None
    return True


def _scan_adds_up(out: Facts) -> bool:
    """The figures scanned hold together: seats, scores that sum to the totals, winners in range."""
    n = len(out["seats"])
    totals = out["totals"]
    if (not out["code"] or not out["preset"] or n < 3 or totals is None or len(totals) != n
            or any(len(s) != n for s in out["scores"])):
        return False
    sums = [sum(col) for col in zip(*out["scores"])] if out["scores"] else [0] * n
    if sums != totals:  # a file edited by hand: let the full reader judge it
        return False
    return out["winners"] is None or not (not out["winners"] or any(not 0 <= w < n for w in out["winners"])
                                          or any(m is not None and not 0 <= m < n for m in out["moons"]))


def read_game(path: Path, name: str, size: int, mtime_ns: int) -> GameRow:
    """The index row of one archived file (status ``bad`` when it is no good record)."""
    row = GameRow(file=name, size=size, mtime=mtime_ns, stamp=_stamp_of(name, mtime_ns))
    facts = None
    if size <= MAX_RECORD:
        try:
            with open(path, "rb") as fh:
                facts = scan(decoded(fh.read(MAX_RECORD + 1)))
        except (OSError, UnicodeDecodeError):
            facts = None
    if facts is None:
        facts = _read_fully(path)
    if facts is None:
        row.status = "bad"
        return row
    seats = facts["seats"]
    people = [i for i, (kind, _) in enumerate(seats) if kind == "human"]
    me = people[0] if len(people) == 1 else None
    row.code = facts["code"]
    row.preset = facts["preset"]
    row.players = len(seats)
    row.undos = facts["undos"]
    totals = facts["totals"]
    if facts["winners"] is None or totals is None:
        row.status = "unfinished"
        return row
    if me is None:  # a shared table (hearts host): the record does not say which seat was yours
        row.status = "shared"
        return row
    row.status = "game"
    levels = [level or "normal" for kind, level in seats if kind == "cpu"]
    row.levels = ",".join(sorted(levels, key=_level_key))
    row.won = int(me in facts["winners"])
    row.shared = int(len(facts["winners"]) > 1)
    row.total = totals[me]
    row.rounds = len(facts["scores"])
    row.points = sum(s[me] for s in facts["scores"])
    row.moons = sum(1 for m in facts["moons"] if m == me)
    row.moons_against = sum(1 for m in facts["moons"] if m is not None and m != me)
    return row


def _read_fully(path: Path) -> Facts | None:
    """The same figures through the record reader, which re-plays the game (any layout it accepts)."""
    from ..records.record_reader import read_record  # the record reader only when a game is read: start-up

    try:
        record = read_record(path)
        game = record.replay()
    except Exception:
        return None
    return {
        "seats": [(s.kind, s.level) for s in record.seats],
        "scores": [list(r.scores) for r in game.results],
        "moons": [r.shooter for r in game.results],
        "totals": list(game.totals),
        "winners": list(game.winners) if game.over else None,
        "undos": int(getattr(record, "undos", 0) or 0),
        "preset": game.rules.preset,
        "code": game.code,
    }


def _rows(cursor: sqlite3.Cursor) -> list[SqlRow]:
    """The rows a query found, each a tuple of sqlite's values."""
    rows: list[SqlRow] = cursor.fetchall()
    return rows


def _row(cursor: sqlite3.Cursor) -> SqlRow | None:
    """The first row a query finds, or None."""
    row: SqlRow | None = cursor.fetchone()
    return row


def _one(cursor: sqlite3.Cursor) -> SqlRow:
    """The one row of an aggregate or a pragma (there is always one)."""
    row = _row(cursor)
    if row is None:
        raise TypeError("a query of one row found none")
    return row


def _number(value: SqlValue) -> float:
    """A figure sqlite added up (``count``, ``total``): an int or a float."""
    if isinstance(value, (int, float)):
        return value
    raise TypeError(f"not a figure: {value!r}")


def _busy(error: Exception) -> bool:
    """Whether sqlite refused because another process holds the index (not because it is damaged)."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _level_key(level: str) -> tuple[int, str]:
    return (LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER), level)


# ---------------------------------------------------------------- the index


class Index:
    """The sqlite index of the archive in ``root`` (the data directory)."""

    busy_timeout = 5.0  # seconds to wait for another process writing the index

    def __init__(self, root: Path):
        self.root = Path(root)
        self.archive = self.root / "archive"
        self.path = self.root / INDEX_NAME
        self.db: sqlite3.Connection | None = None

    # --- opening, checking, rebuilding

    def open(self) -> Index:
        """Open the index, rebuilding it if it is missing, of another layout or damaged."""
        import sqlite3  # only when the index is opened: start-up

        try:
            self.db = self._connect(str(self.path))
        except sqlite3.OperationalError as e:
            if _busy(e):  # another process is writing it: fine as it is, so answer from memory
                self.db = self._connect(":memory:")
                return self
            self._remove()
            self.db = self._second_try()
        except (sqlite3.Error, OSError):
            self._remove()  # damaged, or of another layout: the archive has it all
            self.db = self._second_try()
        return self

    def _second_try(self) -> sqlite3.Connection:
        import sqlite3  # only when the index is opened: start-up

        try:
            return self._connect(str(self.path))
        except (sqlite3.Error, OSError):
            return self._connect(":memory:")  # a directory we cannot write: still answer

    def _connect(self, where: str) -> sqlite3.Connection:
        import sqlite3  # only when the index is opened: start-up

        if where != ":memory:":
            self.root.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(where, timeout=self.busy_timeout)
        try:
            version = _one(db.execute("PRAGMA user_version"))[0]
            if version == SCHEMA:
                if _one(db.execute("PRAGMA quick_check"))[0] != "ok":
                    raise sqlite3.DatabaseError("quick_check")
                db.execute("SELECT file, size, mtime FROM games LIMIT 1").fetchall()
                return db
            if version != 0 or _one(db.execute("SELECT count(*) FROM sqlite_master"))[0]:
                raise sqlite3.DatabaseError("another layout")
            with db:
                db.executescript(_CREATE)
                db.execute(f"PRAGMA user_version = {SCHEMA}")
            return db
        except BaseException:
            db.close()
            raise

    def _remove(self) -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            try:
                os.unlink(str(self.path) + suffix)
            except FileNotFoundError:
                pass
            except OSError:
                pass

    @property
    def _db(self) -> sqlite3.Connection:
        """The index, open (:meth:`open` first)."""
        if self.db is None:
            raise RuntimeError("the index is not open")
        return self.db

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def __enter__(self) -> Index:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- keeping up with the archive

    def refresh(self) -> int:
        """Bring the index level with the archive; returns how many files were (re)read.

        Archived files are written once, by a rename into ``archive/``, which
        changes the directory's modification time. So when that time is the one
        noted at the last refresh (and not so recent that a coarse clock could
        hide a change), nothing was added, replaced or removed, and the files
        need not be looked at; otherwise each file's size and time are compared
        with the index, and the new or changed ones read.
        """
        import sqlite3  # only when the index is opened: start-up

        try:
            seen = os.stat(self.archive).st_mtime_ns
        except OSError:
            seen = None
        try:
            noted = _row(self._db.execute("SELECT value FROM meta WHERE key = 'archive_mtime'"))
        except sqlite3.DatabaseError as e:
            self._reopen(e)
            noted = None
        if (seen is not None and noted is not None and noted[0] == seen
                and time.time_ns() - seen > 2_000_000_000):
            return 0
        on_disk = self._archived_files()
        try:
            known = {f: (s, m) for f, s, m in _rows(self._db.execute("SELECT file, size, mtime FROM games"))}
        except sqlite3.DatabaseError as e:
            self._reopen(e)
            known = {}
        gone = [f for f in known if f not in on_disk]
        todo = [f for f, key in on_disk.items() if known.get(f) != key]
        rows = [read_game(self.archive / f, f, *on_disk[f]).values() for f in sorted(todo)]
        marks = ", ".join("?" * len(_COLUMNS))
        insert = f"INSERT OR REPLACE INTO games ({', '.join(_COLUMNS)}) VALUES ({marks})"
        try:
            with self._db as db:
                db.executemany("DELETE FROM games WHERE file = ?", [(f,) for f in gone])
                db.executemany(insert, rows)
                db.execute("INSERT OR REPLACE INTO meta VALUES ('archive_mtime', ?)", (seen,))
        except sqlite3.OperationalError:
            # read-only, or locked for longer than the timeout: answer from memory this time
            kept = [r for r in _rows(self._db.execute(f"SELECT {', '.join(_COLUMNS)} FROM games"))
                    if r[0] not in gone and r[0] not in todo]
            self._db.close()
            self.db = sqlite3.connect(":memory:")
            self.db.executescript(_CREATE)
            self.db.executemany(insert, [*kept, *rows])
        return len(todo)

    def _archived_files(self) -> dict[str, tuple[int, int]]:
        """Each record in the archive, by name: its size and modification time (ns)."""
        on_disk: dict[str, tuple[int, int]] = {}
        try:
            with os.scandir(self.archive) as entries:
                for entry in entries:
                    if not entry.name.endswith(".yaml") or entry.name.startswith("."):
                        continue
                    try:
                        if not entry.is_file():
                            continue
                        st = entry.stat()
                    except OSError:
                        continue
                    on_disk[entry.name] = (st.st_size, st.st_mtime_ns)
        except (FileNotFoundError, NotADirectoryError):
            pass
        return on_disk

    def _reopen(self, error: Exception) -> None:
        """The index failed after it opened: damaged (start it again from nothing) or busy (use memory)."""
        self.close()
        if _busy(error):
            self.db = self._connect(":memory:")
            return
        self._remove()
        self.open()

    # --- queries

    def _where(self, preset: str | None, since: str | None) -> tuple[str, list[str | int]]:
        sql = "WHERE status = 'game'"
        args: list[str | int] = []
        if preset is not None:
            sql += " AND preset = ?"
            args.append(preset)
        if since is not None:
            sql += " AND stamp >= ?"
            args.append(since)
        return sql, args

    def results(self, preset: str | None = None, since: str | None = None) -> list[bool]:
        """Won or not, for each finished game, oldest first."""
        where, args = self._where(preset, since)
        return [bool(w) for (w,) in self._db.execute(f"SELECT won FROM games {where} ORDER BY stamp, file", args)]

    def summary(self, preset: str | None = None, since: str | None = None) -> Summary:
        """Every figure of ``hearts stats`` (as ``--json`` prints them), added up by sqlite."""
        where, args = self._where(preset, since)
        db = self._db
        games_n, won_n, rounds, points, moons, against, undos, with_undo = map(_number, _one(db.execute(
            "SELECT count(*), total(won), total(rounds), total(points), total(moons), total(moons_against),"
            f" total(undos), total(undos > 0) FROM games {where}", args)))
        games, won = int(games_n), int(won_n)
        current, best, worst = _runs(self.results(preset, since))

        def breakdown(column: str) -> list[tuple[str, Figures]]:
            out: list[tuple[str, Figures]] = [
                (key, {"games": n, "won": int(w), "win_rate": _rate(int(w), n)}) for key, n, w in
                db.execute(f"SELECT {column}, count(*), total(won) FROM games {where} GROUP BY {column}", args)]
            out.sort(key=lambda kd: (-kd[1]["games"], str(kd[0])))
            return out

        recent = list(db.execute(f"SELECT stamp, code, preset, total, won, shared FROM games {where}"
                                 " ORDER BY stamp DESC, file DESC LIMIT ?", args + [RECENT]))[::-1]
        return {
            "games": games,
            "won": won,
            "lost": games - won,
            "win_rate": _rate(won, games),
            "streaks": {
                "current": None if current is None else {"kind": "win" if current[0] else "loss",
                                                         "length": current[1]},
                "longest_win": best,
                "longest_loss": worst,
            },
            "rounds": int(rounds),
            "points": int(points),
            "points_per_round": round(points / rounds, 2) if rounds else 0.0,
            "moons": int(moons),
            "moons_against": int(against),
            "undos": int(undos),
            "games_with_undo": int(with_undo),
            "by_preset": [{"preset": k, **d} for k, d in breakdown("preset")],
            "by_levels": [{"levels": k.split(",") if k else [], **d} for k, d in breakdown("levels")],
            "recent": [{"date": st, "code": code, "preset": pre, "total": tot, "won": bool(w), "shared": bool(sh)}
                       for st, code, pre, tot, w, sh in recent],
            "unreadable": db.execute("SELECT count(*) FROM games WHERE status = 'bad'").fetchone()[0],
            "shared_tables": db.execute("SELECT count(*) FROM games WHERE status = 'shared'").fetchone()[0],
        }


# ---------------------------------------------------------------- the figures


def _runs(results: Sequence[bool]) -> tuple[tuple[bool, int] | None, int, int]:
    """The current run (won?, length), and the longest run of wins and of losses."""
    runs = _run_lengths(results)
    longest = {won: max((n for w, n in runs if w == won), default=0) for won in (True, False)}
    return (runs[-1] if runs else None), longest[True], longest[False]


def _rate(won: int, games: int) -> float:
    return round(won / games, 4) if games else 0.0


def collect(root: Path, preset: str | None = None, since: str | None = None) -> Summary:
    """The statistics of the archive under ``root``, the index brought up to date first."""
    with Index(root) as index:
        index.refresh()
        return index.summary(preset, since)


# ---------------------------------------------------------------- --since


def parse_since(text: str) -> str | None:
    """``2026-12-01`` (or ``2026-12-01T10:00``) as the stamp it starts from; None when it is no date."""

    text = text.strip()
    if len(text) > 40:
        return None
    try:
        if len(text) == 10 or (len(text) == 8 and text.isdigit()):
            return datetime.date.fromisoformat(text).isoformat() + "T00:00:00"
        return datetime.datetime.fromisoformat(text).replace(tzinfo=None).isoformat(timespec="seconds")
    except ValueError:
        return None


# ---------------------------------------------------------------- the line at the end of a game


def record_change(root: Path) -> Change | None:
    """How the game just archived changes the person's record (see :func:`change_of`).

    Computed from the index, brought up to date with the archive first, so it
    counts the game just archived. None when the index cannot be had: the game
    itself never depends on it.
    """
    try:
        with Index(root) as index:
            index.refresh()
            results = index.results()
    except Exception:
        return None
    return change_of(results)


def change_of(results: Sequence[bool]) -> Change | None:
    """What the last game of ``results`` (won or not, oldest first) did to the record.

    ``id`` names the sentence: a run of wins or losses (``tally_win_run``,
    "3rd win in a row"; ``..._longest`` when no earlier run of that kind was
    as long), the end of a run of the other kind (``tally_win_after``), or
    just a win or a loss. ``length`` is the current run, ``count`` the run it
    ended, ``won`` and ``played`` the whole record.
    """
    if not results:
        return None
    runs = _run_lengths(results)
    last, length = runs[-1]
    kind = "win" if last else "loss"
    earlier = max((n for w, n in runs[:-1] if w == last), default=0)
    ended = runs[-2][1] if len(runs) >= 2 else 0
    if length >= 2:
        mid = f"tally_{kind}_run_longest" if earlier >= 2 and length > earlier else f"tally_{kind}_run"
    elif ended >= 2:
        mid = f"tally_{kind}_after"
    else:
        mid = f"tally_{kind}"
    return {"id": mid, "kind": kind, "length": length, "count": ended,
            "won": sum(results), "played": len(results)}


def change_text(change: Mapping[str, object], lang: str | None = None) -> str:
    """The sentence for :func:`change_of`'s answer (or one a ``game_end`` event carried), in ``lang``."""

    length = change["length"]
    return t(str(change["id"]), lang, nth=ordinal(length if isinstance(length, int) else 0, lang),
             count=change["count"], won=change["won"], played=change["played"])


def _run_lengths(results: Iterable[bool]) -> list[tuple[bool, int]]:
    out: list[tuple[bool, int]] = []
    for won in results:
        if out and out[-1][0] == won:
            out[-1] = (won, out[-1][1] + 1)
        else:
            out.append((won, 1))
    return out


# ---------------------------------------------------------------- showing it

Line = list[tuple[str, str]]  # (style, text) fragments; style "" plain, "bold", "win", "loss"


def render(data: Summary, lang: str, ascii: bool = False,
           preset: str | None = None, since: str | None = None, width: int | None = None) -> list[Line]:
    """The statistics as lines of styled fragments (the chart as bars of ``#`` or ``█``), laid
    out for ``width`` columns (None: no limit): sentences wrapped, a table's name above its
    figures when the two do not fit side by side, the chart's bars shorter."""

    def say(mid: str, **params: object) -> str:
        return t(mid, lang, ascii=ascii, **params)

    def pct(rate: float) -> str:
        return say("stats_percent", value=round(rate * 100))

    out: list[Line] = []

    def line(text: str, style: str = "") -> None:
        out.extend([(style, row)] for row in wrap_text(text, width or 0, 2))

    filters = []
    if preset is not None:
        filters.append(say("stats_filter_preset", preset=preset_name(preset, lang)))
    if since is not None:
        filters.append(say("stats_filter_since", since=since[:10] if since.endswith("T00:00:00") else since))
    if data["unreadable"]:
        line(say("stats_unreadable", count=data["unreadable"]))
    if data["shared_tables"]:
        line(say("stats_shared_tables", count=data["shared_tables"]))
    if not data["games"]:
        line(say("stats_none_match", filters=", ".join(filters)) if filters else say("stats_none"))
        return out
    line(say("stats_title", filters=", ".join(filters)) if filters else say("stats_title_all"), "bold")
    line(say("stats_games", games=data["games"], won=data["won"], lost=data["lost"], rate=pct(data["win_rate"])))
    st = data["streaks"]
    cur = st["current"]
    if cur is not None:  # (there are games)
        which = "now" if cur["length"] > 1 else "last"
        line(say(f"stats_streak_{which}_{cur['kind']}", count=cur["length"], best=st["longest_win"],
                 worst=st["longest_loss"]))
    average = f"{data['points_per_round']:.1f}"
    if lang == "es":
        average = average.replace(".", ",")
    line(say("stats_points", average=average, rounds=data["rounds"]))
    line(say("stats_moons", moons=data["moons"], against=data["moons_against"]))
    if data["undos"]:
        line(say("stats_undos", undos=data["undos"], games=data["games_with_undo"]))

    for heading, rows in ((say("stats_by_preset"), [(preset_name(d["preset"], lang), d) for d in data["by_preset"]]),
                          (say("stats_by_levels"), [(_levels_name(d["levels"], lang), d) for d in data["by_levels"]])):
        line(heading, "bold")
        out.extend(_table([(name, say("stats_row", games=d["games"], won=d["won"], rate=pct(d["win_rate"])))
                           for name, d in rows], lang, width))
    line(say("stats_recent", count=len(data["recent"])), "bold")
    out.extend(_chart(data["recent"], lang, ascii, width))
    return out


def _table(rows: list[tuple[str, str]], lang: str, width: int | None) -> list[Line]:
    """Rows of a name and its figures side by side; where ``width`` is too narrow for that,
    each name on a line of its own ("Easy, Normal, Hard:") and its figures under it."""

    names = max(len(name) for name, _ in rows)
    if width is None or 2 + names + 2 + max(len(said) for _, said in rows) <= width:
        return [[("", "  " + name.ljust(names) + "  " + said)] for name, said in rows]
    out: list[Line] = []
    for name, said in rows:
        out.extend([("", row)] for row in wrap_text("  " + t("stats_row_name", lang, name=name), width, 2))
        out.append([("", "  " + said)])
    return out


BAR = 24  # the longest bar of the chart, where the screen has room for it
SHORTEST = 8  # a bar is never made shorter than this to keep a column: the column goes first


def _chart(recent: list[RecentGame], lang: str, ascii: bool, width: int | None = None) -> list[Line]:
    """The recent games, one bar each, as long as the final total: a date, the time, the
    preset, the bar, the total and the result; where ``width`` is too narrow for them all,
    the bars are shorter, down to :data:`SHORTEST`, then the time goes, then the preset."""

    top = max([r["total"] for r in recent] + [1])
    bar = "#" if ascii else "█"
    shown = {r["preset"]: preset_name(r["preset"], lang) if r["preset"] else "" for r in recent}
    words = [t("stats_shared" if r["won"] and r["shared"] else "stats_won" if r["won"] else "stats_lost",
               lang, ascii=ascii) for r in recent]
    pw = max([len(name) for name in shown.values()] + [0])
    digits = max([4] + [len(str(r["total"])) for r in recent])
    tail = 1 + digits + 2 + max(map(len, words), default=0)  # after the bar: the total and the result
    time_shown, preset_shown = True, True
    room = BAR
    for time_shown, preset_shown in ((True, True), (False, True), (False, False)):
        room = BAR if width is None else min(BAR, width - (2 + (16 if time_shown else 10) + 2
                                                          + (pw + 2 if preset_shown else 0) + tail))
        if room >= SHORTEST:
            break
    longest = max(1, room)
    out: list[Line] = []
    for r, word in zip(recent, words, strict=True):
        size = max(1 if r["total"] > 0 else 0, round(longest * r["total"] / top))
        when = r["date"][:10] + (" " + r["date"][11:16] if time_shown else "")
        what = shown[r["preset"]].ljust(pw) + "  " if preset_shown else ""
        style = "win" if r["won"] else "loss"
        out.append([("", f"  {when}  {what}"), (style, bar * size),
                    ("", " " * (longest - size) + f" {r['total']:>{digits}}  "), (style, word)])
    return out


def _levels_name(levels: Sequence[str], lang: str) -> str:
    if not levels:
        return t("stats_no_levels", lang)
    counts: dict[str, int] = {}
    for lvl in levels:
        counts[lvl] = counts.get(lvl, 0) + 1
    names = []
    for lvl, n in counts.items():
        name = t(f"level_{lvl}", lang) if f"level_{lvl}" in CATALOG["en"] else lvl
        names.append(name if n == 1 else f"{name} x{n}")
    return ", ".join(names)


def as_text(lines: Sequence[Line]) -> str:
    return "".join("".join(text for _, text in line) + "\n" for line in lines)


def print_rich(lines: Sequence[Line], file: TextIO | None = None, force_terminal: bool | None = None) -> None:
    """The lines through rich: bold headings, wins in green and losses in red."""
    from rich.console import Console  # rich only for the chart: start-up
    from rich.text import Text  # rich only for the chart: start-up

    console = Console(file=file, highlight=False, soft_wrap=True, force_terminal=force_terminal)
    styles = {"": "", "bold": "bold", "win": "green", "loss": "red"}
    for line in lines:
        text = Text()
        for style, part in line:
            text.append(part, style=styles.get(style, ""))
        console.print(text)

