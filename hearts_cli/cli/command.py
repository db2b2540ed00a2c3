"""What every ``hearts`` command shares: its Click class and the Typer app it is made in.

:class:`Command` is the one place an error a person caused (a ``HeartsError``)
becomes one sentence on stderr and exit status 2; it gives plain parameters a
light coercion (no pydantic), and writes the level registry and the settings
into help when help is shown. :func:`one_command` makes the Typer app of a
command module, which ``app.py`` joins into the ``hearts`` group.
"""

from __future__ import annotations

import contextlib
import textwrap
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn

import typer
from typer._click import _textwrap as click_textwrap
from typer._click import formatting as click_formatting

from .output import ARGS, early_lang, echo, stdout_can

if TYPE_CHECKING:
    from typer._click.core import Command as ClickCommand
    from typer._click.core import Context, Parameter
    from typer.core import _TyperParameter

    from ..model.errors import HeartsError

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

    def coerce(self, value: object, param: _TyperParameter | None, ctx: Context | None) -> object:
        if value is None:
            return None
        if self.many and isinstance(value, (list, tuple)):
            return [self._one(v, param, ctx) for v in value]
        return self._one(value, param, ctx)

    def _one(self, value: object, param: _TyperParameter | None, ctx: Context | None) -> object:
        if isinstance(value, self.kind) and (self.kind is bool or not isinstance(value, bool)):
            return value
        if self.kind is not bool and isinstance(value, str):
            try:
                return self.kind(value)
            except ValueError:
                pass
        from ..text.catalog import t

        raise typer.BadParameter(t(f"cli_not_{self.kind.__name__}", early_lang(ctx), value=value),
                                 ctx=ctx, param=param)


_PLAIN = (str, int, float, bool)


