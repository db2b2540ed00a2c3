"""The modules the mypy gate still lets off (issue 17), read from pyproject.toml.

    .venv/bin/python .ci/mypy_pending.py           # how many are left (make types prints it)
    .venv/bin/python .ci/mypy_pending.py --check   # which of them pass `mypy --strict` now,
                                                   # and which no longer exist

The list in ``[[tool.mypy.overrides]]`` (``ignore_errors = true``) only shrinks: a
module leaves it the day it is clean. ``--check`` runs mypy once with no module let
off (a minute or so on the shared machine) and names the listed modules that could
leave it, so a clean module is not kept on the list by oversight; it names too the
listed modules that no longer exist (moved or renamed: mypy says nothing of those,
and the new module would be checked while the old name stays listed).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pending() -> list[str]:
    """The modules listed as not yet clean."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    out: list[str] = []
    for section in config["tool"]["mypy"].get("overrides", []):
        if section.get("ignore_errors"):
            modules = section["module"]
            out += [modules] if isinstance(modules, str) else modules
    return sorted(out)


def module_of(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def exists(module: str) -> bool:
    """Whether ``module`` (``a.b.c``, or ``a.b.*`` for a package's modules) is in the tree."""
    parts = module.removesuffix(".*").split(".")
    path = ROOT.joinpath(*parts)
    if module.endswith(".*"):
        return path.is_dir()
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def unclean() -> set[str]:
    """The package's modules with an error under `mypy --strict`, none let off."""
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "mypy.ini"
        config.write_text("[mypy]\nstrict = True\npython_version = 3.11\n", encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config),
                               "--cache-dir", str(Path(scratch) / "cache"), "hearts_cli"],
                              cwd=ROOT, capture_output=True, text=True)
    found = re.findall(r"^(hearts_cli/\S+\.py):\d+: error:", done.stdout, flags=re.M)
    return {module_of(path) for path in found}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="name the listed modules that are clean now")
    args = ap.parse_args(argv)
    listed = pending()
    print(f"mypy --strict: {len(listed)} modules not yet clean (issue 17; pyproject.toml lists them)")
    if args.check:
        gone = [m for m in listed if not exists(m)]
        dirty = unclean()
        ready = [m for m in listed if m not in dirty and m not in gone]
        print("clean now, can leave the list: " + (", ".join(ready) if ready else "none"))
        print("no longer exist, take them off the list: " + (", ".join(gone) if gone else "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
