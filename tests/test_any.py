"""The package's count of the word ``Any`` must not grow (issue 25): each ``Any`` is a place
where the type checker stops following a value. The count is the one
``grep -rwo Any hearts_cli | wc -l`` gives, code and comments alike; lower the ceiling
when the count falls, never raise it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hearts_cli"

# the count today; lower it as ``Any`` goes, so that it cannot come back
CEILING = 7

# a whole word as grep -w sees one: not preceded or followed by a letter, digit or underscore
WORD = re.compile(r"(?<![A-Za-z0-9_])Any(?![A-Za-z0-9_])")


def any_counts() -> Counter[str]:
    """How many times each module of the package says ``Any``."""
    counts: Counter[str] = Counter()
    for path in PACKAGE.rglob("*.py"):
        found = len(WORD.findall(path.read_text(encoding="utf-8")))
        if found:
            counts[path.relative_to(PACKAGE.parent).as_posix()] = found
    return counts


def test_the_word_any_is_counted_as_grep_counts_it() -> None:
    text = "Any, dict[str, Any]  # AnyStr, anything, Anyone, _Any, Any_ are not; Any is\n"
    assert len(WORD.findall(text)) == 3


def test_the_count_of_any_does_not_grow() -> None:
    counts = any_counts()
    total = sum(counts.values())
    most = ", ".join(f"{name} ({n})" for name, n in counts.most_common(5))
    assert total <= CEILING, (
        f"hearts_cli says Any {total} times, more than the ceiling of {CEILING}; "
        f"type the new values instead (JsonValue, a TypedDict, object and narrowing). "
        f"Most: {most}")
