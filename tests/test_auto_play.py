"""`auto_play` in settings.yaml (issue 18 §3): the only card the person may play is shown at
the prompt and plays by itself after a short pause, at `hearts play` and at a shared table;
never a pass or the moon's question; any key during the pause leaves the card to the person;
a kill during the pause loses nothing. Off by default, and never in the line-by-line mode.

The prompt-toolkit session runs in this process through a pipe (as in test_repl.py); each
test waits on what the table says, never on time (a pause that must not end is a minute long).
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import drive_session

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.records.record_reader import read_record
from hearts_cli.repl.pacing import AUTO_PLAY_PAUSE, auto_play_pause
from hearts_cli.repl.table import Table, make_seats
from hearts_cli.store.saves import Store, read_settings, settings_warnings

CODE = "JYR35SWD"  # South passes T♠ J♠ K♠ and, after the exchange, must lead the 2♣
PASS = "pass TS JS KS\r"
NEVER = 60.0  # a pause that does not end while a test runs

pytestmark = pytest.mark.usefixtures("home")


def _mine(tb: Table, kind: str = "play") -> list:
    while True:
        try:
            return [ev for ev in list(tb.events) if ev.kind == kind and ev.data.get("seat") == tb.me]
        except RuntimeError:  # changed while read (the session's thread): read again
            time.sleep(0.01)


def _until(test: Callable[[], object], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def _session(tb: Table, pause: float | None, drive: Callable[..., None]) -> int:
    """``tb``'s prompt-toolkit session with ``auto_play`` at ``pause``, fed keys by
    ``drive(send, loop)`` from another thread (``conftest.drive_session``)."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.session import Loop

    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        loop = Loop(tb, plain=True, delay=0, turn_timer=None, key_within=None, auto_play=pause)
        tb.attach(loop)
        opened: list = []  # the decision at each prompt opened, once it is listening
        real = loop.pre_run

        def pre_run() -> None:
            real()
            opened.append(loop.decision())

        loop.pre_run = pre_run  # type: ignore[method-assign]
        loop.opened = opened  # type: ignore[attr-defined]

        def run() -> int:
            tb.announce_start()
            return loop.run()

        return int(drive_session(inp, run, lambda: drive(inp.send_text, loop)))


def _local(store: Store | None = None, code: str = CODE) -> Table:
    return Table(Game(Rules.from_spec(None), code), make_seats(4, 0, "easy"), lang="en", confirm=True,
                 store=store or Store())


# ---------------------------------------------------------------- the setting


def test_auto_play_is_a_setting_true_or_a_pause_in_seconds_and_off_by_default(home: Path):
    assert auto_play_pause(None) is None and auto_play_pause(False) is None  # off by default
    assert auto_play_pause(True) == AUTO_PLAY_PAUSE == 0.8
    assert auto_play_pause(1.5) == 1.5
    home.mkdir(parents=True, exist_ok=True)
    for text, value in (("true", True), ("false", False), ("1.5", 1.5), ("2", 2)):
        (home / "settings.yaml").write_text(f"auto_play: {text}\n")
        assert read_settings(home) == ({"auto_play": value}, [])
    for bad in ("0", "7", "yes please", "[1]"):
        (home / "settings.yaml").write_text(f"auto_play: {bad}\n")
        settings, problems = read_settings(home)
        assert settings == {} and [p[0] for p in problems] == ["settings_bad_auto_play"]
        [en] = settings_warnings("en", home)
        [es] = settings_warnings("es", home)
        assert "'auto_play' must be true, false or a pause in seconds from 0.2 to 5" in en
        assert "«auto_play» debe ser true, false o una pausa en segundos de 0,2 a 5" in es


def test_the_forced_card_is_only_a_card_with_no_choice():
    """Never the pass (always a choice), never a card among several, never the moon's question."""
    tb = _local()
    assert tb.game.round.phase is Phase.PASS and tb.forced_card() is None
    tb.handle(PASS)
    while tb.cpu_step():
        pass
    assert tb.forced_card() == Card("2C")  # the 2♣ must lead
    tb.handle("2c")
    rd = tb.game.round
    while not tb.game.over and len(tb.game.rounds) == 1:
        while tb.cpu_step():
            pass
        if rd.phase is Phase.PLAY and rd.turn == tb.me:
            legal = rd.legal_cards()
            assert tb.forced_card() == (legal[0] if len(legal) == 1 else None)
            tb.core.play(tb.me, legal[-1], "person")
        elif rd.phase is Phase.MOON:
            assert tb.forced_card() is None
            tb.core.choose_moon(rd.turn, "others", "person")
        elif rd.phase is not Phase.PLAY:
            break
        else:
            assert tb.forced_card() is None  # not the person's move


