"""The ``hearts`` command: one Typer app, each command importing only what it uses.

Start-up time matters for scripted use, so this module imports nothing but
``typer`` and the package's ``__init__`` at module level; every command
imports its own modules when it runs. ``hearts --version``, ``rules``,
``explain`` and ``engine`` never load prompt-toolkit or rich (see
``bench/startup.py``).

Errors a person can cause (a bad card, code, preset, file or move) print one
sentence on stderr and exit with status 2, never a traceback; set
``HEARTS_DEBUG=1`` to see tracebacks of unexpected failures. Data goes to
stdout, diagnostics to stderr. Every sentence comes from the message catalog,
in English or Spanish (``--lang``, ``$HEARTS_LANG``, then the locale); Typer's
own ``--help`` text stays in English. What stdout or stderr cannot encode (an
ASCII terminal) is written as the nearest ASCII, never an error.
"""


import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, NoReturn

import typer

from .. import __version__

# ---------------------------------------------------------------- light parameter coercion
#
# Typer 0.29 coerces every non-flag parameter through a pydantic TypeAdapter,
# and importing pydantic costs more than importing Typer itself. Our options
# are all plain ``str``, ``int``, ``float`` or ``bool`` (optionally ``None``),
# which need no pydantic: the command classes below give such parameters a
# small coercer in Typer's lazy slot for it. Anything else, or a Typer without
# that slot, keeps Typer's own coercion.


class _Coerce:
    def __init__(self, kind: type, many: bool = False):
        self.kind = kind
        self.many = many  # a repeatable option: a list of such values

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return None
        if self.many and isinstance(value, (list, tuple)):
            return [self._one(v, param, ctx) for v in value]
        return self._one(value, param, ctx)

    def _one(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, self.kind) and (self.kind is bool or not isinstance(value, bool)):
            return value
        if self.kind is not bool and isinstance(value, str):
            try:
                return self.kind(value)
            except ValueError:
                pass
        from ..text.catalog import t

        raise typer.BadParameter(t(f"cli_not_{self.kind.__name__}", _early_lang(ctx), value=value),
                                 ctx=ctx, param=param)


def _early_lang(ctx: Any) -> str:
    """The language while options are still being parsed: --lang if given so far, else the default."""
    from ..text.catalog import default_language

    candidates: list[Any] = []
    if ctx is not None:
        candidates.append((getattr(ctx, "params", None) or {}).get("lang"))
        candidates.append((ctx.find_root().obj or {}).get("lang"))
    args = sys.argv[1:]
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            candidates.append(args[i + 1])
        elif arg.startswith("--lang="):
            candidates.append(arg.split("=", 1)[1])
    for value in candidates:
        if isinstance(value, str) and value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return default_language()


def _plain_kind(annotation: Any) -> type | None:
    import types
    import typing

    if annotation in (str, int, float, bool):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and args[0] in (str, int, float, bool):
            return args[0]
        if len(args) == 1 and typing.get_origin(args[0]) is list:  # Optional[list[str]]: repeatable
            return _plain_kind(args[0])
    if typing.get_origin(annotation) is list:
        inner = typing.get_args(annotation)
        if len(inner) == 1 and inner[0] in (str, int, float, bool):
            return inner[0]
    return None


def _lighten(params: list[Any]) -> None:
    for param in params:
        kind = _plain_kind(getattr(getattr(param, "type_descriptor", None), "annotation", None))
        many = bool(getattr(param, "multiple", False))
        if kind is None or getattr(param, "nargs", 1) != 1:
            continue
        if getattr(param, "_runtime_param", "absent") is None:  # Typer's lazy, unset slot
            param._runtime_param = _Coerce(kind, many)


# ---------------------------------------------------------------- help from the registries
#
# The CPU levels are listed once, in ``bots.REGISTRY``. Help text names them
# through these placeholders, filled in when help is shown or options are
# parsed, so that importing this module (``hearts --version``) reads no
# registry at all.

_LEVEL_METAVAR = "LEVEL"  # an option's metavar, replaced by "random|easy|normal|hard"


def _level_names() -> tuple[str, ...]:
    from ..bots import LEVELS as names

    return names


_PLACEHOLDERS = ("{levels}", "{level_lines}", "{bench_levels}", "{bench_lines}", "{setting_lines}")


def _setting_lines() -> str:
    """Every setting and the values it takes, wrapped under 80 columns (``--set`` in help)."""
    import textwrap

    from ..model.overrides import setting_lines

    out = []
    for key, values in setting_lines("en"):
        out += textwrap.wrap(values, 78, initial_indent=f"  {key:<17}", subsequent_indent=" " * 19)
    return "\n".join(out)


def _filled(text: str | None) -> str | None:
    """``text`` with the placeholders above written from the level registry
    (``level``: the levels offered at the table; ``bench``: the benchmark seats)."""
    if not text or not any(p in text for p in _PLACEHOLDERS):
        return text
    if "{setting_lines}" in text:
        text = text.replace("{setting_lines}", _setting_lines())
        if not any(p in text for p in _PLACEHOLDERS):
            return text
    from ..bots import REGISTRY
    from ..text.catalog import t

    def lines(bench: bool) -> str:
        return "\n".join(f"  {lv.name:<8}{t(lv.about_id, 'en', ascii=True)}" for lv in REGISTRY if lv.bench is bench)

    def names(bench: bool) -> str:
        return ", ".join(lv.name for lv in REGISTRY if lv.bench is bench)

    for placeholder, value in (("{levels}", names(False)), ("{bench_levels}", names(True)),
                               ("{level_lines}", lines(False)), ("{bench_lines}", lines(True))):
        text = text.replace(placeholder, value)
    return text


