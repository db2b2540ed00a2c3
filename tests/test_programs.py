"""Outside programs at a seat (``exec:COMMAND``, docs/bots.md): a program in another
language plays whole games, makes exactly the moves its policy makes in process, sees
only its seat, and whatever it does wrong costs it that decision only, counted."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import assert_user_error, check_schema, run

from hearts_cli.bots.match import match_code
from hearts_cli.model.rules import load_preset
from hearts_cli.table.program import play_table_game

pytestmark = pytest.mark.usefixtures("isolated")

ROOT = Path(__file__).resolve().parent.parent
SH_BOT = f"exec:sh {ROOT / 'examples' / 'first_legal.sh'}"
SEAT_BOT = f"exec:{sys.executable} {Path(__file__).parent / 'programs' / 'seat_bot.py'}"
IN_PROCESS = f"{Path(__file__).parent / 'programs' / 'first_legal.py'}:FirstLegal"


def sim_json(*args: str) -> dict:
    result = run("sim", *args, "--json")
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return json.loads(result.stdout)


def test_a_shell_program_plays_whole_games_with_the_moves_of_its_policy():
    """The same policy through a pipe (a POSIX sh script) and in process (a bot class): the
    same games, move for move, so the table tells the program all it needs, and asks it
    every decision of its seat."""
    args = ["--deals", "8", "--seed", "px", "--duplicate"]
    piped = sim_json("--seats", f"{SH_BOT},easy,normal,random", *args)
    direct = sim_json("--seats", f"{IN_PROCESS},easy,normal,random", *args)
    (counts,) = piped["faults"].values()
    assert counts["decisions"] > 100 and counts["taken"] == 0
    assert direct["faults"] is None
    assert piped["games"] >= 1 and piped["deals"] >= 8

    def plays(report: dict) -> list:
        return [[(p["totals"], p["rounds"]) for p in g["plays"]] for g in report["game_log"]]

    assert plays(piped) == plays(direct)


@pytest.mark.parametrize("mode, fault", [("slow", "slow"), ("junk", "junk"), ("illegal", "illegal"),
                                         ("crash", "crash")])
def test_a_fault_costs_the_program_that_decision_and_the_game_goes_on(mode, fault):
    rules = load_preset("quick")
    code = match_code("faults", 0)
    # the slow program is 0.6 s late for a 0.4 s move time; the others have all the time a
    # busy machine may need to start a Python (so that no other fault than theirs is counted)
    move_time = 0.4 if mode == "slow" else 10.0
    play = play_table_game(rules, code, [f"{SEAT_BOT} {mode}", "easy", "normal", "random"], move_time=move_time)
    assert len(play.rounds) >= 1 and max(play.totals) >= rules.target  # a whole game
    (counts,) = play.faults.values()
    # a slow program may be late for the decision after too (it is still thinking): a late
    # answer is dropped when it comes, never taken for the next decision's
    assert counts[fault] == 1 or (fault == "slow" and counts[fault] >= 1)
    assert sum(counts[k] for k in ("slow", "junk", "illegal", "crash")) == counts[fault]
    if fault == "crash":
        assert counts["taken"] == counts["decisions"]  # the CPU plays the seat out
    else:
        assert counts["taken"] == counts[fault] and counts["decisions"] > 20


CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


def test_a_program_is_told_no_card_its_seat_may_not_see(tmp_path):
    """Every card named in any line the program is told is one of its own (dealt or
    received), or one already played in front of everybody: nothing else, ever."""
    log = tmp_path / "told.jsonl"
    rules = load_preset("quick")
    play = play_table_game(rules, match_code("hiding", 1), [f"{SEAT_BOT} log:{log}", "hard", "normal", "easy"],
                    move_time=10)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["event"] == "welcome"
    known: set[str] = set()
    rounds = 0
    for line in lines:
        event = json.loads(line)
        kind = event.get("event")
        if kind == "welcome":
            seat = str(event["seat"])
        elif kind == "deal":
            rounds += 1
            assert list(event["hands"]) == [seat]  # its own hand only
            known = set(event["hands"][seat])
        elif kind == "receive":
            known |= set(event["cards"])
        elif kind == "play":
            known.add(event["card"])
        elif kind == "game_end":
            break  # the game's code reveals every deal once it is over: not a card
        unseen = set(CARD.findall(line)) - known
        assert not unseen, (kind, unseen, line)
    assert rounds == len(play.rounds) >= 2


def test_a_gauntlet_with_a_program_resumes_to_the_same_end(tmp_path):
    args = ["--gauntlet", f"{SH_BOT},easy", "--deals", "6", "--seed", "pg"]
    whole = tmp_path / "whole.jsonl"
    expected = sim_json(*args, "--results", str(whole))
    assert json.loads(whole.read_text().splitlines()[0])["move_time"] == 5.0
    lines = whole.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:2]))
    resumed = sim_json(*args, "--results", str(cut))
    timeless = ("seconds", "decision_ms")
    assert {k: v for k, v in resumed.items() if k not in timeless} == \
        {k: v for k, v in expected.items() if k not in timeless}
    assert cut.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("word, words", [
    ("exec:no-such-program-here --fast", ("'no-such-program-here' is not found",)),
    ("exec:", ("names no program",)),
    ("exec:sh 'open", ("quote",)),
])
def test_a_program_that_cannot_run_is_one_sentence(word, words):
    assert_user_error(run("sim", "--seats", f"{word},easy,normal,random", "--deals", "1"), *words)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_script_that_is_not_executable_says_so(tmp_path, monkeypatch, lang):
    """issue 34 §6: `exec:./bot.js` that exists but is not executable was "not found"; it says
    what to do, with the program that runs it (its #! line's, else its extension's)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.js").write_text("console.log('hi')\n")
    (tmp_path / "bot").write_text("#!/usr/bin/env python3\n")
    (tmp_path / "blob").write_text("x\n")
    for word, runner in (("exec:./bot.js", "exec:node ./bot.js"), ("exec:./bot --fast", "exec:python3 ./bot"),
                         ("exec:./blob", "exec:")):
        result = run("sim", "--seats", f"{word},easy,normal,random", "--deals", "1", "--lang", lang)
        assert_user_error(result, "chmod +x", runner)
        assert ("not executable" if lang == "en" else "no es ejecutable") in result.stderr


def test_the_move_time_is_bounded():
    assert_user_error(run("sim", "--seats", f"{SH_BOT},easy,normal,random", "--move-time", "0"), "--move-time")


def test_a_program_takes_a_cpu_seat_at_hearts_new(home):
    """``--level`` names a level or a program for each CPU seat: the program is named at the
    table by its file, plays its seat, and is kept in the save's seats."""
    result = run("new", "--level", f"easy,{SH_BOT},random", "--no-confirm", "--plain", input="auto\n")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert "North (program first_legal.sh)" in result.stdout
    assert "North plays" in result.stdout
    saved = (home / "current.yaml").read_text()
    assert "exec:sh" in saved
    assert_user_error(run("new", "--level", "easy,normal", "--no-play"), "2 players", "3 CPU seats")


def test_a_program_takes_a_cpu_seat_at_a_shared_table():
    import asyncio

    from hearts_cli.play.game import Game
    from hearts_cli.table.shared import SharedTable, make_seats

    game = Game(load_preset("quick"), match_code("host", 0))
    table = SharedTable(game, make_seats(4, 0, f"easy,{SH_BOT},random,normal"))
    asyncio.run(asyncio.wait_for(table.run(), 60))
    (program,) = table.programs
    assert game.over and program.seat == 1
    assert program.decisions > 20 and program.taken == 0


# ---------------------------------------------------------------- past the happy path (issue 34)


@pytest.mark.slow
def test_a_program_that_never_answers_is_taken_for_hung_after_three_slow_answers():
    """A program that reads and never answers (as one that does not flush its output) is
    slow three times in a row, then hung: stopped, and the CPU plays its seat out at once,
    without waiting for it again."""
    rules = load_preset("quick")
    play = play_table_game(rules, match_code("mute", 0), [f"{SEAT_BOT} mute", "easy", "normal", "random"],
                           move_time=0.3)
    assert max(play.totals) >= rules.target  # a whole game
    (counts,) = play.faults.values()
    assert counts["slow"] == 3 and counts["hung"] == 1
    assert counts["taken"] == counts["decisions"] > 20 and counts["crash"] == 0


@pytest.mark.slow
def test_a_silent_program_costs_a_run_seconds_and_the_report_asks_about_flushing():
    """`exec:sleep 1000` (it reads nothing, answers nothing, never exits) at one seat of four:
    hung in its first game, started again for the next and hung again at its first slow
    answer; the report asks whether it flushes."""
    import time

    t0 = time.monotonic()
    args = ["--seats", "exec:sleep 1000,easy,easy,easy", "--deals", "4", "--seed", "mute", "--move-time", "0.3",
            "--duplicate"]
    report = sim_json(*args)
    assert time.monotonic() - t0 < 60  # (some 8 decisions of 0.3 s, and starts: a busy machine's margin)
    (counts,) = report["faults"].values()
    assert report["games"] >= 1 and counts["hung"] == 4 and counts["slow"] == 3 + 3  # 3, then 1 a game
    assert counts["taken"] == counts["decisions"]
    text = run("sim", *args)
    assert text.exit_code == 0 and "did it flush its output after each line?" in " ".join(text.stdout.split())


@pytest.mark.slow
def test_a_program_that_does_not_exit_at_the_end_of_its_input_is_stopped_and_the_cost_said():
    result = run("sim", "--seats", f"{SEAT_BOT} linger,easy,normal,random", "--deals", "1", "--seed", "lg",
                 "--move-time", "10")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    said = " ".join(result.stderr.split())
    assert "linger did not exit at the end of its input: stopped after 1 s, which cost 1." in said


@pytest.mark.slow
def test_one_process_plays_every_game_of_its_seat_in_a_run(tmp_path):
    """Told `new_game` before each game after its first, the same process plays them all
    (its log is one process's: it appends every line it is told)."""
    log = tmp_path / "told.jsonl"
    report = sim_json("--seats", f"{SEAT_BOT} log:{log},easy,normal,random", "--deals", "6", "--seed", "run",
                      "--duplicate", "--move-time", "10")
    (counts,) = report["faults"].values()
    assert counts["taken"] == 0 and counts["early"] == 0
    games = report["games"] * 4  # every rotation is a game of the program's
    told = [json.loads(line) for line in log.read_text().splitlines()]
    welcomes = [i for i, e in enumerate(told) if e.get("event") == "welcome"]
    assert len(welcomes) == games >= 4
    assert [e["game"] for e in told if e.get("event") == "new_game"] == list(range(2, games + 1))
    assert all(told[i - 1].get("event") == "new_game" for i in welcomes[1:])
    seqs = [e["seq"] for e in told if e.get("event") == "view"]
    assert seqs == list(range(1, len(seqs) + 1))  # numbered over the process
    for line in log.read_text().splitlines():
        check_schema(line)  # new_game and the view's seq are in the vocabulary
    check_schema({"cmd": "play", "card": "QS", "seq": 17}, "request")


@pytest.mark.slow
def test_a_program_that_exits_at_the_end_of_each_game_keeps_working():
    report = sim_json("--seats", f"{SEAT_BOT} once,easy,normal,random", "--deals", "6", "--seed", "once",
                      "--duplicate", "--move-time", "10")
    (counts,) = report["faults"].values()
    assert counts["decisions"] > 100 and counts["taken"] == 0
    assert sum(counts.get(k, 0) for k in ("slow", "hung", "crash", "junk", "illegal", "early")) == 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["twice", "twice-seq"])
