"""Record the golden transcripts: ``python tests/make_golden.py [--only NAME...] [--check]``.

Runs every case of ``tests/golden/cases.py`` (in parallel) from the outside, as
``python -m hearts_cli ...`` in subprocesses, and writes ``tests/golden/NAME.txt``
for each; transcripts of cases that no longer exist are removed. ``--check``
writes nothing and reports the cases whose transcript would change (exit 1).
Run it with the project's Python (``.venv/bin/python tests/make_golden.py``): the
cases run ``sys.executable -m hearts_cli``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden import harness
from golden.cases import CASES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these cases")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--workers", type=int, default=None, help="parallel cases")
    args = parser.parse_args(argv)

    names = [c.name for c in CASES]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        parser.error(f"duplicate case names: {', '.join(dupes)}")
    chosen = CASES
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            parser.error(f"no such case: {', '.join(unknown)}")
        chosen = [c for c in CASES if c.name in args.only]

    harness.check_python()
    start = time.monotonic()
    changed, written = [], 0
    for case, transcript in harness.run_all(chosen, args.workers):
        old = case.path.read_bytes() if case.path.exists() else None
        if old != transcript:
            changed.append(case.name)
            if args.check:
                print(harness.diff(old or b"", transcript, case.name), end="")
            else:
                case.path.write_bytes(transcript)
                written += 1
    stale = []
    if not args.only:
        stale = sorted(p for p in harness.GOLDEN_DIR.glob("*.txt") if p.stem not in names)
        if not args.check:
            for p in stale:
                p.unlink()
    took = time.monotonic() - start
    if args.check:
        print(f"{len(chosen)} cases in {took:.1f}s; {len(changed)} differ"
              + (f", {len(stale)} stale transcripts" if stale else ""))
        for name in sorted(changed):
            print(f"  differs: {name}")
        return 1 if changed or stale else 0
    print(f"{len(chosen)} cases in {took:.1f}s; {written} transcripts written"
          + (f", {len(stale)} stale removed" if stale else ""))
    for name in sorted(changed):
        print(f"  written: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
