"""Runs golden cases from the outside and renders their transcripts.

The golden tests treat the program as a black box: every case runs
``python -m hearts_cli ARGV`` in a subprocess (never importing ``hearts_cli``
here, so modules may move without touching these tests), with stdin from the
case and no terminal, and records stdout, stderr and the exit status verbatim.

Each case runs in a fresh temporary directory ``TMP``:

- ``TMP/home`` is ``$HEARTS_HOME`` (saves, archive, settings), and ``$HOME``
  is ``TMP/user``; nothing is read from the person's real directories;
- ``TMP/cwd`` is the working directory; the case's input files
  (``tests/golden/inputs/…``) are copied there by their base name, so the
  program is always given short relative paths;
- the environment is built from nothing: ``PATH``, ``HOME``, ``HEARTS_HOME``,
  ``HEARTS_LANG`` (the case's ``lang``), ``LANG=C.UTF-8``, ``COLUMNS=80``,
  ``PYTHONHASHSEED=0``, ``PYTHONPATH`` (the checkout, so the code under test is
  this tree's), plus the case's own ``env``.

Normalisation (applied to stdout, stderr and collected files alike, the same
when recording and when checking):

- the paths ``TMP/home``, ``TMP/cwd``, ``TMP`` and the checkout are written as
  ``<HEARTS_HOME>``, ``<CWD>``, ``<TMP>`` and ``<REPO>`` (also their
  ``realpath`` forms);
- cases with ``normalise=("sim_times",)`` (``hearts sim --json``) have the
  wall-clock figures replaced: ``"seconds": <SECONDS>`` and the ``mean``,
  ``median`` and ``p95`` of every ``decision_ms`` (its ``count`` is kept);
- cases with ``normalise=("dates",)`` (``hearts stats`` after a game) have
  local date-times (``2026-12-01 21:14``, ``2026-12-01T21:14:18``) written as
  ``<DATE>``;
- an archive's time stamp ``YYYYMMDD-HHMMSS`` is written as ``<STAMP>``, in
  the names of collected files and in what the program prints (``hearts new``
  names the file an unfinished game went to).

After the steps, the transcript lists the files left in ``$HEARTS_HOME``
(names normalised as above) and appends the files the case collects.

Everything else is byte for byte. ``make_golden.py`` runs each step in a real
subprocess; the test (``Runner``) runs it in a fork of ``forkserver.py``, a
process started with the same environment that has imported Typer already: the
same bytes (all 137 cases compared on 2026-12-02), a quarter less CPU. The temporary directories are made under
``$HEARTS_GOLDEN_TMPDIR`` if set, else ``/dev/shm`` when it is a writable
directory (the game saves with ``fsync`` after every move, which costs real
time on a disk), else the system's default; the placeholders make the
transcripts the same wherever they are.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent
INPUTS_DIR = GOLDEN_DIR / "inputs"
REPO = GOLDEN_DIR.parent.parent
TIMEOUT = 300  # seconds per step: generous, for a loaded machine


@dataclass(frozen=True)
class Step:
    """One run of the program: ``python -m hearts_cli *argv`` with ``stdin``."""

    argv: tuple[str, ...]
    stdin: str | bytes = ""
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Case:
    """A golden case: one or more steps sharing one ``$HEARTS_HOME`` and working directory."""

    name: str
    steps: tuple[Step, ...]
    lang: str = "en"  # $HEARTS_LANG for every step
    files: tuple[str, ...] = ()  # inputs (relative to tests/golden/inputs) copied into the cwd
    # files appended to the transcript afterwards: glob patterns under TMP, such as
    # "home/current.yaml", "home/archive/*.yaml" or "cwd/study.yaml"
    collect: tuple[str, ...] = ()
    normalise: tuple[str, ...] = ()  # extra normalisers: "sim_times", "dates"
    heavy: bool = False  # started first when cases run in parallel
    note: str = ""  # what the case is for (written in the transcript header)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.txt"


def case(name: str, argv, stdin: str | bytes = "", *, env: dict[str, str] | None = None,
         **kw) -> Case:
    """A one-step case."""
    return Case(name, (Step(tuple(argv), stdin, tuple(sorted((env or {}).items()))),), **kw)


def steps_case(name: str, steps, **kw) -> Case:
    """A case of several steps: ``steps`` is a list of (argv, stdin) or (argv, stdin, env)."""
    made = []
    for s in steps:
        argv, stdin, *rest = s
        env = rest[0] if rest else {}
        made.append(Step(tuple(argv), stdin, tuple(sorted(env.items()))))
    return Case(name, tuple(made), **kw)


# ---------------------------------------------------------------- normalisation

_SIM_SECONDS = re.compile(rb'"seconds": -?[0-9][0-9.eE+-]*')
_SIM_DECISION_MS = re.compile(
    rb'("decision_ms": \{"count": [0-9]+), "mean": [^,}]+, "median": [^,}]+, "p95": [^,}]+\}')


_DATE = re.compile(rb"\b[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?\b")
_STAMP = re.compile(r"\b[0-9]{8}-[0-9]{6}\b")


def _path_forms(path: Path) -> list[bytes]:
    forms = {str(path), os.path.realpath(path)}
    return sorted((f.encode() for f in forms), key=len, reverse=True)


def normalise(data: bytes, tmp: Path, extra: tuple[str, ...]) -> bytes:
    for path, placeholder in ((tmp / "home", b"<HEARTS_HOME>"), (tmp / "cwd", b"<CWD>"),
                              (tmp, b"<TMP>"), (REPO, b"<REPO>")):
        for form in _path_forms(path):
            data = data.replace(form, placeholder)
    # an archived file's name says when it was written (a game left for another names it)
    data = re.sub(_STAMP.pattern.encode(), b"<STAMP>", data)
    if "sim_times" in extra:
        data = _SIM_SECONDS.sub(b'"seconds": <SECONDS>', data)
        data = _SIM_DECISION_MS.sub(rb'\1, "mean": <MS>, "median": <MS>, "p95": <MS>}', data)
    if "dates" in extra:
        data = _DATE.sub(b"<DATE>", data)
    return data


def _tmp_base() -> str | None:
    chosen = os.environ.get("HEARTS_GOLDEN_TMPDIR")
    if chosen:
        return chosen
    shm = "/dev/shm"
    if sys.platform.startswith("linux") and os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


def _listing(home: Path) -> bytes:
    names = sorted(_STAMP.sub("<STAMP>", p.relative_to(home).as_posix()) + ("/" if p.is_dir() else "")
                   for p in home.rglob("*"))
    return "".join(f"{n}\n" for n in names).encode()


# ---------------------------------------------------------------- running

def step_env(case: Case, tmp: Path, step: Step) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(tmp / "user"),
        "HEARTS_HOME": str(tmp / "home"),
        "HEARTS_LANG": case.lang,
        "LANG": "C.UTF-8",
        "COLUMNS": "80",
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": str(REPO),
    }
    if os.name == "nt":  # Windows needs these to start Python at all
        for key in ("SYSTEMROOT", "TEMP", "TMP"):
            if key in os.environ:
                env[key] = os.environ[key]
    env.update(dict(step.env))
    return env


def _section(title: str, data: bytes) -> bytes:
    out = b"=== " + title.encode() + b" ===\n" + data
    if data and not data.endswith(b"\n"):
        out += b"\n\\ no newline at end\n"
    return out


def _visible(text: str) -> str:
    """The header's argv and env with control characters written as escapes (\\x1b)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _shown_stdin(data: bytes) -> bytes:
    """The stdin, for reading only: bytes that are not UTF-8 and control characters (but the
    newline and the tab) are written as escapes, so transcripts stay readable text."""
    text = data.decode("utf-8", "backslashreplace")
    return "".join(c if c in "\n\t" else _visible(c) for c in text).encode()


