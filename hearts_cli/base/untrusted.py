"""Everything from outside is untrusted: the limits, and the only ways in and back out.

A file, a stream or a typed line can be huge, nested without end, full of YAML
aliases that multiply into gigabytes, or carry terminal escapes. This module
is the one place that says how much we accept, and the one way each thing is
let in or shown again:

* :data:`LIMITS` (bytes or characters) is checked *before* reading, with
  :func:`read_limited`; anything larger is refused with :class:`TooBig`;
  :func:`read_text` reads UTF-8 text so, and :func:`decoded` drops the
  byte-order mark an editor may write first (Windows Notepad does);
* :func:`yaml_loader` is PyYAML's safe loader (on libyaml's parser when there
  is one) that refuses anchors and aliases and nesting deeper than the format
  needs (:data:`DEPTH`) as the events arrive, before a node or an object is
  built from them (:class:`YamlRefused`);
* :func:`shown` makes text from outside fit to show: control characters
  (escape sequences, bell, carriage return...), bidirectional overrides,
  invisible format characters (a byte-order mark, zero-width spaces) and
  undecodable bytes written as visible escapes (``\\x1b``), and only the first
  few dozen characters kept. The message catalog applies it to every
  parameter of every sentence (see :func:`hearts_cli.text.catalog.t`).

No imports from the project, and none but the standard library at import time.
"""

from __future__ import annotations

import functools
import json
import os
import re
from typing import IO, TYPE_CHECKING, AnyStr, NoReturn, Protocol, cast

if TYPE_CHECKING:  # PyYAML's types; PyYAML itself only where YAML is read (start-up)
    from yaml._yaml import CParser
    from yaml.constructor import SafeConstructor
    from yaml.nodes import Node

    from .jsonvalue import JsonValue

KiB = 1024
MiB = 1024 * KiB

# What we read from a person, at most (before reading a byte more).
LIMITS: dict[str, int] = {
    "record": 1 * MiB,      # a game record or a save: hundreds of rounds fit in a fraction of it
    "move_log": 1 * MiB,    # a move log (a file, stdin or --moves): a long game is a few KiB
    "settings": 64 * KiB,   # settings.yaml: three keys
    "line": 4 * KiB,        # one line typed at the game (or piped to it)
    "position": 4 * KiB,    # one position text (docs/position.md): eleven seats, two decks, about 500
    "request": 1 * MiB,     # one engine request (`hearts engine`): a position with a whole game's moves
    "history": 256 * KiB,   # the prompt history read at start (its newest part; the file may be longer)
    "net_message": 4 * KiB,  # one message from a client to a hosted table (`hearts host`)
    "net_update": 1 * MiB,   # one line from the host to a joined client (`hearts join`): the table's state
}
MAX_RECORD_BYTES = LIMITS["record"]
MAX_MOVE_LOG_BYTES = LIMITS["move_log"]
MAX_SETTINGS_BYTES = LIMITS["settings"]
MAX_LINE_CHARS = LIMITS["line"]
MAX_REQUEST_BYTES = LIMITS["request"]

# How deeply the YAML we read may nest lists and mappings (the formats need 6, 1 and 2).
DEPTH: dict[str, int] = {
    "record": 8,     # rounds > round > tricks > trick > cards; rules > removal > cards
    "settings": 2,   # a mapping of plain values (one level more, so a list is a bad value, not a bad file)
    "value": 3,      # one value of a move log's `rules` header (`removal={3: [2C]}`)
}

ECHO_CHARS = 40  # how much of a bad word, value or name an error message quotes


# ---------------------------------------------------------------- sizes


class TooBig(ValueError):
    """More than ``limit`` bytes (or characters) where that many is the most we take."""

    def __init__(self, limit: int, path: str | None = None):
        self.limit = limit
        self.path = path
        super().__init__(f"{path or '<input>'}: more than {limit} bytes")


