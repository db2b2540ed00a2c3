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
from pathlib import Path

from hearts_cli.play import events, payloads, requests
from hearts_cli.play.events import KINDS, SCHEMA, Event

OUT = Path(__file__).resolve().parent.parent / "docs" / "schema" / "hearts.schema.json"
MODULES = (events, payloads, requests)
SIMPLE = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "None": "null"}
NAMED = {"Card": "card", "CardText": "card", "Suit": "suit", "ErrorBody": "error"}


def snake(name: str) -> str:
    return NAMED.get(name) or re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


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
        head, _, rest = text.partition("[")
        if rest:
            args = split_top(rest[:-1], ",")
            if head == "list":
                return {"type": "array", "items": self.of(args[0])}
            if head == "dict":
                out: dict = {"type": "object", "additionalProperties": self.of(args[1])}
                if args[0] == "int":
                    out["propertyNames"] = {"pattern": "^[0-9]+$"}
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
    view = m.defs["event_view"]
    m.defs["state_reply"] = {
        "description": "The reply to `state` (and to the engine's moves): the seat view, beside `ok`.",
        "type": "object", "properties": {"ok": {"const": True}, "id": {}} | view["properties"]
        | {"event": {"const": "view"}},
        "required": ["ok", *[r for r in view["required"] if r != "event"]], "additionalProperties": False}
    m.typed_dict("VerdictJson")
    m.defs["why_reply"] = {"description": "The reply to `why`: the verdict, beside `ok`.",
                           "allOf": [{"$ref": "#/$defs/verdict_json"}],
                           "properties": {"ok": {"const": True}, "id": {}}, "required": ["ok"]}
    m.defs["verdict_json"].pop("additionalProperties")
    m.typed_dict("ExplainJson")
    m.typed_dict("ExplainPosition")
    m.typed_dict("ErrorReply")
    m.defs["reply"] = {
        "description": "A reply of the engine or the table server: an error, a verdict, a state, or another answer.",
        "type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}},
        "allOf": [
            {"if": {"properties": {"ok": {"const": False}}}, "then": {"$ref": "#/$defs/error_reply"}},
            {"if": {"required": ["legal"], "properties": {"legal": {"type": "boolean"}}},
             "then": {"$ref": "#/$defs/why_reply"}},
            {"if": {"required": ["phase", "hand"]}, "then": {"$ref": "#/$defs/state_reply"}},
            {"properties": {"card": {"$ref": "#/$defs/card"},
                            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                            "error": {"$ref": "#/$defs/error"}, "schema": {"const": SCHEMA}}},
        ]}
    for name in ("CardRequest", "PassRequest", "MoonRequest"):
        m.typed_dict(name, closed=False)
    m.defs["request"] = {
        "description": "A request to the engine or the table server: a `cmd`, an optional `id` echoed in the reply.",
        "type": "object", "required": ["cmd"], "properties": {"cmd": {"type": "string"}, "id": {}},
        "allOf": [
            {"if": {"properties": {"cmd": {"enum": ["play", "why"]}}}, "then": {"$ref": "#/$defs/card_request"}},
            {"if": {"properties": {"cmd": {"const": "pass"}}}, "then": {"$ref": "#/$defs/pass_request"}},
            {"if": {"properties": {"cmd": {"const": "moon"}}}, "then": {"$ref": "#/$defs/moon_request"}},
        ]}
    m.defs["line"] = {"description": "One line a program reads: an event, or a reply.",
                      "if": {"required": ["event"], "not": {"required": ["ok"]}},
                      "then": {"$ref": "#/$defs/event"}, "else": {"$ref": "#/$defs/reply"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:hearts-cli:schema:hearts",
        "title": f"hearts: events, seat view, requests, replies and errors (schema {SCHEMA})",
        "description": "Made from the typed classes of hearts_cli.play.events by tests/make_schema.py; "
                       "docs/events.md says what each field means.",
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
