"""The seams of the REPL (issue 25, §4): each event rendered once, one judgment per card
entered, one seat table between the REPL and the game, one validated new game."""

from __future__ import annotations

import pytest

from hearts_cli.model.rules import Rules
from hearts_cli.play.events import Event
from hearts_cli.play.game import Game
from hearts_cli.repl.table import Table, make_seats

CODE = "JYR35SWD"

pytestmark = pytest.mark.usefixtures("home")


def _table(**kw: object) -> Table:
    return Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", **kw)  # type: ignore[arg-type]


def test_each_event_is_rendered_once() -> None:
    """The session shows an event and keeps its first line in the toolbar from one rendering."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.render import plain
    from hearts_cli.repl.session import Loop

    tb = _table()
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        loop = Loop(tb, plain=True, delay=0, turn_timer=None, key_within=None)
        real = loop.renderer.event
        rendered: list[Event] = []

        def counting(ev: Event) -> list:  # type: ignore[type-arg]
            rendered.append(ev)
            return real(ev)

        loop.renderer.event = counting  # type: ignore[method-assign]
        ev = Event("info", {"topic": "leave", "text": "Type quit to leave."})
        loop.event(ev)
    assert rendered == [ev]
    assert loop.status.text == plain(real(ev)[0])


def test_hearts_new_checks_its_code_once(isolated: object) -> None:
    """`hearts new --code` reads the code once: the deal takes the checked code as it is."""
    import sys

    from conftest import run

    from hearts_cli.model import codes

    target = codes.normalize_code.__code__
    calls: list[int] = []

    def count(frame: object, event: str, arg: object) -> None:
        if event == "call" and getattr(frame, "f_code", None) is target:
            calls.append(1)

    sys.setprofile(count)
    try:
        result = run("new", "--code", "jyr3-5swd", "--no-play", "--plain")
    finally:
        sys.setprofile(None)
    assert result.exit_code == 0, result.stderr
    assert CODE in result.stdout
    assert len(calls) == 1


def test_a_bad_seat_is_one_sentence_of_the_one_catch(isolated: object) -> None:
    from conftest import assert_user_error, run

    from hearts_cli.text.en import MESSAGES

    err = assert_user_error(run("new", "--seat", "4", "--no-play"), "There is no seat 4", "0 to 3")
    assert err.strip() == MESSAGES["cli_bad_seat"].format(seat=4, players=4, last=3)
    assert "bad_seat_option" not in MESSAGES


def test_a_card_entered_is_judged_once() -> None:
    """Entered, confirmed with `why`, entered again and played: one question to the table."""
    from hearts_cli.model.cards import Card
    from hearts_cli.play.verdicts import Verdict
    from hearts_cli.table.local import LocalTable

    asked: list[Card] = []  # every card the table was asked about

    class Counting(LocalTable):
        def why(self, seat: int, card: Card) -> Verdict:
            asked.append(card)
            return super().why(seat, card)

    game = Game(Rules.from_spec(None), CODE)
    seats = make_seats(4, 0, None)
    core = Counting(game, seats)
    tb = Table(game, seats, lang="en", confirm=True, core=core)
    tb.announce_start()
    tb.handle("pass TS JS KS")
    while tb.cpu_step():
        pass
    while tb.view().turn != tb.me or len(tb.legal()) < 2:  # a card that asks to be confirmed
        tb.handle(str(tb.legal()[0]))
        while tb.cpu_step():
            pass
    card = tb.legal()[-1]
    asked.clear()
    tb.handle(str(card))
    assert tb.events[-1].kind == "confirm" and tb.pending == card
    tb.handle("why")
    assert tb.events[-1].kind == "why" and tb.events[-1].data["legal"] is True
    tb.handle(str(card))
    assert any(ev.kind == "play" and ev.data["card"] == card and ev.data["seat"] == tb.me for ev in tb.events)
    assert asked == [card]


@pytest.mark.parametrize("args, words", [
    (("play", "--delay", "30"), "The delay must be from 0 to 10 seconds."),
    (("new", "--turn-timer", "2", "--no-play"), "The turn timer must be from 5 to 600 seconds"),
])
def test_a_bad_pace_is_said_by_the_one_catch(isolated: object, args: tuple[str, ...], words: str) -> None:
    """The game loop raises; the command line's one catch says it (no sentence of the loop's own)."""
    from conftest import assert_user_error, run

    from hearts_cli.model.errors import HeartsError
    from hearts_cli.repl.start import resume

    assert_user_error(run(*args), words)
    with pytest.raises(HeartsError):
        resume(delay=30)