def _fill_help(params: list[Any]) -> None:
    for param in params:
        if getattr(param, "metavar", None) == _LEVEL_METAVAR:
            param.metavar = "|".join(_level_names())
        if isinstance(getattr(param, "help", None), str):
            param.help = _filled(param.help)


def _person_error(ctx: Any, error: Any) -> NoReturn:
    """One sentence on stderr for an error the person caused, exit status 2 (the one place)."""
    top = ctx.find_root().obj or {}
    plain = bool(ctx.params.get("plain") or top.get("plain"))
    lang = _early_lang(ctx)
    _echo(error.message(lang, ascii=plain or not _stdout_can("♣♦♥♠−")), err=True)
    raise typer.Exit(2)


class _Command(typer.core.TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # with the help and completion options added by Typer
        _lighten(params)
        _fill_help(params)
        return params

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        self.epilog = _filled(self.epilog)
        super().format_epilog(ctx, formatter)

    def invoke(self, ctx: Any) -> Any:
        from ..model.errors import HeartsError

        try:
            return super().invoke(ctx)
        except HeartsError as e:  # a bad card, code, setting, level, record, move log, pass or move
            _person_error(ctx, e)


class _PresetsCommand(_Command):
    """A command whose help ends with the presets, each with its one-line description."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        super().format_epilog(ctx, formatter)
        try:
            from ..model.rules import preset_names
            from ..text.catalog import preset_line, preset_name, t

            lang = _early_lang(ctx)
            rows = [(preset_name(p, lang), preset_line(p, lang)) for p in preset_names()]
        except Exception:
            return
        formatter.write_paragraph()
        formatter.write_text(t("cli_presets_heading", lang))
        with formatter.indentation():
            formatter.write_dl(rows, col_spacing=2)


class _Group(typer.core.TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # with the help and completion options added by Typer
        _lighten(params)
        return params


app = typer.Typer(
    name="hearts",
    cls=_Group,
    help="Hearts (Corazones) in the terminal: play, study and script the card game.",
    epilog=(
        "\b\nExamples:\n"
        "  hearts                      resume the saved game (or start one)\n"
        "  hearts new --preset standard --players 4\n"
        "  hearts new --code K7Q2MXA7  replay a known deal\n"
        "  hearts rules --preset omnibus --tips --lang es\n"
        "  hearts explain QS           why the Q♠ cannot be played now\n"
        "  echo '{\"cmd\":\"hello\"}' | hearts engine\n"
        "\b\n"
        "Set the language with --lang en|es, HEARTS_LANG or the locale; --plain (or NO_COLOR)\n"
        "turns off colour and --plain shows suits as letters (QS for Q♠). See docs/cli.md."
    ),
    add_completion=True,
    no_args_is_help=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LANGUAGES = ("en", "es")
MAX_WORKERS = 64  # `hearts sim --workers`: each one is a spawned process


# ---------------------------------------------------------------- completion


def _complete_lang(incomplete: str) -> list[str]:
    return [x for x in LANGUAGES if x.startswith(incomplete.lower())]


def _complete_level(incomplete: str) -> list[str]:
    return [x for x in _level_names() if x.startswith(incomplete.lower())]


def _complete_levels(incomplete: str) -> list[str]:
    """``--seats hard,nor<TAB>``: the levels (benchmark seats too) after the last comma."""
    from ..bots import SIM_LEVELS

    done, _, last = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    return [prefix + x for x in SIM_LEVELS if x.startswith(last.strip().lower())]


def _complete_preset(incomplete: str) -> list[tuple[str, str]]:
    """Preset names (in the language of the help, and the ids) with their one-line description;
    when none fits, the other language's names (``--preset rá`` -> ``rápida``, which
    ``--preset`` reads whatever the language). Accents are optional, as when reading them."""
    try:
        from ..model.cards import fold
        from ..model.rules import preset_names
        from ..text.catalog import preset_line, preset_name

        lang = _early_lang(None)
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


def _preset_value(value: str | None) -> str | None:
    """``--preset`` in either language: ``rápida`` is ``quick``."""
    if value is None:
        return None
    from ..text.catalog import preset_id

    return preset_id(value)


def _complete_card(incomplete: str) -> list[str]:
    from ..model.cards import NAMES

    return [x for x in NAMES if x.startswith(incomplete.upper())]


# ---------------------------------------------------------------- shared options

LangOpt = Annotated[
    str | None,
    typer.Option("--lang", metavar="en|es", autocompletion=_complete_lang,
                 help="Language of every sentence: en or es (default: $HEARTS_LANG, then the locale)."),
]
PlainOpt = Annotated[
    bool,
    typer.Option("--plain", help="No colour, and suits as letters (QS for Q♠). NO_COLOR also turns colour off."),
]
PresetOpt = Annotated[
    str | None,
    typer.Option("--preset", "-p", metavar="PRESET", autocompletion=_complete_preset,
                 callback=_preset_value,
                 help="Rule preset, by name in English or Spanish (listed below). Default: quick."),
]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", metavar="3..11",
                                help="Number of players: 3 to 6 with one deck, 6 to 11 with two (--preset cancellation)."),
]
TargetOpt = Annotated[
    int | None, typer.Option("--target", metavar="N", help="Points that end the game (50 quick, 100 standard)."),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE",
                 help="Change one setting of the preset, such as --set jack_of_diamonds=true; repeat it for "
                      "more. The settings and their values are listed below and in seeds/README.md."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine output: JSON on stdout.")]
DelayOpt = Annotated[
    float | None, typer.Option("--delay", metavar="SECONDS", help="Pause between CPU cards."),
]
TimerOpt = Annotated[
    int | None, typer.Option("--turn-timer", metavar="SECONDS",
                                help="Optional turn timer (30 or 60 seconds); off by default."),
]


class _Out:
    """What one command run prints in: language, ASCII suits, colour, width."""

    def __init__(self, lang: str, ascii: bool, color: bool, plain: bool = False):
        self.lang = lang
        self.ascii = ascii
        self.color = color
        self.plain = plain

    def t(self, message_id: str, **params: Any) -> str:
        from ..text.catalog import t

        return t(message_id, self.lang, ascii=self.ascii, **params)


def _echo(text: str = "", err: bool = False, nl: bool = True) -> None:
    """Print to stdout (or stderr), through the stream as it is set up (see :func:`_degrade_unencodable`).

    Not ``typer.echo``: Click swaps a stream whose encoding is ASCII for a UTF-8
    one of its own, which an ASCII terminal shows as garbage. DEL and the C1 controls,
    which only a string from outside can hold (in JSON), go out as ``\\u`` escapes.
    """
    stream = sys.stderr if err else sys.stdout
    if not text.isascii() or "\x7f" in text:  # (plain ASCII needs no look, nor the import)
        from ..base.untrusted import json_safe

        text = json_safe(text)
    stream.write(text + "\n" if nl else text)
    stream.flush()


# What a character the output cannot encode becomes; other letters lose their accents
# ("Puntuación" -> "Puntuacion") and anything left is "?".
_FALLBACK = {
    "«": '"', "»": '"', "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "¿": "", "¡": "",
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "▶": ">", "◀": "<", "·": "-", "•": "*",
    "—": "-", "–": "-", "−": "-", "…": "...", "×": "x", "≤": "<=", "≥": ">=", "±": "+/-",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "█": "#", "▓": "#", "▒": ":", "░": ".", "\u00a0": " ",
}
FALLBACK_ERRORS = "hearts-ascii"


def _ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the nearest ASCII for what the stream cannot encode."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    import unicodedata

    out = []
    for ch in error.object[error.start:error.end]:
        text = _FALLBACK.get(ch)
        if text is None:
            text = "".join(c for c in unicodedata.normalize("NFKD", ch)
                           if c.isascii() and not unicodedata.combining(c)) or "?"
        out.append(text)
    return "".join(out), error.end


def _degrade_unencodable() -> None:
    """Let stdout and stderr write what their encoding cannot hold as near ASCII, never fail on it."""
    import codecs

    registered = False
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):
            continue
        try:
            if codecs.lookup(encoding).name.startswith("utf"):
                continue  # writes anything
            if not registered:
                codecs.register_error(FALLBACK_ERRORS, _ascii_fallback)
                registered = True
            stream.reconfigure(errors=FALLBACK_ERRORS)
        except (LookupError, ValueError, OSError):
            pass


def _stdout_can(text: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _setup(ctx: typer.Context, lang: str | None, plain: bool) -> _Out:
    """Language, ASCII and colour for this run: the command's options, then the global ones."""
    from ..text.catalog import default_language

    top = ctx.find_root().obj or {}
    lang = lang if lang is not None else top.get("lang")
    plain = plain or bool(top.get("plain"))
    if lang is not None:
        chosen = lang.strip().lower()
        if chosen not in LANGUAGES:
            _refuse("cli_bad_lang", value=lang)
        lang = chosen
    else:
        lang = default_language()
    ascii = plain or not _stdout_can("♣♦♥♠−")
    color = not plain and not os.environ.get("NO_COLOR") and sys.stdout.isatty()
    return _Out(lang, ascii, color, plain)


