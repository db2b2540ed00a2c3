"""Make the JSON Schema of the vocabulary from its typed classes: ``python tests/make_schema.py [--check]``.

Every event kind of :mod:`hearts_cli.play.events` (its annotations), the shapes inside
them (TypedDicts), the error object, the answers of ``why``
(:mod:`hearts_cli.play.payloads`) and the requests (:mod:`hearts_cli.play.requests`)
become ``$defs`` of one draft 2020-12 schema, written to
``docs/schema/hearts.schema.json``. ``tests/test_schema.py`` checks that the file is
what this makes, so the classes and the published schema cannot drift apart.
Run it with the project's Python (``.venv/bin/python tests/make_schema.py``).
"""

from __future__ import annotations

import json
import re
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, get_args, get_origin

from hearts_cli.play import events, payloads, replies, requests
from hearts_cli.play.events import KINDS, SCHEMA, Event
from hearts_cli.play.replies import REPLIES, Reply

OUT = Path(__file__).resolve().parent.parent / "docs" / "schema" / "hearts.schema.json"
MODULES = (events, payloads, replies, requests)
SIMPLE = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "None": "null"}
NAMED = {"Card": "card", "CardText": "card", "Suit": "suit", "ErrorBody": "error"}


def snake(name: str) -> str:
    return NAMED.get(name) or re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def words(name: str) -> list[str] | None:
    """The words of a closed set (``Annotated[str, WORDS]`` of payloads), or None for another name."""
    alias = getattr(payloads, name, None)
    if get_origin(alias) is not Annotated:
        return None
    meta = get_args(alias)[1]
    return [m.value for m in meta] if isinstance(meta, type) and issubclass(meta, Enum) else list(meta)


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            start = i + len(sep)
    parts.append(text[start:].strip())
    return parts


class Maker:
    def __init__(self) -> None:
        self.defs: dict[str, dict] = {}

    def of(self, text: object) -> dict:
        """The schema of one annotation (a string: the modules use postponed annotations)."""
        text = getattr(text, "__forward_arg__", text).strip()  # a TypedDict keeps them as ForwardRef
        alts = split_top(text, "|")
        if len(alts) > 1:
            schemas = [self.of(a) for a in alts]
            if all(set(s) == {"type"} for s in schemas):
                return {"type": [s["type"] for s in schemas]}
            return {"anyOf": schemas}
        if text in SIMPLE:
            return {"type": SIMPLE[text]}
        if text in ("Any", "JsonValue", "object"):
            return {}
        if text in ("JsonObject", "MessageParams"):
            return {"type": "object"}
        closed = words(text)
        if closed is not None:
            return {"enum": closed}
        head, _, rest = text.partition("[")
        if rest:
            args = split_top(rest[:-1], ",")
            if head == "list":
                return {"type": "array", "items": self.of(args[0])}
            if head == "dict":
                out: dict = {"type": "object", "additionalProperties": self.of(args[1])}
                if args[0] == "int":
                    out["propertyNames"] = {"pattern": "^[0-9]+$"}
                elif words(args[0]) is not None:
                    out["propertyNames"] = self.of(args[0])
                return out
            if head == "Literal":
                values = [json.loads(a.replace("'", '"')) if a not in ("True", "False") else a == "True"
                          for a in args]
                return {"const": values[0]} if len(values) == 1 else {"enum": values}
            if head in ("NotRequired", "Required"):
                return self.of(args[0])
        name = snake(text)
        if name not in self.defs:
            self.typed_dict(text)
        return {"$ref": f"#/$defs/{name}"}

    def typed_dict(self, name: str, closed: bool = True) -> None:
        cls = next(getattr(m, name) for m in MODULES if hasattr(m, name))
        key = snake(name)
        self.defs[key] = {}  # (a shape may hold itself)
        props, required = {}, []
        for klass in reversed(cls.__mro__):
            for field, text in vars(klass).get("__annotations__", {}).items():
                text = getattr(text, "__forward_arg__", text)
                props[field] = self.of(text)
                optional = text.startswith("NotRequired[") or not getattr(klass, "__total__", True)
                if not optional:
                    required.append(field)
                elif field in required:
                    required.remove(field)
        body: dict = {"type": "object"}
        if cls.__doc__ and not cls.__doc__.startswith(("dict(", "A simple typed")):
            body["description"] = " ".join(cls.__doc__.split())
        body |= {"properties": props, "required": required}
        if closed:
            body["additionalProperties"] = False
        self.defs[key] = body

    def reply(self, cls: type[Reply]) -> dict:
        """A reply's definition: ``ok``, the request's ``id``, and its fields (those of its SPREAD
        field's shape: the view event, the verdict), closed."""
        notes = vars(cls).get("__annotations__", {})
        props: dict = {"id": {"description": "The request's id, echoed when it had one."},
                       "ok": {"const": cls.OK}}
        required = ["ok"]
        if cls.SPREAD:
            shape = self.of(notes[cls.SPREAD])["$ref"].rsplit("/", 1)[1]
            inner = self.defs[shape]
            props |= inner["properties"]
            required += inner["required"]
        else:
            props |= {a: self.of(notes[a]) for a in cls._ORDER}
            required += list(cls._REQUIRED)
        body: dict = {"type": "object"}
        if cls.__doc__:
            body["description"] = " ".join(cls.__doc__.split())
        return body | {"properties": props, "required": required, "additionalProperties": False}

    def event(self, kind: str, cls: type[Event]) -> dict:
        names = {a: cls.JSON_NAMES.get(a, a) for a in cls._ATTRS}
        notes = vars(cls).get("__annotations__", {})
        props: dict = {"event": {"const": kind}}
        props |= {names[a]: self.of(notes[a]) for a in cls._ATTRS}
        body: dict = {"type": "object"}
        if cls.__doc__:
            body["description"] = " ".join(cls.__doc__.split())
        return body | {"properties": props, "required": ["event", *cls.FIELDS], "additionalProperties": False}


