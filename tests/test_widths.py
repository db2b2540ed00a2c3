"""Every screen from 40 columns (issue 18 §4), in both languages.

Each command and scene is shown at 40, 60, 80 and 120 columns and compared with the same
output on a very wide screen: no line is wider than the screen less its margin (the
commands keep :data:`~hearts_cli.base.wrapping.MARGIN` columns free at every width; the
game's table, prompt-toolkit's screen, one), and every line break the narrow screen adds
falls between two words that may part, never inside a word (a line the terminal had to
cut) and never between a name and its number or level ("East" / "0.", "North" / "(Easy)").

One thing may be wider than the screen: an invitation of `hearts host` (``hearts join
HOST:PORT/SEAT-TOKEN``, about 40 columns by itself). It is a command line to copy: broken
in two, a terminal's copy would hold a line break, and a shortened one opens no seat. An
archived game's file is not such a line any more: the end of a game names it by its code
(``hearts replay CODE``), and the file follows only where the screen holds it whole.

Only what must read the size from a real terminal runs in a pseudo-terminal (pexpect + pyte,
as tests/test_pty.py): the game, and explain once per language. Everything else is shown in
this process: ``COLUMNS`` for what wraps to it (help, rules, sim), and the terminal's size
as :func:`~hearts_cli.base.wrapping.screen_columns` reads it, set by the ``screen`` fixture,
for what wraps only on a terminal (explain, replay, stats, host, join); the toolbar is drawn
by its own function at each width.
"""

from __future__ import annotations

import functools
import itertools
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import HOST, assert_user_error, run

from hearts_cli.base import wrapping
from hearts_cli.base.wrapping import MARGIN, joins, wrap_text
from hearts_cli.repl.layout import plain, reflow, wrap

WIDTHS = (40, 60, 80, 120)
LANGS = ("en", "es")
WIDE = 400
CODE = "K7Q2MXA7"  # South passes 2♦ 3♦ 7♥; to 1 point, one round ends the game
TWIN = "8C JC QC KC KD QS KH KS KS 4D 8D KD AD TS TS AH AH AS 2C QC TC TC AC QC AS JS"  # a long verdict
COPY = re.compile(r"hearts join \S+")  # an invitation: copied whole, whatever the width (see above)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def words_of(text: str) -> set[tuple[str, str]]:
    """Each pair of neighbouring words of the wide output, line by line."""
    pairs = set()
    for line in text.splitlines():
        w = line.split()
        pairs.update(itertools.pairwise(w))
    return pairs


def whole_words(text: str) -> set[str]:
    return {w for line in text.splitlines() for w in line.split()}


def assert_fits(narrow: str, wide: str, cols: int, margin: int = MARGIN) -> None:
    """``narrow`` (the screen at ``cols`` columns) holds: no line wider than the screen less
    ``margin`` unless it is a command line to copy, no word cut by the terminal, no pair split
    by a break."""
    pairs, words = words_of(wide), whole_words(wide)
    lines = [line.rstrip() for line in narrow.splitlines()]
    problems = []
    for line in lines:
        if len(line) > cols - margin and not COPY.search(line):
            problems.append(f"wider than {cols} less {margin}: {line!r}")
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
    # nor a number its unit or the count in brackets after it, nor a numbered name its card
    # or its level (issue 33 §4.1, §4.6)
    assert wrap_text("North takes trick 3, with 13 points.", 33) == ["North takes trick 3,", "with 13 points."]
    assert wrap_text("Clubs: 2 3 4 5 6 7 8 9 10 J (10)", 30) == ["Clubs: 2 3 4 5 6 7 8 9 10", "J (10)"]
    assert wrap_text("On the table: Right 2: 10♠, You: 2♠.", 26) == ["On the table:", "Right 2: 10♠, You: 2♠."]
    assert wrap_text("You play against Left 1 (Easy), Left 2 (Normal).", 38) == [
        "You play against Left 1 (Easy),", "Left 2 (Normal)."]
    # a row of numbers is not a pair: it still breaks where it must
    assert len(wrap_text("Scores 10 20 30 40 50 60 70 80 90 100 110 120", 20)) > 1


