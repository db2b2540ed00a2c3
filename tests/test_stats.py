"""`hearts stats`: the figures from the archive, the index that keeps them fast (and is rebuilt
whenever it is missing, stale or damaged), the line at the end of a game, the command line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bench.stats as bench_stats
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import Rules
from hearts_cli.play.game import Game
from hearts_cli.records.record_parts import Seat
from hearts_cli.records.record_reader import read_record
from hearts_cli.records.record_writer import write_record
from hearts_cli.store import stats

SEATS4 = (Seat("South", "human"), Seat("West", "cpu", "easy"), Seat("North", "cpu", "normal"),
          Seat("East", "cpu", "hard"))


@pytest.fixture
def home(home: Path) -> Path:
    """The shared save directory (tests/conftest.py), its archive already there."""
    (home / "archive").mkdir(parents=True)
    return home


def random_game(rules: Rules, rng: random.Random) -> Game:
    """A game of random legal moves from a code drawn from ``rng`` (bench/stats.py's, which fills
    archives the same way)."""
    return bench_stats.random_game(rules, code_from_number(rng.getrandbits(35)), rng)


def seats_for(players: int, levels: tuple[str, ...] = ("easy", "normal", "hard")) -> tuple[Seat, ...]:
    return (Seat("South", "human"),) + tuple(Seat(f"P{i}", "cpu", levels[(i - 1) % len(levels)])
                                           for i in range(1, players))


class Archive:
    """Writes finished games into archive/ as the game loop does, one hour apart."""

    def __init__(self, home: Path, seed: int = 7):
        self.home = home
        self.rng = random.Random(seed)
        self.clock = time.mktime((2026, 1, 1, 9, 0, 0, 0, 0, -1))
        self.games: list[tuple[Game, tuple[Seat, ...], str]] = []

    def add(self, preset: str = "quick", won: bool | None = None, undos: int = 0,
            seats: tuple[Seat, ...] | None = None, players: int | None = None) -> Path:
        rules = Rules.from_spec(preset if players is None else {"preset": preset, "players": players})
        seats = seats or (SEATS4 if rules.players == 4 else seats_for(rules.players))
        me = next(i for i, s in enumerate(seats) if s.kind == "human")
        while True:
            game = random_game(rules, self.rng)
            if won is None or (me in game.winners) == won:
                break
        self.clock += 3600
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock))
        path = self.home / "archive" / f"{stamp}-{game.code}.yaml"
        path.write_text(write_record(game, seats, undos=undos), encoding="utf-8")
        self.games.append((game, seats, stamp))
        return path


def expected(games: list[tuple[Game, tuple[Seat, ...], str]]) -> dict:
    """The figures, straight from the engine's games (not from any record)."""
    me = [next(i for i, s in enumerate(seats) if s.kind == "human") for _, seats, _ in games]
    results = [m in g.winners for (g, _, _), m in zip(games, me)]
    rounds = sum(len(g.results) for g, _, _ in games)
    points = sum(r.scores[m] for (g, _, _), m in zip(games, me) for r in g.results)
    return {
        "games": len(games), "won": sum(results), "rounds": rounds, "points": points,
        "moons": sum(1 for (g, _, _), m in zip(games, me) for r in g.results if r.shooter == m),
        "moons_against": sum(1 for (g, _, _), m in zip(games, me) for r in g.results
                             if r.shooter is not None and r.shooter != m),
        "recent": [g.totals[m] for (g, _, _), m in list(zip(games, me))[-stats.RECENT:]],
    }


# ---------------------------------------------------------------- the figures


def test_the_figures_are_the_engines_for_every_archived_game(home):
    arc = Archive(home)
    for preset in ("quick", "quick", "standard", "omnibus", "shooter-minus", "quick", "no-moon"):
        arc.add(preset)
    arc.add("reference", players=3)
    arc.add("reference", players=5)
    data = stats.collect(home)
    want = expected(arc.games)
    for key in ("games", "won", "rounds", "points", "moons", "moons_against"):
        assert data[key] == want[key], key
    assert data["lost"] == want["games"] - want["won"]
    assert data["win_rate"] == round(want["won"] / want["games"], 4)
    assert data["points_per_round"] == round(want["points"] / want["rounds"], 2)
    assert [r["total"] for r in data["recent"]] == want["recent"]
    assert {d["preset"]: d["games"] for d in data["by_preset"]} == {
        "quick": 3, "standard": 1, "omnibus": 1, "shooter-minus": 1, "no-moon": 1, "reference": 2}


