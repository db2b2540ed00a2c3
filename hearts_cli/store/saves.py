"""Where a game in progress lives: the save, the archive, the lock.

The save is the game record (:mod:`hearts_cli.records.record`), written atomically
after every action (0600 in a 0700 directory, as every file with hands in it:
:mod:`hearts_cli.base.files`), so a crash or ``kill -9`` at any moment leaves either the
previous save or the new one. Finished games move to the archive, where
``hearts replay`` can open them. A save that cannot be read is moved aside,
never overwritten. One process at a time plays a save: the others are told the
game is open elsewhere and touch nothing.

Everything lives in ``platformdirs.user_data_dir("hearts")``, or in
``$HEARTS_HOME`` when that is set (tests, portable installs)::

    current.yaml                 the game in progress (a game record)
    current.lock                 held while a process plays it
    archive/<time>-<code>.yaml   finished (and set-aside unfinished) games
    damaged/<time>-current.yaml  saves that could not be read
    stats.sqlite3                the index of the archive for ``hearts stats`` (rebuilt
                                 from the archive whenever it is missing or damaged)
    settings.yaml                optional: auto_play, confirm, count, delay, turn_timer, undo
                                 (bad values are left out, and the command line warns about them)
    history.txt                  prompt history (only with $HEARTS_HOME;
                                 otherwise in the user state directory)
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from ..base.untrusted import DEPTH, MAX_SETTINGS_BYTES, TooBig, YamlRefused, load_yaml, read_text, yaml_problem
from ..base.values import Plain
from ..text.catalog import LANGUAGES, os_problem_id, t

if TYPE_CHECKING:  # the record reader and the statistics when a game is read or ends (start-up)
    from ..play.game import Game
    from ..records.record import GameRecord
    from ..records.record_parts import RecordError, Seat
    from .stats import Change

SAVE_NAME = "current.yaml"
LOCK_NAME = "current.lock"


def home() -> Path:
    """The data directory: ``$HEARTS_HOME`` or the platform's user data directory."""
    env = os.environ.get("HEARTS_HOME")
    if env:
        return Path(env)
    import platformdirs  # only when a path is asked for: start-up

    return Path(platformdirs.user_data_dir("hearts", appauthor=False))


def history_path() -> Path:
    """The prompt history: in the user state directory (``$HEARTS_HOME`` when set)."""
    env = os.environ.get("HEARTS_HOME")
    if env:
        return Path(env) / "history.txt"
    import platformdirs  # only when a path is asked for: start-up

    return Path(platformdirs.user_state_dir("hearts", appauthor=False)) / "history.txt"


def stamp() -> str:
    """The time now as archived files start with it (``20261201-135501``): they sort by date."""
    return time.strftime("%Y%m%d-%H%M%S")


def free_name(path: Path) -> Path:
    """``path`` itself if nothing is there, else ``name-2.yaml``, ``name-3.yaml``..."""
    if not path.exists():
        return path
    k = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        if not candidate.exists():
            return candidate
        k += 1


def archived_game(code: str, root: Path | None = None) -> Path | None:
    """The newest game archived with ``code`` (finished or not), or None: what ``hearts replay
    CODE`` opens, so that nobody needs the archive's long path."""

    shape = re.compile(rf"(\d{{8}}-\d{{6}})-{re.escape(code)}(?:-unfinished)?(?:-(\d+))?\.yaml")
    found = []
    try:
        names = os.listdir((root or home()) / "archive")
    except OSError:
        return None
    for name in names:
        m = shape.fullmatch(name)
        if m:
            found.append((m[1], int(m[2] or 1), name))
    return (root or home()) / "archive" / max(found)[2] if found else None


def unfinished_games(root: Path | None = None) -> list[tuple[str, str, Path]]:
    """The games archived unfinished (set aside by a new game), newest first: their time
    (``YYYY-MM-DD HH:MM``), code and file. What ``hearts play --unfinished`` lists and
    ``hearts play --resume CODE`` takes back."""

    shape = re.compile(r"(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)\d\d-([0-9A-Z]{8})-unfinished(?:-\d+)?\.yaml")
    folder = (root or home()) / "archive"
    try:
        names = sorted(os.listdir(folder), reverse=True)
    except OSError:
        return []
    out = []
    for name in names:
        m = shape.fullmatch(name)
        if m:
            out.append((f"{m[1]}-{m[2]}-{m[3]} {m[4]}:{m[5]}", m[6], folder / name))
    return out


def archived_file_line(path: str | os.PathLike[str], lang: str | None, ascii: bool = False) -> str:
    """The line that names an archived game's file to a person ("File: ~/..."), the home
    folder written ``~``: wherever a game's end or a previous game's archiving is told."""
    from ..base.files import home_written  # only when asked for: start-up of the commands that do not

    return t("archived_file", lang, ascii=ascii, path=home_written(path))


