"""Docs that run (issue 25 §5): every Python example of the README and of docs/*.md runs here,
a block of ``>>>`` lines as a doctest (its output compared), any other ```python block as a
script (it must not raise). tests/test_typed.py type-checks the same examples."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

class Example(NamedTuple):
    """One ```python block: where it is, its text, and whether it is a doctest."""

    path: Path
    line: int
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def doctest(self) -> bool:
        return bool(re.search(r"^>>> ", self.text, flags=re.M))

    def source(self) -> str:
        """The block as a script: a doctest's statements in order, its output left out."""
        if not self.doctest:
            return self.text
        parsed = doctest.DocTestParser().get_examples(self.text)
        return "".join(e.source for e in parsed)


def examples() -> list[Example]:
    found = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.S | re.M):
            found.append(Example(path, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


EXAMPLES = examples()


def test_the_readme_and_the_library_guide_have_examples_that_run() -> None:
    names = {e.path.name for e in EXAMPLES}
    assert {"README.md", "library.md", "speed.md", "bots.md", "record-format.md"} <= names
    assert sum(e.doctest for e in EXAMPLES if e.path.name == "library.md") >= 4


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_python_example_of_the_docs_runs(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEARTS_LANG", "en")
    monkeypatch.chdir(ROOT)
    if not example.doctest:
        exec(compile(example.text, example.name, "exec"), {"__name__": "__doc_example__"})
        return
    failures, report = run_doctest(example.text, example.name)
    assert failures == 0, report


def run_doctest(text: str, name: str) -> tuple[int, str]:
    """Failures and report of ``text`` run as a doctest (ELLIPSIS on)."""
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__doc_example__"}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    return runner.failures, "".join(report)


def test_the_library_script_runs_now_without_its_position_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/library.md's fifteen lines, less the position text written and read back: the same
    game, the same undo, the same refusal, asked of the game itself (written before the
    position text was merged, kept so that a failure says which half broke)."""
    [script] = [e for e in EXAMPLES if e.path.name == "library.md" and "from_position" in e.text]
    text = re.sub(r"^>>> text = game\.position\(\).*?^True\n", "", script.text, flags=re.S | re.M)
    assert "position(" not in text and text.count("\n>>> ") >= 5
    monkeypatch.setenv("HEARTS_LANG", "en")
    failures, report = run_doctest(text.replace("again.", "game."), "library.md without positions")
    assert failures == 0, report


def test_a_doctest_that_says_something_else_fails() -> None:
    """The check is not vacuous: a wrong expected output is a failure."""
    failures, _ = run_doctest('>>> import hearts_cli\n>>> hearts_cli.Game("quick", "K7Q2MXA7").turn\n3\n', "wrong")
    assert failures == 1
