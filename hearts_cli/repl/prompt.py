"""The prompt: what it asks, and the one PromptSession assembled from its parts
(history, completer, key bindings, toolbar, style), as pgcli's ``_build_cli`` does."""

from __future__ import annotations

from prompt_toolkit import PromptSession
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from ..play.dealt import Phase
from .client import TableClient
from .completer import CardCompleter
from .history import open_history
from .key_bindings import table_bindings
from .style import STYLE
from .toolbar import Status, bottom_toolbar


def prompt_message(table: TableClient) -> str:
    """What the prompt asks for: the seat's own decision, or, at a shared table between
    them, whom the table waits for (a card typed then is refused by the host)."""
    if table.over:
        return table.say("prompt_over")
    r = table.view()
    me = table.me
    told = None if table.local else table.waits_for  # (newer than a shared table's view)
    if told == "passes":
        return table.say("prompt_wait_passes")
    if isinstance(told, int) and told != me:
        return table.say("prompt_wait", seat=table.name(told))
    if r.phase is Phase.PASS:
        return table.say("prompt_pass" if r.passed is None else "prompt_wait_passes")
    if r.turn is not None and r.turn != me:
        return table.say("prompt_wait", seat=table.name(r.turn))
    if r.phase is Phase.MOON:
        return table.say("prompt_moon", points=table.rules.penalty_total)
    return table.say("prompt_play")


def build_session(table: TableClient, status: Status, *, plain: bool, style: Style = STYLE) -> PromptSession[str]:
    """The prompt-toolkit session of ``table``'s game: monochrome when ``plain``; ``style`` the
    table's colours (``deck_colors``)."""
    session: PromptSession[str]

    def columns() -> int:
        try:
            return session.app.output.get_size().columns
        except Exception:
            return 80

    session = PromptSession(
        history=open_history(),
        completer=CardCompleter(table, table.ascii),
        complete_while_typing=False,
        bottom_toolbar=bottom_toolbar(table, status, columns),
        key_bindings=table_bindings(table),
        style=style,
        color_depth=ColorDepth.MONOCHROME if plain else None,
        reserve_space_for_menu=6,
    )
    return session