def read_limited(source: str | os.PathLike[str] | IO[str] | IO[bytes], limit: int) -> bytes:
    """The bytes of a file (a path) or a stream, refused with :class:`TooBig` past ``limit``.

    A regular file's size is checked before it is opened; anything else (a
    pipe, stdin, a device) is read to at most ``limit + 1`` bytes, so a
    stream without end costs no more than that. ``OSError`` passes through.
    """
    path: str | None
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.stat(path).st_size > limit:
            raise TooBig(limit, path)
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    else:
        name: object = getattr(source, "name", None)
        path = name if isinstance(name, str) else None
        stream = getattr(source, "buffer", source)
        got: str | bytes = stream.read(limit + 1)
        raw = got.encode("utf-8", "surrogateescape") if isinstance(got, str) else got
    if len(raw) > limit:
        raise TooBig(limit, path)
    return raw


BOM = "\ufeff"  # the byte-order mark (U+FEFF), as text


def decoded(raw: bytes) -> str:
    """UTF-8 bytes from outside as text, without the byte-order mark some editors write
    first (Windows Notepad does): it is invisible, and no word of any format starts with it.
    ``UnicodeDecodeError`` passes through. (Not the ``utf-8-sig`` codec: its module would be
    one more import at every start.)"""
    text = raw.decode("utf-8")
    return text[1:] if text.startswith(BOM) else text


def read_text(source: str | os.PathLike[str] | IO[str] | IO[bytes], limit: int) -> str:
    """The text of a file or a stream, as :func:`read_limited` reads it and :func:`decoded` decodes it."""
    return decoded(read_limited(source, limit))


def read_line(stream: IO[AnyStr], limit: int = MAX_LINE_CHARS) -> tuple[AnyStr, bool]:
    """One line of a stream (text or bytes), and whether it was longer than ``limit``.

    A longer line is read to its end in pieces and thrown away (only the
    first ``limit`` characters are returned), so it never sits in memory
    whole. Empty at the end of the stream, as ``readline`` gives it.
    """
    try:
        line = stream.readline(limit + 1)
    except TypeError:  # a stand-in for a stream whose readline takes no size
        line = stream.readline()
        body = line.rstrip("\r\n" if isinstance(line, str) else b"\r\n")
        return (line[:limit], True) if len(body) > limit else (line, False)
    end = "\n" if isinstance(line, str) else b"\n"
    if len(line) <= limit or line.endswith(end):
        return line, False
    while True:  # the rest of the line, piece by piece
        more = stream.readline(limit)
        if not more or more.endswith(end):
            break
    return line[:limit], True


# ---------------------------------------------------------------- YAML


class YamlRefused(ValueError):
    """YAML we do not build anything from: ``message_id`` is ``yaml_alias`` or ``yaml_too_deep``.

    ``line`` is 1-based; ``depth`` is the nesting allowed.
    """

    def __init__(self, message_id: str, line: int | None, depth: int):
        self.message_id = message_id
        self.line = line
        self.depth = depth
        super().__init__(f"{message_id} (line {line})")

    @property
    def params(self) -> dict[str, object]:
        return {"depth": self.depth}


if TYPE_CHECKING:  # types only: nothing to build at start-up
    class YamlLoader(Protocol):
        """What a loader of :func:`yaml_loader` offers: made with ``(text, depth)``, read once, disposed."""

        def __init__(self, stream: str, depth: int) -> None: ...

        duplicates: list[tuple[str, int, int]] | None

        def get_single_data(self) -> object: ...

        def dispose(self) -> None: ...


_LOADERS: dict[bool, type[YamlLoader]] = {}


def yaml_loader(pure: bool = False) -> type[YamlLoader]:
    """The loader class: PyYAML's safe loader, guarded. Instances take ``(text, depth)``.

    Built on libyaml's parser when PyYAML has it (``pure``: never), with
    PyYAML's own composer on top, so each event is seen before anything is
    built from it: an anchor (``&a``) or an alias (``*a``) raises
    :class:`YamlRefused` at once, and so does a list or mapping nested more
    than ``depth`` levels. Only plain data is ever constructed (the safe
    constructor: no ``!!python`` tags).

    Text with no ``&`` and no ``*`` anywhere can hold no anchor or alias: on
    libyaml it is composed by libyaml's own (faster) composer, and its depth
    checked on the nodes, before anything is constructed from them (the
    records the program writes take this way; see bench/startup.py).
    """
    if pure in _LOADERS:
        return _LOADERS[pure]
    parser: type[CParser] | None = None
    if not pure:
        try:
            from yaml.cyaml import CParser  # type: ignore[attr-defined]

            parser = CParser
        except ImportError:  # PyYAML built without libyaml
            parser = None
    loader = _libyaml_loader(parser) if parser is not None else _pure_loader()
    _LOADERS[pure] = loader
    return loader


