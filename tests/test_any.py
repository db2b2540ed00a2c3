"""The ratchet on ``Any`` (issue 36, after issue 25's count of the word): what mypy types as
``Any`` under ``--disallow-any-expr``, per package, may not grow past its ceiling. The count
runs in ``make types`` (.ci/mypy_any.py, which holds the ceilings); these tests show that
it counts what it should, on a small sample, and that a count over its ceiling fails."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def ratchet() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mypy_any", ROOT / ".ci" / "mypy_any.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mypy_any", module)
    spec.loader.exec_module(module)
    return module


SAMPLE = '''\
import json


def size(text: str) -> int:
    value: object = json.loads(text)
    return len(value) if isinstance(value, list) else 0
'''

# the same, with one more Any let in: the value of json.loads used as it comes
WITH_ANY = SAMPLE + '''

def first(text: str) -> int:
    return int(json.loads(text)[0])
'''


def test_mypys_messages_are_counted_per_package() -> None:
    m = ratchet()
    output = "\n".join([
        'hearts_cli/play/core.py:3: error: Expression has type "Any"  [misc]',
        'hearts_cli/play/core.py:4: error: Expression type contains "Any" (has type "list[Any]")  [misc]',
        'hearts_cli/__init__.py:9: error: Expression has type "Any"  [misc]',
        'hearts_cli/base/files.py:1: error: Returning Any from function declared to return "int"  [no-any-return]',
        'hearts_cli/base/files.py:2: note: Error code "misc" not covered by "type: ignore[attr-defined]" comment',
        "Found 4 errors in 3 files (checked 2 source files)",
    ])
    assert m.count(output) == {"play": 2, "(face)": 1}


def test_an_any_added_is_counted_and_fails_the_ceiling(tmp_path: Path) -> None:
    m = ratchet()
    package = tmp_path / "hearts_cli" / "sample"
    package.mkdir(parents=True)
    for init in (tmp_path / "hearts_cli" / "__init__.py", package / "__init__.py"):
        init.write_text("", encoding="utf-8")
    module = package / "values.py"
    module.write_text(SAMPLE, encoding="utf-8")
    # json.loads's value declared an object and narrowed: no Any
    before = m.count(m.run_mypy(["--strict", "hearts_cli"], tmp_path / "cache", cwd=tmp_path))
    assert before == {}
    assert m.over(before, {"sample": 0}) == []
    module.write_text(WITH_ANY, encoding="utf-8")
    # the item of json.loads's value, typed Any, handed to int: 1
    after = m.count(m.run_mypy(["--strict", "hearts_cli"], tmp_path / "cache", cwd=tmp_path))
    assert after == {"sample": 1}
    assert m.over(after, {"sample": 1}) == []
    assert m.over(after, {"sample": 0}) == ["sample: 1 expressions typed Any, over its ceiling of 0"]
    # a package with no ceiling has a ceiling of 0
    assert m.over(after, {}) == ["sample: 1 expressions typed Any, over its ceiling of 0"]


def test_every_ceiling_names_a_package_of_hearts_cli() -> None:
    packages = {p.name for p in (ROOT / "hearts_cli").iterdir() if (p / "__init__.py").is_file()}
    assert set(ratchet().CEILINGS) - {"(face)"} <= packages