def _shown_argv(argv: tuple[str, ...]) -> str:
    return _visible("hearts " + shlex.join(argv) if argv else "hearts")


# A step whose environment changes how the interpreter starts cannot run in a fork of one
# that has started already (forkserver.py): it runs in a subprocess of its own.
_STARTUP_ENV = ("PYTHON", "LC_", "LANG")


class Runner:
    """``python -m hearts_cli`` for golden steps, each in a fork of one process that has imported
    Typer already (``forkserver.py``): what a step prints and returns is a subprocess's, without
    starting an interpreter and importing Typer for each of them (nine tenths of a short step's
    CPU). ``make_golden.py`` records with real subprocesses; the test runs through a runner, so
    a difference between the two would show as a changed transcript."""

    def __init__(self, python: str = sys.executable) -> None:
        self.home = tempfile.mkdtemp(prefix="hearts-golden-runner-", dir=_tmp_base())
        env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": self.home, "LANG": "C.UTF-8",
               "COLUMNS": "80", "PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen([python, str(GOLDEN_DIR / "forkserver.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, cwd=self.home, start_new_session=True)

    @staticmethod
    def takes(step: Step) -> bool:
        return not any(k.startswith(_STARTUP_ENV) for k, _ in step.env)

    def run(self, argv: tuple[str, ...], stdin: bytes, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
        import base64
        import json
        import struct

        body = json.dumps({"argv": list(argv), "stdin": base64.b64encode(stdin).decode(), "cwd": str(cwd),
                           "env": env}).encode()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(struct.pack(">I", len(body)) + body)
        self.proc.stdin.flush()
        if not select.select([self.proc.stdout], [], [], TIMEOUT)[0]:  # a step that never ends
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise subprocess.TimeoutExpired(["hearts", *argv], TIMEOUT)
        head = self.proc.stdout.read(4)
        if len(head) < 4:
            raise RuntimeError(f"the golden runner stopped (exit {self.proc.wait()})")
        reply = json.loads(self.proc.stdout.read(struct.unpack(">I", head)[0]))
        return subprocess.CompletedProcess(argv, reply["status"], base64.b64decode(reply["stdout"]),
                                           base64.b64decode(reply["stderr"]))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=TIMEOUT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        shutil.rmtree(self.home, ignore_errors=True)


def run_case(case: Case, python: str = sys.executable, runner: Runner | None = None) -> bytes:
    """Run every step of ``case`` in a fresh temporary directory; return the transcript. With
    a ``runner``, the steps it takes run through it (the rest in subprocesses)."""
    with tempfile.TemporaryDirectory(prefix="hearts-golden-", dir=_tmp_base()) as raw:
        tmp = Path(raw)
        (tmp / "home").mkdir()
        (tmp / "user").mkdir()
        cwd = tmp / "cwd"
        cwd.mkdir()
        for name in case.files:
            shutil.copyfile(INPUTS_DIR / name, cwd / Path(name).name)
        parts = [f"# golden transcript {case.name} (regenerate: python tests/make_golden.py)\n".encode()]
        if case.note:
            parts.append(f"# {case.note}\n".encode())
        parts.append(f"# lang: {case.lang}; files: {', '.join(case.files) or '-'}\n".encode())
        for i, step in enumerate(case.steps, 1):
            stdin = step.stdin.encode() if isinstance(step.stdin, str) else step.stdin
            if runner is not None and runner.takes(step):
                proc = runner.run(step.argv, stdin, cwd, step_env(case, tmp, step))
            else:
                proc = subprocess.run([python, "-m", "hearts_cli", *step.argv], input=stdin,
                                      capture_output=True, cwd=cwd, env=step_env(case, tmp, step),
                                      timeout=TIMEOUT)
            head = f"\n##### step {i}: {_shown_argv(step.argv)}\n"
            if step.env:
                head += "# env: " + _visible(" ".join(f"{k}={v}" for k, v in step.env)) + "\n"
            parts.append(head.encode())
            parts.append(_section("stdin", _shown_stdin(stdin)))
            parts.append(_section("stdout", normalise(proc.stdout, tmp, case.normalise)))
            parts.append(_section("stderr", normalise(proc.stderr, tmp, case.normalise)))
            parts.append(f"=== exit status {proc.returncode} ===\n".encode())
        parts.append(b"\n" + _section("files left in $HEARTS_HOME", _listing(tmp / "home")))
        for pattern in case.collect:
            found = sorted(p for p in tmp.glob(pattern) if p.is_file())
            if not found:
                parts.append(f"\n=== file {pattern}: missing ===\n".encode())
            for target in found:
                shown = _STAMP.sub("<STAMP>", target.relative_to(tmp).as_posix())
                parts.append(b"\n" + _section(f"file {shown}",
                                              normalise(target.read_bytes(), tmp, case.normalise)))
        return b"".join(parts)


def check_python(python: str = sys.executable) -> None:
    """Stop early, with a reason, when this Python cannot run ``-m hearts_cli`` at all."""
    proc = subprocess.run([python, "-m", "hearts_cli", "--version"], capture_output=True,
                          env={**step_env(Case("check", ()), Path(tempfile.gettempdir()), Step(())),
                               "HEARTS_HOME": tempfile.gettempdir()}, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise SystemExit(f"{python} -m hearts_cli --version failed (exit {proc.returncode}); run this "
                         f"with the project's Python (.venv/bin/python):\n{proc.stderr.decode(errors='replace')}")


def run_all(cases, workers: int | None = None):
    """Run cases in a thread pool (heavy ones first); yield (case, transcript) as they finish."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    ordered = sorted(cases, key=lambda c: not c.heavy)
    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        futures = {pool.submit(run_case, c): c for c in ordered}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def default_workers() -> int:
    return max(2, os.cpu_count() or 2)


def diff(expected: bytes, got: bytes, name: str, limit: int = 400) -> str:
    import difflib

    a = expected.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    b = got.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    lines = list(difflib.unified_diff(a, b, f"golden/{name}.txt (recorded)", f"{name} (now)", n=3))
    if not lines and expected != got:  # the difference is in bytes the decoding hides
        return f"{name}: the bytes differ (e.g. line endings or undecodable bytes)\n"
    if len(lines) > limit:
        lines = lines[:limit] + [f"... {len(lines) - limit} more diff lines\n"]
    return "".join(lines)