def test_a_second_answer_to_one_view_is_dropped_never_taken_for_the_next(mode):
    """A program that answers every view twice: the second answer is dropped and counted
    (`early`), never judged against the next view: at once (read before the next view is
    written), or once the next view has come (told apart by the seq it echoes; before, it was
    taken for the next view's answer and refused)."""
    rules = load_preset("quick")
    play = play_table_game(rules, match_code("twice", 0), [f"{SEAT_BOT} {mode}", "easy", "normal", "random"],
                           move_time=10)
    (counts,) = play.faults.values()
    assert (counts["junk"], counts["illegal"], counts["taken"]) == (0, 0, 0)
    assert counts["decisions"] > 20 and sum(counts[k] for k in ("slow", "hung", "crash")) == 0
    assert counts["early"] == counts["decisions"] - 1 or counts["early"] == counts["decisions"]


@pytest.mark.slow
def test_the_python_example_passes_mypy_strict_and_plays_without_a_fault():
    import subprocess

    bot = ROOT / "examples" / "simple_bot.py"
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(bot)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout
    rules = load_preset("quick")
    play = play_table_game(rules, match_code("simple", 0), [f"exec:{sys.executable} {bot}", "easy", "normal", "hard"],
                           move_time=10)
    (counts,) = play.faults.values()
    assert counts["decisions"] > 20 and counts["taken"] == counts["early"] == 0


