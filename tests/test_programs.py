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

    from hearts_cli.play.engine import Game
    from hearts_cli.table.shared import SharedTable, make_seats

    game = Game(load_preset("quick"), match_code("host", 0))
    table = SharedTable(game, make_seats(4, 0, f"easy,{SH_BOT},random,normal"))
    asyncio.run(asyncio.wait_for(table.run(), 60))
    (program,) = table.programs
    assert game.over and program.seat == 1
    assert program.decisions > 20 and program.taken == 0