def _refuse(message_id: str, **params: Any) -> NoReturn:
    """Something given on the command line is not right: said by ``_Command.invoke``, exit status 2."""
    from ..model.errors import HeartsError

    raise HeartsError(message_id, **params)


def _os_problem(out: _Out, error: OSError) -> str:
    from ..text.catalog import os_problem

    return os_problem(error, out.lang)


def _width() -> int:
    import shutil

    return max(40, min(shutil.get_terminal_size((80, 24)).columns, 100) - 2)


def _load_rules(out: _Out, preset: str | None, players: int | None = None,
                target: int | None = None, settings: list[str] | None = None):
    """The preset, with ``--set`` items then ``--players`` and ``--target`` on top; every value checked."""
    from ..model.rules import DEFAULT_PRESET, Rules

    spec: dict[str, Any] = {"preset": preset or DEFAULT_PRESET}
    spec |= _overrides(settings)
    if players is not None:
        spec["players"] = players
    if target is not None:
        spec["target"] = target
    return Rules.from_spec(spec)  # a RulesError is said by _Command.invoke


def _overrides(settings: list[str] | None) -> dict[str, Any]:
    """``--set KEY=VALUE`` items as plain settings (a RulesError for a bad one)."""
    if not settings:
        return {}
    from ..model.overrides import parse_set

    return parse_set(settings)