def test_what_does_not_fit_the_toolbar_is_cut_where_a_line_may_break() -> None:
    """The toolbar's last line, shortened with an ellipsis, never ends in a name whose number
    was cut off ("East…" for "East 0."), nor in half a word."""
    from hearts_cli.repl.layout import shorten

    for text in ("Totals: You 0 · West 13 · North 26 · East 104 · Left 1 7 · Right 1 9.",
                 "You play against West (Easy), North (Normal), East (Hard), to 100 points.",
                 "Round 3 points: You 4 · West 13 · North 0 · East 9; totals: You 14 · West 26."):
        narrowest = max(12, *map(len, wrapping.units(text)))  # (a pair wider than the line must part)
        for width, lines in itertools.product(range(narrowest, len(text)), (1, 2)):
            rows = shorten(text, width, lines, "…").split("\n")
            assert all(len(row) <= width for row in rows), rows
            assert not _cut_whole(text, rows, "…"), (width, rows)


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


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``screen(cols)``: the terminal is ``cols`` columns wide for what runs in this process,
    both as ``$COLUMNS`` says (help, rules, sim) and as the terminal's own size is read
    (:func:`~hearts_cli.base.wrapping.screen_columns`: explain, replay, stats, host, join)."""
    def at(cols: int) -> None:
        monkeypatch.setenv("COLUMNS", str(cols))
        monkeypatch.setattr(wrapping, "screen_columns", lambda stream: cols)
    return at


def _archive(home: Path) -> None:
    """Finished games written into the archive with the store's API (none played at a table):
    long preset names, five players, undos, a tie for first place, a shared table's game and a
    file that is not a record, so that every line of `hearts stats` shows."""
    from test_stats import Archive

    from hearts_cli.records.record_parts import Seat

    (home / "archive").mkdir(parents=True, exist_ok=True)
    arc = Archive(home)
    for preset in ("quick", "standard", "omnibus", "shooter-minus"):
        arc.add(preset, won=preset != "omnibus")
    arc.add("reference", players=5, undos=2)
    arc.add("quick", seats=(Seat("Ana", "human"), Seat("Bo", "human"), Seat("North", "cpu", "normal"),
                            Seat("East", "cpu", "hard")))
    (home / "archive" / "20260301-000000-NOTAGAME.yaml").write_text("format: hearts-record/1\n")


REPLAYS = FIXTURES / "replays"
COMMANDS = {
    "rules": ["rules", "--tips"],
    "sim": ["sim", "--seats", "easy,normal,easy,normal", "--deals", "2", "--seed", "3"],
    "replay": ["replay", str(REPLAYS / "moon.yaml")],
    "replay-seat": ["replay", str(REPLAYS / "tie-share.yaml"), "--seat", "1"],
    "replay-at": ["replay", str(REPLAYS / "omnibus-jd.yaml"), "--at", "1.7.2", "--all-hands"],
    "replay-analyze": ["replay", str(REPLAYS / "blunder.yaml"), "--analyze", "--seat", "0", "--simulations", "4"],
    "stats": ["stats"],
    "stats-filtered": ["stats", "--preset", "reference", "--since", "2026-01-01"],
    "help": ["help"],  # issue 26: the topics, for pip users
    "help-playing": ["help", "playing"],
    "help-settings": ["help", "settings"],
    "help-sim": ["help", "sim"],
    "help-programs": ["help", "programs"],
}


def _printed(args: list[str], lang: str, cols: int, screen: Callable[[int], None]) -> str:
    screen(cols)
    result = run(*args, "--lang", lang)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_holds_at_every_width(name: str, lang: str, isolated: Path, home: Path,
                                        screen: Callable[[int], None]) -> None:
    if name.startswith("stats"):
        _archive(home)
    wide = _printed(COMMANDS[name], lang, WIDE, screen)
    for cols in WIDTHS:
        assert_fits(_printed(COMMANDS[name], lang, cols, screen), wide, cols)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@functools.cache
def _simulation() -> object:
    """Two deals of Easy and Normal CPUs (quick ones), played once per process: only the report is drawn."""
    from hearts_cli.cli import sim
    from hearts_cli.model.rules import Rules

    return sim.run(Rules.from_spec("quick"), ["easy", "normal", "normal", "normal"], 2, "q")


@pytest.mark.parametrize("lang", LANGS)
def test_sim_s_boxed_tables_hold_at_every_width(lang: str, screen: Callable[[int], None]) -> None:
    """`hearts sim` on a terminal (colour: rich's boxed tables) once squeezed its ten columns
    into the screen and cut every cell ("roun…", "100.…", at 40 columns "…" alone): it splits
    them into tables that fit instead, each led by the level, every number and heading whole
    and each table's rows as wide as its rules (the columns line up)."""
    from hearts_cli.cli import sim

    result = _simulation()
    assert isinstance(result, sim.Simulation)
    head1, rows1, head2, rows2 = sim._rows(result)
    cells = {c for row in rows1 + rows2 for c in row} | {w for h in head1 + head2 for w in sim.t(h, lang).split()}

    def shown(cols: int) -> str:
        screen(cols)
        return ANSI.sub("", sim.render(result, lang, color=True))

    wide = shown(WIDE)
    for cols in WIDTHS:
        narrow = shown(cols)
        assert_fits(narrow, wide, cols)
        assert "…" not in narrow, narrow
        assert cells <= whole_words(narrow.replace("┃", " ").replace("│", " ")), narrow
        boxed = [line.rstrip() for line in narrow.splitlines() if line[:1] in "┏┃┡│└"]
        for top, *rest in _tables(boxed):
            assert all(len(line) == len(top) for line in rest), (cols, narrow)


def _tables(boxed: list[str]) -> list[list[str]]:
    """The boxed lines, a list for each table (a table opens with its top rule)."""
    out: list[list[str]] = []
    for line in boxed:
        if line.startswith("┏"):
            out.append([])
        out[-1].append(line)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_unfinished_games_hold_at_every_width(lang: str, isolated: Path, home: Path,
                                                  screen: Callable[[int], None]) -> None:
    """Issue 33 §4.2: `hearts play --unfinished` printed a line of 61 columns a game (the time,
    the code, the command), which a 40-column terminal cut inside the command to copy, and did
    not say where a game stood. Each game now says its round (its trick, or the pass) and its
    scores, wrapped to the screen, and the command follows on a line of its own, whole."""
    from hearts_cli.store.saves import Store

    assert run("new", "--no-play", "--code", CODE).exit_code == 0
    with Store() as store:  # two tricks played: round 1, trick 3
        loaded = store.load()
        assert loaded is not None
        game = loaded.game
        for seat in range(4):
            game.push_pass(game.round.hand(seat)[:3], seat)
        while len(game.round.tricks) < 2:
            game.push(game.round.legal_cards()[0])
        store.save(game, loaded.seats)
    assert run("new", "--no-play", "--preset", "cancellation", "--players", "9").exit_code == 0
    assert run("new", "--no-play").exit_code == 0
    wide = _printed(["play", "--unfinished"], lang, WIDE, screen)
    words = {"en": ("round 1, trick 3", "South 0 · West 0"), "es": ("ronda 1, baza 3", "Sur 0 · Oeste 0")}[lang]
    assert all(w in wide for w in words) and ": 0 · " in wide, wide  # (nine seats: "Left 1: 0")
    for cols in WIDTHS:
        narrow = _printed(["play", "--unfinished"], lang, cols, screen)
        assert_fits(narrow, wide, cols)
        commands = [line for line in narrow.splitlines() if "hearts play --resume" in line]
        assert len(commands) == 2 and all(re.fullmatch(r"  hearts play --resume [0-9A-Z]{8}", c) for c in commands)
        assert any(CODE in c for c in commands), narrow  # (two archived the same second: either order)


NO_PLAY = {  # the table `hearts new --no-play` prints and leaves: four seats, and eight round the trick
    "quick": ["new", "--code", CODE, "--no-play"],
    "cancellation": ["new", "--preset", "cancellation", "--code", CODE, "--no-play"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(NO_PLAY))
def test_new_without_play_holds_at_every_width(name: str, lang: str, isolated: Path, tmp_path: Path,
                                               screen: Callable[[int], None],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`hearts new --no-play` on a terminal once printed the table laid out for 80 columns at
    40, and its sentences whole ("You play against ... North (Easy), ..." cut by an 80-column
    terminal): it is laid out and wrapped for the terminal as the game's screen is (a column
    free; the seats round the trick use all 40 at 40). The warnings about settings.yaml are
    wrapped too (to the screen less its margin). A pipe still gets whole lines."""
    monkeypatch.chdir(tmp_path)

    def shown(cols: int | None) -> tuple[str, str]:
        if cols is None:  # a pipe
            monkeypatch.setattr(wrapping, "screen_columns", lambda stream: None)
        else:
            screen(cols)
        home = Path(f"h{cols or WIDE:03d}" if cols != WIDE else "wide")  # one each, paths as long
        home.mkdir()
        (home / "settings.yaml").write_text("foo: 1\ndelay: slow\nundo: maybe\n")
        monkeypatch.setenv("HEARTS_HOME", str(home))
        result = run(*NO_PLAY[name], "--lang", lang)
        assert result.exit_code == 0, result.stdout + result.stderr
        return result.stdout, result.stderr.replace(str(home), "home")

    wide, warned = shown(WIDE)
    assert len(warned.splitlines()) == 3, warned
    for cols in WIDTHS:
        out, err = shown(cols)
        assert_fits(out, wide, cols, margin=0)
        assert_fits(err, warned, cols)
        assert err.split() == warned.split()
    assert shown(None) == (wide, warned)  # a pipe: the same lines as the widest screen, whole


def test_the_margin_is_the_same_at_every_width(monkeypatch: pytest.MonkeyPatch, screen: Callable[[int], None],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Text wrapped to ``$COLUMNS`` and text wrapped to the terminal keep the same margin, at
    40 columns as at 80 (the floor of 40 once left none at 40), and the progress line of a long
    analysis is rewritten in place: never wider than the screen less the margin."""
    from hearts_cli.cli.commands.replay import _progress
    from hearts_cli.cli.output import Out, width

    for cols in (*WIDTHS, 200):
        screen(cols)
        assert width() == min(cols, 100) - MARGIN
        for lang in LANGS:
            tick = _progress(Out(lang, ascii=False, color=False))
            for done in (0, 7, 120):
                tick(done, 120)
            shown = capsys.readouterr().err.replace("\n", "\r").split("\r")
            assert all(len(line) <= cols - MARGIN for line in shown), (cols, shown)
            assert cols < 60 or "#" * 24 in shown[-2]  # the whole bar where there is room for it


@pytest.mark.parametrize("lang", LANGS)
def test_an_archived_game_is_opened_by_its_code(lang: str, home: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of a game names the game by its code (`hearts replay CODE`, a line that fits
    any screen) and the file only where it fits whole: replay opens the newest game archived
    with that code, and a file of that name comes first."""
    from test_stats import Archive

    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    (home / "archive").mkdir(parents=True)
    arc = Archive(home)
    arc.add("quick")
    path = arc.add("quick")
    code = arc.games[-1][0].code
    by_code, by_file = run("replay", code.lower(), "--lang", lang), run("replay", str(path), "--lang", lang)
    assert by_code.exit_code == 0 and by_code.stdout == by_file.stdout
    assert_user_error(run("replay", "K7Q2MXA7", "--lang", lang), "K7Q2MXA7")  # no game archived with it
    monkeypatch.chdir(tmp_path)
    (tmp_path / code).write_text((FIXTURES / "replays" / "moon.yaml").read_text())
    assert run("replay", code).stdout == run("replay", str(FIXTURES / "replays" / "moon.yaml")).stdout

    tb = Table(Game(arc.games[-1][0].rules, code), make_seats(4, 0, None), lang=lang)
    for cols in (*WIDTHS, WIDE):
        said = Renderer(tb, plain=True, width=cols - 1).archived(tb.say("archived_at", code=code), str(path))
        shown = [plain(row) for line in said for row in wrap(line, cols - 1)]
        assert "  hearts replay " + code in shown
        file_line = tb.say("archived_file", path=str(path))
        assert (file_line in shown) == (len(file_line) <= cols - 1), shown
        assert all(len(line) < cols for line in shown), shown


# ---------------------------------------------------------------- a shared table: host and join


class _Replies:
    """A stand-in for a host at the other end of `hearts join`: it reads the hello of each
    connection, answers with ``line`` (what a real host said) and closes it."""

    def __init__(self, line: bytes):
        import socket
        import threading

        self.sock = socket.create_server((HOST, 0))
        self.port = self.sock.getsockname()[1]
        self.line = line
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.makefile("rb").readline()
                conn.sendall(self.line)


def _hello(port: int, token: str, lang: str, leave: bool) -> bytes:
    """What the host answers a hello with ``token``; with ``leave``, the person then leaves at
    once (the CPU plays the seat) and the connection is read to its end."""
    import json
    import socket

    with socket.create_connection((HOST, port), timeout=30) as conn:
        lines = conn.makefile("rb")
        conn.sendall(json.dumps({"cmd": "hello", "token": token, "name": "Ana", "lang": lang}).encode() + b"\n")
        first = lines.readline()
        if leave:
            conn.sendall(b'{"cmd": "quit"}\n')
            while lines.readline():  # until the host closes the seat's connection
                pass
    return first


def _host(lang: str) -> tuple[list[tuple[tuple, dict]], bytes, bytes]:
    """`hearts host` run in this process to the end of its game (one round of Easy CPUs): a
    game it finds unfinished, a wrong invitation, a person who sits down and leaves; returns
    the host's lines (the arguments of each ``_say``), and its answers to the wrong invitation
    and to the right one (a welcome)."""
    import threading

    from hearts_cli.cli import host as hosting
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.records.record_parts import Seat
    from hearts_cli.store.hosted import HostStore
    from hearts_cli.table.invitations import parse_invitation

    said: list[tuple[tuple, dict]] = []
    real_say = hosting._say
    hosting._say = lambda *a, **k: (said.append((a, k)), real_say(*a, **k))[-1]
    try:
        # a game left unfinished at the host's table: archived first, and said
        seats = (Seat("South", "human"), Seat("West", "cpu", "easy"), Seat("North", "cpu", "normal"),
                 Seat("East", "cpu", "hard"))
        HostStore().save(Game(Rules.from_spec("quick"), "JYR35SWD"), seats)
        rules = Rules.from_spec({"preset": "quick", "target": 1})
        options = {"rules": rules, "humans": 1, "level": "easy", "turn_timer": None, "delay": 0, "port": 0,
                   "bind": HOST, "cert": None, "key": None, "resume": False, "lang": lang, "code": CODE}
        host = threading.Thread(target=hosting.run_host, kwargs=options)
        host.start()
        while not any("hearts join" in a[0] for a, _ in said):
            assert host.is_alive(), said
            host.join(0.05)
        invitation = next(a[0] for a, _ in said if "hearts join" in a[0]).split()[-1]
        _, port, token, _ = parse_invitation(invitation)
        refused = _hello(port, "0-" + "x" * 22, lang, leave=False)
        welcome = _hello(port, token, lang, leave=True)
        host.join(60)
        assert not host.is_alive()
    finally:
        hosting._say = real_say
    return said, refused, welcome


def _join(lang: str, refused: bytes, welcome: bytes) -> str:
    """What `hearts join` says on stderr when it cannot sit down or loses the table: an
    invitation that is none, a table it cannot reach, a host that refuses (``refused``, what a
    host answered) and one that closes after its welcome (the connection lost)."""
    import io
    import socket
    import sys

    from hearts_cli.cli.join import run_join

    err, sys.stderr = sys.stderr, io.StringIO()
    try:
        assert run_join("no invitation at all", name=None, lang=lang, plain=True, as_json=False) == 2
        with socket.create_server((HOST, 0)) as free:
            closed = free.getsockname()[1]
        assert run_join(f"{HOST}:{closed}/0-x", name=None, lang=lang, plain=True, as_json=False) == 1
        for answer, status in ((refused, 2), (welcome, 1)):
            host = _Replies(answer)
            assert run_join(f"{HOST}:{host.port}/0-x", name=None, lang=lang, plain=True, as_json=False) == status
            host.sock.close()
        return sys.stderr.getvalue()
    finally:
        sys.stderr = err


@pytest.mark.parametrize("lang", LANGS)
def test_the_host_s_banner_and_join_s_sentences_hold_at_every_width(
        lang: str, home: Path, screen: Callable[[int], None], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What `hearts host` prints from its start to its end (a game it archived first, the
    invitation, a wrong one refused, a person who sits down and goes, the end, the archive, what
    was refused), said again at every width by the function that said it; and what `hearts
    join` says when it cannot sit down or loses the table, at every width."""
    import io
    import sys

    from hearts_cli.cli import host as hosting

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a join line by line: nothing typed
    screen(WIDE)
    said, refused, welcome = _host(lang)

    def shown(cols: int) -> str:
        screen(cols)
        capsys.readouterr()
        for args, kwargs in said:
            hosting._say(*args, **kwargs)
        out = capsys.readouterr()
        return out.out + out.err + _join(lang, refused, welcome)

    wide = shown(WIDE)
    for cols in WIDTHS:
        assert_fits(shown(cols), wide, cols)
    for seen in ("hearts replay JYR35SWD", "hearts replay " + CODE, "hearts join", "Ana", HOST):
        assert seen in wide, wide
    assert ": " + str(home) in wide  # the archived files too, where they fit
    assert len(_join(lang, refused, welcome).splitlines()) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_join_s_sentences_at_the_table_hold_at_every_width(lang: str, home: Path) -> None:
    """The lines of a shared table a seat sees (as `hearts join` shows them: laid out and
    wrapped by the session, a column free): the welcome, people sitting down, going and coming
    back, the CPU playing for them, and what is for a game of one's own."""
    from hearts_cli.model.rules import Rules
    from hearts_cli.model.seating import shown_name
    from hearts_cli.play.events import Event
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    tb = Table(Game(Rules.from_spec("quick"), CODE), make_seats(4, 0, None), lang=lang)
    names = ["Ana", "West", "María José", "East"]
    events = [Event("info", {"topic": "welcome", "text": tb.say(
        "net_welcome", seat=0, players=4, names=", ".join(shown_name(n, s, None, 4, lang)
                                                        for s, n in enumerate(names)))})]
    events += [Event("seat", {"seat": 2, "name": "María José", "status": st}) for st in ("joined", "left", "back")]
    events += [Event("takeover", {"seat": 2, "reason": why}) for why in ("timer", "away", "program")]
    events += [Event("takeover", {"seat": 2, "reason": "program", "status": -9})]
    events += [Event("error", {"code": mid, "message": tb.say(mid, command="replay-deal")})
               for mid in ("net_undo", "net_own_game", "net_no_hints", "net_left", "net_help")]

    def screen(cols: int) -> str:
        renderer = Renderer(tb, plain=True, width=cols - 1)
        return "\n".join(plain(row) for ev in events for line in renderer.event(ev) for row in wrap(line, cols - 1))

    wide = screen(WIDE)
    for cols in WIDTHS:
        assert_fits(screen(cols), wide, cols, margin=1)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 5, 9, 11])
def test_the_score_table_holds_at_every_width(players: int, lang: str, home: Path) -> None:
    """`score`, a round's end and the game's end with 3 to 11 players, and the table's line of
    totals: the round-by-round table once wrapped its heading at 40 columns (five players) and
    put numbers under the wrong names; it is split into tables that fit, each line of one as
    wide as its heading. From nine seats a name ends in a number ("Left 2"): a colon parts
    it from its score ("Left 2: 23", never "Left 2 23")."""
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.events import Event
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    spec = {"preset": "quick" if players <= 6 else "cancellation", "players": players}
    tb = Table(Game(Rules.from_spec(spec), CODE), make_seats(players, 2, None), lang=lang)
    rounds = [[(7 * r + 3 * s) % 27 for s in range(players)] for r in range(4)]  # numbers of 1 and 2 digits
    totals = [sum(r[s] for r in rounds) for s in range(players)]
    standings = [{"place": k, "seat": s, "total": totals[s]}
                 for k, s in enumerate(sorted(range(players), key=totals.__getitem__), 1)]
    events = [Event("score", {"totals": totals, "rounds": rounds, "points": rounds[-1]}),
              Event("round_end", {"round": 4, "taken": [0] * players, "scores": rounds[-1], "totals": totals,
                                  "shooter": None, "moon": None}),
              Event("game_end", {"winners": [standings[0]["seat"]], "totals": totals, "standings": standings,
                                 "rounds": rounds, "code": CODE})]
    head, foot = tb.say("col_round"), tb.say("col_total")

    def screen(cols: int) -> str:
        renderer = Renderer(tb, plain=True, width=cols - 1)
        lines = [line for ev in events for line in renderer.event(ev)] + renderer.table()
        return "\n".join(plain(row) for line in lines for row in wrap(line, cols - 1))

    wide = screen(WIDE)
    for cols in WIDTHS:
        shown = screen(cols)
        assert_fits(shown, wide, cols, margin=1)
        rows = shown.splitlines()
        tables = [rows[i:i + len(rounds) + 2] for i, row in enumerate(rows) if row.startswith(head + " ")]
        assert len(tables) >= 2 and all(t[-1].startswith(foot + " ") for t in tables), shown
        for table in tables:
            assert len({len(row) for row in table}) == 1, (cols, table)
        # every seat in each (a score and the game's end), each with its round's scores
        half = len(tables) // 2
        for part in (tables[:half], tables[half:]):
            named = [name for t in part for name in re.split(r"\s{2,}", t[0].strip())[1:]]
            assert named == [tb.name(s) for s in tb.round_the_table()], (cols, part)
        assert not re.search(r"[^\W\d_]\s\d+\s\d", shown), shown  # "Left 2 23"
        if players >= 9:
            assert " ".join(f"{tb.name(4)}: {totals[4]}".split()) in " ".join(shown.split()), shown


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 5, 9, 11])
def test_the_tricks_list_holds_at_every_width(players: int, lang: str, home: Path) -> None:
    """`tricks` (who led, who played what, who took it) with 3 to 11 players (issue 26's
    sweep): every line within the screen, at every width, in both languages."""
    import random

    from hearts_cli.model.rules import Rules
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer, plain
    from hearts_cli.repl.table import Table, make_seats

    spec = {"preset": "quick" if players <= 6 else "cancellation", "players": players}
    game = Game(Rules.from_spec(spec), CODE)
    rng = random.Random(players)
    rd = game.round
    if rd.phase is Phase.PASS:
        for seat in range(players):
            game.push_pass(rd.hand(seat)[: game.rules.pass_count], seat)
    while len(rd.tricks) < 3 or len(rd.trick) < 2:  # three tricks done, and one under way
        game.push(rng.choice(rd.legal_cards()))
    tb = Table(game, make_seats(players, 2, None), lang=lang)
    tb.handle("tricks" if lang == "en" else "bazas")
    [told] = [ev for ev in tb.events if ev.kind == "tricks"]

    def screen(cols: int) -> str:  # as the loop shows it: each line wrapped at the terminal, less one
        renderer = Renderer(tb, plain=True, width=cols - 1)
        return "\n".join(plain(row) for line in renderer.event(told) for row in wrap(line, cols - 1))

    wide = screen(WIDE)
    assert len(wide.splitlines()) >= 4
    for cols in WIDTHS:
        assert_fits(screen(cols), wide, cols, margin=1)


