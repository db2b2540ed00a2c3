"""The keys of the prompt: Tab opens the completions, Enter takes one, Esc closes them,
Ctrl-Z is ``undo``, Left and Right pick a card of the hand without typing it (Ctrl-C and
Ctrl-D are prompt-toolkit's own: the loop answers them); stray escape sequences, typed or
pasted, are dropped."""

from __future__ import annotations

import re

from prompt_toolkit.filters import Condition, completion_is_selected, has_completions
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from .client import TableClient
from .commands import name_of

# what a paste may carry that is no text: an escape sequence (a colour code copied from a
# terminal, ESC [ 3 1 m) and any other control character but a tab or a line's end
STRAY = re.compile(r"\x1b\[[0-9;:<=>?]*[ -/]*[@-~]|\x1b[@-_]?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def table_bindings(table: TableClient) -> KeyBindings:
    """The key bindings of ``table``'s prompt."""
    bindings = KeyBindings()
    _stray_keys(bindings)
    _completion_keys(bindings)
    _card_keys(bindings, table)
    return bindings


def _stray_keys(bindings: KeyBindings) -> None:
    """What is typed or pasted that is no text: dropped."""

    @bindings.add(Keys.Vt100MouseEvent)
    def _(event: KeyPressEvent) -> None:
        # prompt-toolkit's input parser reads ESC [ digits ; ... m or M as a mouse report
        # (ESC [ 3 1 m, a colour code, typed or pasted without bracketed paste), and its
        # mouse handler fails on most of them (an error screen, "Press ENTER to continue").
        # The prompt asks the terminal for no mouse reports: whatever comes as one is stray.
        return None

    @bindings.add(Keys.BracketedPaste)
    def _(event: KeyPressEvent) -> None:
        # prompt-toolkit's own paste, without the escape sequences and control characters
        # the text copied may hold (they would sit in the line, invisible or as ^[)
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        event.current_buffer.insert_text(STRAY.sub("", data))


def _completion_keys(bindings: KeyBindings) -> None:
    """Tab opens the completions (the first selected), Enter takes one, Esc closes them."""

    @bindings.add("tab", filter=~has_completions)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.start_completion(select_first=True)

    @bindings.add("enter", filter=has_completions & completion_is_selected)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.complete_state = None  # accept the completion; Enter again submits

    @bindings.add("escape", filter=has_completions, eager=True)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.cancel_completion()


def _card_keys(bindings: KeyBindings, table: TableClient) -> None:
    """Left and Right pick a card of the hand without typing it; Ctrl-Z is ``undo``."""

    def picked() -> list[str]:
        return picks(table)

    @Condition
    def picking() -> bool:
        """The line is empty, or holds a card Left or Right put there: typing is left alone."""
        from prompt_toolkit.application import get_app

        text = get_app().current_buffer.text
        return text == "" or text in picked()

    @bindings.add("left", filter=picking & ~has_completions)
    @bindings.add("right", filter=picking & ~has_completions)
    def _(event: KeyPressEvent) -> None:
        cards = picked()
        if not cards:
            return
        buffer = event.current_buffer
        step = 1 if event.key_sequence[0].key == "right" else -1
        at = cards.index(buffer.text) + step if buffer.text in cards else (0 if step > 0 else -1)
        buffer.text = cards[at % len(cards)]
        buffer.cursor_position = len(buffer.text)

    @bindings.add("c-z")
    def _(event: KeyPressEvent) -> None:
        # undo, as in the classic game: at the prompt the terminal is in raw mode, so Ctrl-Z
        # reaches us as a key (prompt-toolkit's suspend binding is off unless enable_suspend)
        buffer = event.current_buffer
        buffer.text = name_of("undo", table.lang)
        buffer.validate_and_handle()


def picks(table: TableClient) -> list[str]:
    """The cards Left and Right step through: those that may be played now (the whole hand
    while passing), in the order the hand is shown, each written as the hand shows it ("10♣",
    not "TC")."""
    view = table.view()
    if table.over or not view.hand:
        return []
    legal = set(table.legal()) if view.phase.value == "play" else set(view.hand)
    return [c.face(table.ascii) for _, cards in table.hand_order.arrange(view.hand) for c in cards if c in legal]
