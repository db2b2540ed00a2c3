"""The layers contract of docs/architecture.md, checked from the code's own imports.

Every ``import`` of a ``hearts_cli`` module counts, at the top of a file or inside a
function: a lazy import is still a dependency. The order of the layers is read from
the picture in docs/architecture.md, so the picture and this check cannot drift apart.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hearts_cli"


def layers() -> list[str]:
    """The layer packages from the top of the picture down."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = text.split("```", 2)[1]
    return re.findall(r"^ (\w+)/ ", picture, flags=re.M)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, source: str | None = None) -> set[str]:
    """The ``hearts_cli`` modules that ``path`` imports (a package's ``__init__`` by its name)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "hearts_cli")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "hearts_cli":
                continue
            for alias in node.names:  # ``from . import explain``: the module, not the package
                sub = f"{target}.{alias.name}"
                found.add(sub if _is_module(sub) else target)
    found.discard(name)
    return found


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's imports of the package (read once: two checks walk it)."""
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str, order: list[str]) -> int | None:
    """Index from the bottom; None for the package's own face (``hearts_cli``, ``__main__``)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] not in order:
        return None
    return len(order) - 1 - order.index(parts[1])


def test_every_layer_of_the_picture_is_a_package_and_every_package_a_layer():
    order = layers()
    assert len(order) >= 8, order
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages == set(order)
    loose = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "__main__.py"}
    assert not loose, f"modules outside every layer: {sorted(loose)}"


@pytest.mark.slow  # every module's imports walked: seconds (a gate: `make layers` runs it)
def test_imports_only_point_down():
    order = layers()
    up = []
    for module, targets in graph().items():
        mine = layer_of(module, order)
        if mine is None:
            continue
        for target in targets:
            theirs = layer_of(target, order)
            if target == "hearts_cli":  # ``from .. import __version__``: the package's face
                continue
            if theirs is None or theirs > mine:
                up.append(f"{module} -> {target}")
    assert not up, "imports that point up:\n" + "\n".join(sorted(up))


def test_no_module_imports_itself_through_others():
    edges = graph()
    cycles = [c for c in _strongly_connected(edges) if len(c) > 1]
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in cycles)


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iteratively: the cycles of the import graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in edges:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.add(top)
                    if top == node:
                        break
                found.append(component)
    return found


def test_the_check_sees_an_import_that_points_up():
    """The contract is not vacuous: a lazy import from the game up to the REPL, and a cycle, are caught."""
    order = layers()
    probe = PACKAGE / "play" / "game.py"
    source = probe.read_text(encoding="utf-8") + "\n\ndef _probe():\n    from ..repl import table\n"
    targets = imports_of(probe, source)
    assert "hearts_cli.repl.table" in targets and "hearts_cli.repl.table" not in imports_of(probe)
    assert layer_of("hearts_cli.repl.table", order) > layer_of("hearts_cli.play.game", order)
    cycles = _strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert {"a", "b", "c"} in cycles and {"d"} in cycles
