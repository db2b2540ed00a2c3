"""The seams of the REPL (issue 25, §4): each event rendered once, one judgment per card
entered, one seat table between the REPL and the game, one validated new game."""

from __future__ import annotations

import pytest

from hearts_cli.model.rules import Rules
from hearts_cli.play.engine import Game
from hearts_cli.play.events import Event
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
