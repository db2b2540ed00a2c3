"""`undo` (and Ctrl-Z): takes back the person's last card or pass with the CPU cards after it.

Exact because every CPU move derives from the code; durable (the save holds it before it is
shown); off with `undo: false`; the record keeps the game as played and counts the undos;
`hearts replay` and `--analyze` read such a record as any other; batch and --json runs are
byte for byte the same."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import JsonPlayer, WholeGame, archived, whole_game
from conftest import run as run_hearts

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.records.record_parts import RecordError
from hearts_cli.records.record_reader import read_record
from hearts_cli.records.record_writer import write_record
from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.start import resume, start_new
from hearts_cli.repl.table import Table, make_seats
from hearts_cli.store.saves import Store

CODE = "JYR35SWD"  # South holds the 2♣ after the first pass


pytestmark = pytest.mark.usefixtures("home")  # every test in its own save directory


class Player(JsonPlayer):
    """The person's seat through --json: the first three cards to pass, the highest legal card.

    ``extra`` maps a move number (0-based, counting the person's own moves) to lines sent
    just after that move (``undo``...); the moves then go on as if nothing happened, so a
    game with undos and the same game without end the same."""

    def __init__(self, extra: dict[int, list[str]] | None = None):
        super().__init__()
        self.extra = {k: list(v) for k, v in (extra or {}).items()}
        self.lines: list[str] = []
        self.made = 0
        self.queue: list[str] = []

    def readline(self, size: int = -1) -> str:
        if self.queue:
            line = self.queue.pop(0)
        else:
            move = self.next_move()
            if move is None:
                return ""
            line = move
            self.queue = self.extra.pop(self.made, [])
            self.made += 1
        self.lines.append(line)
        return line + "\n"


def without_undos(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("undos: "))


def play_whole(home: Path, extra=None) -> tuple[Player | WholeGame, str]:
    """The game of CODE to its end with ``extra`` lines typed: the player and the archived
    record (without extras: conftest's whole game of CODE, played once per process)."""
    if not extra:
        game = whole_game(CODE)
        return game, game.record
    player = Player(extra)
    assert start_new(NewGame.of(code=CODE), json_events=True, stdin=player, stdout=player) == 0
    assert player.events[-1]["event"] == "game_end"
    path = archived(home)[-1]
    text = path.read_text()
    path.unlink()
    return player, text


# ---------------------------------------------------------------- exact


@pytest.mark.slow
def test_undo_then_the_same_move_gives_exactly_the_same_game(home):
    plain_player, uninterrupted = play_whole(home)
    # undo right after the pass (move 0), after a card of round 1 (move 3), twice after move 7,
    # and once at the start of a later round (move 16 is in round 2)
    extra = {0: ["undo"], 3: ["undo"], 7: ["undo", "undo"], 16: ["undo"]}
    player, text = play_whole(home, extra)
    assert "undos: 5\n" in text
    assert without_undos(text) == uninterrupted  # the record: the game as played, to the end
    undos = [ev for ev in player.events if ev["event"] == "undo"]
    assert len(undos) == 5 and [ev["undos"] for ev in undos] == [1, 2, 3, 4, 5]
    # the events other than the undone stretches are the same, in the same order
    end = player.events[-1]
    assert end["totals"] == plain_player.events[-1]["totals"]


def test_undo_puts_you_where_you_were(home):
    class Stop(Player):  # the pass, a card, a card, then undo, and the end of input
        def readline(self) -> str:
            return "" if len(self.lines) >= 4 else super().readline()

    stop = Stop({2: ["undo"]})
    assert start_new(NewGame.of(code=CODE), json_events=True, stdin=stop, stdout=stop) == 0
    undo = next(ev for ev in stop.events if ev["event"] == "undo")
    turns = stop.turns
    # the turn of the card taken back; the next one (trick 3); and the one the undo brings back
    before, after = turns[2], turns[4]
    assert turns[3]["trick_number"] == before["trick_number"] + 1
    assert after == before  # the same hand, legal cards, trick, points and totals
    assert undo["move"] == "play" and undo["cards"] == [before["legal"][-1]]
    assert undo["after"] >= 1  # the CPU cards played after it went too
    saved = read_record(Path(os.environ["HEARTS_HOME"]) / "current.yaml")
    assert saved.undos == 1


def test_undo_of_a_pass_takes_back_every_pass_of_that_round(home):
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", store=Store())
    hand = tb.game.round.hand(0)
    tb.handle("pass " + " ".join(str(c) for c in hand[:3]))
    while tb.cpu_step():
        pass
    assert tb.game.round.phase is Phase.PLAY
    tb.handle("undo")
    rd = tb.game.round
    assert rd.phase is Phase.PASS and all(p is None for p in rd.passes)
    assert rd.hand(0) == hand and tb.selection == []
    assert tb.events[-1].kind == "undo" and tb.events[-1].data["move"] == "pass"
    saved = read_record(Store().save_path).replay()
    assert all(p is None for p in saved.round.passes)


def test_undo_reaches_back_into_the_previous_round(home):
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", store=Store(),
               confirm=False)
    while len(tb.game.rounds) == 1:
        while tb.cpu_step():
            pass
        rd = tb.game.round
        if len(tb.game.rounds) > 1:
            break
        if rd.phase is Phase.PASS:
            tb.handle("pass " + " ".join(str(c) for c in rd.hand(0)[:3]))
        else:
            tb.handle(str(rd.legal_cards()[0]))
    while tb.cpu_step():
        pass
    assert len(tb.game.rounds) == 2 and tb.game.round.passes[0] is None
    totals = list(tb.game.totals)
    tb.handle("undo")
    rd = tb.game.round
    assert len(tb.game.rounds) == 1 and len(rd.tricks) == 12 and rd.turn == 0  # your last card of round 1
    assert tb.game.totals == (0, 0, 0, 0) and sum(totals) > 0
    assert not tb.failed


# ---------------------------------------------------------------- refused


def test_nothing_to_undo_is_one_sentence_and_status_2_with_the_save_unchanged(home, capsys):
    assert start_new(NewGame.of(code=CODE), play=False) == 0
    save = home / "current.yaml"
    before = save.read_bytes()
    capsys.readouterr()
    assert resume(stdin=io.StringIO("undo\n"), stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.strip() == "There is nothing of yours to take back yet."
    assert save.read_bytes() == before
    assert resume(lang="es", stdin=io.StringIO("deshacer\n"), stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.strip() == "Aún no hay ninguna jugada tuya que deshacer."


def test_undo_can_be_turned_off_in_settings(home, capsys):
    home.mkdir(parents=True)
    (home / "settings.yaml").write_text("undo: false\n")
    out = io.StringIO()
    script = io.StringIO("pass TS JS KS\n2c\nundo\n")
    assert start_new(NewGame.of(code=CODE), stdin=script, stdout=out) == 2
    assert "Undo is turned off (undo: false in settings.yaml)." in capsys.readouterr().err
    assert Card("2C") not in read_record(home / "current.yaml").replay().round.hand(0)
    # a bad value is named, and the default (on) is used
    (home / "settings.yaml").write_text("undo: maybe\n")
    from hearts_cli.store.saves import settings_warnings

    assert settings_warnings("en") == [f"{home / 'settings.yaml'}: 'undo' must be true or false, not 'maybe'; "
                                       "the default (true) is used."]


@pytest.mark.slow
def test_undo_after_the_end_of_the_game_is_refused(home):
    # Easy CPUs: what is tested is the end of a game, not how it is played (Hard: 3 s of CPU)
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, "easy"), lang="en", store=None)
    tb.auto_round = None
    while not tb.game.over:
        tb.handle("auto")
        while tb.cpu_step():
            pass
    tb.handle("undo")
    assert tb.failed and tb.events[-1].data["code"] == "undo_game_over"


# ---------------------------------------------------------------- durable


def test_the_save_holds_the_undo_before_it_is_shown(home):
    store = Store()
    seen = []

    def emit(ev):
        if ev.kind == "undo":  # the moment it would reach the screen
            record = read_record(store.save_path)
            seen.append((record.undos, len(record.moves), record.replay().round.hand(0)))

    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", store=store, emit=emit,
               confirm=False)
    tb.handle("pass TS JS KS")
    while tb.cpu_step():
        pass
    tb.handle("2c")
    while tb.cpu_step():
        pass
    tb.handle("undo")
    assert seen == [(1, 4, tb.game.round.hand(0))]  # the passes only; the 2♣ is back in hand
    assert Card("2C") in seen[0][2]