# ---------------------------------------------------------------- hearts play


def test_the_only_legal_card_plays_by_itself_as_if_typed(home: Path):
    """The 2♣ plays for the person after the pause: the same `play` event as a typed card
    ("You play 2♣."), saved before it is told; the next card, a choice, waits."""
    from hearts_cli.repl.render import Renderer, plain

    store = Store()
    tb = _local(store)

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: _mine(tb))
        _until(lambda: loop.opened and loop.opened[-1] == loop.decision() and tb.game.round.turn == 0)
        assert loop.auto_play.armed is None  # a choice: nothing plays by itself

    assert _session(tb, 0.05, drive) == 0
    [play] = _mine(tb)
    assert play.data["card"] == Card("2C") and play.data["by"] == "you"
    assert plain(Renderer(tb, plain=True).event(play)[0]) == "You play 2♣."
    saved = read_record(store.save_path).replay()
    assert Card("2C") not in saved.round.hand(0)
    assert len(saved.round.hand(0)) == 12  # and nothing more


def test_the_toolbar_says_the_card_will_play_by_itself(home: Path):
    from hearts_cli.repl.toolbar import bottom_toolbar

    tb = _local()
    seen: dict = {}

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.auto_play.armed is not None)
        seen["en"] = bottom_toolbar(tb, loop.status, lambda: 120)()[0][1]
        send("s")  # a key: the person takes over
        _until(lambda: loop.auto_play.armed is None)
        seen["after"] = bottom_toolbar(tb, loop.status, lambda: 120)()[0][1]
        send("\x7f")  # (Ctrl-D leaves from an empty line only)

    assert _session(tb, NEVER, drive) == 0
    assert "2♣ is the only card you can play: it plays by itself (any key stops it)." in seen["en"]
    assert "only card" not in seen["after"]


def test_spanish_toolbar():
    from hearts_cli.text.catalog import t

    assert t("auto_play_status", "es", card=Card("2C")) == \
        "2♣ es la única carta que puedes jugar: se juega sola (cualquier tecla lo impide)."


def test_typing_during_the_pause_leaves_the_card_to_the_person(home: Path):
    """A key during the pause stops it for that decision: `score` is answered, the prompt
    opens again at the 2♣ without a pause, and the person plays it at its first entry."""
    tb = _local()

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.auto_play.armed is not None)
        at = loop.decision()
        send("score\r")
        _until(lambda: any(ev.kind == "score" for ev in tb.events))
        _until(lambda: loop.opened.count(at) == 2)  # the prompt is open again at the 2♣...
        assert loop.auto_play.armed is None and loop.status.auto is None  # ...and waits
        send("2c\r")
        _until(lambda: _mine(tb))

    assert _session(tb, NEVER, drive) == 0
    [play] = _mine(tb)
    assert play.data["card"] == Card("2C") and play.data["by"] == "you"
    assert not [ev for ev in tb.events if ev.kind == "confirm"]


def test_undo_back_to_a_forced_card_leaves_it_to_the_person(home: Path):
    """`undo` back to the 2♣: it waits there (else it would play again at once, and undo could
    never go further back)."""
    tb = _local()

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.auto_play.armed is not None)
        send("2c\r")
        _until(lambda: tb.game.round.turn == 0 and len(tb.game.round.hand(0)) == 12)
        send("undo\r")
        _until(lambda: any(ev.kind == "undo" for ev in tb.events))
        _until(lambda: loop.opened[-1] == loop.decision())  # the prompt is open at the 2♣ again
        assert Card("2C") in tb.game.round.hand(0) and tb.forced_card() == Card("2C")
        assert loop.auto_play.armed is None

    assert _session(tb, NEVER, drive) == 0
    assert Card("2C") in tb.game.round.hand(0)


def test_a_kill_during_the_pause_loses_nothing_and_the_card_plays_after_resuming(home: Path):
    """While the 2♣ waits, the save on disk (what a `kill -9` leaves) holds every move so far,
    the 2♣ still in hand; the game resumed from it plays the 2♣ by itself."""
    store = Store()
    tb = _local(store)
    kept: dict = {}

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.auto_play.armed is not None)
        kept["game"] = read_record(store.save_path).replay()

    assert _session(tb, NEVER, drive) == 0
    game = kept["game"]
    assert all(p is not None for p in game.round.passes) and game.round.phase is Phase.PLAY
    assert game.round.turn == 0 and Card("2C") in game.round.hand(0)
    loaded = Store().load()
    again = Table(loaded.game, loaded.seats, lang="en", confirm=True, store=Store())

    def drive_again(send, loop) -> None:
        _until(lambda: _mine(again))

    assert _session(again, 0.05, drive_again) == 0
    assert [ev.data["card"] for ev in _mine(again)] == [Card("2C")]


