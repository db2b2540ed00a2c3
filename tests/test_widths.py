"""Every screen from 40 columns (issue 18 §4), in both languages.

Each command and scene is shown at 40, 60, 80 and 120 columns and compared with the same
output on a very wide screen: no line is wider than the screen, and every line break the
narrow screen adds falls between two words that may part, never inside a word (a line the
terminal had to cut) and never between a name and its number or level ("East" / "0.",
"North" / "(Easy)"). A command line to copy (an invitation, a file's path) is kept whole
on purpose and is the one thing allowed to be wider than the screen.

The game itself runs in a pseudo-terminal (pexpect + pyte, as tests/test_pty.py), once per
width and language; the commands that print and exit run in this process with ``COLUMNS``
set, which is what they read the width from.
"""

from __future__ import annotations

import functools
import itertools
import re
import tempfile
from pathlib import Path

import pytest
from conftest import run

from hearts_cli.base.wrapping import joins, wrap_text
from hearts_cli.repl.layout import plain, reflow, wrap

WIDTHS = (40, 60, 80, 120)
LANGS = ("en", "es")
WIDE = 400
CODE = "K7Q2MXA7"  # South passes 2♦ 3♦ 7♥; to 1 point, one round ends the game
TWIN = "8C JC QC KC KD QS KH KS KS 4D 8D KD AD TS TS AH AH AS 2C QC TC TC AC QC AS JS"  # a long verdict
COPY = re.compile(r"(hearts join \S+|/\S+\.yaml)")  # copied whole, whatever the width


def words_of(text: str) -> set[tuple[str, str]]:
    """Each pair of neighbouring words of the wide output, line by line."""
    pairs = set()
    for line in text.splitlines():
        w = line.split()
        pairs.update(itertools.pairwise(w))
    return pairs


def whole_words(text: str) -> set[str]:
    return {w for line in text.splitlines() for w in line.split()}


def assert_fits(narrow: str, wide: str, cols: int) -> None:
    """``narrow`` (the screen at ``cols`` columns) holds: no line wider than the screen unless
    it is a command line to copy, no word cut by the terminal, no pair split by a break."""
    pairs, words = words_of(wide), whole_words(wide)
    lines = [line.rstrip() for line in narrow.splitlines()]
    problems = []
    for line in lines:
        if len(line) > cols and not COPY.search(line):
            problems.append(f"wider than {cols}: {line!r}")
    for a, b in itertools.pairwise(lines):
        if not a.split() or not b.split():
            continue
        last, first = a.split()[-1], b.split()[0]
        if COPY.search(last + first):
            continue
        if last + first in words and last not in words and len(a) >= cols - 1:
            problems.append(f"a word cut in two: {last!r} / {first!r}")
        elif (last, first) in pairs and joins(last, first):
            problems.append(f"a pair split: {last!r} / {first!r}")
    assert not problems, "\n".join(problems) + f"\n--- at {cols} columns ---\n{narrow}"


# ---------------------------------------------------------------- the rule itself, quickly


def test_a_name_keeps_its_total_and_its_level_on_its_line() -> None:
    totals = "Totals: You 0 · West 0 · North 0 · East 0."
    rows = [plain(r) for r in wrap([("", totals)], 39)]
    assert rows == ["Totals: You 0 · West 0 · North 0 ·", "East 0."]
    assert wrap_text("You play against West (Easy), North (Normal), East (Hard).", 39) == [
        "You play against West (Easy),", "North (Normal), East (Hard)."]
    # a row of numbers is not a pair: it still breaks where it must
    assert len(wrap_text("Scores 10 20 30 40 50 60 70 80 90 100 110 120", 20)) > 1


def test_help_in_the_game_is_wrapped_anew_without_stubs() -> None:
    from hearts_cli.text.catalog import t

    for lang in LANGS:
        text = reflow(t("help_text", lang))
        rows = [plain(r) for line in text.split("\n") for r in wrap([("", line)], 39)]
        # a stub is a short line followed by one that would have fitted after it
        for a, b in itertools.pairwise(rows):
            first = wrap_text(b, 1)[0]  # its first word, with what may not part from it
            assert len(a) + 1 + len(first) > 39 or a.endswith((".", ":")), (a, b)


