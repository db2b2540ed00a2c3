"""The published JSON Schema (docs/schema/hearts.schema.json) is made from the typed classes of
the vocabulary, and every surface's output is valid against it.

The golden transcripts hold the output of ``hearts play --json``, ``hearts replay --json``
and ``hearts engine`` (requests and replies, errors among them), compared with the
programs' own output by test_golden.py: checking their lines checks the programs without
playing again. The table server's lines are checked as the scripts of test_tables.py read
them (its ``Conn``), the streams of test_events.py where they are made.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SCHEMA_FILE, check_schema

from hearts_cli.play.events import KINDS, SCHEMA

GOLDEN = Path(__file__).resolve().parent / "golden"
# the transcripts of the surfaces: play and replay --json, and the engine
SURFACES = sorted(p for p in GOLDEN.glob("*.txt")
                  if p.name.startswith("engine-") or (p.name.startswith(("game-", "replay-")) and "-json" in p.name))


def _sections(path: Path) -> dict[str, list[str]]:
    """A transcript's lines by section (stdin: the engine's requests; stdout: what it wrote)."""
    out: dict[str, list[str]] = {"stdin": [], "stdout": []}
    where = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("=== ") and line.endswith(" ==="):
            where = line.strip("= ")
        elif line.startswith("#####"):
            where = None
        elif where in out and line.strip():
            out[where].append(line)
    return out


def test_the_published_schema_is_the_one_the_classes_make():
    import jsonschema
    from make_schema import text

    assert SCHEMA_FILE.read_text(encoding="utf-8") == text(), "run: .venv/bin/python tests/make_schema.py"
    schema = json.loads(text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert {f"event_{k}" for k in KINDS} <= set(schema["$defs"])
    assert str(SCHEMA) in schema["title"]


@pytest.mark.parametrize("path", SURFACES, ids=lambda p: p.stem)
def test_every_line_of_every_surface_is_valid(path):
    sections = _sections(path)
    written = [line for line in sections["stdout"] if line.startswith("{")]
    assert written, "a transcript of a surface writes JSON"
    for line in written:
        check_schema(line)
    if path.name.startswith("engine-") and len(sections["stdin"]) == len(written):  # a reply a request
        accepted = [request for request, reply in zip(sections["stdin"], written) if json.loads(reply)["ok"]]
        assert accepted
        for request in accepted:  # (the refused ones are refused on purpose: their errors are checked above)
            try:
                obj = json.loads(request)
            except ValueError:  # bytes the transcript writes escaped (a byte order mark, bad UTF-8)
                continue
            check_schema(obj, "request")


def test_the_surfaces_agree_on_what_they_once_wrote_apart():
    """Issue 25: a void's suit is a letter, a refused card's reason and the error event are the one
    error object ({code, message}); the schema refuses the old forms."""
    void = {"event": "void", "round": 1, "trick": 1, "seat": 3, "suit": "C", "card": "KS"}
    check_schema(void)
    error = {"code": "must_follow_suit", "message": "You must follow clubs."}
    why = {"ok": True, "card": "7H", "legal": False, "reason": error}
    check_schema(why)
    check_schema({"event": "error"} | error)
    check_schema({"event": "why", "card": "7H", "legal": False, "reason": error, "text": error["message"]})
    check_schema({"ok": False, "error": error | {"card": "7H"}})
    old = [void | {"suit": 0}, why | {"reason": "must_follow_suit"},
           {"event": "error", "id": "must_follow_suit", "message": "You must follow clubs."},
           {"event": "play", "round": 1, "trick": 1, "seat": 0, "card": "7♣", "by": "you"}]
    for obj in old:
        with pytest.raises(pytest.fail.Exception):
            check_schema(obj)


def test_the_schema_is_closed_and_its_words_are_enums():
    """Issue 34 §9: every reply and event is closed (a field it does not name fails it), and a
    field that holds one of a few words names them (an enum)."""
    for obj in ({"ok": True, "whatever": 1, "seat": "x"}, {"ok": True, "whatever": 1},
                {"ok": True, "seat": 1, "card": "QS", "level": "normal", "extra": 0},
                {"ok": False, "error": {"code": "x", "message": "y"}, "more": 1},
                {"ok": True, "card": "QS", "legal": True, "effect": None, "note": ""}):
        with pytest.raises(pytest.fail.Exception):
            check_schema(obj)
    play = {"event": "play", "round": 1, "trick": 1, "seat": 0, "card": "7C", "by": "cpu"}
    check_schema(play)
    for field, word in (("by", "alien"), ("seat", "x")):
        with pytest.raises(pytest.fail.Exception):
            check_schema(play | {field: word})
    with pytest.raises(pytest.fail.Exception):
        check_schema({"event": "deal", "round": 1, "direction": "sideways", "dealer": 0, "to": 1, "hands": {}})
    with pytest.raises(pytest.fail.Exception):
        check_schema({"event": "takeover", "seat": 1, "reason": "alien"})
    check_schema({"ok": True})
    check_schema({"ok": True, "bye": True, "id": 3})
    check_schema({"ok": True, "seat": 1, "moon": "others", "level": "normal"}, "suggestion")


def test_the_words_of_the_schema_are_the_codes():
    """The closed sets written as words (play/payloads.py) are those the code makes."""
    from hearts_cli.play import payloads
    from hearts_cli.play.dealt import MOON_CHOICES, Phase
    from hearts_cli.play.events import SUIT_LETTERS
    from hearts_cli.records.record_parts import SEAT_KINDS

    assert payloads.PhaseName.__metadata__[0] == tuple(p.value for p in Phase)
    assert payloads.MoonChoiceName.__metadata__[0] == tuple(str(c) for c in MOON_CHOICES)
    assert payloads.SeatKind.__metadata__[0] == SEAT_KINDS
    assert "".join(payloads.SuitLetter.__metadata__[0]) == SUIT_LETTERS


def test_a_request_is_closed_too():
    """Issue 34 §9: a request's fields are its command's (payloads.REQUESTS), and no others: the
    help's example once sent ``preset``, which the engine ignores."""
    for obj in ({"cmd": "play", "card": "QS"}, {"cmd": "position", "rules": "quick", "code": "K7Q2MXA7", "id": 1},
                {"cmd": "hello", "token": "1-x", "name": "Bot", "lang": "en"}, {"cmd": "go", "level": "hard"},
                {"cmd": "position", "pass": "left", "hands": [[], [], [], []]}, {"cmd": "hint"}):
        check_schema(obj, "request")
    for obj in ({"cmd": "play", "card": "QS", "whatever": 1}, {"cmd": "position", "preset": "quick"},
                {"cmd": "dance"}, {"cmd": "quit", "now": True}):
        with pytest.raises(pytest.fail.Exception):
            check_schema(obj, "request")
