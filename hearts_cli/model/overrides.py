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

from .rules import SETTINGS, SetError, format_set, parse_set, valid_values

# (reading and writing settings as text is model/rules.py's, so that Rules reads a rules text
# such as "quick+target=30" itself; they are named here as they always were)
__all__ = ["SetError", "format_set", "parse_set", "setting_lines", "valid_values"]


def setting_lines(lang: str | None = "en") -> list[tuple[str, str]]:
    """``(key, valid values)`` for every setting, in order: the list help shows."""
    return [(key, valid_values(key, lang)) for key in SETTINGS]
