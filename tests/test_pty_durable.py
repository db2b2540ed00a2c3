"""A line on the screen means the save already holds that move (issue 10, section 1).

Each test plays in a real pseudo-terminal (the helpers of ``tests/test_pty.py``)
with a CPU delay of half a second, watches the raw output, and sends SIGKILL
the instant a given kind of line appears: your pass, the cards you receive,
your card, a CPU card, a trick won, the end of a round. The save on disk must
then already hold the move the line tells of, and ``hearts play`` must resume
after it. (Before the fix, the save was written after the CPU delay that
follows a shown move, so a kill then lost it.)
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from test_pty import Term, saved_game, spawn

from hearts_cli.model.cards import parse_card
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.records.record import save_record

CODE = "K7Q2MXA7"  # the deal of the issue: South passes 8♠ 9♠ 10♠ and leads the 2♣
pytestmark = pytest.mark.slow  # each test runs the program in a pseudo-terminal

SLOW = ["--delay", "0.5"]  # a CPU delay long enough that a save written after it is seen to lag


def kill_on(term: Term, what: str, timeout: float = 30) -> str:
    """SIGKILL the child the moment ``what`` is on the screen; returns the screen then."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if term.pump(0.01) and what in term.text():
            term.child.kill(signal.SIGKILL)
            term.child.wait()
            return term.text()
        if term.eof:
            break
    raise AssertionError(f"never saw {what!r}" + term.dump())


def cards(text: str) -> set:
    return {parse_card(w) for w in text.split()}


def hand(game, seat: int = 0) -> set:
    return set(game.round.hand(seat))


def test_the_issue_case_3d_survives_a_kill_as_it_is_shown(terms, home):
    # K7Q2MXA7, pass 8s 9s ts, 2c 2c, 3d 3d: "You play 3♦. North takes trick 2", then kill -9
    term = spawn(terms, ["new", "--code", CODE, *SLOW], home)
    term.wait_prompt("Cards to pass>")
    term.send("pass 8s 9s ts\r")
    term.wait_prompt("Your card>")
    term.send("2c\r")
    term.wait_prompt("Your card>")
    term.send("2c\r")
    term.wait_prompt("Your card>")
    term.send("3d\r")
    term.wait_prompt("Your card>")
    term.send("3d\r")
    kill_on(term, "You play 3♦.")
    game = saved_game(home)
    rd = game.round
    assert parse_card("3D") not in hand(game)
    second = rd.tricks[1] if len(rd.tricks) > 1 else None
    played = list(second.cards) if second is not None else list(rd.trick)
    assert parse_card("3D") in played, (rd.tricks, rd.trick)

    again = spawn(terms, ["play", "--delay", "0"], home)
    screen = again.wait_prompt("Your card>")
    hand_line = next(line for line in screen.splitlines()[::-1] if line.startswith("Your hand:"))
    assert "3" not in hand_line.split("♦")[1].split("♥")[0].split(), hand_line  # 3♦ is gone


@pytest.mark.parametrize("line, holds", [
    ("You pass 8♠, 9♠, 10♠", lambda g: g.round.passes[0] is not None
        and set(g.round.passes[0]) == cards("8S 9S TS")),
    ("You received", lambda g: g.round.phase is Phase.PLAY),
    ("You play 2♣.", lambda g: parse_card("2C") not in hand(g)
        and (parse_card("2C") in g.round.trick or g.round.tricks)),
    ("West plays", lambda g: len(g.round.trick) >= 2 or len(g.round.tricks) >= 1),
    ("North plays", lambda g: len(g.round.trick) >= 3 or len(g.round.tricks) >= 1),
    ("takes trick 1", lambda g: len(g.round.tricks) >= 1),
], ids=["your-pass", "received", "your-card", "cpu-card-west", "cpu-card-north", "trick-won"])
def test_a_kill_the_instant_a_line_shows_keeps_its_move(terms, home, line, holds):
    term = spawn(terms, ["new", "--code", CODE, "--no-confirm", *SLOW], home)
    term.wait_prompt("Cards to pass>")
    term.send("pass 8s 9s ts\r")
    if line not in ("You pass 8♠, 9♠, 10♠", "You received"):
        term.wait_prompt("Your card>")
        term.send("2c\r")
    kill_on(term, line)
    game = saved_game(home)
    assert holds(game), (line, game.round.passes, game.round.tricks, game.round.trick)
    # and the game resumes from there
    again = spawn(terms, ["play", "--delay", "0"], home)
    again.wait_for("Welcome back")


def _last_trick_save(home: Path, target: int = 50) -> Game:
    """A save of K7Q2MXA7 with South to play the last card it holds in round 1."""
    from hearts_cli.bots import suggest
    from hearts_cli.repl.table import make_seats

    game = Game(Rules.from_spec({"preset": "quick", "target": target}), CODE)
    rd = game.round
    for seat in range(4):
        game.push_pass(suggest(rd.view(seat), "easy", seed_for(CODE, "cpu", seat)), seat)
    while not (rd.turn == 0 and len(rd.hand(0)) == 1):
        game.push(rd.legal_cards()[0])
    save_record(home / "current.yaml", game, seats=make_seats(4, 0, None))
    return game


def test_a_kill_as_the_round_end_shows_keeps_the_whole_round(terms, home):
    home.mkdir(parents=True)
    before = _last_trick_save(home)
    last = before.round.hand(0)[0]
    term = spawn(terms, ["play", "--no-confirm", *SLOW], home)
    term.wait_prompt("Your card>")
    term.send(str(last) + "\r")
    kill_on(term, "End of round 1")
    game = saved_game(home)
    assert len(game.results) == 1 and len(game.rounds) == 2
    assert list(game.totals) == list(game.results[0].scores)


def test_a_kill_as_the_game_end_shows_finds_it_in_the_archive(terms, home):
    from hearts_cli.records.record_reader import read_record

    home.mkdir(parents=True)
    before = _last_trick_save(home, target=1)  # the first round ends the game
    last = before.round.hand(0)[0]
    term = spawn(terms, ["play", "--no-confirm", *SLOW], home)
    term.wait_prompt("Your card>")
    term.send(str(last) + "\r")
    kill_on(term, "End of round 1")
    [archived] = (home / "archive").glob("*.yaml")
    game = read_record(archived).replay()
    assert game.over and len(game.results) == 1
    assert not (home / "current.yaml").exists()
