"""The figures of the house (issue 36): how big its rooms are and how lazy its doors.

    .venv/bin/python -m bench.house            # the figures, one a line
    .venv/bin/python -m bench.house --list     # and the modules and functions over the bounds
    .venv/bin/python -m bench.house --any      # and mypy's count of expressions typed Any (a minute)

Lines of a module are its physical lines; a function's lines run from its ``def`` (its
decorators included) to its last line. An in-function import is an ``import`` under a
``def``; a ``TYPE_CHECKING`` block is an ``if TYPE_CHECKING:``. The catalogs
(``hearts_cli/text/en.py``, ``es.py``) are messages, not rooms, and are left out of the
bound on modules.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hearts_cli"
CATALOGS = {"hearts_cli/text/en.py", "hearts_cli/text/es.py"}
MODULE_BOUND = 1000
FUNCTION_BOUND = 60


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def name_of(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def long_functions(tree: ast.AST) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function longer than the bound."""
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                size = (child.end_lineno or child.lineno) - first + 1
                if size > FUNCTION_BOUND:
                    found.append((prefix + child.name, size))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def in_function_import_nodes(tree: ast.AST) -> set[int]:
    nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nodes.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return nodes


def type_checking_blocks(tree: ast.AST) -> int:
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.If)
               and ((isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING")
                    or (isinstance(n.test, ast.Attribute) and n.test.attr == "TYPE_CHECKING")))


def figures(show: bool) -> dict[str, int]:
    lines: dict[str, int] = {}
    long: list[tuple[str, int]] = []
    imports = tc = setattr_ = object_ann = dict_object = 0
    for path in modules():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines[name_of(path)] = text.count("\n")
        long += [(f"{name_of(path)}:{f}", n) for f, n in long_functions(tree)]
        imports += len(in_function_import_nodes(tree))
        tc += type_checking_blocks(tree)
        setattr_ += text.count("object.__setattr__")
        object_ann += len(re.findall(r":\s*object\b", text))
        dict_object += text.count("dict[str, object]")
    big = {m: n for m, n in lines.items() if n > MODULE_BOUND and m not in CATALOGS}
    out = {
        "modules": len(lines),
        "lines": sum(lines.values()),
        "largest module (not a catalog)": max(n for m, n in lines.items() if m not in CATALOGS),
        f"modules over {MODULE_BOUND} lines (not catalogs)": len(big),
        f"functions over {FUNCTION_BOUND} lines": len(long),
        "in-function imports": imports,
        "TYPE_CHECKING blocks": tc,
        "object.__setattr__": setattr_,
        "': object' annotations": object_ann,
        "dict[str, object]": dict_object,
    }
    if show:
        for m, n in sorted(big.items(), key=lambda kv: -kv[1]):
            print(f"  module {m}: {n} lines")
        for f, n in sorted(long, key=lambda kv: -kv[1]):
            print(f"  function {f}: {n} lines")
    return out


def any_count() -> Counter[str]:
    """Expressions mypy types as Any (``--disallow-any-expr``), by package of hearts_cli."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--disallow-any-expr", "--no-incremental",
                           "hearts_cli"], cwd=ROOT, capture_output=True, text=True)
    counts: Counter[str] = Counter()
    for line in done.stdout.splitlines():
        if "[misc]" in line and "Any" in line and line.startswith("hearts_cli/"):
            parts = line.split("/")
            counts[parts[1] if len(parts) > 2 else "(face)"] += 1
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="name the modules and functions over the bounds")
    ap.add_argument("--any", action="store_true", help="count mypy's expressions typed Any")
    args = ap.parse_args()
    for k, v in figures(args.list).items():
        print(f"{k}: {v}")
    if args.any:
        counts = any_count()
        print(f"expressions typed Any (mypy --disallow-any-expr): {sum(counts.values())}")
        for pkg, n in counts.most_common():
            print(f"  {pkg}: {n}")


if __name__ == "__main__":
    main()