def _normal_code(out: _Out, code: str | None) -> str | None:
    if code is None:
        return None
    from ..model.codes import normalize_code

    return normalize_code(code)


def _warn_settings(out: _Out) -> None:
    """One line on stderr for each thing wrong in settings.yaml; the game goes on with the defaults."""
    from ..store.saves import settings_warnings

    for sentence in settings_warnings(out.lang):
        _echo(sentence, err=True)


def _loop():
    """The game loop (prompt-toolkit is imported only once a game opens)."""
    from .. import repl

    return repl


# ---------------------------------------------------------------- the app


def _version(value: bool) -> None:
    if value:
        _echo(f"hearts {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Hearts (Corazones) in the terminal. With no command, `hearts` is `hearts play`."""
    ctx.obj = {"lang": lang, "plain": plain}
    if ctx.invoked_subcommand is None:
        ctx.invoke(play, ctx=ctx)


@app.command(cls=_Command, epilog="\b\nExamples:\n  hearts play\n  hearts play --lang es --plain\n  hearts play --no-confirm --delay 0")
def play(
    ctx: typer.Context,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="Print the game as JSON events, one per line.")] = False,
    confirm: Annotated[
        bool | None,
        typer.Option("--confirm/--no-confirm", help="Ask for a second touch before a card is played (default: on)."),
    ] = None,
    delay: DelayOpt = None,
    turn_timer: TimerOpt = None,
) -> None:
    """Resume the saved game exactly where it stopped; with no saved game, start a new one.

    Nothing is asked: the same round, trick and scores come back. The game
    saves itself after every move.
    """
    out = _setup(ctx, lang, plain)
    _warn_settings(out)
    loop = _loop()
    raise typer.Exit(loop.resume(lang=out.lang, plain=out.plain, json_events=json_events, delay=delay,
                                 turn_timer=turn_timer, confirm=confirm))