# ---------------------------------------------------------------- the record


def test_the_record_counts_undos_and_reads_them_back(home):
    game = Game(Rules.from_spec(None), CODE)
    seats = make_seats(4, 0, None)
    assert "undos" not in write_record(game, seats)  # no line when none were taken
    text = write_record(game, seats, undos=3)
    assert text.endswith("totals: [0, 0, 0, 0]\nundos: 3\n")
    record = read_record(text)
    assert record.undos == 3 and record.to_text() == text
    for bad in ("-1", "two", "1.5", "true"):
        with pytest.raises(RecordError) as e:
            read_record(text.replace("undos: 3", f"undos: {bad}"))
        assert "undos" in e.value.message("en")
    lenient = read_record(text.replace("undos: 3", "undos: -1"), strict=False)
    assert lenient.undos == 0 and lenient.errors


@pytest.mark.slow
def test_resume_keeps_the_count_and_the_archive_notes_it(home):
    player = Player({1: ["undo", "quit"]})
    assert start_new(NewGame.of(code=CODE), json_events=True, stdin=player, stdout=player) == 0
    assert read_record(home / "current.yaml").undos == 1
    rest = Player({0: ["undo"]})
    assert resume(json_events=True, stdin=rest, stdout=rest) == 0
    [path] = archived(home)
    assert read_record(path).undos == 2


