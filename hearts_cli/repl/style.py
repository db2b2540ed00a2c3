"""The colours of the interactive table: one prompt-toolkit style, by class name."""

from __future__ import annotations

from prompt_toolkit.styles import Style

# class names of our own: prompt-toolkit's default style already has "red" (#ff0000) and
# "black" (#000000, invisible on a dark terminal), and an empty rule here would not undo it
STYLE = Style.from_dict({
    "suit-red": "ansired",
    "suit-black": "",  # the terminal's own foreground colour, dark or light
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
})