@app.command(cls=_PresetsCommand, epilog=(
    "\b\nExamples:\n"
    "  hearts new                          another game: a fresh code, the default rules\n"
    "  hearts new --code K7Q2MXA7          replay this deal\n"
    "  hearts new --preset standard        target 100\n"
    "  hearts new --preset reference --players 5 --level hard\n"
    "  hearts new --no-play                just deal, save and print the code\n"
    "  hearts new --preset online --players 3 --set jack_of_diamonds=true\n"
    "\b\n"
    "Levels (--level):\n{level_lines}\n"
    "\b\n"
    "Settings (--set KEY=VALUE, on top of the preset; `hearts rules` shows the result):\n{setting_lines}"
))
def new(
    ctx: typer.Context,
    preset: PresetOpt = None,
    target: TargetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    level: Annotated[
        str | None,
        typer.Option("--level", metavar=_LEVEL_METAVAR, autocompletion=_complete_level,
                     help="How well every CPU player plays: {levels} (see below). Default: Easy on your left, then Normal, then Hard."),
    ] = None,
    code: Annotated[
        str | None,
        typer.Option("--code", metavar="CODE", help="Deal this game code again (\"replay this deal\"); default: a fresh one."),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", metavar="S", help="Your seat, from 0.")] = 0,
    confirm: Annotated[
        bool, typer.Option("--confirm/--no-confirm", help="Ask for a second touch before a card is played."),
    ] = True,
    play_now: Annotated[
        bool, typer.Option("--play/--no-play", help="Start playing at once (default) or only deal and save."),
    ] = True,
    lang: LangOpt = None,
    plain: PlainOpt = False,
    json_events: Annotated[bool, typer.Option("--json", help="Print the game as JSON events, one per line.")] = False,
    delay: DelayOpt = None,
    turn_timer: TimerOpt = None,
) -> None:
    """Start a new game, save it, print its code and play it.

    The code deals exactly the same cards again, on any machine: give it to
    --code to replay the deal. A game already saved is archived as unfinished,
    never lost.
    """
    out = _setup(ctx, lang, plain)
    rules = _load_rules(out, preset, players, target, settings)
    code = _normal_code(out, code)
    if level is not None:
        from ..bots import check_level

        level = check_level(level)
    if not 0 <= seat < rules.players:
        _refuse("cli_bad_seat", seat=seat, players=rules.players, last=rules.players - 1)
    _warn_settings(out)
    loop = _loop()
    raise typer.Exit(loop.start_new(
        preset=preset, target=target, players=players, settings=_overrides(settings), level=level,
        code=code, seat=seat, confirm=confirm, play=play_now, lang=out.lang, plain=out.plain, json_events=json_events,
        delay=delay, turn_timer=turn_timer,
    ))


@app.command(cls=_PresetsCommand, epilog=(
    "\b\nExamples:\n"
    "  hearts rules                         the default preset (quick)\n"
    "  hearts rules --preset online --players 5\n"
    "  hearts rules --preset spot --tips --lang es\n"
    "  hearts rules --preset black-maria --json\n"
    "  hearts rules --preset online --players 3 --set jack_of_diamonds=true\n"
    "\b\n"
    "Settings (--set KEY=VALUE, on top of the preset):\n{setting_lines}"
))
def rules(
    ctx: typer.Context,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    settings: SetOpt = None,
    tips: Annotated[bool, typer.Option("--tips", help="Add the strategy advice and typical mistakes.")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Print the rules exactly as a preset (and any --set) enforces them.

    The text is written from the rule set itself (the same values the engine
    plays by): deck and players, passing, leading and following, the first
    trick, breaking hearts, scoring, the moon, the end of the game and ties,
    and the variants switched on. --json prints the settings and what follows
    from them.
    """
    out = _setup(ctx, lang, plain)
    rule_set = _load_rules(out, preset, players, target, settings)
    from ..model import rules_text

    if as_json:
        import json

        data = rules_text.rules_json(rule_set)
        if tips:
            data["tips"] = [{"heading": h, "items": [p.removeprefix("- ") for p in ps]}
                            for h, ps in rules_text.tips(rule_set, out.lang, out.ascii)]
        _echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    body = rules_text.sections(rule_set, out.lang, out.ascii)
    if tips:
        body += rules_text.tips(rule_set, out.lang, out.ascii)
    heading = (lambda s: typer.style(s, bold=True)) if out.color else (lambda s: s)
    _echo(rules_text.render(rules_text.title(rule_set, out.lang, out.ascii), body, _width(), heading),
          nl=False)


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts explain QS                                   in the saved game\n"
    "  hearts explain 'dama de picas' --lang es\n"
    "  hearts explain QH --code K7Q2MXA7 --moves '2C 9C KC 4C  3D'\n"
    "  hearts explain 10S --record game.yaml --at 2.3.1      round 2, trick 3, first card\n"
    "  hearts explain KS --record game.yaml --at 40 --json   before move 40\n"
    "\b\n"
    "--moves: cards in play order, separated by spaces or commas. When the round\n"
    "has a pass, its first pass_count x players cards are the passes: seat 0's\n"
    "cards, then seat 1's, and so on. Later rounds follow on the same way."
))
def explain(
    ctx: typer.Context,
    card: Annotated[str, typer.Argument(metavar="CARD", autocompletion=_complete_card,
                                        help="A card in any notation: QS, 10h, Q♠, 'queen of spades', 'dama de picas'.")],
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="Ask about this game instead of the saved one.")] = None,
    moves: Annotated[str | None, typer.Option("--moves", metavar="MOVES", help="With --code: the moves made so far (see below).")] = None,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    record: Annotated[str | None, typer.Option("--record", metavar="FILE", help="Ask about a position in this game record.")] = None,
    at: Annotated[str | None, typer.Option("--at", metavar="POSITION",
                                              help="With --record: round.trick.card (1-based) or a move number; default: the end.")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Say why CARD cannot be played now, or what it would do if it can.

    The position is the saved game's (your seat), or --code with --moves, or
    --record with --at. The answer names the rule and the cards involved.
    """
    out = _setup(ctx, lang, plain)
    if code is not None and record is not None:
        _refuse("cli_code_and_record")
    if moves is not None and code is None:
        _refuse("cli_moves_need_code")
    if at is not None and record is None:
        _refuse("cli_at_needs_record")
    from ..model.cards import parse_card
    from ..records import explain as ex

    parse_card(card)  # a bad card is the first thing to say, whatever the position
    if code is not None:
        rule_set = _load_rules(out, preset, players, settings=settings)
        position = ex.Position(ex.from_code(rule_set, _normal_code(out, code), moves), None)
    elif record is not None:
        position = _record_position(out, record, at)
    else:
        from ..store.saves import Store

        position = ex.from_save(Store().save_path)
    verdict = ex.explain(position, card)
    if as_json:
        import json

        _echo(json.dumps(ex.to_json(position, verdict, out.lang, out.ascii), ensure_ascii=False, indent=2))
        return
    _echo(ex.describe_position(position, out.lang, out.ascii))
    _echo(ex.headline(verdict, out.lang, out.ascii))
    _echo(verdict.message(out.lang, out.ascii))


def _record_position(out: _Out, path: str, at: str | None):
    from ..records import explain as ex

    try:
        return ex.from_record(path, at)
    except OSError as e:
        _refuse("cli_bad_file", path=path, problem=_os_problem(out, e))


@app.command(cls=_Command, epilog="\b\nExample:\n  echo '{\"cmd\":\"hello\"}' | hearts engine")
def engine(ctx: typer.Context, lang: LangOpt = None) -> None:
    """Serve the engine protocol: one JSON request per line on stdin, one reply per line on stdout.

    See docs/engine-protocol.md. --lang sets the language of the error
    sentences in the replies (a request can still ask for another).
    """
    out = _setup(ctx, lang, False)
    from .protocol import serve

    raise typer.Exit(serve(sys.stdin, sys.stdout, lang=out.lang))


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts sim --seats hard,normal,normal,normal --deals 500 --duplicate\n"
    "  hearts sim --seats easy,random,random,random --deals 200 --seed bench --json\n"
    "  hearts sim --seats normal,easy,easy --preset reference --players 3 --workers 2\n"
    "  hearts sim --seats hard,normal,normal,normal --simulations 40 --duplicate --workers 4\n"
    "  hearts sim --seats hard,normal,normal,normal --set moon=off --set target=100\n"
    "\b\n"
    "Levels:\n{level_lines}\n"
    "\b\n"
    "Benchmark seats (sim only: not offered at the table):\n{bench_lines}\n"
    "\b\n"
    "The same --seed plays the same games and gives the same results (but the times)."
))
def sim(
    ctx: typer.Context,
    seats: Annotated[str | None, typer.Option(
        "--seats", metavar="LEVELS", autocompletion=_complete_levels,
        help="Comma-separated levels, one per seat: {levels} (or the benchmark seats {bench_levels}). Default: hard, then normal.")] = None,
    deals: Annotated[int, typer.Option("--deals", metavar="N",
                                       help="Deals to play at least; games are always played whole.")] = 100,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="Play each game once per rotation of the seats, so that luck cancels out.")] = False,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="S", help="Any text; the games' codes derive from it. Default: a fresh one, printed.")] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="Worker processes.")] = 1,
    simulations: Annotated[int | None, typer.Option(
        "--simulations", metavar="N", help="Hard's budget: deals sampled per decision (default 120; with two decks, worlds per decision, default 64).")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Play a tournament between CPU levels and report how each level did.

    Whole games to the preset's target, with its tie policy: points per round
    with a 95% confidence interval, games won, moons shot and stopped, and the
    time each level takes per decision. See docs/sim.md.
    """
    out = _setup(ctx, lang, plain)
    rule_set = _load_rules(out, preset, players, settings=settings)
    from ..bots import check_level

    n = rule_set.players
    chosen = ["hard"] + ["normal"] * (n - 1) if seats is None else [check_level(x, bench=True) for x in seats.split(",")]
    if len(chosen) != n:
        low, high = rule_set.min_players, rule_set.max_players
        _refuse("sim_seat_count" if low <= len(chosen) <= high else "sim_seat_range",
                given=len(chosen), players=n, low=low, high=high)
    for option, value in (("--deals", deals), ("--workers", workers), ("--simulations", simulations)):
        if value is not None and value < 1:
            _refuse("sim_at_least_one", option=option, value=value)
    if workers > MAX_WORKERS:
        _refuse("cli_too_many", option="--workers", most=MAX_WORKERS, value=workers)
    if seed is None:
        from ..model.codes import new_code

        seed = new_code()
    from . import sim as simulation

    result = simulation.run(rule_set, chosen, deals, seed, duplicate=duplicate, simulations=simulations,
                            workers=workers, lang=out.lang,
                            show_progress=not as_json and simulation.stderr_is_terminal())
    if as_json:
        import json

        _echo(json.dumps(simulation.to_json(result), ensure_ascii=False))
        return
    _echo(simulation.render(result, out.lang, out.color), nl=False)


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts stats                        every finished game in the archive\n"
    "  hearts stats --preset standard --since 2026-11-01\n"
    "  hearts stats --json"
))
def stats(
    ctx: typer.Context,
    preset: Annotated[str | None, typer.Option(
        "--preset", "-p", metavar="PRESET", autocompletion=_complete_preset, callback=_preset_value,
        help="Only the games played with this preset, by name in English or Spanish.")] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="DATE", help="Only the games finished on or after this date (YYYY-MM-DD).")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Your record from the archived games: wins, streaks, points, moons, by preset and by CPU levels.

    Counts every finished game in the archive (the data directory's archive/,
    see docs/playing.md) and draws your recent final scores. An index
    (stats.sqlite3, next to the archive) keeps it fast; it is rebuilt from the
    archive whenever it is missing, out of date or damaged.
    """
    out = _setup(ctx, lang, plain)
    from ..store import stats as st

    if preset is not None:
        from ..model.rules import preset_names

        names = preset_names()
        if preset not in names:
            _refuse("stats_bad_preset", value=preset, presets=", ".join(names))
    start = None
    if since is not None:
        start = st.parse_since(since)
        if start is None:
            _refuse("stats_bad_since", value=since)
    from ..store.saves import home

    data = st.collect(home(), preset, start)
    if as_json:
        import json

        data["filters"] = {"preset": preset, "since": start}
        _echo(json.dumps(data, ensure_ascii=False))
        return
    lines = st.render(data, out.lang, out.ascii, preset, start)
    if out.color:
        st.print_rich(lines)
    else:
        _echo(st.as_text(lines), nl=False)


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts replay game.yaml                       the game told trick by trick\n"
    "  hearts replay game.yaml --seat 0              as seat 0 saw it\n"
    "  hearts replay game.yaml --at 2.3.1 --all-hands  the table before round 2, trick 3, card 1\n"
    "  hearts replay game.yaml --analyze --seat 0 --annotate-to study.yaml\n"
    "  hearts replay --code K7Q2MXA7 moves.txt       a move log (see docs/replay.md)\n"
    "  hearts replay --code K7Q2MXA7 --moves 'R1 2C KC 7D | ...'\n"
    "  cat moves.txt | hearts replay --code K7Q2MXA7 - --json\n"
    "\b\n"
    "A move log is, per round, the passes (seat 0 first, | between them) then the\n"
    "cards played (/ between tricks); # starts a comment. `log` in the game prints one."
))
def replay(
    ctx: typer.Context,
    source: Annotated[str | None, typer.Argument(metavar="FILE", help="A game record (YAML) or a move log; - reads stdin.")] = None,
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="The game code of a move log (unless the log names it).")] = None,
    moves: Annotated[str | None, typer.Option("--moves", metavar="LOG", help="The move log as a string.")] = None,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    settings: SetOpt = None,
    at: Annotated[str | None, typer.Option("--at", metavar="POSITION", help="Show the table before this move: round.trick.card, round.pass.seat, or a move number.")] = None,
    seat: Annotated[int | None, typer.Option("--seat", metavar="S", help="Tell it from this seat (what it could know); with --analyze, weigh only its decisions.")] = None,
    all_hands: Annotated[bool, typer.Option("--all-hands", help="With --at: show every hand, from above.")] = False,
    analyze: Annotated[bool, typer.Option("--analyze", help="Let the Hard player weigh each decision: ? ?? ! marks and a summary.")] = False,
    simulations: Annotated[int | None, typer.Option("--simulations", metavar="N", help="Deals sampled per decision in --analyze (default 40): more is slower and deeper.")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the analysis: the same record and seed give the same analysis.")] = 0,
    annotate_to: Annotated[str | None, typer.Option("--annotate-to", metavar="FILE", help="Write the record with the analysis as annotations (atomically).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per event, one per line.")] = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Replay a game: a trick-by-trick story, the table at any position, and analysis.

    The game is a record file, or --code with a move log (a file, - for stdin,
    or --moves). A partial log stops where it ends and shows the table there.
    Problems in the input are reported with their position and exit status 2;
    nothing is written then.
    """
    out = _setup(ctx, lang, plain)
    from ..records import replay as rp

    text, path = rp.read_input(source, moves, out.lang, out.ascii)
    given = preset is not None or players is not None or target is not None or settings
    record = rp.open_game(text, path, code, (lambda: _load_rules(out, preset, players, target, settings))
                          if given else None)
    options = rp.Options(seat=seat, at=at, all_hands=all_hands, analyze=analyze, simulations=simulations,
                         seed=seed, annotate_to=annotate_to, as_json=as_json, lang=out.lang, ascii=out.ascii)
    rp.check(record, options)
    lines = rp.output(record, options, _progress(out) if analyze and sys.stderr.isatty() else None)
    if as_json:
        _echo("\n".join(line for line, _ in lines))  # one write: the same lines, without a flush after each
    else:
        _print_styled(out, lines)
    if annotate_to is not None:
        _echo(out.t("rp_annotated", path=annotate_to), err=True)


def _progress(out: _Out) -> Callable[[int, int], None]:
    """A progress bar on stderr (a terminal's) for a long analysis."""
    def tick(done: int, total: int) -> None:
        filled = 24 * done // max(1, total)
        bar = ("#" * filled).ljust(24, ".")
        sys.stderr.write(f"\r[{bar}] " + out.t("rp_progress", done=done, total=total))
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return tick


def _print_styled(out: _Out, lines: list[tuple[str, str | None]]) -> None:
    """Lines on stdout, each in its style when the output is a colour terminal."""
    if not out.color:
        for line, _ in lines:
            _echo(line)
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line, style in lines:
        console.print(Text(line, style=style or ""))


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts host                          two people and two CPUs, on this machine\n"
    "  hearts host --humans 3 --turn-timer 60 --preset standard\n"
    "  hearts host --bind 0.0.0.0 --cert cert.pem --key key.pem   over the internet (docs/tables.md)\n"
    "  hearts host --resume                 bring the table back after a crash\n"
    "\b\n"
    "Each person runs the `hearts join ...` line printed for their seat."
))
def host(
    ctx: typer.Context,
    preset: PresetOpt = None,
    settings: SetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    humans: Annotated[int, typer.Option("--humans", metavar="H", help="Seats for people (from seat 0); the rest are CPUs.")] = 2,
    level: Annotated[
        str | None,
        typer.Option("--level", metavar="easy|normal|hard", autocompletion=_complete_level,
                     help="How well the CPU players play (default: Easy, Normal, Hard by seat)."),
    ] = None,
    turn_timer: Annotated[float | None, typer.Option("--turn-timer", metavar="SECONDS", help="Seconds a person has for each decision before the CPU plays for them.")] = None,
    delay: Annotated[float, typer.Option("--delay", metavar="SECONDS", help="Pause before each CPU move, so people can follow.")] = 0.5,
    port: Annotated[int, typer.Option("--port", metavar="P", help="TCP port (0: any free port).")] = 7441,
    bind: Annotated[str, typer.Option("--bind", metavar="ADDR", help="Address to listen on (default: this machine only).")] = "127.0.0.1",
    cert: Annotated[str | None, typer.Option("--cert", metavar="FILE", help="TLS certificate (PEM); with --key.")] = None,
    key: Annotated[str | None, typer.Option("--key", metavar="FILE", help="TLS private key (PEM); with --cert.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Bring back the table saved by the last `hearts host`.")] = False,
    hints: Annotated[bool, typer.Option("--hints", help="Let people ask the CPU for a hint (`hint`).")] = False,
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="Deal this game code (default: a fresh one).")] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Open a table that people join from their own terminals (and scripts, in JSON lines).

    Prints one invitation per person's seat; CPU players fill the others, and
    play for a person whose turn timer runs out or who has gone, until they
    join again with the same invitation. The game is saved after every move;
    a finished game goes to the archive.
    """
    out = _setup(ctx, lang, plain)
    rules = None if resume else _load_rules(out, preset, players, target, settings)
    code = _normal_code(out, code)
    if level is not None:
        from ..bots import check_level

        level = check_level(level)
    if not 0 <= delay <= 10:
        out.fail(out.t("bad_delay"))
    from ..table.server import run_host

    raise typer.Exit(run_host(rules=rules, humans=humans, level=level, turn_timer=turn_timer, delay=delay,
                              port=port, bind=bind, cert=cert, key=key, resume=resume, lang=out.lang,
                              code=code, hints=hints))


@app.command(cls=_Command, epilog=(
    "\b\nExamples:\n"
    "  hearts join 127.0.0.1:7441/1-Xq3...          take seat 1 of a table\n"
    "  hearts join 127.0.0.1:7441/1-Xq3... --name Ana --lang es\n"
    "  hearts join tls://host:7441/2-... --cafile cert.pem   a table with TLS\n"
    "  hearts join 127.0.0.1:7441/3-... --json      a script: JSON lines both ways (docs/tables.md)"
))
def join(
    ctx: typer.Context,
    invitation: Annotated[str, typer.Argument(metavar="INVITATION", help="HOST:PORT/SEAT-TOKEN, as `hearts host` printed it.")],
    name: Annotated[str | None, typer.Option("--name", metavar="NAME", help="The name the table shows for you.")] = None,
    cafile: Annotated[str | None, typer.Option("--cafile", metavar="FILE", help="Trust this certificate (a table with a self-signed one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Bridge: JSON requests on stdin, the table's JSON lines on stdout.")] = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Sit at a shared table opened with `hearts host`, for the seat of the invitation.

    Joining again with the same invitation gives the seat back at once,
    mid-trick; while you are away the CPU plays for you.
    """
    out = _setup(ctx, lang, plain)
    from .join import run_join

    raise typer.Exit(run_join(invitation, name=name, lang=out.lang, plain=out.plain, as_json=as_json,
                              cafile=cafile))