def _plain_kind(annotation: object) -> type | None:
    if annotation in _PLAIN:
        return typing.cast(type, annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and args[0] in _PLAIN:
            return typing.cast(type, args[0])
        if len(args) == 1 and typing.get_origin(args[0]) is list:  # Optional[list[str]]: repeatable
            return _plain_kind(args[0])
    if typing.get_origin(annotation) is list:
        inner = typing.get_args(annotation)
        if len(inner) == 1 and inner[0] in _PLAIN:
            return typing.cast(type, inner[0])
    return None


def lighten(params: Sequence[Parameter]) -> None:
    """Give each plain parameter the light coercion, in Typer's lazy slot for it."""
    for param in params:
        kind = _plain_kind(getattr(getattr(param, "type_descriptor", None), "annotation", None))
        many = bool(getattr(param, "multiple", False))
        if kind is None or getattr(param, "nargs", 1) != 1:
            continue
        if getattr(param, "_runtime_param", "absent") is None:  # Typer's lazy, unset slot
            setattr(param, "_runtime_param", _Coerce(kind, many))  # noqa: B010 (Typer only calls its coerce)


# ---------------------------------------------------------------- help in the run's language
#
# Every help text (a command's, an option's, an epilog) is a message id of the
# catalog, rendered in the run's language when help is shown; the CPU levels
# (``bots.REGISTRY``) and the settings are written into it then, so that
# importing this module (``hearts --version``) reads no catalog and no registry.
# Typer's and Click's own words (``Usage``, ``Options``, ``[default: ...]``, the
# help option, usage errors) come from the catalog too (``cli_click_*``).

LEVEL_METAVAR = "LEVEL"  # an option's metavar, replaced by "random|easy|normal|hard"
# Typer's own options, which come with English help: their message ids
_BUILTIN_HELP = {"help": "cli_click_help", "install_completion": "cli_click_install_completion",
                 "show_completion": "cli_click_show_completion"}
# what Typer marks for gettext (``typer.core._``), and the message saying it
_TYPER_WORDS = {"Options": "cli_click_options", "Arguments": "cli_click_arguments",
                "Commands": "cli_click_commands", "default: {default}": "cli_click_default",
                "required": "cli_click_required", "env var: {var}": "cli_click_env_var",
                "(dynamic)": "cli_click_dynamic", "Missing command.": "cli_click_missing_command"}
NARROW = 80  # a terminal narrower than this gets help laid out for its width (down to 40 columns)


def level_names() -> tuple[str, ...]:
    from ..bots import LEVELS as names

    return names


def _levels(lang: str, lines: bool, width: int) -> str:
    """The levels by name, or a line each with what it is."""
    from ..bots import REGISTRY
    from ..text.catalog import t

    if not lines:
        return ", ".join(lv.name for lv in REGISTRY)
    return "\n".join(f"  {lv.name:<8}{t(lv.about_id, lang, ascii=True)}" for lv in REGISTRY)


def _setting_lines(lang: str, width: int) -> str:
    """Every setting and the values it takes, wrapped to the help's width (``--set`` in help)."""
    from ..model.overrides import setting_lines

    as_before = width >= 78  # 80 columns and more: wrapped as it always was; narrower: no word cut
    out = []
    for key, values in setting_lines(lang):
        out += textwrap.wrap(values, width, initial_indent=f"  {key:<17}", subsequent_indent=" " * 19,
                             break_long_words=as_before, break_on_hyphens=as_before)
    return "\n".join(out)


# what a help text may write in: {levels}, {level_lines}, {setting_lines}
_FIELDS: dict[str, Callable[[str, int], str]] = {
    "levels": lambda lang, width: _levels(lang, False, width),
    "level_lines": lambda lang, width: _levels(lang, True, width),
    "setting_lines": _setting_lines,
}


def help_text(key: str | None, lang: str, width: int = 78) -> str | None:
    """The help the message id ``key`` names, in ``lang``, with the registries written in;
    any other text as it is."""
    if not key:
        return key
    import string

    from ..text.catalog import CATALOG

    template = CATALOG[lang].get(key) or CATALOG["en"].get(key)
    if template is None:
        return key
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format(**{name: _FIELDS[name](lang, width) for name in fields})


def _current_context() -> Context | None:
    """The context of the command being run, if any (Click keeps it while a callback runs)."""
    from typer._click.globals import get_current_context

    return get_current_context(silent=True)


def _typer_word(message: str) -> str:
    """``typer.core._``: Typer's words in the language of the command being run."""
    key = _TYPER_WORDS.get(message)
    if key is None:
        return message
    from ..text.catalog import CATALOG

    lang = early_lang(_current_context())
    return CATALOG[lang].get(key) or message


# Typer calls it as gettext's ``_`` (``from gettext import gettext as _``): our catalog answers instead
typer.core._ = _typer_word  # type: ignore[attr-defined]


def speak(command: ClickCommand, ctx: Context, width: int) -> None:
    """Write ``command``'s help, epilog and parameters' help in the run's language."""
    lang = early_lang(ctx)
    ids = command.__dict__.setdefault("_help_ids", {"help": command.help, "epilog": command.epilog})
    command.help = help_text(ids["help"], lang, width)
    command.epilog = help_text(ids["epilog"], lang, width)
    for param in command.get_params(ctx):
        key = param.__dict__.setdefault("_help_id", _BUILTIN_HELP.get(param.name or "", getattr(param, "help", None)))
        if key is not None and isinstance(param, (typer.core.TyperOption, typer.core.TyperArgument)):
            param.help = help_text(key, lang, width)


def usage_words(command: ClickCommand, ctx: Context) -> None:
    """The usage line's ``[OPTIONS]`` (and ``COMMAND [ARGS]...``) in the run's language."""
    lang = early_lang(ctx)
    command.options_metavar = help_text("cli_click_options_metavar", lang)
    if hasattr(command, "subcommand_metavar"):
        command.subcommand_metavar = help_text("cli_click_command_metavar", lang)


def short_help(command: ClickCommand, limit: int) -> str:
    """The first sentence of ``command``'s help in the run's language (the group lists it)."""
    ids = command.__dict__.setdefault("_help_ids", {"help": command.help, "epilog": command.epilog})
    command.help = help_text(ids["help"], early_lang(_current_context()))
    return str(typer.core.TyperCommand.get_short_help_str(command, limit))


class _WholeWords(click_textwrap.TextWrapper):
    """Click's text wrapper, never cutting a word (a word wider than the line stands alone)."""

    def __init__(self, width: int = 70, initial_indent: str = "", subsequent_indent: str = "",
                 expand_tabs: bool = True, replace_whitespace: bool = True, fix_sentence_endings: bool = False,
                 break_long_words: bool = True, drop_whitespace: bool = True, break_on_hyphens: bool = True,
                 tabsize: int = 8, *, max_lines: int | None = None, placeholder: str = " [...]"):
        super().__init__(width, initial_indent, subsequent_indent, expand_tabs, replace_whitespace,
                         fix_sentence_endings, False, drop_whitespace, False, tabsize,
                         max_lines=max_lines, placeholder=placeholder)  # never break_long_words, on_hyphens

    def _handle_long_word(self, reversed_chunks: list[str], cur_line: list[str], cur_len: int, width: int) -> None:
        textwrap.TextWrapper._handle_long_word(self, reversed_chunks, cur_line, cur_len, width)  # Click's cuts


class HelpFormatter(click_formatting.HelpFormatter):
    """Click's help formatter in the run's language, and laid out for a terminal narrower than
    80 columns: the option column narrows, and a line still too wide (an example) is wrapped
    at a space, never inside a word."""

    def __init__(self, lang: str, width: int | None = None, max_width: int | None = None):
        import shutil

        from ..base.wrapping import text_width

        columns = width or shutil.get_terminal_size().columns
        self.narrow = columns < NARROW
        self.lang = lang
        # the margin of every screen (Click's own layout, from 80 columns, keeps the same 2)
        super().__init__(width=text_width(columns) if self.narrow else width, max_width=max_width)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        from ..text.catalog import t

        with self._whole_words():
            super().write_usage(prog, args, t("cli_click_usage", self.lang) if prefix is None else prefix)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        with self._whole_words():
            super().write_dl(rows, min(col_max, self.width // 3) if self.narrow else col_max, col_spacing)

    def write_text(self, text: str) -> None:
        with self._whole_words():
            super().write_text(text)

    @contextlib.contextmanager
    def _whole_words(self) -> Iterator[None]:
        """While Click wraps for a narrow terminal, a word is never cut (at a hyphen or for length):
        Click's wrapper, which ``formatting.wrap_text`` looks up as it runs, is swapped for ours."""
        if not self.narrow:
            yield
            return
        click_wrapper = click_textwrap.TextWrapper
        click_textwrap.TextWrapper = _WholeWords  # type: ignore[misc]
        try:
            yield
        finally:
            click_textwrap.TextWrapper = click_wrapper  # type: ignore[misc]

    def getvalue(self) -> str:
        text = str(super().getvalue())
        if not self.narrow:
            return text
        out = []
        for line in text.split("\n"):
            if len(line) <= self.width:
                out.append(line)
                continue
            longest = max(len(word) for word in line.split())
            indent = " " * max(0, min(len(line) - len(line.lstrip()), self.width - longest - 4))
            out += textwrap.wrap(line.strip(), self.width, initial_indent=indent, subsequent_indent=indent + "    ",
                                 break_long_words=False, break_on_hyphens=False)
        return "\n".join(out)


class HelpContext(typer.Context):
    """A context whose help is formatted by :class:`HelpFormatter`."""

    def make_formatter(self) -> HelpFormatter:
        return HelpFormatter(early_lang(self), width=self.terminal_width, max_width=self.max_content_width)


# ---------------------------------------------------------------- the command classes


def _person_error(ctx: Context, error: HeartsError) -> NoReturn:
    """One sentence on stderr for an error the person caused, exit status 2 (the one place);
    under ``--json``, the one error object (``{"code", "message"}``) on one line instead."""
    top = ctx.find_root().obj or {}
    if _wants_json(ctx):
        import json

        echo(json.dumps(dict(error.body(early_lang(ctx))), ensure_ascii=False), err=True)
        raise typer.Exit(2)
    plain = bool(ctx.params.get("plain") or top.get("plain"))
    echo(error.message(early_lang(ctx), ascii=plain or not stdout_can("♣♦♥♠−")), err=True)
    raise typer.Exit(2)


def _wants_json(ctx: Context) -> bool:
    """Whether the command was asked for ``--json`` (its parameter, whatever its name, or the word)."""
    if any(ctx.params.get(name) is True for name in ("as_json", "json_events")):
        return True
    return "--json" in ctx.meta.get(ARGS, ())


class Command(typer.core.TyperCommand):
    """A ``hearts`` command: light coercion, help in the run's language, person errors said once."""

    context_class = HelpContext

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = super().get_params(ctx)  # with the help and completion options added by Typer
        lighten(params)
        for param in params:
            if getattr(param, "metavar", None) == LEVEL_METAVAR:
                param.metavar = "|".join(level_names())
        return params

    def format_help(self, ctx: Context, formatter: click_formatting.HelpFormatter) -> None:
        narrow = isinstance(formatter, HelpFormatter) and formatter.narrow
        speak(self, ctx, formatter.width if narrow else 78)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: click_formatting.HelpFormatter) -> None:
        usage_words(self, ctx)
        super().format_usage(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        return short_help(self, limit)

    def invoke(self, ctx: Context) -> object:
        from ..model.errors import HeartsError

        try:
            return super().invoke(ctx)
        except HeartsError as e:  # a bad card, code, setting, level, record, move log, pass or move
            _person_error(ctx, e)


class PresetsCommand(Command):
    """A command whose help ends with the presets, each with its one-line description."""

    def format_epilog(self, ctx: Context, formatter: click_formatting.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        try:
            from ..model.rules import preset_names
            from ..text.catalog import preset_line, preset_name, t

            lang = early_lang(ctx)
            rows = [(preset_name(p, lang), preset_line(p, lang)) for p in preset_names()]
        except Exception:
            return
        formatter.write_paragraph()
        formatter.write_text(t("cli_presets_heading", lang))
        with formatter.indentation():
            formatter.write_dl(rows, col_spacing=2)


def one_command() -> typer.Typer:
    """The Typer app of one command module: its one command, as the ``hearts`` group shows it."""
    return typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
