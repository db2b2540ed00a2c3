"""The options several commands share, and the completion of option values (Tab).

Completion reads the registries (levels, presets, cards) only when asked, and
never fails loudly: a shell's Tab must not print a traceback.
"""

from typing import Annotated

import typer

from .command import level_names
from .output import LANGUAGES, early_lang

MAX_WORKERS = 64  # `hearts sim --workers`: each one is a spawned process


# ---------------------------------------------------------------- completion


def complete_lang(incomplete: str) -> list[str]:
    return [x for x in LANGUAGES if x.startswith(incomplete.lower())]


def complete_level(incomplete: str) -> list[str]:
    return [x for x in level_names() if x.startswith(incomplete.lower())]


def complete_levels(incomplete: str) -> list[str]:
    """``--seats hard,nor<TAB>``: the levels after the last comma."""
    from ..bots import LEVELS

    done, _, last = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    return [prefix + x for x in LEVELS if x.startswith(last.strip().lower())]


def complete_preset(incomplete: str) -> list[tuple[str, str]]:
    """Preset names (in the language of the help, and the ids) with their one-line description;
    when none fits, the other language's names (``--preset rá`` -> ``rápida``, which
    ``--preset`` reads whatever the language). Accents are optional, as when reading them."""
    try:
        from ..model.cards import fold
        from ..model.rules import preset_names
        from ..text.catalog import preset_line, preset_name

        lang = early_lang(None)
        key = fold(incomplete)
        for langs in ((lang,), LANGUAGES):
            out: dict[str, str] = {}
            for pid in preset_names():
                for name in (*(preset_name(pid, x) for x in langs), pid):
                    if fold(name).startswith(key):
                        out.setdefault(name, preset_line(pid, lang))
            if out:
                return list(out.items())
        return []
    except Exception:  # completion must never fail loudly
        return []


def preset_value(value: str | None) -> str | None:
    """``--preset`` in either language: ``rápida`` is ``quick``."""
    if value is None:
        return None
    from ..text.catalog import preset_id

    return preset_id(value)


def complete_card(incomplete: str) -> list[str]:
    from ..model.cards import NAMES

    return [x for x in NAMES if x.startswith(incomplete.upper())]


LangOpt = Annotated[
    str | None,
    typer.Option("--lang", metavar="en|es", autocompletion=complete_lang,
                 help="help_opt_lang"),
]
PlainOpt = Annotated[
    bool,
    typer.Option("--plain", help="help_opt_plain"),
]
ScreenReaderOpt = Annotated[
    bool,
    typer.Option("--screen-reader", help="help_opt_screen_reader"),
]
PresetOpt = Annotated[
    str | None,
    typer.Option("--preset", "-p", metavar="PRESET", autocompletion=complete_preset,
                 callback=preset_value,
                 help="help_opt_preset"),
]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", metavar="3..11",
                                help="help_opt_players"),
]
TargetOpt = Annotated[
    int | None, typer.Option("--target", metavar="N", help="help_opt_target"),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE",
                 help="help_opt_set"),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="help_opt_json")]
DelayOpt = Annotated[
    float | None, typer.Option("--delay", metavar="SECONDS", help="help_opt_delay"),
]
TimerOpt = Annotated[
    int | None, typer.Option("--turn-timer", metavar="SECONDS",
                                help="help_opt_turn_timer"),
]