def _only_the_command_that_runs(args: list[str]) -> None:
    """Register just the subcommand named in ``args``, when there is one.

    Typer turns every registered command into a Click command before running
    any of them; for a scripted ``hearts engine`` that is a measurable part of
    start-up; ``hearts --version`` needs none. The group's own help, shell
    completion and unknown names keep every command.
    """
    if os.environ.get("_HEARTS_COMPLETE") or any(a in ("-h", "--help") for a in args):
        return
    rest = list(args)
    options = []
    while rest and rest[0].startswith("-"):
        options.append(rest.pop(0))
        if options[-1] == "--lang" and rest:
            rest.pop(0)  # its value
    if not rest:
        if "--version" in options:  # eager: it prints and exits before any command could start
            app.registered_commands = []
        return
    named = [c for c in app.registered_commands if (c.name or c.callback.__name__) == rest[0]]
    if named:
        app.registered_commands = named


def _open_closed_streams() -> None:
    """A closed stdin reads as empty and a closed stdout or stderr discards (``hearts play <&-``)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))


def main() -> None:
    """The console script: the app, with unexpected failures turned into one sentence."""
    _open_closed_streams()
    _degrade_unencodable()
    try:
        _only_the_command_that_runs(sys.argv[1:])
        app(prog_name="hearts")
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # `hearts rules | head`: the reader left; say nothing more
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        sys.exit(0)
    except Exception as e:
        if os.environ.get("HEARTS_DEBUG"):
            raise
        from ..text.catalog import default_language, t

        _echo(t("cli_internal", default_language(), problem=f"{type(e).__name__}: {e}"), err=True)
        sys.exit(1)
    finally:
        _spare_the_exit()


def _spare_the_exit() -> None:
    """Leave what is alive now out of the garbage collection Python runs as it exits.

    On the way out CPython collects every object it tracks once more (Typer's,
    PyYAML's, ours): about 10 ms, as much as importing all our modules, paid by
    every command. ``gc.freeze`` moves them to the permanent generation, which
    no collection looks at; the process frees them all as it ends. ``atexit``
    handlers still run, and whatever reference counting frees still closes
    its files: only garbage in reference cycles is left unfinalized, and the
    commands leave none that holds a file or a connection (they close theirs).
    """
    import gc

    gc.freeze()
