"""The keys of the prompt: Tab opens the completions, Enter takes one, Esc closes them,
Ctrl-Z is ``undo`` (Ctrl-C and Ctrl-D are prompt-toolkit's own: the loop answers them)."""

from __future__ import annotations

from prompt_toolkit.filters import completion_is_selected, has_completions
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .client import TableClient
from .commands import name_of


def table_bindings(table: TableClient) -> KeyBindings:
    """The key bindings of ``table``'s prompt."""
    bindings = KeyBindings()

    @bindings.add("tab", filter=~has_completions)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.start_completion(select_first=True)

    @bindings.add("enter", filter=has_completions & completion_is_selected)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.complete_state = None  # accept the completion; Enter again submits

    @bindings.add("escape", filter=has_completions, eager=True)
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.cancel_completion()

    @bindings.add("c-z")
    def _(event: KeyPressEvent) -> None:
        # undo, as in the classic game: at the prompt the terminal is in raw mode, so Ctrl-Z
        # reaches us as a key (prompt-toolkit's suspend binding is off unless enable_suspend)
        buffer = event.current_buffer
        buffer.text = name_of("undo", table.lang)
        buffer.validate_and_handle()

    return bindings
