"""A script that uses hearts_cli as a library is type-checked against it (the package ships
``py.typed``, as python-chess does): the README's example passes ``mypy --strict``, and a
wrong argument is caught at the script's line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_example() -> str:
    """The Python example of the README's "For programs" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    [example] = [b for b in blocks if "from hearts_cli" in b]
    return example


@pytest.mark.slow
def test_a_script_using_the_library_is_checked_against_its_types(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    assert (ROOT / "hearts_cli" / "py.typed").is_file()
    (tmp_path / "example.py").write_text(readme_example(), encoding="utf-8")
    (tmp_path / "wrong.py").write_text(
        "from hearts_cli.model.rules import Rules\n"
        "from hearts_cli.play.engine import Game\n"
        "\n"
        'game = Game(Rules.from_spec("quick"), 12345)  # a game code is text\n',
        encoding="utf-8")
    # run where a script's author would: outside the checkout, the package found installed
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "example.py", "wrong.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert lines == ['wrong.py:4: error: Argument 2 to "Game" has incompatible type "int"; '
                     'expected "str"  [arg-type]'], done.stdout + done.stderr


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