NUMBERED_CARD = re.compile(r"[^\W\d_] \d+ (?:10|[2-9JQKA])[♣♦♥♠CDHS]")  # "Right 2 10♠": read as "210♠"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [9, 11])
def test_a_numbered_seat_keeps_apart_from_its_card_and_with_its_level(players: int, lang: str) -> None:
    """From nine seats a name ends in a number ("Right 2"): in the trick line of the table, in
    `tricks` and `last`, a colon parts it from its card ("Right 2: 10♠", never "Right 2 10♠"),
    and no line break parts it from its card, nor from its level in the intro ("Left 1" /
    "(Easy)"), at any width (issue 33 §4)."""
    import random

    from hearts_cli.model.rules import Rules
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.events import Event
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    game = Game(Rules.from_spec({"preset": "cancellation", "players": players}), CODE)
    rng = random.Random(players)
    rd = game.round
    if rd.phase is Phase.PASS:
        for seat in range(players):
            game.push_pass(rd.hand(seat)[: game.rules.pass_count], seat)
    while len(rd.tricks) < 3 or len(rd.trick) < players - 1:  # three tricks done, one nearly
        game.push(rng.choice(rd.legal_cards()))
    tb = Table(game, make_seats(players, 0, None), lang=lang)
    tb.handle("tricks" if lang == "en" else "bazas")
    tb.handle("last" if lang == "en" else "ultima")
    told = [ev for ev in tb.events if ev.kind in ("tricks", "last")]
    start = Event("start", {"schema": 2, "code": CODE, "preset": "cancellation", "rules": {"preset": "cancellation"},
                            "target": 100, "players": players, "you": 0, "seats": []})

    def screen(cols: int) -> str:
        renderer = Renderer(tb, plain=True, width=cols - 1)
        lines = renderer.table() + [line for ev in [start, *told] for line in renderer.event(ev)]
        return "\n".join(plain(row) for line in lines for row in wrap(line, cols - 1))

    wide = screen(WIDE)
    assert f"{tb.name(1)} (" in wide and len(told) == 2, wide  # the intro names each level
    for cols in (*WIDTHS, WIDE):
        shown = screen(cols)
        assert not NUMBERED_CARD.search(" ".join(shown.split())), shown
        assert re.search(r"\d: (?:10|[2-9JQKA])[♣♦♥♠]", shown), shown
        if cols < WIDE:
            assert_fits(shown, wide, cols, margin=1)


