"""Runs golden steps as ``python -m hearts_cli ARGV`` runs them, each in a fork of this process.

Started once (by ``harness.Runner``, with the environment every golden step starts from), it
imports Typer, the bulk of the program's start-up (nine tenths of a short step's CPU), and
then, for each step it is sent: forks; the child takes the step's environment, working
directory, stdin and argv and runs ``hearts_cli`` as ``-m`` does (``runpy``, in a fresh
``__main__``), with pipes for stdin, stdout and stderr, and ends as the interpreter would (the
exit status of ``SystemExit``, 1 and a traceback for an exception, threads joined, ``atexit``,
the streams flushed). ``hearts_cli`` itself is never imported here: each step imports it anew.

The child's interpreter is this one: a step whose environment changes how Python starts
(``PYTHON*``, ``LC_*``, ``LANG``) is run as a real subprocess by the harness instead.
Requests and replies are JSON, each prefixed with its length, on this process's stdin and
stdout, read and written at the file descriptors so that ``sys.stdin`` and ``sys.stdout``
stay as a fresh interpreter has them for the child.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import struct
import sys


def _read(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _receive() -> dict | None:
    head = _read(0, 4)
    if head is None:
        return None
    body = _read(0, struct.unpack(">I", head)[0])
    return None if body is None else json.loads(body)


def _send(obj: dict) -> None:
    body = json.dumps(obj).encode()
    data = struct.pack(">I", len(body)) + body
    while data:
        data = data[os.write(1, data):]


def _exit_code(e: SystemExit) -> int:
    """What the interpreter exits with for ``SystemExit(e.code)``."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


def _child(step: dict) -> None:
    """Run ``hearts_cli`` as ``python -m hearts_cli`` would; never returns."""
    code = 1
    try:
        import atexit
        import runpy
        import threading
        import types

        os.chdir(step["cwd"])
        os.environ.clear()
        os.environ.update(step["env"])
        sys.path[0] = os.getcwd()  # -m puts the working directory first
        sys.argv = ["-m", *step["argv"]]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            runpy._run_module_as_main("hearts_cli", alter_argv=True)  # what -m does
            code = 0
        except SystemExit as e:
            code = _exit_code(e)
        except BaseException:
            sys.excepthook(*sys.exc_info())
            code = 1
        threading._shutdown()  # as at the interpreter's exit: threads, then atexit, then the streams
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                code = 120
    finally:
        os._exit(code)


def _communicate(pid: int, stdin: bytes, fds: tuple[int, int, int]) -> tuple[bytes, bytes]:
    """Feed the child's stdin and read its stdout and stderr to the end (as subprocess does)."""
    w0, r1, r2 = fds
    out = {r1: [], r2: []}
    sel = selectors.DefaultSelector()
    if stdin:
        sel.register(w0, selectors.EVENT_WRITE)
    else:
        os.close(w0)
    sel.register(r1, selectors.EVENT_READ)
    sel.register(r2, selectors.EVENT_READ)
    view = memoryview(stdin)
    while sel.get_map():
        for key, _ in sel.select():
            fd = key.fd
            if fd == w0:
                try:
                    view = view[os.write(w0, view[:65536]):]
                except BrokenPipeError:  # the child stopped reading: what is left is not read
                    view = view[len(view):]
                if not view:
                    sel.unregister(w0)
                    os.close(w0)
            else:
                chunk = os.read(fd, 65536)
                if chunk:
                    out[fd].append(chunk)
                else:
                    sel.unregister(fd)
                    os.close(fd)
    return b"".join(out[r1]), b"".join(out[r2])


def _serve(step: dict) -> dict:
    r0, w0 = os.pipe()
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.dup2(r0, 0)
        os.dup2(w1, 1)
        os.dup2(w2, 2)
        for fd in (r0, w0, r1, w1, r2, w2):
            os.close(fd)
        _child(step)
    for fd in (r0, w1, w2):
        os.close(fd)
    out, err = _communicate(pid, base64.b64decode(step["stdin"]), (w0, r1, r2))
    _, status = os.waitpid(pid, 0)
    return {"status": os.waitstatus_to_exitcode(status), "stdout": base64.b64encode(out).decode(),
            "stderr": base64.b64encode(err).decode()}


def main() -> None:
    import typer  # noqa: F401 - the start-up's bulk, read once: every child has it

    while (step := _receive()) is not None:
        _send(_serve(step))


if __name__ == "__main__":
    main()