def _guard(parser: type[CParser] | None) -> type:
    """The checks every loader makes, as a mix-in over PyYAML's composer (imported only
    when a YAML text is first read, for start-up): anchors, aliases and depth refused
    as the events arrive; on libyaml, plain text composed by libyaml and checked after."""
    import yaml  # PyYAML only where YAML is read: start-up
    from yaml.composer import Composer  # PyYAML only where YAML is read: start-up
    from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent

    class Guard(Composer):
        plain = False  # no anchor or alias can be in the text: libyaml composes it
        depth = 0
        max_depth = 0

        duplicates: list[tuple[str, int, int]] | None = None  # a list: each key given twice, added

        def get_single_data(self) -> object:
            try:
                if not self.plain or parser is None:  # (plain only on libyaml)
                    node = Composer.get_single_node(self)  # through compose_node below
                else:  # the loader this is mixed into is the parser, the composer and the constructor
                    node = parser.get_single_node(cast("CParser", self))  # libyaml's composer
                    if node is not None:
                        _check_depth(node, self.max_depth)
            except yaml.MarkedYAMLError as e:  # libyaml's own bound (1,000), met while scanning ahead
                if "nesting depth" not in str(e.problem):
                    raise
                mark = e.problem_mark or e.context_mark
                raise YamlRefused("yaml_too_deep", mark.line + 1 if mark else None, self.max_depth) from None
            if node is None:
                return None
            if self.duplicates is not None:
                self.duplicates.extend(_duplicate_keys(node))
            return cast("SafeConstructor", self).construct_document(node)

        def compose_node(self, parent: Node | None, index: int) -> Node | None:
            event = self.peek_event()  # type: ignore[attr-defined]  # the parser's, mixed in
            if isinstance(event, AliasEvent) or event.anchor is not None:
                raise YamlRefused("yaml_alias", _line(event), self.max_depth)
            if isinstance(event, (SequenceStartEvent, MappingStartEvent)):
                self.depth += 1
                if self.depth > self.max_depth:
                    raise YamlRefused("yaml_too_deep", _line(event), self.max_depth)
                try:
                    return Composer.compose_node(self, parent, index)
                finally:
                    self.depth -= 1
            return Composer.compose_node(self, parent, index)

    return Guard


def _check_depth(node: Node, max_depth: int) -> None:
    """Refuse a node tree nested deeper than ``max_depth`` (libyaml composed it unchecked)."""
    from yaml.nodes import MappingNode, SequenceNode  # PyYAML only where YAML is read: start-up

    stack = [(node, 1)]
    while stack:
        node, depth = stack.pop()
        kind = node.__class__
        if kind is SequenceNode or kind is MappingNode:
            if depth > max_depth:
                raise YamlRefused("yaml_too_deep", node.start_mark.line + 1, max_depth)
            if kind is SequenceNode:
                stack.extend((child, depth + 1) for child in node.value)
            else:
                for key, value in node.value:
                    stack.append((key, depth + 1))
                    stack.append((value, depth + 1))


