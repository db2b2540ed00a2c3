"""Files with hands in them: written atomically, readable by their owner only.

A save, a shared table's file (its invitations), an archived game: each holds
every card of a game (and a shared table's secrets), so each is created 0600
in a 0700 directory, whatever the umask, and never exists half-written. This
is the one way the project writes such a file (:func:`write_private`); a file
a person asked for by name (an annotated record) is written the same way, with
the usual permissions (:func:`write_atomic`).

No imports from the project.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def temp_name(name: str) -> str:
    """The temporary file ``name`` is written through: ``.name.<pid>.<random>.tmp`` (a sweep
    after a crash knows it by that shape and by its process)."""
    return f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def private_dir(directory: Path) -> None:
    """``directory`` (and its parents) made if missing; the directory itself 0700.

    One that exists and belongs to this user is narrowed to 0700 too (a save
    directory made by an older version, or under a loose umask); one that
    belongs to someone else is left as it is.
    """
    directory.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    try:
        st = directory.stat()
        if st.st_mode & 0o077 and (not hasattr(os, "getuid") or st.st_uid == os.getuid()):
            os.chmod(directory, stat.S_IMODE(st.st_mode) & ~0o077 | DIR_MODE)
    except OSError:
        pass  # narrowing is a precaution: the file itself is 0600 anyway


def write_private(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, the file 0600 in a 0700 directory; returns the path."""
    return write_atomic(path, data, private=True)


def write_atomic(path: str | os.PathLike[str], data: bytes, *, private: bool) -> Path:
    """Write ``data`` to ``path`` atomically; ``private``: 0600 in a 0700 directory (else the
    umask decides, as for any file a person names).

    The bytes go to a new file in the same directory (created 0600, so they are
    never readable by others, not even for a moment), are flushed and
    ``fsync``-ed, then renamed over ``path``: a crash leaves the old file or the
    new one, never half of one. An error names the directory (the temporary name
    means nothing to a person), and leaves no temporary file behind.
    """
    target = Path(path)
    directory = target.parent
    if private:
        private_dir(directory)
    else:
        directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / temp_name(target.name)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE if private else 0o666)
    except OSError as e:
        raise type(e)(e.errno, e.strerror, str(directory)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and e.filename == str(tmp):
            raise type(e)(e.errno, e.strerror, str(directory)) from None
        raise
    try:  # make the rename itself durable; not possible everywhere (Windows)
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return target
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
    return target


def home_written(path: str | os.PathLike[str]) -> str:
    """``path`` as a person reads it: under the home folder, written from ``~`` (shorter on a
    screen; a shell takes it as it is)."""
    text = os.fspath(path)
    home = os.path.expanduser("~")
    if home not in ("~", "", os.sep) and (text == home or text.startswith(home.rstrip(os.sep) + os.sep)):
        return "~" + text[len(home.rstrip(os.sep)):]
    return text