def test_off_the_forced_card_waits_to_be_entered(home: Path):
    tb = _local()

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.opened and loop.opened[-1] == loop.decision() and tb.forced_card() is not None)
        assert loop.auto_play.armed is None and loop.status.auto is None

    assert _session(tb, None, drive) == 0
    assert Card("2C") in tb.game.round.hand(0)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdin and stdout that say they are a terminal: the commands then open the interactive
    loop (which the test stands in for or drives), as for a person."""
    monkeypatch.setattr(sys, "stdin", _Tty())
    monkeypatch.setattr(sys, "stdout", _Tty())


def test_hearts_play_reads_auto_play_from_settings_yaml(home: Path, monkeypatch: pytest.MonkeyPatch):
    from hearts_cli.repl import session
    from hearts_cli.repl.new_game import NewGame
    from hearts_cli.repl.start import start_new

    seen: dict = {}

    def fake(table, **kw):
        seen.update(kw)
        return 0

    monkeypatch.setattr(session, "run_interactive", fake)
    _in_a_terminal(monkeypatch)
    home.mkdir(parents=True, exist_ok=True)
    assert start_new(NewGame.of(code=CODE)) == 0
    assert seen["auto_play"] is None  # off by default
    (home / "settings.yaml").write_text("auto_play: true\n")
    assert start_new(NewGame.of(code=CODE)) == 0
    assert seen["auto_play"] == AUTO_PLAY_PAUSE
    (home / "settings.yaml").write_text("auto_play: 2\n")
    assert start_new(NewGame.of(code=CODE)) == 0
    assert seen["auto_play"] == 2.0


def test_scripts_read_the_same_whatever_the_setting(home: Path):
    """The line-by-line mode plays what it is given (as with confirmation): a script that
    enters the 2♣ gives the same bytes with `auto_play: true` in settings.yaml."""
    from hearts_cli.repl.new_game import NewGame
    from hearts_cli.repl.start import start_new

    lines = "".join(x + "\n" for x in ("pass TS JS KS", "2c", "score"))
    first = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO(lines), stdout=first) == 0
    (home / "current.yaml").unlink()  # (else the second game would say where the first went)
    (home / "settings.yaml").write_text("auto_play: true\n")
    second = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO(lines), stdout=second) == 0
    assert second.getvalue() == first.getvalue() and "You play 2♣." in first.getvalue()


# ---------------------------------------------------------------- at a shared table


def test_at_a_shared_table_the_only_legal_card_plays_by_itself(home: Path, monkeypatch: pytest.MonkeyPatch):
    """`hearts join` (its own `_seat`, reading settings.yaml) at a host over a real socket: the
    2♣ is sent to the host by itself, told as the person's own card ("You play 2♣.")."""
    from conftest import HOST, serve_table
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.cli import join
    from hearts_cli.repl import session
    from hearts_cli.table.invitations import invitation
    from hearts_cli.table.remote import Link
    from hearts_cli.table.shared import SharedTable
    from hearts_cli.table.shared import make_seats as shared_seats

    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("auto_play: 0.2\n")
    shared = SharedTable(Game(Rules.from_spec("quick"), CODE), shared_seats(4, 1, "easy"), bot_threads=False)
    port = serve_table(shared)
    link = Link()
    welcome = link.connect(invitation(HOST, port, shared.seats[0].token), None, "en", None)
    seen: dict = {}
    real_run = session.run_interactive

    def run(table, **kw):
        seen["table"], seen["auto_play"] = table, kw["auto_play"]
        return real_run(table, **kw)

    monkeypatch.setattr(session, "run_interactive", run)
    _in_a_terminal(monkeypatch)
    with create_pipe_input() as inp:
        def drive() -> None:
            _until(lambda: "table" in seen and seen["table"].core.decision())
            tb = seen["table"]
            hand = [str(c) for c in tb.view().hand]
            inp.send_text("pass " + " ".join(hand[-3:]) + "\r")
            _until(lambda: _mine(tb))

        try:
            with create_app_session(input=inp, output=DummyOutput()):
                assert drive_session(inp, lambda: join._seat(link, welcome, "en", True), drive) == 0
        finally:
            link.close()
    assert seen["auto_play"] == 0.2
    [play] = _mine(seen["table"])
    assert play.data["card"] == Card("2C") and play.data["by"] == "you"
    first = shared.game.rounds[0]  # (the CPU plays on for the seat left: maybe rounds later)
    trick = first.tricks[0] if first.tricks else None
    assert (trick.leader, trick.cards[0]) == (0, Card("2C")) if trick else first.trick[0] == Card("2C")


# ---------------------------------------------------------------- in a real terminal