def test_moons_are_counted_for_and_against_the_person(home):
    arc = Archive(home, seed=3)
    while not any(r.shooter is not None for g, _, _ in arc.games for r in g.results):
        arc.add("quick")
    data = stats.collect(home)
    want = expected(arc.games)
    assert data["moons"] + data["moons_against"] >= 1
    assert (data["moons"], data["moons_against"]) == (want["moons"], want["moons_against"])


def test_streaks_current_and_longest(home):
    arc = Archive(home)
    pattern = [True, True, False, False, False, True, True, True, True, False, True, True]
    for won in pattern:
        arc.add("quick", won=won)
    data = stats.collect(home)
    assert data["streaks"] == {"current": {"kind": "win", "length": 2}, "longest_win": 4, "longest_loss": 3}
    assert (data["games"], data["won"]) == (12, 8)
    arc.add("quick", won=False)
    assert stats.collect(home)["streaks"]["current"] == {"kind": "loss", "length": 1}


def test_filters_by_preset_and_date_and_levels_faced(home):
    arc = Archive(home)
    arc.add("quick")
    arc.add("standard")
    arc.add("quick", seats=(Seat("South", "human"),) + tuple(Seat(n, "cpu", "hard") for n in ("W", "N", "E")))
    since = stats.parse_since(arc.games[1][2][:4] + "-" + arc.games[1][2][4:6] + "-" + arc.games[1][2][6:8])
    assert stats.collect(home, preset="quick")["games"] == 2
    assert stats.collect(home, preset="standard")["games"] == 1
    assert stats.collect(home, preset="omnibus")["games"] == 0
    later = stats.parse_since(
        time.strftime("%Y-%m-%dT%H:%M:%S", time.strptime(arc.games[1][2], "%Y%m%d-%H%M%S")))
    assert stats.collect(home, since=later)["games"] == 2  # the second and the third game
    assert stats.collect(home, since=since)["games"] == 3
    levels = {tuple(d["levels"]): d["games"] for d in stats.collect(home)["by_levels"]}
    assert levels == {("easy", "normal", "hard"): 2, ("hard", "hard", "hard"): 1}


def test_unfinished_games_and_shared_tables_are_not_counted_and_undos_are(home):
    arc = Archive(home)
    arc.add("quick", undos=3)
    arc.add("quick")
    people = (Seat("Ana", "human"), Seat("Bo", "human"), Seat("North", "cpu", "normal"), Seat("East", "cpu", "hard"))
    arc.add("quick", seats=people)  # a hosted table: whose record would it be?
    game = Game(Rules.from_spec("quick"), code_from_number(5))
    (home / "archive" / "20260102-000000-X-unfinished.yaml").write_text(write_record(game, SEATS4))
    data = stats.collect(home)
    assert data["games"] == 2 and data["shared_tables"] == 1
    assert (data["undos"], data["games_with_undo"]) == (3, 1)
    assert "1 game played at a shared table (hearts host) is not counted" in \
        stats.as_text(stats.render(data, "en"))


# ---------------------------------------------------------------- the two ways of reading a record


@pytest.mark.parametrize("preset,players", [("quick", None), ("omnibus", None), ("shooter-minus", None),
                                            ("reference", 3), ("reference", 6), ("kitty", 5),
                                            ("shooter-choice", None), ("black-maria", 3)])
def test_the_fast_scan_reads_what_the_full_reader_reads(tmp_path, preset, players):
    arc = Archive(tmp_path, seed=11)
    (tmp_path / "archive").mkdir()
    for _ in range(4):
        path = arc.add(preset, players=players, undos=1)
        fast = stats.scan(path.read_text(encoding="utf-8"))
        assert fast is not None
        assert fast == stats._read_fully(path)


