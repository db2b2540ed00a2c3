"""A script that uses hearts_cli as a library is type-checked against it (the package ships
``py.typed``, as python-chess does): every Python example of the README and docs/*.md
(``tests/test_docs.py`` runs them) passes ``mypy --strict``, in one mypy run, and a wrong
argument is caught at the script's line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_docs import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_every_python_example_of_the_docs_passes_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    assert (ROOT / "hearts_cli" / "py.typed").is_file()
    names = {}
    for i, example in enumerate(EXAMPLES):
        name = f"example_{i}.py"
        (tmp_path / name).write_text(example.source(), encoding="utf-8")
        names[name] = example.name
    assert any("README" in n for n in names.values()) and len(names) >= 8
    (tmp_path / "wrong.py").write_text(
        "import hearts_cli\n"
        "\n"
        'game = hearts_cli.Game("quick", 12345)  # a game code is text\n'
        "card: hearts_cli.Card = hearts_cli.cpu_pass(game)  # a pass is several cards\n",
        encoding="utf-8")
    # run where a script's author would: outside the checkout, the package found installed
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           *names, "wrong.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if ": error:" in line]
    for name, where in names.items():  # say which doc's example it is
        lines = [line.replace(name, f"{name} ({where})") for line in lines]
    assert lines == ['wrong.py:3: error: Argument 2 to "Game" has incompatible type "int"; '
                     'expected "str"  [arg-type]',
                     'wrong.py:4: error: Incompatible types in assignment (expression has type '
                     '"tuple[Card, ...]", variable has type "Card")  [assignment]'], done.stdout + done.stderr


def test_the_mypy_list_check_names_listed_modules_that_no_longer_exist() -> None:
    """A module moved or renamed while on the list would stay let off by name only (mypy says
    nothing of a module it cannot find), so ``--check`` names it."""
    sys.path.insert(0, str(ROOT / ".ci"))
    try:
        import mypy_pending
    finally:
        sys.path.remove(str(ROOT / ".ci"))
    assert mypy_pending.exists("hearts_cli.store.saves")
    assert mypy_pending.exists("hearts_cli.table")  # a package
    assert mypy_pending.exists("hearts_cli.table.*")
    assert not mypy_pending.exists("hearts_cli.replay")  # moved to records/ by the reorganisation
    assert not mypy_pending.exists("hearts_cli.gone.*")
    assert all(mypy_pending.exists(m) for m in mypy_pending.pending())
