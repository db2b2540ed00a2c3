"""The checks a JSON request from outside goes through, written once.

The engine protocol (``hearts engine``, :mod:`hearts_cli.cli.protocol`) and the
table server (``hearts host``, :mod:`hearts_cli.table.server`) both take
requests as JSON objects from programs they do not trust. Both read them
through this module: a line as strict JSON (no ``NaN``, ``Infinity``,
``1e999`` or lone surrogate: :func:`hearts_cli.base.untrusted.strict_json`),
the command, and each field by what it must be (a card, a list of cards, a
seat, one of a few words, a whole number). Whatever is wrong raises one
error, :class:`RequestError`, whose :meth:`~RequestError.reply` is the one
error reply both send: ``{"ok": false, "error": {"code", "message", ...}}``
(docs/engine-protocol.md, "Errors"; docs/tables.md).

Errors carry message ids, never sentences: the sentence is made in the
language of the reply, when it is sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeGuard, cast

from ..base.jsonvalue import JsonObject, JsonValue
from ..base.untrusted import strict_json
from ..model.cards import Card, CardParseError, parse_card
from ..model.errors import HeartsError
from ..text.catalog import t

if TYPE_CHECKING:  # payloads.py is the type checker's; the replies when one is made (start-up)
    from .payloads import ErrorBody
    from .replies import ErrorReply

# a refused pass whose reason is the time, not the cards: "not the time to pass"
PASS_PHASE_IDS = ("no_pass_round", "wrong_phase_play", "wrong_phase_pass", "wrong_phase_over")
ID_TEXT_MAX = 100  # characters of a string ``id`` the table server sends back
CARD_TEXT_MAX = 100  # characters of a card's name read (the longest is far shorter; more than is quoted back)


class RequestError(HeartsError):
    """A request that cannot be done: becomes the error reply (:meth:`reply`).

    ``code`` is the stable error code of the reply; the sentence is the
    message ``message_id`` with ``params``, or the one of ``cause`` (the
    error of a lower layer: a card, a code, rules, a pass), or ``text``, a
    sentence already made. ``expected`` names what a field should have held
    (a message id, made a phrase in the reply's language). ``extra`` goes into
    the reply beside the code and the message.
    """

    echoed = ("cmd", "code", "text", "value")

    def __init__(self, code: str, message_id: str = "proto_internal", /, params: dict[str, object] | None = None,
                 *, cause: HeartsError | None = None, text: str | None = None,
                 expected: tuple[str, dict[str, object]] | None = None, **extra: object):
        self.code = code
        self.cause = cause
        self.text = text
        self.expected = expected
        self.extra = extra
        super().__init__(message_id, **(params or {}))

    def message(self, lang: str | None = None, ascii: bool = True) -> str:
        if self.text is not None:
            return self.text
        if self.cause is not None:
            return self.cause.message(lang, ascii=ascii)
        if self.expected is not None:
            what, params = self.expected
            return t(self.message_id, lang, ascii=ascii,
                     **(self.shown_params() | {"expected": t(what, lang, ascii=ascii, **params)}))
        return super().message(lang, ascii=ascii)

    def body(self, lang: str | None = None) -> ErrorBody:
        out = {"code": self.code, "message": self.message(lang, ascii=True), **self.extra}
        return cast("ErrorBody", out)  # extra holds only ErrorBody's optional fields

    def answer(self, lang: str | None = None) -> ErrorReply:
        """The error reply (:class:`~hearts_cli.play.replies.ErrorReply`)."""
        from .replies import ErrorReply  # only when asked for: start-up of the commands that do not

        return ErrorReply(error=self.body(lang))

    def reply(self, lang: str | None = None) -> JsonObject:
        """The error reply as JSON: ``{"ok": false, "error": {...}}``."""
        return self.answer(lang).to_json()


# ---------------------------------------------------------------- the errors, by what is wrong


def missing(field: str) -> RequestError:
    return RequestError("missing_field", "proto_missing", {"field": field}, field=field)


def bad_type(field: str, expected: str, /, index: int | None = None, **params: object) -> RequestError:
    """``field`` does not hold what it must (``expected``: a message id, ``type_card``..., with
    ``params``); ``index``: where in a list."""
    if index is None:
        return RequestError("bad_field", "proto_bad_type", {"field": field}, expected=(expected, params), field=field)
    return RequestError("bad_field", "proto_bad_type", {"field": field}, expected=(expected, params),
                        field=field, index=index)


def bad_choice(field: str, choices: Sequence[str]) -> RequestError:
    return RequestError("bad_field", "proto_bad_choice", {"field": field, "choices": ", ".join(choices)},
                        field=field)


def bad_json(message_id: str = "proto_bad_json", **params: object) -> RequestError:
    return RequestError("bad_json", message_id, params)


# ---------------------------------------------------------------- reading a request


def parse_line(line: str | bytes) -> JsonObject | None:
    """One line as a request object (strict JSON); None for a blank line; else ``bad_json``."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
    except UnicodeDecodeError:
        raise bad_json() from None
    text = text.lstrip("\ufeff").strip()
    if not text:
        return None
    try:
        request: object = strict_json(text)
    except (ValueError, RecursionError):
        request = None
    if not isinstance(request, dict):
        raise bad_json()
    return cast("JsonObject", request)  # strict JSON: an object's keys are strings


def command(request: Mapping[str, JsonValue], commands: Sequence[str]) -> str:
    """The request's ``cmd``, one of ``commands``."""
    cmd = request.get("cmd")
    if cmd is None:
        raise missing("cmd")
    if not isinstance(cmd, str):
        raise bad_type("cmd", "type_string")
    if cmd not in commands:
        raise RequestError("unknown_cmd", "proto_unknown_cmd", {"cmd": cmd}, commands=list(commands))
    return cmd


def whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (JSON's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def required(request: Mapping[str, JsonValue], field: str) -> JsonValue:
    """The value of a field the request must give (null counts as not given)."""
    value = request.get(field)
    if value is None:
        raise missing(field)
    return value


def card(value: object, field: str, /, index: int | None = None) -> Card:
    """A card, in any notation :func:`~hearts_cli.model.cards.parse_card` reads."""
    if not isinstance(value, str):
        raise bad_type(field, "type_card", index=index)
    try:
        return parse_card(value[:CARD_TEXT_MAX])
    except CardParseError as e:
        refused = RequestError("bad_card", cause=e, field=field, suggestions=[str(Card(c)) for c in e.suggestions])
        if index is not None:  # where in a list, beside the field
            refused.extra = {"field": field, "index": index, "suggestions": refused.extra["suggestions"]}
        raise refused from None


def cards(value: object, field: str, /, limit: int | None = None, index: int | None = None) -> list[Card]:
    """A list of cards (at most ``limit`` of them, when given)."""
    if not isinstance(value, list) or (limit is not None and len(value) > limit) \
            or not all(isinstance(item, str) for item in value):
        raise bad_type(field, "type_cards", index=index)
    return [card(item, field, index) for item in value]


def seat(value: object, field: str, players: int) -> int | None:
    """A seat number of a table of ``players``, or None when the request names none."""
    if value is None:
        return None
    if not whole(value):
        raise bad_type(field, "type_seat")
    if not 0 <= value < players:
        raise RequestError("bad_seat", "bad_seat", {"seat": value, "players": players}, field=field)
    return int(value)


def choice(value: object, field: str, choices: Sequence[str], /, fold: bool = False) -> str:
    """One of ``choices`` (``fold``: in any case)."""
    if isinstance(value, str) and (value.lower() if fold else value) in choices:
        return value.lower() if fold else value
    raise bad_choice(field, choices)


def refused_pass(e: HeartsError) -> RequestError:
    """A pass the engine refused (:class:`~hearts_cli.play.dealt.PassError`), as the reply
    says it: ``wrong_phase`` when it is not the time to pass, else the engine's own reason."""
    return RequestError("wrong_phase" if e.message_id in PASS_PHASE_IDS else e.message_id, cause=e)


def small_id(request: Mapping[str, JsonValue]) -> JsonObject:
    """The head of the reply of the table server: the request's ``id``, when it can be sent back
    as it came (null, a boolean, a whole number or a finite one, a short string), else
    ``bad_field``. (The engine protocol echoes an id of any JSON type: its requests are bounded
    by their line.)"""
    if "id" not in request:
        return {}
    value = request["id"]
    if value is None or isinstance(value, (bool, float)) or (isinstance(value, int) and abs(value) < 1 << 63) \
            or (isinstance(value, str) and len(value) <= ID_TEXT_MAX):
        return {"id": value}
    raise bad_type("id", "type_id")
