"""End to end: `hearts new --preset cancellation --players 8` from the command line, fed its
moves in script mode (no terminal), plays a whole two-deck game to the end.

The CPUs play at the Easy level: what is tested is the two-deck game's plumbing from the
command line to the archive, which every level goes through alike (Hard's two-deck search
costs a whole game some 25 s of CPU; it is tested in test_multi_bots.py, and plays the
8-player round of the golden case game-cancellation-8p-es at the default levels)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_repl import Player, archived

from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.start import start_new

CODE = "K7Q2MXA7"


pytestmark = [pytest.mark.usefixtures("home"), pytest.mark.slow]  # its own save directory; a whole game, twice


def test_new_cancellation_for_eight_plays_a_whole_game_from_a_script(home, tmp_path):
    # the person's moves, found by playing once through the JSON batch mode
    player = Player()
    assert start_new(NewGame.of(preset="cancellation", players=8, code=CODE, level="easy"),
                     json_events=True, stdin=player, stdout=player) == 0
    end = player.events[-1]
    assert end["event"] == "game_end" and max(end["totals"]) >= 100
    tricks = [ev for ev in player.events if ev["event"] == "trick"]
    assert any(ev.get("cancelled") for ev in tricks)  # cards cancelled along the way
    rounds = [ev for ev in player.events if ev["event"] == "round_end"]
    assert all(sum(ev["taken"]) == 52 for ev in rounds)  # two decks: 52 points a round
    hands = [ev for ev in player.events if ev["event"] == "view"]
    assert any(len(set(ev["hand"])) < len(ev["hand"]) for ev in hands)  # a card held twice

    # the same lines fed to the command, as a person would script it
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(player.lines) + "\n")
    env = dict(os.environ, HEARTS_HOME=str(tmp_path / "run"), LANG="C.UTF-8")
    with open(moves, "rb") as fh:
        proc = subprocess.run([sys.executable, "-m", "hearts_cli", "new", "--preset", "cancellation",
                               "--players", "8", "--code", CODE, "--level", "easy"], stdin=fh, capture_output=True,
                              env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    text = proc.stdout.decode()
    assert "Game over after" in text
    assert " cancel: " in text and "The two " in text  # "The two A♥ cancel: K♥ wins."
    assert archived(tmp_path / "run")  # the finished game is archived