def _duplicate_keys(node: Node) -> list[tuple[str, int, int]]:
    """The keys a mapping of ``node``'s tree is given twice (PyYAML keeps the last quietly): each
    as written, with the line of its first and of its next (1-based), in the order of the text."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode  # PyYAML only where YAML is read: start-up

    found: list[tuple[str, int, int]] = []
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, MappingNode):
            first: dict[tuple[str, str], int] = {}
            for key, value in node.value:
                stack.append(value)
                if not isinstance(key, ScalarNode):
                    continue
                line = key.start_mark.line + 1
                if (key.tag, key.value) in first:
                    found.append((key.value, first[key.tag, key.value], line))
                else:
                    first[key.tag, key.value] = line

    def by_line(d: tuple[str, int, int]) -> int:
        return d[2]

    return sorted(found, key=by_line)


def _libyaml_loader(parser: type[CParser]) -> type[YamlLoader]:
    """The guarded loader on libyaml's parser."""
    import yaml  # PyYAML only where YAML is read: start-up
    from yaml.composer import Composer  # PyYAML only where YAML is read: start-up

    class Loader(_guard(parser), parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str, depth: int):
            parser.__init__(self, stream)
            Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self.depth = 0
            self.max_depth = depth
            self.plain = isinstance(stream, str) and "&" not in stream and "*" not in stream

    return Loader


def _pure_loader() -> type[YamlLoader]:
    """The guarded loader on PyYAML's own (pure Python) parser."""
    import yaml  # PyYAML only where YAML is read: start-up

    class Loader(_guard(None), yaml.SafeLoader):  # type: ignore[misc]
        def __init__(self, stream: str, depth: int):
            yaml.SafeLoader.__init__(self, stream)
            self.depth = 0
            self.max_depth = depth

    return Loader


def _line(event: object) -> int | None:
    mark = getattr(event, "start_mark", None)
    return mark.line + 1 if mark is not None else None


def load_yaml(text: str, depth: int, duplicates: list[tuple[str, int, int]] | None = None) -> object:
    """The data of one YAML document, read with :func:`yaml_loader`; ``duplicates``, a list: each
    key a mapping is given twice is added to it (as written, the line of the first, the line of
    the next), where PyYAML keeps the last value without a word.

    Raises :class:`YamlRefused` or PyYAML's ``YAMLError`` (text that does not parse).
    """
    loader = yaml_loader()(text, depth)
    if duplicates is not None:
        loader.duplicates = duplicates
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def yaml_problem(error: Exception, text: str | None = None) -> tuple[str, dict[str, object]]:
    """What is wrong in YAML text that did not parse (PyYAML's ``YAMLError``), as a message id
    of the catalog and its parameters, in a person's words rather than the parser's: a quote
    or a bracket never closed (the line it opened on), a tab where YAML takes spaces, a tag
    (``!!python/object``) nothing of ours is made of, or a line that does not read as YAML
    (``yaml_bad_layout``, the line); ``yaml_bad`` when the parser says no line. ``text``, the
    text read: a tab that begins the line is named too (libyaml says only that a character
    cannot start a token)."""
    from yaml.error import MarkedYAMLError  # (loaded already: the error is PyYAML's)

    if not isinstance(error, MarkedYAMLError):  # no line to name (a ReaderError...)
        return "yaml_bad", {}
    context = error.context or ""
    problem = error.problem or ""
    mark = error.problem_mark or error.context_mark
    opened = error.context_mark or mark
    if "quoted scalar" in context and opened is not None:
        return "yaml_bad_quote", {"line": opened.line + 1}
    if ("flow sequence" in context or "flow mapping" in context) and opened is not None:
        return "yaml_bad_bracket", {"line": opened.line + 1}
    if mark is None:
        return "yaml_bad", {}
    if type(error).__name__ == "ConstructorError":  # a tag no safe loader builds (!!python/object...)
        return "yaml_bad_tag", {"line": mark.line + 1}
    lines = text.split("\n") if text is not None else []
    line = lines[mark.line] if mark.line < len(lines) else ""
    indent = line[:len(line) - len(line.lstrip())]
    if "tab" in problem or "\\t" in problem or "\t" in indent:  # (libyaml's words, PyYAML's repr, the line)
        return "yaml_bad_tab", {"line": mark.line + 1}
    return "yaml_bad_layout", {"line": mark.line + 1}


# ---------------------------------------------------------------- showing it again