def _number_parted(rows: list[str]) -> list[str]:
    """Where a line break parts a number from its unit ("2" / "pts") or from the count in
    brackets after it ("7" / "(6)"), or leaves a bracket at the head of a line."""
    problems = []
    for a, b in itertools.pairwise(rows):
        if not a.split() or not b.split():
            continue
        if re.search(r"\d$", a) and re.match(r"\s*(?:[a-zñáéíóú]|\()", b):
            problems.append(f"{a!r} / {b!r}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_no_number_leaves_its_unit_and_no_confirmation_leaves_a_word_alone(lang: str, home: Path) -> None:
    """Issue 33 §4.6: at 40 columns "2" ended a line and "pts" began the next, "(6)" stood
    alone at the head of a line, and a card's confirmation ended on a line of one word
    ("it."). At every width, in both languages: the confirmation of each card a hand may play,
    the count, the scores and the seats' points: no number parted from its unit, no lone
    last word."""
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    tb = Table(Game(Rules.from_spec("quick"), CODE), make_seats(4, 0, "easy"), lang=lang)
    confirms: list = []
    tb.confirm = False
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(tb.me)[:3]))
    for _ in range(6):  # six tricks: points taken, voids shown, cards of every suit played
        while tb.cpu_step():
            pass
        tb.handle(str(tb.game.round.legal_cards()[-1]))
    while tb.cpu_step():
        pass
    assert tb.game.round.phase is Phase.PLAY and tb.game.round.turn == tb.me
    tb.confirm = True
    for card in tb.game.round.legal_cards():
        tb.handle(str(card))
        confirms += [ev for ev in tb.events if ev.kind == "confirm"][-1:]
        tb.cancel()
    tb.handle("count" if lang == "en" else "cuenta")
    tb.handle("score" if lang == "en" else "puntos")
    told = [ev for ev in tb.events if ev.kind in ("count", "score")][-2:]
    assert len(confirms) >= 2 and len(told) == 2
    problems = []
    for cols in (*WIDTHS, 30):
        renderer = Renderer(tb, plain=True, width=cols - 1)
        for ev in confirms:
            [line] = renderer.event(ev)
            rows = [plain(r) for r in wrap(line, cols - 1)]
            if len(rows) > 1 and len(rows[-1].split()) < 2:
                problems.append(f"{cols}: a word alone: {rows!r}")
            problems += [f"{cols}: {p}" for p in _number_parted(rows)]
        for line in renderer.table() + [line for ev in told for line in renderer.event(ev)]:
            problems += [f"{cols}: {p}" for p in _number_parted([plain(r) for r in wrap(line, cols - 1)])]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_four_seat_table_keeps_one_shape_through_a_round(lang: str, home: Path) -> None:
    """Issue 33 §4.4: at 40 columns the table was drawn round the trick until a side seat's
    label grew with its points (and the turn mark), then as a list, then round the trick
    again: at each width it keeps one shape from the first card of a round to the last."""
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    tb = Table(Game(Rules.from_spec("quick"), CODE), make_seats(4, 0, "easy"), lang=lang)
    tb.confirm = False
    north = tb.label(2)
    shapes: dict[int, set[bool]] = {cols: set() for cols in (*WIDTHS, 30)}
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(tb.me)[:3]))
    points = 0
    while tb.cpu_step() and tb.game.round.phase is Phase.PASS:
        pass
    while tb.game.round.round_index == 0 and tb.game.round.phase is Phase.PLAY:
        for cols in shapes:  # after every card (the CPUs' too)
            lines = [plain(row) for line in Renderer(tb, plain=True, width=cols - 1).table()
                     for row in wrap(line, cols - 1)]
            assert all(len(line) <= max(cols - 1, 40) for line in lines), (cols, lines)
            # round the trick: North alone on its line, over the trick
            shapes[cols].add(any(line.startswith("     ") and north in line and "·" not in line for line in lines))
        points = max(points, *tb.game.round.points)
        if not tb.cpu_step():
            tb.handle(str(tb.game.round.legal_cards()[-1]))
    assert points >= 13  # (a round in which labels grew)
    assert all(len(seen) == 1 for seen in shapes.values()), shapes
    assert shapes[80] == {True} and shapes[30] == {False}  # round the trick where it holds


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_wraps_only_when_it_must(lang: str) -> None:
    """Issue 33 §4.5: the hand went on to a second line when the next suit would still have
    fitted (three columns counted for a gap before the first suit). On many deals, at every
    width: a line of the hand is broken only where the next suit did not fit on it."""
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    broken = 0
    from hearts_cli.model.codes import code_from_number

    for k in range(40):
        code = code_from_number(k)
        tb = Table(Game(Rules.from_spec("quick"), code), make_seats(4, 0, None), lang=lang)
        for cols in WIDTHS:
            rows = [plain(line) for line in Renderer(tb, plain=True, width=cols - 1).hand()]
            assert all(len(row) <= cols - 1 for row in rows), rows
            for a, b in itertools.pairwise(rows):
                broken += 1
                first = b.strip().split("   ")[0]  # the next line's first suit
                assert len(a) + 3 + len(first) > cols - 1, (cols, rows)
    assert broken  # (some hands do not fit 40 columns)


