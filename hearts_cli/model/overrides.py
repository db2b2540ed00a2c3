"""Settings written as text, ``KEY=VALUE``: what ``--set`` reads.

Each value is read by the type of its setting (a whole number, true/false, a
name, a list of directions, a removal) into the same plain data a preset file
or a record holds; :func:`hearts_cli.model.rules.coerce_settings` then checks it, so
what a valid value is stays written once, in :mod:`hearts_cli.model.rules`. The rule
set itself is ``Rules.from_spec({"preset": name, **overrides})``, which also
checks the combination (passing across with three players...).

A key may be written with ``-`` or ``_`` (``first-trick=any``). Every problem
is a :class:`~hearts_cli.model.rules.RulesError` whose sentence quotes what was
typed (shortened) and lists what is valid. :func:`format_set` writes a rule
set's overrides back in the same syntax: the move log's ``rules`` header and
the "changed from the preset" line of ``hearts rules`` use it, and
``parse_set(format_set(r))`` gives back ``r``'s overrides. A list or mapping in
YAML flow style (``[right, left]``, ``{3: [2D]}``), as older move logs wrote
them, is read too.
"""

from __future__ import annotations

from collections.abc import Iterable

from .rules import CHOICES, FLAGS, INTS, SETTINGS, Direction, Rules, RulesError, coerce_settings

__all__ = ["SetError", "format_set", "parse_set", "setting_lines", "valid_values"]

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def valid_values(key: str, lang: str | None = None) -> str:
    """What ``key`` may be set to, in words (``one of off, others, ...``)."""
    from ..text.catalog import t

    if key in CHOICES:
        return t("set_values_choice", lang, choices=", ".join(CHOICES[key]))
    if key in FLAGS:
        return t("set_values_flag", lang)
    return t(f"set_values_{key}", lang)


def setting_lines(lang: str | None = "en") -> list[tuple[str, str]]:
    """``(key, valid values)`` for every setting, in order: the list help shows."""
    return [(key, valid_values(key, lang)) for key in SETTINGS]


class SetError(RulesError):
    """A ``--set`` value its setting cannot take: the sentence lists the valid ones in the same language."""

    def message(self, lang: str | None = None, ascii: bool = True) -> str:
        from ..text.catalog import t

        return t(self.message_id, lang, ascii=ascii, values=valid_values(self.key, lang), **self.shown_params())


def _bad(key: str, value: str) -> RulesError:
    return SetError(key, "rules_set_bad_value", key=key, value=value)


def _read(key: str, text: str) -> object:
    """``text`` as the plain value of ``key`` (not yet checked against the setting)."""
    word = text.strip().lower()
    if key in ("passing", "removal") and word[:1] in ("[", "{"):
        return _flow(key, text)
    if key in INTS:
        try:
            return int(word)
        except ValueError:
            raise _bad(key, text) from None
    if key in FLAGS:
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise _bad(key, text)
    if key == "passing":
        parts = [p.strip() for p in word.replace(" ", ",").split(",") if p.strip()]
        directions = {d.value for d in Direction}
        if len(parts) > 1 or (parts and parts[0] in directions - {"left", "none"}):
            return parts
        return word
    if key == "removal":
        removal: dict[int, list[str]] = {}
        for group in filter(None, (g.strip() for g in word.split(";"))):
            count, sep, cards = group.partition(":")
            try:
                n = int(count)
            except ValueError:
                raise _bad(key, text) from None
            if not sep:
                raise _bad(key, text)
            removal[n] = [c.strip().upper() for c in cards.replace(" ", ",").split(",") if c.strip()]
        return removal
    return word


def _flow(key: str, text: str) -> object:
    """A YAML flow list or mapping (``[right, left]``, ``{3: [2D]}``); YAML is loaded only for these."""
    import yaml

    from ..base.untrusted import DEPTH, YamlRefused, load_yaml

    try:
        return load_yaml(text, DEPTH["value"])  # no aliases, shallow: what a setting can need
    except (yaml.YAMLError, YamlRefused):
        raise _bad(key, text) from None


def format_set(rules: Rules) -> list[str]:
    """``rules``' overrides of its preset as ``KEY=VALUE`` items that :func:`parse_set` reads back."""
    out = []
    for key, value in rules.overrides:
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif key == "passing" and isinstance(value, list):
            text = ",".join(value)
        elif key == "removal" and isinstance(value, dict):
            text = ";".join(f"{n}:{','.join(cards)}" for n, cards in value.items())
        else:
            text = str(value)
        out.append(f"{key}={text}")
    return out


def parse_set(items: Iterable[str]) -> dict[str, object]:
    """``["moon=off", "players=3"]`` -> ``{"moon": "off", "players": 3}``, every item checked.

    The result is plain data (as a record keeps overrides); a later item for the
    same key wins.
    """
    out: dict[str, object] = {}
    for item in items:
        raw_key, sep, text = item.partition("=")
        key = raw_key.strip().lower().replace("-", "_")
        if not sep and key in SETTINGS:  # a setting without its value: say what it takes
            raise SetError(key, "rules_set_no_value", key=key)
        if not sep or not key:
            raise RulesError("set", "rules_set_syntax", text=item, keys=", ".join(SETTINGS))
        if key not in SETTINGS:
            raise RulesError(key, "rules_set_unknown_key", key=raw_key.strip(), keys=", ".join(SETTINGS))
        value = _read(key, text)
        try:
            coerce_settings({key: value})
        except RulesError:
            raise _bad(key, text.strip()) from None
        out[key] = value
    return out