@pytest.mark.slow
def test_replay_and_analyze_read_a_record_with_undos_as_the_same_game(home, tmp_path):
    _, plain_text = play_whole(home)
    _, undone_text = play_whole(home, {2: ["undo"], 5: ["undo"]})
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(plain_text)
    b.write_text(undone_text)
    assert "undos: 2" in undone_text

    def run(*args: str) -> str:  # in this process: what is compared is what replay says
        result = run_hearts("replay", *args)
        assert result.exit_code == 0, result.stderr
        return result.stdout

    assert run(str(b)) == run(str(a))
    assert run(str(b), "--json") == run(str(a), "--json")
    first_round = ["--at", "2.pass.0"]  # --analyze on round 1 only, with a small budget: quick
    assert run(str(b), "--analyze", "--seat", "0", "--simulations", "2", *first_round) == \
        run(str(a), "--analyze", "--seat", "0", "--simulations", "2", *first_round)


# ---------------------------------------------------------------- batch and --json reruns


@pytest.mark.slow
@pytest.mark.parametrize("mode", [[], ["--json"]])
def test_undo_in_a_script_is_byte_identical_on_reruns(home, tmp_path, mode):
    script = tmp_path / "moves.txt"
    script.write_text("pass TS JS KS\nundo\npass TS JS KS\n2c\nundo\n2c\nundo\nundo\n")
    outputs = []
    for run, hashseed in enumerate(("0", "4242")):
        env = dict(os.environ, HEARTS_HOME=str(tmp_path / f"run{run}"), PYTHONHASHSEED=hashseed)
        with open(script, "rb") as fh:
            proc = subprocess.run([sys.executable, "-m", "hearts_cli", "new", "--code", CODE, *mode],
                                  stdin=fh, capture_output=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode()
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    text = outputs[0].decode()
    if mode:
        events = [json.loads(line) for line in text.splitlines()]
        assert [ev["move"] for ev in events if ev["event"] == "undo"] == ["pass", "play", "play", "pass"]
    else:
        assert text.count("Taken back: your pass (") == 2
        assert text.count("Taken back: your 2♣") == 2


# ---------------------------------------------------------------- Ctrl-Z at the prompt


def test_ctrl_z_at_the_prompt_is_undo(home):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.session import run_interactive

    store = Store()
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", confirm=False,
               store=store)
    with create_pipe_input() as inp:
        inp.send_text("pass TS JS KS\r" + "2c\r" + "\x1a" + "\x04")
        with create_app_session(input=inp, output=DummyOutput()):
            assert run_interactive(tb, plain=True, delay=0, turn_timer=None, resumed=False, notes=[]) == 0
    kinds = [ev.kind for ev in tb.events]
    assert "undo" in kinds
    assert Card("2C") in tb.game.round.hand(0)
    assert read_record(store.save_path).undos == 1


@pytest.mark.slow
def test_ctrl_z_in_a_real_terminal_undoes_and_does_not_suspend(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    pty = pytest.importorskip("test_pty")
    home = tmp_path / "pty-home"
    term = pty.Term(["new", "--code", CODE, "--no-confirm"], home)
    try:
        term.wait_prompt("Cards to pass>")
        term.send("pass TS JS KS\r")
        term.wait_prompt("Your card>")
        term.send("2c\r")
        pty.wait_saved(term, home, lambda g: len(g.round.hand(0)) == 12)
        term.wait_prompt("Your card>")
        term.send("\x1a")  # Ctrl-Z at the prompt
        term.wait_for("Taken back: your 2♣")
        game = pty.wait_saved(term, home, lambda g: len(g.round.hand(0)) == 13 and g.round.phase.value == "play")
        assert Card("2C") in game.round.hand(0)
        assert term.child.isalive()
        term.wait_prompt("Your card>")  # still running, back at the prompt
        assert read_record(home / "current.yaml").undos == 1
    finally:
        term.close()