class SaveLocked(Exception):
    """Another process holds the save."""


class DamagedSave(Exception):
    """The save could not be read; it has been moved to ``moved_to``."""

    def __init__(self, moved_to: Path, problem: str, error: RecordError | None = None):
        self.moved_to = moved_to
        self.problem = problem
        self.error = error  # the RecordError, when there is one: it can say the problem in any language
        super().__init__(f"{moved_to}: {problem}")

    def message(self, lang: str | None = None) -> str:
        """The problem in ``lang``."""
        return self.error.message(lang) if self.error is not None else self.problem


class Loaded(Plain):
    """The saved game, as :meth:`Store.load` reads it."""

    __match_args__ = ("game", "seats", "undos")

    def __init__(self, game: Game, seats: tuple[Seat, ...], undos: int = 0, lang: str | None = None):
        self.game = game
        self.seats = seats  # one per seat
        self.undos = undos  # moves taken back so far (the record notes them)
        self.lang = lang  # the language it was played in (resumed in it), if the save says


class Store:
    """The save directory of one player, held by this process while it plays."""

    def __init__(self, root: Path | None = None, archive_dir: Path | None = None):
        self.root = Path(root) if root is not None else home()
        # where finished games go: the root's ``archive/`` (a host's table archives into the
        # player's common archive, so that stats and replay find every game in one place)
        self.archive_dir = Path(archive_dir) if archive_dir is not None else self.root / "archive"
        self._lock_fd: int | None = None

    @property
    def save_path(self) -> Path:
        return self.root / SAVE_NAME

    # ------------------------------------------------------------ the lock

    def acquire(self) -> None:
        """Hold the save for this process, or :class:`SaveLocked` (nothing touched).

        An OS advisory lock: it goes away with the process, even after ``kill -9``.
        """
        if self._lock_fd is not None:
            return
        path = self.root / LOCK_NAME
        if path.exists():
            # check first without creating anything, so a refused process writes nothing
            try:
                fd = os.open(path, os.O_RDWR)
            except OSError:
                fd = None
            if fd is not None:
                if not _try_lock(fd):
                    os.close(fd)
                    raise SaveLocked(str(self.root))
                self._lock_fd = fd
                self.sweep()
                return
        from ..base.files import private_dir  # only when asked for: start-up of the commands that do not

        private_dir(self.root)  # the save beside the lock holds every hand
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        if not _try_lock(fd):
            os.close(fd)
            raise SaveLocked(str(self.root))
        self._lock_fd = fd
        self.sweep()

    def sweep(self) -> list[Path]:
        """Remove the temporary files a killed process left half-written; returns them.

        A save (or an archived game) is written to ``.name.<pid>.<random>.tmp``
        and renamed over its place; a ``kill -9`` in between leaves the
        temporary file. One is stale when its process is gone, or, where that
        cannot be asked, when it is over a minute old. Only under the lock,
        which every writer of this directory holds.
        """
        from ..records.record import TEMP_RE  # the record reader only when a game is read: start-up

        removed = []
        now = time.time()
        for folder in (self.root, self.root / "archive"):  # only what this lock guards
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                m = TEMP_RE.fullmatch(name)
                if m is None or not m.group("name").endswith((".yaml", ".json")):
                    continue
                path = folder / name
                try:
                    stale = not _alive(int(m.group("pid"))) or now - path.stat().st_mtime > 60
                    if stale:
                        path.unlink()
                        removed.append(path)
                except OSError:
                    pass
        return removed

    def release(self) -> None:
        if self._lock_fd is not None:
            try:
                _unlock(self._lock_fd)
            finally:
                os.close(self._lock_fd)
                self._lock_fd = None

    def __enter__(self) -> Store:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    # ------------------------------------------------------------ the save

    def has_save(self) -> bool:
        return self.save_path.exists()

    def load(self) -> Loaded | None:
        """The saved game, or None when there is none; :class:`DamagedSave` when it cannot be read."""
        path = self.save_path
        if not path.exists():
            return None
        from ..records.record_parts import RecordError  # the record reader only when a game is read: start-up
        from ..records.record_reader import read_record

        try:
            record = read_record(path)
            game = record.replay()
        except RecordError as e:
            raise DamagedSave(self._move_aside(path), e.message(None), e) from None
        except Exception as e:
            raise DamagedSave(self._move_aside(path), f"{type(e).__name__}: {e}") from None
        return Loaded(game, tuple(record.seats), record.undos, record.lang)

    def _move_aside(self, path: Path) -> Path:
        from ..base.files import private_dir  # only when asked for: start-up of the commands that do not

        target = free_name(self.root / "damaged" / f"{stamp()}-{path.name}")
        private_dir(target.parent)  # a damaged save may still hold every hand
        os.replace(path, target)
        return target

    def save(self, game: Game | GameRecord, seats: Sequence[Seat], undos: int = 0, lang: str | None = None
             ) -> Path:
        """Write the record of ``game`` atomically over the save (``lang``: the language it is played in)."""
        from ..records.record import save_record  # the record reader only when a game is read: start-up

        return save_record(self.save_path, game, seats=seats, undos=undos, private=True, lang=lang)

    def archive(self, game: Game, seats: Sequence[Seat], unfinished: bool = False, undos: int = 0,
                lang: str | None = None) -> Path:
        """Write ``game`` to the archive and drop the save; returns the archived file."""
        from ..records.record import save_record  # the record reader only when a game is read: start-up

        tag = "-unfinished" if unfinished else ""
        target = free_name(self.archive_dir / f"{stamp()}-{game.code}{tag}.yaml")
        save_record(target, game, seats=seats, undos=undos, private=True, lang=lang)
        self.discard()
        return target

    def take_back(self, path: Path) -> tuple[Loaded, Path | None]:
        """The unfinished game archived at ``path``, made the saved game again, and where the
        game saved until now went (it is archived first: nothing is ever lost). A record that
        cannot be read is a :class:`~hearts_cli.records.record_parts.RecordError`, nothing touched."""
        from ..records.record_reader import read_record  # the record reader only when a game is read: start-up

        record = read_record(path)
        restored = Loaded(record.replay(), tuple(record.seats), record.undos, record.lang)
        current = self.load()
        previous = None
        if current is not None:
            previous = self.archive(current.game, current.seats, unfinished=not current.game.over,
                                    undos=current.undos, lang=current.lang)
        self.save(restored.game, restored.seats, restored.undos, restored.lang)
        path.unlink()  # (saved first: a crash in between leaves the game twice, never lost)
        return restored, previous

    def record_change(self) -> Change | None:
        """How the game archived last changes the person's record ("3rd win in a row"), or None.

        From the statistics index (``stats.sqlite3``, see :mod:`hearts_cli.store.stats`).
        """
        from .stats import record_change  # the statistics only at the end of a game: start-up

        return record_change(self.root)

    def discard(self) -> None:
        try:
            self.save_path.unlink()
        except FileNotFoundError:
            pass

    # ------------------------------------------------------------ settings

    def settings(self) -> Settings:
        """``settings.yaml``: a few defaults a player can set once; only the valid ones.

        What is wrong in the file (see :func:`read_settings`) is left out here;
        the command line warns about it (:func:`settings_warnings`).
        """
        return read_settings(self.root)[0]


