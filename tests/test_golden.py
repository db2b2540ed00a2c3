"""Golden transcripts: the program's behaviour, byte for byte, seen from the outside.

Each case in ``tests/golden/cases.py`` runs ``python -m hearts_cli ...`` as a
subprocess (stdin from the case, no terminal, a fresh ``$HEARTS_HOME``) and its
stdout, stderr and exit status must equal ``tests/golden/<name>.txt``. Nothing
here imports ``hearts_cli``, so the package's modules may move freely; what
must not change is what a person or a program sees. ``make_golden.py`` records
with real subprocesses; here each step runs in a fork of a process that has
imported Typer already (``golden/forkserver.py``: a step's start-up was nine
tenths of its CPU), with the step's own environment, directory and pipes, so a
difference from a real process would show as a changed transcript.

When a change of behaviour is intended, re-record with
``.venv/bin/python tests/make_golden.py`` (or ``--only NAME``) and review the
diff of the transcripts. ``harness.py`` says what is normalised (temporary
paths, sim timings, dates in stats) and why.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden import harness
from golden.cases import CASES

BY_NAME = {c.name: c for c in CASES}


class _Now(dict):
    """Under pytest-xdist the workers already run tests in parallel: each case runs in its own
    test, when asked for."""

    def __init__(self, runner: harness.Runner) -> None:
        super().__init__()
        self.runner = runner

    def __missing__(self, name: str) -> Future:
        fut: Future = Future()
        fut.set_result(harness.run_case(BY_NAME[name], runner=self.runner))
        return fut


@pytest.fixture(scope="module")
def transcripts(request):
    """Start every selected case at once in a thread pool (heavy ones first); each test waits
    for its own. The steps run through ``harness.Runner`` (one per worker or thread): each in a
    fork of a process that has imported Typer, as a subprocess would run them; the transcripts
    were recorded with real subprocesses (``make_golden.py``), so any difference shows."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        runner = harness.Runner()
        yield _Now(runner)
        runner.close()
        return
    selected = {item.callspec.params["name"] for item in request.session.items
                if item.module is sys.modules[__name__] and hasattr(item, "callspec")
                and "name" in item.callspec.params}
    local, runners = threading.local(), []

    def run(case):
        if not hasattr(local, "runner"):
            local.runner = harness.Runner()
            runners.append(local.runner)
        return harness.run_case(case, runner=local.runner)

    pool = ThreadPoolExecutor(max_workers=harness.default_workers())
    ordered = sorted((BY_NAME[n] for n in selected), key=lambda c: (not c.heavy, c.name))
    futures = {c.name: pool.submit(run, c) for c in ordered}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)
    for runner in runners:
        runner.close()


@pytest.mark.parametrize("name", [pytest.param(c.name, marks=[pytest.mark.slow] if c.heavy else [])
                                  for c in CASES])
def test_golden(name, transcripts):
    case = BY_NAME[name]
    got = transcripts[name].result()
    assert case.path.exists(), (
        f"no transcript for {name}: record it with `python tests/make_golden.py --only {name}`")
    expected = case.path.read_bytes()
    if got != expected:
        pytest.fail(f"{name}: the output changed\n" + harness.diff(expected, got, name), pytrace=False)


def test_every_transcript_has_a_case_and_names_are_unique():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    stale = sorted(p.name for p in harness.GOLDEN_DIR.glob("*.txt") if p.stem not in BY_NAME)
    assert not stale, f"transcripts without a case (run tests/make_golden.py): {stale}"


def test_cases_cover_every_preset_in_seeds():
    """`rules --tips` is recorded for every preset, in both languages."""
    presets = sorted(p.stem for p in (harness.REPO / "seeds").glob("*.yaml"))
    for preset in presets:
        for lang in ("en", "es"):
            assert f"rules-tips-{preset}-{lang}" in BY_NAME, (preset, lang)