@pytest.mark.slow
def test_in_a_real_terminal_the_2c_plays_by_itself(terms, tmp_path: Path):
    """`auto_play: true`: the terminal's own answers (cursor-position reports) are no key;
    the 2♣ shows on the prompt's line and plays ("You play 2♣."), saved."""
    sys.path.insert(0, str(Path(__file__).parent))
    pty = pytest.importorskip("test_pty")
    home = tmp_path / "pty-home"
    home.mkdir()
    (home / "settings.yaml").write_text("auto_play: true\n")
    term = pty.spawn(terms, ["new", "--code", CODE], home)
    term.wait_prompt("Cards to pass>")
    term.send("pass TS JS KS\r")
    screen = term.wait_for("You play 2♣.")
    assert "Your card> 2♣" in screen.splitlines()  # shown on the prompt's line, as if typed
    game = pty.wait_saved(term, home, lambda g: len(g.round.hand(0)) == 12)
    assert Card("2C") not in game.round.hand(0)
    term.wait_prompt("Your card>")  # the next card is a choice: it waits
    assert len(pty.saved_game(home).round.hand(0)) == 12


# ---------------------------------------------------------------- bell: (issue 26)


@pytest.mark.parametrize("bell, rings", [(0.0, 2), (None, 0), (NEVER, 0)])
def test_the_bell_rings_once_when_your_turn_comes_after_a_wait(home: Path, bell, rings):
    """`bell:` in settings.yaml: the terminal's bell rings when the person's turn comes at least
    that long after their last line, once a decision (with no wait at all: the pass, and the lead
    after the CPUs' passes, not again for a line typed at the same decision); never without the
    setting, nor before the wait is over."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.pacing import BELL_WAIT, bell_wait
    from hearts_cli.repl.session import Loop

    class Bells(DummyOutput):
        rung = 0

        def bell(self) -> None:
            Bells.rung += 1

    assert (bell_wait(None), bell_wait(False), bell_wait(True), bell_wait(5)) == (None, None, BELL_WAIT, 5.0)
    home.mkdir(parents=True, exist_ok=True)
    for text, value in (("true", True), ("3", 3)):
        (home / "settings.yaml").write_text(f"bell: {text}\n")
        assert read_settings(home) == ({"bell": value}, [])
    (home / "settings.yaml").write_text("bell: ring\n")
    assert [p[0] for p in read_settings(home)[1]] == ["settings_bad_bell"]
    (home / "settings.yaml").unlink()
    tb = _local()
    with create_pipe_input() as inp, create_app_session(input=inp, output=Bells()):
        loop = Loop(tb, plain=True, delay=0, turn_timer=None, key_within=None, bell=bell)
        tb.attach(loop)
        opened: list = []
        real = loop.pre_run

        def pre_run() -> None:
            real()
            opened.append(loop.decision())

        loop.pre_run = pre_run  # type: ignore[method-assign]

        def drive() -> None:
            inp.send_text(PASS)
            _until(lambda: opened and opened[-1] == loop.decision() and tb.game.round.phase is Phase.PLAY)
            inp.send_text("score\r")  # another line at the same decision: no second bell
            _until(lambda: len(opened) >= 3)

        def run() -> int:
            tb.announce_start()
            return loop.run()

        drive_session(inp, run, drive)
    assert Bells.rung == rings


def test_left_and_right_pick_a_playable_card_without_typing(home: Path):
    """Issue 26: keyboard-only picking. On an empty line (or one a pick filled) Right and Left
    step through the cards that may be played, in the hand's order; Enter enters the card as if
    typed (a card among several asks for confirmation). Up and Down stay the history's."""
    tb = _local()
    RIGHT, LEFT = "\x1b[C", "\x1b[D"
    picked: list = []

    def drive(send, loop) -> None:
        send(PASS)
        _until(lambda: loop.opened and loop.opened[-1] == loop.decision() and tb.game.round.phase is Phase.PLAY)
        send(RIGHT + "\r")  # the 2♣, alone playable: played at its first entry
        _until(lambda: _mine(tb))
        rd = tb.game.round
        _until(lambda: rd.turn == 0 and len(rd.legal_cards()) > 1 and loop.opened[-1] == loop.decision())
        order = [c for _, cards in tb.hand_order.arrange(rd.hand(0)) for c in cards if c in rd.legal_cards()]
        picked.append(order[1])
        send(RIGHT + RIGHT + RIGHT + LEFT + "\r")  # first, second, third, back to the second

    assert _session(tb, None, drive) == 0
    [first, *_] = _mine(tb)
    assert first.data["card"] == Card("2C")
    confirm = [ev for ev in tb.events if ev.kind == "confirm"]
    assert confirm and confirm[-1].data["card"] == picked[0]