# ---------------------------------------------------------------- settings.yaml

SETTINGS_NAME = "settings.yaml"
AUTO_PLAY_SECONDS = (0.2, 5)  # `auto_play: SECONDS`: a pause long enough to see the card, and short


class Settings(TypedDict, total=False):
    """The valid settings of ``settings.yaml`` (what is wrong in the file is left out): the one
    place a setting is declared, which the known keys and the warnings read."""

    auto_play: bool | float  # true: the default pause; else seconds
    bell: bool | float  # the terminal's bell when your turn comes after a wait (true: 2 s; else seconds)
    confirm: bool
    count: bool
    deck_colors: str  # two (♥ ♦ red) or four (♣ green, ♦ blue too)
    delay: float
    lang: str  # en or es: the language when neither --lang nor HEARTS_LANG says (the locale after it)
    sort: str  # the hand's order: alternate or four suit letters, then high or low (model.cards.hand_order)
    turn_timer: int
    undo: bool


SETTING_KEYS: tuple[str, ...] = tuple(sorted(Settings.__optional_keys__))


if TYPE_CHECKING:  # types only: nothing to build at start-up
    # a problem with a setting: a message id and its parameters (a parameter may be such a message too)
    Problem = tuple[str, dict[str, object]]


def _valid_setting(key: str, value: object) -> bool:
    if key in ("confirm", "count", "undo"):
        return isinstance(value, bool)
    if key == "deck_colors":
        return value in ("two", "four")
    if key == "sort":
        from ..model.cards import hand_order  # only when asked for: start-up of the commands that do not

        return hand_order(value) is not None
    if key == "lang":
        return isinstance(value, str) and value.lower() in LANGUAGES
    if key in ("auto_play", "bell") and isinstance(value, bool):  # true: the default pause, or wait
        return True
    if key == "bell":
        return isinstance(value, (int, float)) and 0 <= value <= 600
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if key == "delay":
        return 0 <= value <= 10
    if key == "auto_play":
        return AUTO_PLAY_SECONDS[0] <= value <= AUTO_PLAY_SECONDS[1]
    return isinstance(value, int) and 5 <= value <= 600  # turn_timer