# C0 and C1 controls and DEL (escape sequences, bell, backspace, carriage return...),
# the marks and overrides that reorder text, line and paragraph separators, the format
# characters that show nothing (soft hyphen, zero-width spaces and joiners, word joiner,
# byte-order mark, tags...: a word quoted with one looks like a word without it), and
# lone surrogates (undecodable bytes), which no terminal should receive as they are.
# None of them is printable (``str.isprintable``), so text that is printable, nearly
# all of it, is let through without a regex; the patterns are compiled on first use
# (four compiles would cost every command about a millisecond of start-up).
_UNSAFE = ("\x00-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
           "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\ud800-\udfff")
_PATTERNS = {
    "unsafe": f"[{_UNSAFE}]",
    "unsafe_but_lines": "[\x00-\x08\x0b-\x1f" + _UNSAFE[3:] + "]",  # \t and \n kept
    "escape": r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[nrt])",  # one escape as _escape writes it
    "c1": "[\x7f-\x9f\u2028\u2029]",
    "surrogate": "[\ud800-\udfff]",
}
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[name])


def _escape(ch: str) -> str:
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFFFF:  # a tag character (U+E0020...)
        return f"\\U{code:08x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escape_match(found: re.Match[str]) -> str:
    return _escape(found.group())


def _unicode_escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def shown(value: object, limit: int | None = ECHO_CHARS) -> str:
    """``text`` from outside as it may be shown: escaped, and at most ``limit`` characters.

    Every character that could drive a terminal or hide what is written is
    shown as an escape (``\\x1b``, ``\\x07``, ``\\n``, ``\\u202e``, ``\\ufeff``): nothing
    that reaches a terminal from here can move its cursor, change its colours
    or its title. What is cut is marked with ``…`` (never in the middle of an
    escape). ``limit=None``: escape only.
    """
    text = str(value)
    if limit is not None and len(text) > limit:
        text = text[:limit]  # what is shown is no longer than this anyway
        cut = True
    else:
        cut = False
    if not text.isprintable() and _pattern("unsafe").search(text):
        text = _pattern("unsafe").sub(_escape_match, text)
    if limit is not None and (cut or len(text) > limit):
        end = max(1, limit - 1)
        for m in _pattern("escape").finditer(text, max(0, end - 9), end + 9):
            if m.start() < end < m.end():  # an escape that would be cut in two goes whole
                end = m.start()
                break
        text = text[:end] + "…"
    return text


def _not_json(text: str) -> NoReturn:
    raise ValueError(f"{text[:10]} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):  # 1e999: a number no peer can read
        raise ValueError("a JSON number out of range")
    return value


def strict_json(text: str | bytes) -> JsonValue:
    """One JSON text from outside, strictly: ``NaN``, ``Infinity`` and numbers too large for a
    double (``1e999``) are refused (``ValueError``), as strict parsers refuse them, and so is
    a string holding a lone surrogate (``"\\udc80"``: no UTF-8 can carry it back out).
    Nesting is bounded by the line's size limit (checked before) and Python's recursion
    limit (``RecursionError``)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    value: JsonValue = json.loads(text.lstrip("\ufeff"), parse_constant=_not_json, parse_float=_finite)
    if "\\u" in text and _has_surrogate(value):
        raise ValueError("a lone surrogate")
    return value


def _has_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return _pattern("surrogate").search(value) is not None
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def json_safe(line: str) -> str:
    """A JSON text written with ``ensure_ascii=False``, with DEL and the C1 controls (and the
    line separators) as ``\\u`` escapes too: JSON escapes only C0, and a string from a file
    must not reach a terminal that reads ``\\x9b`` as the start of an escape sequence.
    The same JSON value; these characters can only stand inside strings."""
    if not line.isprintable() and _pattern("c1").search(line):
        return _pattern("c1").sub(_unicode_escape, line)
    return line


def escaped(text: str) -> str:
    """``text`` with what could drive a terminal escaped, line breaks and tabs kept; not cut.

    For whole sentences made of our own words and parameters already shown.
    """
    if not text.isprintable() and _pattern("unsafe_but_lines").search(text):
        return _pattern("unsafe_but_lines").sub(_escape_match, text)
    return text
