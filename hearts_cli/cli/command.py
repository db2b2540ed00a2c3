"""What every ``hearts`` command shares: its Click class and the Typer app it is made in.

:class:`Command` is the one place an error a person caused (a ``HeartsError``)
becomes one sentence on stderr and exit status 2; it gives plain parameters a
light coercion (no pydantic), and writes the level registry and the settings
into help when help is shown. :func:`one_command` makes the Typer app of a
command module, which ``app.py`` joins into the ``hearts`` group.
"""

import types
import typing
from typing import Any, NoReturn

import typer

from .output import early_lang, echo, stdout_can

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

        raise typer.BadParameter(t(f"cli_not_{self.kind.__name__}", early_lang(ctx), value=value),
                                 ctx=ctx, param=param)


_PLAIN = (str, int, float, bool)


def _plain_kind(annotation: Any) -> type | None:
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


def lighten(params: list[Any]) -> None:
    """Give each plain parameter the light coercion, in Typer's lazy slot for it."""
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

LEVEL_METAVAR = "LEVEL"  # an option's metavar, replaced by "random|easy|normal|hard"
_PLACEHOLDERS = ("{levels}", "{level_lines}", "{bench_levels}", "{bench_lines}", "{setting_lines}")


def level_names() -> tuple[str, ...]:
    from ..bots import LEVELS as names

    return names


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
        if getattr(param, "metavar", None) == LEVEL_METAVAR:
            param.metavar = "|".join(level_names())
        if isinstance(getattr(param, "help", None), str):
            param.help = _filled(param.help)


# ---------------------------------------------------------------- the command classes


def _person_error(ctx: typer.Context, error: Any) -> NoReturn:
    """One sentence on stderr for an error the person caused, exit status 2 (the one place)."""
    top = ctx.find_root().obj or {}
    plain = bool(ctx.params.get("plain") or top.get("plain"))
    echo(error.message(early_lang(ctx), ascii=plain or not stdout_can("♣♦♥♠−")), err=True)
    raise typer.Exit(2)


class Command(typer.core.TyperCommand):
    """A ``hearts`` command: light coercion, help from the registries, person errors said once."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # with the help and completion options added by Typer
        lighten(params)
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


class PresetsCommand(Command):
    """A command whose help ends with the presets, each with its one-line description."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
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