def test_a_program_that_never_answers_is_not_rated_and_stops_the_run(tmp_path):
    """The issue's run: ``exec:false`` was rated +140 Elo, the CPU having made all its decisions.
    Now its row says it is not rated (no Elo, its faults beside), and the run stops after its
    first pair with one sentence naming the likely cause, exit status 2; the results file does
    not keep the pair (once the program is mended, the same command plays it)."""
    results = tmp_path / "r.jsonl"
    result = run("sim", "--gauntlet", "exec:false,easy", "--deals", "2", "--seed", "x", "--json",
                 "--results", str(results), "--lang", "en")
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    row = next(r for r in report["ratings"] if r["player"] == "exec:false")
    assert row["reliable"] is False and row["elo"] is None and row["ci95"] is None
    assert row["faults"]["taken"] == row["faults"]["decisions"] > 0
    assert row["faults"]["silent"] == 4 + 3 * 4  # the games a seat each: alone, then at 3 seats
    (pairing,) = report["pairings"]
    assert pairing["reliable"] is False and pairing["elo"] is None
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "exec:false made none of its decisions itself" in err and "exited with status 1" in err
    assert len(results.read_text().splitlines()) == 1  # the header alone
    text = run("sim", "--gauntlet", "exec:false,easy", "--deals", "2", "--seed", "x", "--plain", "--lang", "en")
    assert text.exit_code == 2
    assert "exec:false *" in text.stdout and "* exec:false is not rated" in " ".join(text.stdout.split())