def settings_language() -> str | None:
    """``lang:`` of settings.yaml, or None (no file: nothing is read, nothing imported)."""
    try:
        path = home() / SETTINGS_NAME
        if not path.is_file():
            return None
    except OSError:
        return None
    lang = read_settings()[0].get("lang")
    return lang.lower() if isinstance(lang, str) else None


def read_settings(root: Path | None = None) -> tuple[Settings, list[Problem]]:
    """The valid settings of ``settings.yaml`` and, for each problem, a message id and its parameters.

    A file that cannot be read or parsed gives no settings; a bad value or an
    unknown key is left out and named. ``turn_timer: off`` (or null, or false)
    means no timer, which is the default anyway.
    """

    path = (Path(root) if root is not None else home()) / SETTINGS_NAME
    where: dict[str, object] = {"path": str(path)}
    try:
        text = read_text(path, MAX_SETTINGS_BYTES)
    except (FileNotFoundError, NotADirectoryError):  # no file (a bad save directory is told elsewhere)
        return {}, []
    except TooBig as e:  # checked before reading: a huge file costs nothing
        return {}, [("settings_unreadable", where | {"problem": ("input_too_big", {"limit": e.limit})})]
    except OSError as e:
        mid, params = os_problem_id(e)
        return {}, [("settings_unreadable", where | {"problem": (mid, params)})]
    except UnicodeDecodeError:
        return {}, [("settings_unreadable", where | {"problem": ("record_not_utf8", {})})]
    import yaml  # PyYAML only where YAML is read: start-up

    twice: list[tuple[str, int, int]] = []
    try:
        data = load_yaml(text, DEPTH["settings"], twice)
    except YamlRefused as e:  # aliases, or nesting deeper than a list of settings: nothing was built
        problem = (e.message_id, e.params)
        if e.line is not None:
            problem = ("settings_yaml_at", {"problem": problem, "line": e.line})
        return {}, [("settings_unreadable", where | {"problem": problem})]
    except yaml.YAMLError as e:  # in words, with its line ("the quote opened on line 2 is never closed")
        return {}, [("settings_unreadable", where | {"problem": yaml_problem(e, text)})]
    if data is None:
        return {}, []
    if not isinstance(data, dict):
        return {}, [("settings_not_mapping", where)]
    good: dict[str, object] = {}
    problems: list[Problem] = [("settings_twice", where | {"key": key, "first": first, "line": line})
                               for key, first, line in twice]  # (the last one is kept, as PyYAML does)
    for key, value in data.items():
        if key not in SETTING_KEYS:
            near = difflib.get_close_matches(str(key).lower(), SETTING_KEYS, n=1)
            if near:  # "dealy": did you mean delay?
                problems.append(("settings_unknown_near", where | {"key": str(key), "near": near[0]}))
                continue
            known = ("names_and", {"first": ", ".join(SETTING_KEYS[:-1]), "last": SETTING_KEYS[-1]})
            problems.append(("settings_unknown", where | {"key": str(key), "keys": known}))
        elif key == "turn_timer" and value in (None, False, "off"):
            continue
        elif _valid_setting(key, value):
            good[key] = value
        else:
            problems.append((f"settings_bad_{key}", where | {"value": _as_written(value)}))
    return cast("Settings", good), problems  # each value checked by _valid_setting


def _as_written(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value)


def settings_warnings(lang: str | None = None, root: Path | None = None) -> list[str]:
    """One sentence per problem in ``settings.yaml``, in ``lang`` (none when all is well)."""

    def said(value: object) -> object:
        if isinstance(value, tuple):  # a message of its own (whose parameters may be too)
            message_id, params = value
            return t(message_id, lang, ascii=False, **{k: said(v) for k, v in params.items()})
        return value

    return [t(mid, lang, ascii=False, **{k: said(v) for k, v in params.items()})
            for mid, params in read_settings(root)[1]]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (where that can be asked; elsewhere: assume it does)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, and belongs to someone else
        return True
    return True


def _try_lock(fd: int) -> bool:
    """Take the save's lock without waiting: False when another process holds it."""
    try:
        if sys.platform == "win32":
            import msvcrt  # this platform only

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl  # this platform only

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt  # this platform only

        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        return
    import fcntl  # this platform only

    fcntl.flock(fd, fcntl.LOCK_UN)