def test_a_record_edited_by_hand_is_judged_by_the_full_reader(home):
    arc = Archive(home)
    good = arc.add("quick")
    lied = arc.add("quick")
    text = lied.read_text()
    totals = next(line for line in text.splitlines() if line.startswith("totals: "))
    lied.write_text(text.replace(totals, "totals: [0, 0, 0, 0]"))  # the scan refuses the sums
    assert stats.scan(lied.read_text()) is None
    (home / "archive" / "20260301-000000-NOTAGAME.yaml").write_text("format: hearts-record/1\nrounds: 5\n")
    data = stats.collect(home)
    assert data["games"] == 1 and data["unreadable"] == 2
    assert data["recent"][0]["code"] == read_record(good).code


# ---------------------------------------------------------------- the index


def test_the_index_is_rebuilt_when_deleted_damaged_or_behind_the_archive(home):
    arc = Archive(home)
    for _ in range(5):
        arc.add("quick")
    first = stats.collect(home)
    index = home / stats.INDEX_NAME
    assert index.exists()

    index.unlink()  # missing
    assert stats.collect(home) == first

    index.write_bytes(b"garbage, not a database " * 200)  # damaged
    assert stats.collect(home) == first

    data = index.read_bytes()  # a database cut short
    index.write_bytes(data[: len(data) // 2])
    assert stats.collect(home) == first

    import sqlite3

    with sqlite3.connect(index) as db:  # another layout
        db.execute("PRAGMA user_version = 99")
    assert stats.collect(home) == first

    arc.add("quick")  # a game added behind the index's back
    assert stats.collect(home)["games"] == 6
    assert stats.collect(home) == stats.collect(home)
    # a game removed (and the directory touched as a rename would)
    arc_files = sorted((home / "archive").glob("*.yaml"))
    arc_files[0].unlink()
    assert stats.collect(home)["games"] == 5
    # a file replaced by another under the same name (os.replace, as the archive writes)
    other = Archive(home, seed=99)
    other.clock = arc.clock + 10 * 3600
    src = other.add("standard")
    os.replace(src, arc_files[1])
    data = stats.collect(home)
    assert data["games"] == 5 and {d["preset"]: d["games"] for d in data["by_preset"]} == {"quick": 4, "standard": 1}
    # the index never touched the archive
    assert len(list((home / "archive").glob("*.yaml"))) == 5


def test_an_index_held_by_another_process_is_left_alone(home, monkeypatch):
    import sqlite3

    arc = Archive(home)
    arc.add("quick")
    first = stats.collect(home)
    arc.add("quick")
    monkeypatch.setattr(stats.Index, "busy_timeout", 0.1)
    holder = sqlite3.connect(home / stats.INDEX_NAME)
    holder.execute("BEGIN EXCLUSIVE")  # another `hearts` writing the index right now
    try:
        data = stats.collect(home)  # answered from memory, from the archive
    finally:
        holder.rollback()
        holder.close()
    assert data["games"] == 2 and first["games"] == 1
    with sqlite3.connect(home / stats.INDEX_NAME) as db:  # the index was not thrown away
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    assert stats.collect(home)["games"] == 2


def test_a_game_archived_the_same_second_is_not_missed(home):
    arc = Archive(home)
    arc.add("quick")
    assert stats.collect(home)["games"] == 1
    old = time.time() - 3600  # a directory whose time looks settled...
    os.utime(home / "archive", (old, old))
    assert stats.collect(home)["games"] == 1
    arc.add("quick")  # ...and a game added next to it: the directory's time moves
    assert stats.collect(home)["games"] == 2
    # a coarse clock (FAT: 2 s) can give the directory the same time before and after a game
    # is added; a time that recent is never trusted
    now = time.time()
    os.utime(home / "archive", (now, now))
    assert stats.collect(home)["games"] == 2
    arc.add("quick")
    os.utime(home / "archive", (now, now))
    assert stats.collect(home)["games"] == 3
    path = arc.add("quick", undos=0)
    assert stats.collect(home)["undos"] == 0
    game, seats, _ = arc.games[-1]
    tmp = path.with_name(".tmp.yaml")
    tmp.write_text(write_record(game, seats, undos=2))
    os.replace(tmp, path)  # rewritten the way the program writes files
    os.utime(home / "archive", (old, old))
    assert stats.collect(home)["undos"] == 2


def test_an_unwritable_data_directory_still_answers(home):
    arc = Archive(home)
    arc.add("quick")
    index = home / stats.INDEX_NAME
    index.mkdir()  # the index cannot be a file here
    assert stats.collect(home)["games"] == 1


# ---------------------------------------------------------------- the line at the end of a game


@pytest.mark.parametrize("results,mid,words", [
    ([True], "tally_win", "A win (1 won of 1 played)."),
    ([False], "tally_loss", "A loss (0 won of 1 played)."),
    ([True, False, True, True, True], "tally_win_run", "Your 3rd win in a row (4 won of 5 played)."),
    ([True, True, False, True, True, True], "tally_win_run_longest", "Your 3rd win in a row, your longest run yet"),
    ([False, False, False, True], "tally_win_after", "A win, ending 3 losses in a row"),
    ([True, True, False], "tally_loss_after", "A loss, ending 2 wins in a row"),
    ([True, False, False], "tally_loss_run", "Your 2nd loss in a row"),
    ([True] * 21, "tally_win_run", "Your 21st win in a row"),
])
def test_the_line_that_says_how_a_game_changes_the_record(results, mid, words):
    change = stats.change_of(results)
    assert change["id"] == mid
    assert stats.change_text(change, "en").startswith(words)
    spanish = stats.change_text(change, "es")
    assert f"{change['length']}.ª" in spanish or change["length"] == 1
    assert "partida" not in spanish or "jugada" in spanish


class Player:
    """The person's seat in JSON batch mode: passes the first three cards, plays the highest legal one."""

    def __init__(self):
        self.turn = None
        self.lines: list[str] = []
        self.events: list[dict] = []

    def write(self, text: str) -> None:
        for line in text.splitlines():
            self.events.append(json.loads(line))
            if self.events[-1]["event"] == "view":
                self.turn = self.events[-1]

    def flush(self) -> None:
        pass

    def readline(self) -> str:
        if self.turn is None:
            return ""
        ev, self.turn = self.turn, None
        line = "pass " + " ".join(ev["hand"][:3]) if ev["phase"] == "pass" else ev["legal"][-1]
        self.lines.append(line)
        return line + "\n"


@pytest.mark.slow
def test_a_finished_game_says_how_it_changes_the_record(home):
    import io

    from hearts_cli.repl.new_game import NewGame
    from hearts_cli.repl.start import start_new

    # the CPUs at Easy: the tally is what is tested, not the game (Hard made it 7 s of CPU)
    ends = []
    for _ in range(2):
        player = Player()
        assert start_new(NewGame.of(code="JYR35SWD", level="easy"), json_events=True, stdin=player, stdout=player) == 0
        ends.append(player.events[-1])
    assert [e["event"] for e in ends] == ["game_end", "game_end"]
    first, second = ends[0]["record"], ends[1]["record"]
    assert (first["played"], second["played"]) == (1, 2)
    won = 0 in ends[0]["winners"]
    assert first["id"] == ("tally_win" if won else "tally_loss")
    assert second["id"] == ("tally_win_run" if won else "tally_loss_run")  # the same deal, the same moves
    assert second["streak"] == {"kind": "win" if won else "loss", "length": 2}
    assert "2nd" in second["text"]
    # in plain text and in Spanish, the line comes with the standings
    out = io.StringIO()
    assert start_new(NewGame.of(code="JYR35SWD", level="easy"),
                     lang="es", stdin=io.StringIO("\n".join(player.lines) + "\n"), stdout=out) == 0
    text = out.getvalue()
    assert f"Tu 3.ª {'victoria' if won else 'derrota'} seguida" in text
    assert text.index("3.ª") < text.index("`nueva`")  # before "type `new` for another game"


# ---------------------------------------------------------------- the command


def hearts(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "hearts_cli", *args], capture_output=True, text=True,
                          env=env, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_the_command_prints_every_figure_plain_json_and_in_spanish(home):
    arc = Archive(home)
    for won in (True, False, False, True):
        arc.add("quick", won=won)
    arc.add("standard", won=True, undos=2)
    proc = hearts("stats")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Games: 5 played, 3 won, 2 lost (60%)." in text
    assert "Streaks: 2 wins in a row now; longest 2 wins and 2 losses." in text
    assert "Undo: taken 2 times, in 1 game." in text
    assert "By preset:" in text and "By CPU levels faced:" in text and "Easy, Normal, Hard" in text
    assert "Your last 5 games" in text
    chart = [line for line in text.splitlines() if line.startswith("  2026-")]
    assert len(chart) == 5 and all("█" in line for line in chart)
    words = [line.rsplit(" ", 1)[-1] for line in chart]
    assert [w != "lost" for w in words] == [True, False, False, True, True]
    assert set(words) <= {"won", "shared", "lost"}
    assert "\x1b[" not in text  # no terminal: no colour

    plain = hearts("stats", "--plain").stdout
    assert "█" not in plain and "#" in plain

    data = json.loads(hearts("stats", "--json").stdout)
    assert data["games"] == 5 and data["won"] == 3 and data["win_rate"] == 0.6
    assert data["streaks"]["current"] == {"kind": "win", "length": 2}
    assert len(data["recent"]) == 5 and data["filters"] == {"preset": None, "since": None}

    es = hearts("stats", "--lang", "es", "--preset", "quick").stdout
    assert "Partidas: 4 jugadas, 2 ganadas, 2 perdidas (50 %)." in es
    assert "Tu historial (variante rápida)" in es
    # issue 18 §5: the longest streaks and the moons in proper Spanish ("tirar a la luna")
    every = hearts("stats", "--lang", "es").stdout
    assert "Rachas: ahora 2 victorias seguidas; las más largas: 2 victorias y 2 derrotas seguidas." in every
    assert "Lunas: has tirado a la luna 0 veces; contra ti, 0." in every
    # a preset by its Spanish name, as `hearts new` and `hearts rules` take it, accents or not
    for name in ("rápida", "RAPIDA"):
        assert hearts("stats", "--lang", "es", "--preset", name).stdout == es
    data = json.loads(hearts("stats", "--preset", "estándar", "--json").stdout)
    assert data["games"] == 1 and data["filters"]["preset"] == "standard"


def test_on_a_terminal_the_chart_is_drawn_with_rich_in_colour(home):
    import io
    import re

    arc = Archive(home)
    for won in (True, False, True):
        arc.add("quick", won=won)
    lines = stats.render(stats.collect(home), "en")
    out = io.StringIO()
    stats.print_rich(lines, file=out, force_terminal=True)
    coloured = out.getvalue()
    assert "\x1b[32m" in coloured and "\x1b[31m" in coloured  # wins green, losses red
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == stats.as_text(lines)  # the same text as the plain one


def test_the_command_with_no_games(home):
    proc = hearts("stats")
    assert proc.returncode == 0 and "No finished games" in proc.stdout
    assert "No finished game in the archive matches preset standard, since 2030-01-01" in \
        hearts("stats", "--preset", "standard", "--since", "2030-01-01").stdout


@pytest.mark.parametrize("args,words", [
    (["--since", "yesterday"], "'yesterday' is not a date; write it as YYYY-MM-DD"),
    (["--since", "2026-02-30"], "'2026-02-30' is not a date"),
    (["--since", "\x1b]0;pwned\x07" + "x" * 5000], "is not a date"),
    (["--preset", "nope"], "'nope' is not a preset; the presets are: quick,"),
])
def test_bad_options_give_one_sentence_and_status_2(home, args, words):
    proc = hearts("stats", *args)
    assert proc.returncode == 2
    assert words in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and len(proc.stderr) < 400
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    assert proc.stdout == ""


def test_stats_starts_without_the_game_loop_or_rich(home):
    Archive(home).add("quick")
    code = (
        "import sys\n"
        "from hearts_cli.cli.app import app\n"
        "try:\n"
        "    app(['stats'], prog_name='hearts')\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    mods = set(proc.stderr.split("\n"))
    assert "sqlite3" in mods and "hearts_cli.store.stats" in mods
    assert not {m for m in mods if m.split(".")[0] in ("prompt_toolkit", "rich", "pygments", "yaml")}
    assert not {m for m in mods if m.startswith("hearts_cli.repl")}
    # and the commands that are not stats do not load sqlite3
    proc = subprocess.run([sys.executable, "-c", code.replace("['stats']", "['--version']")],
                          capture_output=True, text=True, timeout=60)
    assert "sqlite3" not in set(proc.stderr.split("\n"))