# ---------------------------------------------------------------- the game's toolbar, drawn alone


def _cut_whole(full: str, rows: list[str], ellipsis: str) -> list[str]:
    """What is wrong with ``rows``, the toolbar's lines for ``full``: a word cut, or a name
    and its number parted by the line break or by the ellipsis that ends what did not fit."""
    words, problems = full.split(), []
    shown = " ".join(rows).split()
    if shown and shown[-1].endswith(ellipsis) and " ".join(rows) != full:
        shown[-1] = shown[-1][: -len(ellipsis)]
        if not shown[-1]:
            shown.pop()
        kept = len(shown)
        if (shown and not words[kept - 1].startswith(shown[-1])) or shown[:-1] != words[: kept - 1]:
            problems.append(f"not the text's first words: {shown!r}")
        elif 0 < kept < len(words) and joins(words[kept - 1], words[kept]) and words[kept] != wrapping.SEPARATOR:
            problems.append(f"a pair cut by the ellipsis: {words[kept - 1]!r} / {words[kept]!r}")
    elif shown != words:
        problems.append(f"words changed: {rows!r}")
    for a, b in itertools.pairwise(rows):
        if a.split() and b.split() and joins(a.split()[-1], b.split()[0]):
            problems.append(f"a pair split: {a.split()[-1]!r} / {b.split()[0]!r}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_the_toolbar_holds_at_every_width(lang: str, home: Path) -> None:
    """The toolbar with the line of each event of a game (or the keys), with a turn timer or a
    shared table's (the host's) counting down, and with the count's line (a setting) after
    every trick: at most two lines, none wider than the screen, shortened where a line may
    break (never inside a word, nor between a name and its number)."""
    import time

    from hearts_cli.model.rules import Rules
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats
    from hearts_cli.repl.toolbar import Status, bottom_toolbar

    tb = Table(Game(Rules.from_spec({"preset": "quick", "target": 1}), CODE), make_seats(4, 0, "easy"),
               lang=lang, count=True)  # Easy CPUs: the quickest to play a round
    tb.confirm = False
    problems: list[str] = []

    def check(text: str, deadline: int | None, count: bool) -> None:
        status = Status()
        status.text = text
        status.deadline = None if deadline is None else time.monotonic() + deadline
        tb.count_line = count
        timer = "[" + tb.say("timer_left", seconds=deadline) + "] " if deadline else ""
        said = [timer + (text or tb.say("toolbar_keys"))]
        if count:
            from hearts_cli.repl.pieces import Writer

            said.append(Writer(tb, plain=True).count_status())
        for cols in WIDTHS:
            rows = [row[1:] for row in bottom_toolbar(tb, status, lambda c=cols: c)()[0][1].split("\n")]
            problems.extend(f"{cols}: {row!r}" for row in rows if 1 + len(row) > cols - 1)
            parts = [rows[:1], rows[1:]] if count else [rows]
            assert len(rows) <= 2 and len(parts[-1]) >= 1
            for full, shown in zip(said, parts, strict=True):
                problems.extend(_cut_whole(" ".join(full.split()), shown, "…"))

    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(tb.me)[:3]))
    for line in [*GAME_WORDS[lang]["cmds"], "count", "why QS"]:  # (a hint weighs 600 playouts: left out)
        while tb.cpu_step():
            pass
        tb.handle(line)
    while not tb.game.over:
        while tb.cpu_step():
            pass
        rd = tb.game.round
        if not tb.game.over:
            if rd.phase is Phase.PLAY and not rd.trick:
                check("", None, True)  # the count after each trick: the voids shown so far
            tb.handle(str(rd.legal_cards()[-1]) if rd.phase is Phase.PLAY else "pass")
    renderer = Renderer(tb, plain=True)
    for text in {renderer.status(ev) or "" for ev in tb.events}:
        for deadline in (None, 30, 3600):
            check(text, deadline, False)
    assert not problems, "\n".join(problems[:20])


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
    term.wait_for(lambda s: "hearts replay " + CODE in s, timeout=90)  # the end (help names replay too)
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
@pytest.mark.parametrize("lang", [  # one worker a language: its wide game is played once
    pytest.param(lang, marks=pytest.mark.xdist_group(f"widths-{lang}")) for lang in LANGS])
@pytest.mark.parametrize("cols", WIDTHS)
def test_the_game_holds_at_every_width(cols: int, lang: str, terms: list, tmp_path: Path) -> None:
    wide = _wide_game(lang)
    narrow = _game_screen(terms, tmp_path / "narrow", cols, lang)
    # (the game's own layout: a column spare, but the seats around the trick use all 40 at 40)
    assert_fits(narrow, wide, cols, margin=0)
    # the end names the game by its code, on a line that fits; its file, if shown, whole on its
    # line (the terminal cut it at 40 columns: a path nobody could read or copy)
    rows = [line.rstrip() for line in narrow.splitlines()]
    assert "  hearts replay " + CODE in rows, narrow
    assert all(row.endswith(".yaml") for row in rows if "/archive/" in row), narrow
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
