"""Outside programs at a seat (``exec:COMMAND``, docs/bots.md): a program in another
language plays whole games, makes exactly the moves its policy makes in process, sees
only its seat, and whatever it does wrong costs it that decision only, counted."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import assert_user_error, run

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

    from hearts_cli.play.engine import Game
    from hearts_cli.table.shared import SharedTable, make_seats

    game = Game(load_preset("quick"), match_code("host", 0))
    table = SharedTable(game, make_seats(4, 0, f"easy,{SH_BOT},random,normal"))
    asyncio.run(asyncio.wait_for(table.run(), 60))
    (program,) = table.programs
    assert game.over and program.seat == 1
    assert program.decisions > 20 and program.taken == 0


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
