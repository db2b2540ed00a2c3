"""The shape of the product package: long functions, long classes, lines.

    python bench/shape.py [PACKAGE_DIR]          # default: hearts_cli

Prints each function or method over 60 lines and each class over 300 lines
(from its ``def``/``class`` line to its last line, docstring included), then the
totals: what issue 17 counts as "units that do everything".
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FUNCTION_LIMIT = 60
CLASS_LIMIT = 300


def long_units(root: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]], int]:
    functions: list[tuple[int, str]] = []
    classes: list[tuple[int, str]] = []
    lines = 0
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines += text.count("\n")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = (node.end_lineno or node.lineno) - first + 1
                where = f"{path}:{node.lineno} {node.name}"
                if isinstance(node, ast.ClassDef):
                    if length > CLASS_LIMIT:
                        classes.append((length, where))
                elif length > FUNCTION_LIMIT:
                    functions.append((length, where))
    return sorted(functions, reverse=True), sorted(classes, reverse=True), lines


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "hearts_cli")
    functions, classes, lines = long_units(root)
    for length, where in functions:
        print(f"function {length:4d}  {where}")
    for length, where in classes:
        print(f"class    {length:4d}  {where}")
    print(f"{len(functions)} functions over {FUNCTION_LIMIT} lines, {len(classes)} classes over "
          f"{CLASS_LIMIT} lines, {lines} lines in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
