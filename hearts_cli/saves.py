"""Where a game in progress lives: the save, the archive, the lock.

The save is the game record (:mod:`hearts_cli.record`), written atomically
after every action, so a crash or ``kill -9`` at any moment leaves either the
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
    settings.yaml                optional: confirm, delay, turn_timer
    history.txt                  prompt history (only with $HEARTS_HOME;
                                 otherwise in the user state directory)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

SAVE_NAME = "current.yaml"
LOCK_NAME = "current.lock"


def home() -> Path:
    """The data directory: ``$HEARTS_HOME`` or the platform's user data directory."""
    env = os.environ.get("HEARTS_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("hearts", appauthor=False))


def history_path() -> Path:
    """The prompt history: in the user state directory (``$HEARTS_HOME`` when set)."""
    env = os.environ.get("HEARTS_HOME")
    if env:
        return Path(env) / "history.txt"
    import platformdirs

    return Path(platformdirs.user_state_dir("hearts", appauthor=False)) / "history.txt"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _free_name(path: Path) -> Path:
    """``path`` itself if nothing is there, else ``name-2.yaml``, ``name-3.yaml``..."""
    if not path.exists():
        return path
    k = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        if not candidate.exists():
            return candidate
        k += 1


class SaveLocked(Exception):
    """Another process holds the save."""


class DamagedSave(Exception):
    """The save could not be read; it has been moved to ``moved_to``."""

    def __init__(self, moved_to: Path, problem: str, error: Any = None):
        self.moved_to = moved_to
        self.problem = problem
        self.error = error  # the RecordError, when there is one: it can say the problem in any language
        super().__init__(f"{moved_to}: {problem}")

    def message(self, lang: str | None = None) -> str:
        """The problem in ``lang``."""
        return self.error.message(lang) if self.error is not None else self.problem


@dataclass
class Loaded:
    game: Any  # engine.Game
    seats: tuple  # record.Seat, one per seat


class Store:
    """The save directory of one player, held by this process while it plays."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else home()
        self._lock_fd: int | None = None

    @property
    def save_path(self) -> Path:
        return self.root / SAVE_NAME

    @property
    def archive_dir(self) -> Path:
        return self.root / "archive"

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
                return
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        if not _try_lock(fd):
            os.close(fd)
            raise SaveLocked(str(self.root))
        self._lock_fd = fd

    def release(self) -> None:
        if self._lock_fd is not None:
            try:
                _unlock(self._lock_fd)
            finally:
                os.close(self._lock_fd)
                self._lock_fd = None

    def __enter__(self) -> "Store":
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
        from .record import RecordError, read_record

        try:
            record = read_record(path)
            game = record.replay()
        except RecordError as e:
            raise DamagedSave(self._move_aside(path), e.message(None), e) from None
        except Exception as e:  # noqa: BLE001 - anything that stops a save from loading
            raise DamagedSave(self._move_aside(path), f"{type(e).__name__}: {e}") from None
        return Loaded(game, tuple(record.seats))

    def _move_aside(self, path: Path) -> Path:
        target = _free_name(self.root / "damaged" / f"{_stamp()}-{path.name}")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        return target

    def save(self, game: Any, seats: Sequence[Any]) -> Path:
        """Write the record of ``game`` atomically over the save."""
        from .record import save_record

        return save_record(self.save_path, game, seats=seats)

    def archive(self, game: Any, seats: Sequence[Any], unfinished: bool = False) -> Path:
        """Write ``game`` to the archive and drop the save; returns the archived file."""
        from .record import save_record

        tag = "-unfinished" if unfinished else ""
        target = _free_name(self.archive_dir / f"{_stamp()}-{game.code}{tag}.yaml")
        save_record(target, game, seats=seats)
        self.discard()
        return target

    def discard(self) -> None:
        try:
            self.save_path.unlink()
        except FileNotFoundError:
            pass

    # ------------------------------------------------------------ settings

    def settings(self) -> dict[str, Any]:
        """``settings.yaml``: a few defaults a player can set once (unknown keys are ignored)."""
        path = self.root / "settings.yaml"
        if not path.exists():
            return {}
        import yaml

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            return {}
        return data if isinstance(data, dict) else {}


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
