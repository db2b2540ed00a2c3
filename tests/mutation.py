"""Mutation check: break each rule of the core, and each path derived from it, in
turn, and show that the test suite notices.

    .venv/bin/python tests/mutation.py              # every mutant, 2 at a time
    .venv/bin/python tests/mutation.py --jobs 1 --only beats-lower,steps-no-first-discard
    .venv/bin/python tests/mutation.py --list

Each mutant is one textual patch of one source file: a rule of
``hearts_cli/play/core.py`` (or a fact of ``hearts_cli/model/rules.py``) removed or
inverted, or a derived path (the engine's step API, ``fast.Position``, the
code ``fast_gen`` generates) made to drift from the core. The checkout is
copied to a scratch folder, patched there (the working tree is never
touched), and the mutant's tests are run with ``pytest -x``: a failing test
*kills* the mutant; a mutant whose tests all pass *survives*, and is a rule
the tests do not pin down. The unpatched copy is run first and must pass.

Rule mutants run the tests of the rules (``test_engine_rules``,
``test_properties``, ``test_core_paths``); path mutants run only the
differential test ``test_core_paths`` (plus, for the endgame search, the bot
tests), to show that it alone catches a path that drifts. Exit status 0 when
every mutant is killed. Not part of ``make test``: it runs the tests once per
mutant (several minutes on two cores). See docs/testing.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
RULE_TESTS = ("tests/test_engine_rules.py", "tests/test_properties.py", "tests/test_core_paths.py",
              "tests/test_cancellation.py")
PATH_TESTS = ("tests/test_core_paths.py",)


class Mutant(NamedTuple):
    name: str
    path: str  # the file patched, relative to the checkout
    old: str   # text that must occur exactly once
    new: str
    what: str
    tests: tuple[str, ...] = RULE_TESTS


CORE = "hearts_cli/play/core.py"
RULES = "hearts_cli/model/rules.py"
GEN = "hearts_cli/play/fast_gen.py"

MUTANTS: list[Mutant] = [
    # ------------------------------------------------ legality (core.RESTRICTIONS and core.legal)
    Mutant("no-lead-card", CORE,
           '    Restriction("must_lead_lowest_club", (LEAD,), True, False, _lead_card),\n', "",
           "the first trick need not be led with the lowest club"),
    Mutant("lead-card-not-first-only", CORE,
           '("must_lead_lowest_club", (LEAD,), True, False,',
           '("must_lead_lowest_club", (LEAD,), False, False,',
           "every trick must be led with the lowest club held"),
    Mutant("lead-card-any-lead-ignored", CORE,
           "    return LEAD_CARD if r.first_lead is FirstLead.LOWEST_CLUB else ALL",
           "    return LEAD_CARD",
           "first lead 'any' is ignored: the lowest club leads anyway"),
    Mutant("lead-card-diamond", CORE,
           "    pool = held & SUIT_MASKS[0] or held",
           "    pool = held & SUIT_MASKS[1] or held",
           "the lowest diamond leads instead of the lowest club"),
    Mutant("first-leader-dealer", CORE,
           "        return (dealer + 1) % n",
           "        return dealer % n",
           "first lead 'any': the dealer leads instead of the player on the left"),
    Mutant("no-follow", CORE,
           '    Restriction("must_follow_suit", (FOLLOW,), False, False, _led_suit),\n', "",
           "a seat need not follow suit"),
    Mutant("follow-final", CORE,
           '("must_follow_suit", (FOLLOW,), False, False, _led_suit)',
           '("must_follow_suit", (FOLLOW,), False, False, _led_suit, final=True)',
           "a point card may follow suit to a free first trick (following suit ends the chain)"),
    Mutant("no-first-trick-rule", CORE,
           '    Restriction("no_points_on_first_trick", (LEAD, FOLLOW), True, False, _not_on_first_trick),\n',
           "", "points may go on the first trick"),
    Mutant("first-trick-discards-free", CORE,
           '("no_points_on_first_trick", (LEAD, FOLLOW), True,',
           '("no_points_on_first_trick", (LEAD,), True,',
           "a first-trick discard may carry points (the rule removed from discards)"),
    Mutant("first-trick-leads-free", CORE,
           '("no_points_on_first_trick", (LEAD, FOLLOW), True,',
           '("no_points_on_first_trick", (FOLLOW,), True,',
           "a first-trick lead may carry points (first lead 'any')"),
    Mutant("first-trick-rule-every-trick", CORE,
           '("no_points_on_first_trick", (LEAD, FOLLOW), True, False,',
           '("no_points_on_first_trick", (LEAD, FOLLOW), False, False,',
           "the first-trick rule holds on every trick"),
    Mutant("first-trick-forbids-nothing", CORE,
           "    return ALL & ~r.first_trick_forbidden",
           "    return ALL",
           "the first-trick rule forbids no card"),
    Mutant("no-hearts-rule", CORE,
           '    Restriction("hearts_not_broken", (LEAD,), False, True, _not_hearts),\n', "",
           "hearts may be led before they are broken"),
    Mutant("hearts-rule-after-breaking", CORE,
           '("hearts_not_broken", (LEAD,), False, True,',
           '("hearts_not_broken", (LEAD,), False, False,',
           "hearts cannot be led even once broken"),
    Mutant("hearts-rule-on-follow", CORE,
           '("hearts_not_broken", (LEAD,),', '("hearts_not_broken", (LEAD, FOLLOW),',
           "a void seat may not discard a heart before hearts are broken"),
    Mutant("free-hearts-ignored", CORE,
           "    return ALL if r.hearts_break is HeartsBreak.FREE else ALL & ~HEARTS_MASK",
           "    return ALL & ~HEARTS_MASK",
           "hearts_break 'free' is ignored"),
    Mutant("restriction-may-leave-nothing", CORE,
           "        kept = legal & m\n        if kept:\n            legal = kept\n",
           "        kept = legal & m\n        if True:\n            legal = kept\n",
           "a restriction applies even when it leaves no card (a hand of only hearts)"),
    # ------------------------------------------------ the trick
    Mutant("beats-any-suit", CORE,
           'BEATS = "{c} // 13 == {led} and {c} > {w}"', 'BEATS = "{c} > {w}"',
           "a higher card of any suit wins the trick (trumps)"),
    Mutant("beats-lower", CORE,
           'BEATS = "{c} // 13 == {led} and {c} > {w}"', 'BEATS = "{c} // 13 == {led} and {c} < {w}"',
           "the lowest card of the led suit wins"),
    Mutant("last-card-never-wins", CORE,
           "    for i in range(1, len(cards)):", "    for i in range(1, len(cards) - 1):",
           "the last card played to a trick never wins it"),
    # ------------------------------------------------ scoring
    Mutant("moon-off-ignored", CORE,
           "    if rules.moon is Moon.OFF:\n        return None\n", "",
           "moon 'off' is ignored"),
    Mutant("moon-on-any-penalty", CORE,
           "if t & pm == pm), None)", "if t & pm), None)",
           "taking any penalty card counts as shooting the moon"),
    Mutant("moon-others-inverted", CORE,
           "        scores = tuple((0 if s == who else value) + keep[s] for s in range(n))",
           "        scores = tuple((value if s == who else 0) + keep[s] for s in range(n))",
           "moon 'others': the shooter takes the points"),
    Mutant("moon-minus-plus", CORE,
           "        scores = tuple((-value if s == who else 0) + keep[s] for s in range(n))",
           "        scores = tuple((value if s == who else 0) + keep[s] for s in range(n))",
           "moon 'shooter_minus': the shooter adds instead of subtracting"),
    Mutant("moon-drops-the-jack", CORE,
           "    keep = [sum(p for c, p in jd if t >> c & 1) for t in taken]",
           "    keep = [0 for t in taken]",
           "a moon cancels the J♦'s -10"),
    Mutant("shooter-choice-inverted", CORE,
           "        return Moon.OTHERS\n    return Moon.SHOOTER_MINUS",
           "        return Moon.SHOOTER_MINUS\n    return Moon.OTHERS",
           "moon 'shooter_choice' takes the wrong choice"),
    # ------------------------------------------------ two decks: cancellation (core.winner)
    Mutant("no-cancellation", CORE,
           "        if cards.count(c) == 1 and beats(c, w, led):",
           "        if beats(c, w, led):",
           "identical cards in one trick do not cancel"),
    Mutant("never-set-aside", CORE,
           "    if best is None and last:", "    if best is None:",
           "a trick whose led suit is all cancelled goes by the last-trick fallback, never set aside"),
    Mutant("set-aside-second-ignored", CORE,
           "    if rules.set_aside_last is SetAside.LEADER:\n        return 0\n",
           "    return 0\n",
           "set_aside_last 'second' is ignored: the leader takes the last trick"),
    Mutant("set-aside-first-copy", CORE,
           "    return max(i for i, c in enumerate(cards) if c == top)",
           "    return min(i for i, c in enumerate(cards) if c == top)",
           "set_aside_last 'second': the first copy of the highest card takes it"),
    Mutant("twin-lead-from-seat-0", CORE,
           "    return next(s % n for s in range(dealer + 1, dealer + 1 + n) if hands[s % n] & bit)",
           "    return next(s for s in range(n) if hands[s] & bit)",
           "with both 2♣ out, the lower-numbered holder leads, not the first clockwise from the dealer"),
    Mutant("moon-one-copy", CORE,
           "if t & pm == pm and twice[s] & pm2 == pm2), None)",
           "if t & pm == pm), None)",
           "two decks: one copy of each penalty card is a moon"),
    Mutant("moon-drops-second-jack", CORE,
           "        keep[s] += sum(p for c, p in jd if t >> c & 1)",
           "        keep[s] += 0",
           "two decks: a moon cancels the second J♦'s -10"),
    Mutant("moon-value-one-deck", RULES,
           "        return sum(p * n for p, n in zip(self.points, self.copies) if p > 0)",
           "        return sum(p for p in self.points if p > 0)",
           "two decks: a moon is worth one deck's penalty points (26)"),
    Mutant("engine-no-carry", "hearts_cli/play/two_decks.py",
           "        carried = tuple(self.set_aside)\n",
           "        carried = ()\n",
           "the engine forgets set-aside tricks: nobody takes them"),
    Mutant("engine-aside-leader-moves", "hearts_cli/play/two_decks.py",
           "            self.tricks.append(done)\n            return done\n",
           "            self.tricks.append(done)\n            self.leader = self.turn = (leader + 1) % self.players\n"
           "            return done\n",
           "after a set-aside trick the next player leads, not the same one"),
    # ------------------------------------------------ rule facts (computed once, on Rules)
    Mutant("queen-12", RULES, "            pts[QUEEN_OF_SPADES] = 13", "            pts[QUEEN_OF_SPADES] = 12",
           "the Q♠ is worth 12"),
    Mutant("queen-never-breaks", RULES,
           "            return HEARTS_MASK | 1 << QUEEN_OF_SPADES", "            return HEARTS_MASK",
           "hearts_break 'heart_or_queen': the Q♠ does not break hearts"),
    Mutant("no-hearts-forbids-queen", RULES,
           "            return self.penalty_mask & HEARTS_MASK", "            return self.penalty_mask",
           "first_trick 'no_hearts' forbids the Q♠ too"),
    # ------------------------------------------------ derived paths: the differential test alone
    Mutant("steps-no-first-discard", GEN,
           "    follow = chain_source(rules, core.FOLLOW, consts)",
           "    follow = chain_source(rules, core.FOLLOW, consts, first=False)",
           "playout_steps drops the first-trick discard rule (the issue's finding)", PATH_TESTS),
    Mutant("steps-no-hearts-rule", GEN,
           "    lead = chain_source(rules, core.LEAD, consts)",
           "    lead = chain_source(rules, core.LEAD, consts, broken=True)",
           "playout_steps lets hearts be led before they are broken", PATH_TESTS),
    Mutant("steps-winner-any-suit", GEN,
           '        beats_c=core.BEATS.format(c="c", w="wc", led="led"),',
           '        beats_c="c > wc",',
           "playout_steps: a higher card of any suit wins", PATH_TESTS),
    Mutant("steps-kitty-lost", GEN,
           "                tm |= pos.kitty\n", "",
           "playout_steps: the first trick's winner does not take the kitty", PATH_TESTS),
    Mutant("loops-no-first-discard", GEN,
           '        out.append(f"h = h & {expr} or h  # {why}\\n")',
           '        pass',
           "the generated loops drop the restrictions on a discard (first trick)", PATH_TESTS),
    Mutant("loops-first-follow-free", GEN,
           "_FOLLOW_FIRST.replace(\"{allowed}\", first_follow) if first_follow else _FOLLOW",
           "_FOLLOW",
           "the generated loops let a point card follow suit to a free first trick", PATH_TESTS),
    Mutant("loops-hearts-led-early", GEN,
           '    unbroken_lead = _lead_source(core.chain(rules, core.LEAD, False, False), "L", consts)',
           '    unbroken_lead = _lead_source(core.chain(rules, core.LEAD, False, True), "L", consts)',
           "the generated loops let hearts be led before they are broken", PATH_TESTS),
    Mutant("loops-winner-lower", GEN,
           "    if b > best:\n        best = b\n", "    if b < best:\n        best = b\n",
           "the generated loops give the trick to a lower card", PATH_TESTS),
    Mutant("loops-led-heart-never-breaks", GEN,
           '            led_breaks.append(f"led == {u}")\n', "            pass\n",
           "the generated loops: a heart led or followed does not break hearts", PATH_TESTS),
    # fast.Position and fast.MultiPosition share legal_mask (fast.PlayPosition): the same
    # patch twice, each run against the differential test of one kind alone
    Mutant("position-forgets-first-trick", "hearts_cli/play/fast.py",
           "% self.n],\n                          trick[0] // 13 if trick else -1, self.first_trick,",
           "% self.n],\n                          trick[0] // 13 if trick else -1, False,",
           "fast.Position.legal_mask (shared with two decks) forgets the first trick",
           (f"{PATH_TESTS[0]}::test_position_and_step_api_match_the_engine_card_by_card",)),
    Mutant("position-last-card-wins", "hearts_cli/play/fast.py",
           "        winner = (self.leader + core.trick_winner(trick)) % n",
           "        winner = (self.leader + n - 1) % n",
           "fast.Position.play gives the trick to the last card", PATH_TESTS),
    Mutant("multi-forgets-first-trick", "hearts_cli/play/fast.py",
           "% self.n],\n                          trick[0] // 13 if trick else -1, self.first_trick,",
           "% self.n],\n                          trick[0] // 13 if trick else -1, False,",
           "fast.MultiPosition.legal_mask (shared with one deck) forgets the first trick",
           (f"{PATH_TESTS[0]}::test_two_deck_path_matches_the_engine_card_by_card",)),
    Mutant("multi-no-cancellation", "hearts_cli/play/fast.py",
           "        best = core.winner(self.rules, trick, last)\n        cards = trick + self.kitty",
           "        best = core.trick_winner(trick)\n        cards = trick + self.kitty",
           "fast.MultiPosition (two decks) ignores cancellation", PATH_TESTS),
    Mutant("multi-no-carry", "hearts_cli/play/fast.py",
           "        cards += self.aside\n", "",
           "fast.MultiPosition forgets set-aside tricks", PATH_TESTS),
    Mutant("engine-forgets-first-trick", "hearts_cli/play/round.py",
           "trick[0] // 13 if trick else -1, not self.tricks,",
           "trick[0] // 13 if trick else -1, False,",
           "Round.legal_mask forgets the first trick", PATH_TESTS),
    Mutant("engine-reason-misreads-the-trick", "hearts_cli/play/verdicts.py",
           "    led = rnd.trick[0] // 13 if rnd.trick else -1\n    found = core.reason(",
           "    led = -1\n    found = core.reason(",
           "the engine's verdicts (verdicts._reason) treat every card as a lead", PATH_TESTS),
    Mutant("solve-ignores-broken", "hearts_cli/bots/playout.py",
           "    legal = core.legal(c.rules, hand, led if k else -1, False, broken, hands)",
           "    legal = core.legal(c.rules, hand, led if k else -1, False, True, hands)",
           "Hard's endgame search lets hearts be led before they are broken",
           ("tests/test_bots.py",)),
]


def _copy(dest: Path) -> None:
    for name in ("hearts_cli", "tests", "seeds"):
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc"))
    for name in ("pyproject.toml",):
        shutil.copy2(ROOT / name, dest / name)


def _run(m: Mutant | None, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
    """``(status, seconds, last line)``: status is killed, survived, broken or timeout
    (the unpatched copy reports survived when its tests pass)."""
    with tempfile.TemporaryDirectory(prefix="hearts-mutant-") as tmp:
        dest = Path(tmp)
        _copy(dest)
        if m is not None:
            target = dest / m.path
            text = target.read_text(encoding="utf-8")
            count = text.count(m.old)
            if count != 1:
                return f"broken (the text to patch occurs {count} times)", 0.0, ""
            target.write_text(text.replace(m.old, m.new), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(dest), PYTHONDONTWRITEBYTECODE="1",
                   HYPOTHESIS_PROFILE="mutation")
        env.pop("PYTEST_ADDOPTS", None)
        start = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                cwd=dest, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start, ""
        took = time.monotonic() - start
        lines = [x for x in proc.stdout.splitlines() if x.strip()]
        last = lines[-1] if lines else proc.stderr.strip().splitlines()[-1:] or [""]
        last = last if isinstance(last, str) else last[0]
        if proc.returncode == 0:
            return "survived", took, last
        if proc.returncode == 1:
            return "killed", took, next((x for x in lines if x.startswith("FAILED")), last)
        return f"broken (pytest exit {proc.returncode})", took, last


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated mutant names")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant")
    a = ap.parse_args(argv)
    chosen = MUTANTS
    if a.only:
        names = set(a.only.split(","))
        unknown = names - {m.name for m in MUTANTS}
        if unknown:
            ap.error(f"no such mutant: {', '.join(sorted(unknown))}")
        chosen = [m for m in MUTANTS if m.name in names]
    if a.list:
        for m in chosen:
            print(f"{m.name:34} {m.path:28} {m.what}")
        return 0
    tests = tuple(sorted({t for m in chosen for t in m.tests}))
    status, took, last = _run(None, tests, a.timeout)
    print(f"unpatched copy ({', '.join(tests)}): {status}, {took:.0f} s", flush=True)
    if status != "survived":
        print("  the tests fail without any mutant; fix that first:", last)
        return 2
    print(f"{'mutant':34} {'file':28} {'result':9} {'s':>4}  what it breaks")
    results: dict[str, str] = {}
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = {m.name: pool.submit(_run, m, m.tests, a.timeout) for m in chosen}
        for m in chosen:
            status, took, last = futures[m.name].result()
            results[m.name] = status
            print(f"{m.name:34} {m.path:28} {status:9} {took:4.0f}  {m.what}", flush=True)
            if status != "killed":
                print(f"{'':34} -> {last}")
    killed = sum(1 for s in results.values() if s == "killed")
    print(f"{killed} of {len(results)} mutants killed")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