# ---------------------------------------------------------------- commands that print and exit

COMMANDS = {
    "rules": ["rules", "--tips"],
    "sim": ["sim", "--seats", "easy,normal,easy,normal", "--deals", "2", "--seed", "3"],
}


def _printed(args: list[str], lang: str, cols: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(cols))
    result = run(*args, "--lang", lang)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_holds_at_every_width(name: str, lang: str, isolated: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    wide = _printed(COMMANDS[name], lang, WIDE, monkeypatch)
    for cols in WIDTHS:
        assert_fits(_printed(COMMANDS[name], lang, cols, monkeypatch), wide, cols)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_explain_holds_at_every_width_in_a_terminal(lang: str, terms: list, home: Path) -> None:
    from test_pty import spawn

    def screen(cols: int) -> str:
        term = spawn(terms, ["explain", "QS", "--code", "QSPADE7B", "--preset", "cancellation",
                             "--players", "6", "--moves", TWIN, "--lang", lang], home, cols=cols, rows=40)
        term.wait_for(lambda s: term.eof or not term.child.isalive(), timeout=60)
        while term.pump(0.1):
            pass
        return term.text()

    wide = screen(WIDE)
    for cols in WIDTHS:
        assert_fits(screen(cols), wide, cols)


# ---------------------------------------------------------------- a game, in a pseudo-terminal

GAME_WORDS = {  # what is typed, in each language
    "en": {"pass": "Cards to pass>", "card": "Your card>", "cmds": ["help", "rules", "score", "tricks", "log"]},
    "es": {"pass": "Cartas para pasar>", "card": "Tu carta>",
           "cmds": ["ayuda", "reglas", "puntos", "bazas", "registro"]},
}


def _game_screen(terms: list, home: Path, cols: int, lang: str) -> str:
    from test_pty import spawn

    words = GAME_WORDS[lang]
    term = spawn(terms, ["new", "--code", CODE, "--target", "1", "--no-confirm", "--lang", lang],
                 home, cols=cols, rows=400, timeout=60)
    term.wait_prompt(words["pass"])
    term.send("pass 2d 3d 7h\r")
    term.wait_prompt(words["card"])
    term.send("2c\r")  # the first trick
    for cmd in words["cmds"]:
        term.wait_prompt(words["card"])
        term.send(cmd + "\r")
    term.wait_prompt(words["card"])
    term.send("auto\r")  # the rest of the round, its end and the game's end, the chart, the archive
    term.wait_for(lambda s: "hearts replay" in s, timeout=90)
    while term.pump(0.3):
        pass
    return term.text()


@functools.cache
def _wide_game(lang: str) -> str:
    """The game on a screen wide enough for every line: played once per process and language."""
    opened: list = []
    try:
        return _game_screen(opened, Path(tempfile.mkdtemp()) / "home", 300, lang)
    finally:
        for term in opened:
            term.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cols", WIDTHS)
def test_the_game_holds_at_every_width(cols: int, lang: str, terms: list, tmp_path: Path) -> None:
    wide = _wide_game(lang)
    narrow = _game_screen(terms, tmp_path / "narrow", cols, lang)
    assert_fits(narrow, wide, cols)
    if cols >= 80:  # help's own line breaks (for 80 columns) fit: it is shown as written
        return
    # help, re-wrapped as a whole: each line as full as the next word allows (no stub left
    # by a line break written for 80 columns)
    lines = narrow.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith("> " + GAME_WORDS[lang]["cmds"][0]))
    end = next(i for i in range(start + 1, len(lines)) if "> " in lines[i])
    block = lines[start + 1:end]
    assert len(block) > 3, narrow
    for a, b in itertools.pairwise(block):
        first = wrap_text(b, 1)[0]
        assert len(a) + 1 + len(first) > cols - 1 or a.endswith((".", ":")), (a, b, narrow)
