"""The colours of the interactive table: one prompt-toolkit style, by class name."""

from __future__ import annotations

from prompt_toolkit.styles import Style

# class names of our own: prompt-toolkit's default style already has "red" (#ff0000) and
# "black" (#000000, invisible on a dark terminal), and an empty rule here would not undo it
_RULES = {
    # a suit's colour by its class: red and the terminal's own (dark or light); the symbol (or
    # letter) is always there, so a suit is never told by its colour alone
    "suit-clubs": "",
    "suit-diamonds": "ansired",
    "suit-hearts": "ansired",
    "suit-spades": "",
    "red": "ansired",
    "dim": "ansibrightblack",
    "chosen": "reverse bold",
    "me": "bold",
    "turn": "bold",
    "header": "bold",
    "error": "ansired bold",
    "confirm": "ansiyellow bold",
    "info": "ansicyan",
    "moon": "ansimagenta bold",
    "trick": "",
    "bar": "ansired",
    "arrow": "bold",
    "ready": "ansigreen bold",
    "prompt": "bold",
    "bottom-toolbar": "reverse",
}
# `deck_colors: four`: the four-colour deck of online bridge and poker rooms (♣ green, ♦ blue)
FOUR_COLORS = {"suit-clubs": "ansigreen", "suit-diamonds": "ansiblue"}


def table_style(deck_colors: str = "two") -> Style:
    """The table's style, with the two-colour deck or (``four``) the four-colour one."""
    return Style.from_dict(_RULES | (FOUR_COLORS if deck_colors == "four" else {}))


STYLE = table_style()