def test_the_sentence_names_the_exit_status_and_the_last_line_on_standard_error():
    word = "exec:sh -c 'echo starting >&2; echo \"no module named numpy\" >&2; exit 3'"
    result = run("sim", "--seats", f"{word},easy,normal,random", "--deals", "1", "--lang", "en")
    assert result.exit_code == 2
    last = result.stderr.strip().splitlines()[-1]  # (its own standard error comes first: it is ours)
    assert "exited with status 3" in last and "“no module named numpy”" in last
    spanish = run("sim", "--seats", f"{word},easy,normal,random", "--deals", "1", "--lang", "es", "--json")
    assert spanish.exit_code == 2 and json.loads(spanish.stdout)["faults"]
    assert "terminó con estado 3" in spanish.stderr


def test_each_fault_is_recorded_with_what_its_author_needs(tmp_path):
    """``--faults FILE``: a JSON line a fault, with the game's code, the round, the trick, the
    decision, the line refused (escaped) or, for a crash, the exit status and the last lines
    of its standard error."""
    rules = load_preset("quick")
    code = match_code("faults", 0)
    junk = play_table_game(rules, code, [f"{SEAT_BOT} junk", "easy", "normal", "random"], move_time=10.0)
    (record,) = junk.fault_log
    assert record["kind"] == "junk" and record["code"] == code and record["seat"] == 0
    assert record["line"] == '{"say": "hello"}' and record["error"] == "missing_field"
    assert (record["round"], record["decision"], record["phase"], record["trick"]) == (1, 1, "pass", None)
    late = play_table_game(rules, code, ["easy", f"{SEAT_BOT} late", "normal", "random"], move_time=10.0)
    (crash,) = late.fault_log
    assert crash["kind"] == "crash" and crash["status"] == 4 and crash["seat"] == 1
    assert crash["stderr"] == ["giving up after five answers"]
    assert crash["phase"] == "play" and crash["trick"] >= 1 and crash["decision"] == 6
    path = tmp_path / "faults.jsonl"
    result = run("sim", "--seats", f"{SEAT_BOT} illegal,easy,normal,random", "--deals", "1", "--seed", "f",
                 "--faults", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    (line,) = path.read_text().splitlines()
    written = json.loads(line)
    assert written["kind"] == "illegal" and written["code"] == match_code("f", 0)
    assert written["seats"][0].endswith("seat_bot.py illegal") and '"2C"' in written["line"]


def test_a_program_that_stops_is_said_once_at_the_table(home):
    """At ``hearts play``: the CPU plays the seat of a program that has stopped, and the table
    says so once, with its exit status, in the person's language."""
    for lang, words in (("en", "North's program stopped (exit 4); the CPU plays for North."),
                        ("es", "El programa de Norte se detuvo (salida 4); la CPU juega por Norte.")):
        result = run("new", "--level", f"easy,{SEAT_BOT} late,random", "--no-confirm", "--plain", "--lang", lang,
                     input="auto\n")
        assert result.exit_code == 0, (result.stdout, result.stderr)
        assert result.stdout.count(words) == 1, result.stdout[-3000:]


def test_a_resumed_run_writes_the_same_faults(tmp_path):
    """The results file keeps each play's faults in full, so a run cut short and resumed writes
    the same ``--faults`` file as the run that was not."""
    args = ["--gauntlet", f"{SEAT_BOT} junk,easy", "--deals", "1", "--seed", "fr"]
    whole, faults = tmp_path / "whole.jsonl", tmp_path / "faults.jsonl"
    sim_json(*args, "--results", str(whole), "--faults", str(faults))
    written = [json.loads(x) for x in faults.read_text().splitlines()]
    assert len(written) == 4 + 3 * 4 and {x["kind"] for x in written} == {"junk"}  # once a seat a game
    cut, again = tmp_path / "cut.jsonl", tmp_path / "again.jsonl"
    cut.write_text("".join(whole.read_text().splitlines(keepends=True)[:2]))
    sim_json(*args, "--results", str(cut), "--faults", str(again))
    assert again.read_bytes() == faults.read_bytes() and cut.read_bytes() == whole.read_bytes()


def test_a_faults_file_that_cannot_be_written_is_one_sentence(tmp_path):
    path = tmp_path / "no" / "such" / "faults.jsonl"
    assert_user_error(run("sim", "--seats", "easy,easy,easy,easy", "--deals", "1", "--faults", str(path)),
                      str(path))
    results = tmp_path / "r.jsonl"
    assert_user_error(run("sim", "--gauntlet", "easy,random", "--deals", "1", "--faults", str(path),
                          "--results", str(results)), str(path))
    assert not results.exists()  # refused before anything is written