def make() -> dict:
    m = Maker()
    m.defs["card"] = {"description": "A card, canonical: rank (2-9, T, J, Q, K, A) and suit.",
                      "type": "string", "pattern": "^[2-9TJQKA][CDHS]$"}
    m.defs["suit"] = {"description": "A suit: C, D, H or S.", "enum": ["C", "D", "H", "S"]}
    m.typed_dict("ErrorBody")
    kinds = sorted(KINDS)
    for kind in kinds:
        m.defs["event_" + kind] = m.event(kind, KINDS[kind])
    m.defs["event"] = {"description": "Any event of the vocabulary, told by its `event`.",
                       "type": "object", "required": ["event"], "properties": {"event": {"enum": kinds}},
                       "allOf": [{"if": {"properties": {"event": {"const": k}}},
                                  "then": {"$ref": f"#/$defs/event_{k}"}} for k in kinds]}
    NAMED["View"] = "event_view"
    for name, cls in sorted(REPLIES.items()):
        m.defs[name] = m.reply(cls)
    m.typed_dict("ExplainJson")
    m.typed_dict("ExplainPosition")
    m.defs["reply"] = {
        "description": "A reply of the engine or the table server: one of the replies, each closed.",
        "type": "object", "required": ["ok"],
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in sorted(REPLIES)]}
    commands: list[str] = []
    cases = []
    for name in payloads.REQUESTS:
        m.typed_dict(name)
        cmd = m.defs[snake(name)]["properties"]["cmd"]
        said = cmd.get("enum") or [cmd["const"]]
        commands += said
        cases.append({"if": {"properties": {"cmd": {"enum": said}}}, "then": {"$ref": f"#/$defs/{snake(name)}"}})
    m.defs["request"] = {
        "description": "A request to the engine or the table server: a `cmd` and its fields, closed; "
                       "an optional `id` echoed in the reply.",
        "type": "object", "required": ["cmd"], "properties": {"cmd": {"enum": commands}}, "allOf": cases}
    m.defs["line"] = {"description": "One line a program reads: an event, or a reply.",
                      "if": {"required": ["event"], "not": {"required": ["ok"]}},
                      "then": {"$ref": "#/$defs/event"}, "else": {"$ref": "#/$defs/reply"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:hearts-cli:schema:hearts",
        "title": f"hearts: events, seat view, requests, replies and errors (schema {SCHEMA})",
        "description": f"Made from the typed classes of hearts_cli.play.events, .replies and .payloads by "
                       f"tests/make_schema.py; docs/events.md says what each field means. Schema {SCHEMA}, since 3: "
                       "the replies typed (ok_reply, state_reply, verdict_reply, suggestion, hello_reply, "
                       "error_reply), one state reply (a view event beside ok) and one suggestion (go, hint); "
                       "every event, reply and request closed, closed sets of words as enums; the claim event, "
                       "round_end's sun and no_trick, an effect's covered and stake.",
        "$ref": "#/$defs/line",
        "$defs": dict(sorted(m.defs.items())),
    }


def text() -> str:
    return json.dumps(make(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    made = text()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == made
        print("up to date" if same else f"{OUT} is out of date: run tests/make_schema.py")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(made, encoding="utf-8")
    print(f"written: {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
