"""The replies of the engine protocol and the table server, typed as the events are.

One class per kind of reply, declared once here beside the events: its fields
are the class's annotations (the type checker makes each class's ``__init__``
from them, by keyword), :meth:`Reply.to_json` writes it, and the JSON Schema of
``docs/schema/hearts.schema.json`` is made from it (``tests/make_schema.py``). The
engine (``hearts engine``, :mod:`hearts_cli.cli.protocol`) and the table server
(``hearts host``, :mod:`hearts_cli.table.seat_requests`) answer with these:

- :class:`Ok`: the request is done (``bye``: the server's answer to ``quit``);
- :class:`StateReply`: the seat view, a ``view`` event beside ``ok``;
- :class:`VerdictReply`: what a card would do, or why it may not be played (``why``);
- :class:`Suggestion`: a CPU's choice for a seat (the engine's ``go``, the server's ``hint``);
- :class:`Hello`: the engine's ``hello``;
- :class:`ErrorReply`: the one error object, beside ``"ok": false``.

The request's ``id`` is added in front by whoever sends the reply. Like the events,
the classes are plain (no dataclass: start-up) and frozen, and a missing or unknown
field is a ``ValueError`` when one is made.
"""

from __future__ import annotations

from typing import ClassVar, dataclass_transform

from ..base.jsonvalue import JsonObject
from ..base.values import FrozenInstanceError, Plain
from ..model.cards import Card
from .events import _PLAIN, View, jsonable
from .payloads import ErrorBody, MoonChoiceName, VerdictJson

__all__ = ["OK", "REPLIES", "ErrorReply", "Hello", "Ok", "Reply", "StateReply", "Suggestion", "VerdictReply"]

REPLIES: dict[str, type[Reply]] = {}  # by the name of each one's definition in the schema


@dataclass_transform(kw_only_default=True)
class Reply(Plain):
    """An answer to one request: ``ok`` and the fields its class declares (a field with a
    default is optional: absent from the JSON unless given). ``SPREAD`` names a field whose
    own fields are the reply's (the state reply's view, the verdict), written beside ``ok``."""

    NAME: ClassVar[str] = ""  # its definition in the schema (``state_reply``...)
    OK: ClassVar[bool] = True
    SPREAD: ClassVar[str] = ""
    _ORDER: ClassVar[tuple[str, ...]] = ()
    _REQUIRED: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **fields: object) -> None:
        missing = [f for f in self._REQUIRED if f not in fields]
        if missing:
            raise ValueError(f"{self.NAME} without {', '.join(missing)}")
        extra = [f for f in fields if f not in self._ORDER]
        if extra:
            raise ValueError(f"{self.NAME} with unknown {', '.join(extra)}")
        self.__dict__.update(fields)

    def __setattr__(self, name: str, value: object) -> None:  # frozen, as the events (OK is shared)
        raise FrozenInstanceError(f"a reply is frozen: {self.NAME}'s {name!r}")

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        own = vars(cls)
        names = [n for n, t in own.get("__annotations__", {}).items() if not t.startswith("ClassVar")]
        cls._ORDER = tuple(names)
        cls._REQUIRED = tuple([n for n in names if n not in own])
        cls.__match_args__ = cls._ORDER  # type: ignore[misc]  # (as a dataclass sets it)
        REPLIES[cls.NAME] = cls

    def to_json(self) -> JsonObject:
        """The reply as JSON: ``{"ok": ..., field: value...}``, cards as ``"QS"``."""
        out: JsonObject = {"ok": self.OK}
        d = self.__dict__
        for k in self._ORDER:
            if k in d:
                v = d[k]
                out[k] = v if type(v) in _PLAIN else jsonable(v)
        return out


class Ok(Reply):
    """The request is done and there is nothing more to say; ``bye`` (true): the table server's
    answer to ``quit``."""

    NAME = "ok_reply"
    bye: bool | None = None


OK = Ok()  # the reply to most requests


class StateReply(Reply):
    """The reply to ``state`` (and to the engine's moves): the seat view, a ``view`` event, beside ``ok``."""

    NAME = "state_reply"
    SPREAD = "view"
    view: View

    def to_json(self) -> JsonObject:
        return {"ok": True} | self.view.to_json()


class VerdictReply(Reply):
    """The reply to ``why``: the verdict (``reason`` when the card may not be played, else
    ``effect``), beside ``ok``."""

    NAME = "verdict_reply"
    SPREAD = "verdict"
    verdict: VerdictJson

    def to_json(self) -> JsonObject:
        out: JsonObject = {"ok": True}
        out.update(jsonable(self.verdict))  # type: ignore[arg-type]  # a verdict is an object
        return out


class Suggestion(Reply):
    """A CPU's choice for ``seat`` at ``level``: the engine's ``go``, the table server's ``hint``.
    One of ``card`` (a play), ``cards`` (a pass) or ``moon`` (the shooter's choice)."""

    NAME = "suggestion"
    seat: int
    card: Card | None = None
    cards: list[Card] | None = None
    moon: MoonChoiceName | None = None
    level: str


class Hello(Reply):
    """The engine's answer to ``hello``: who it is, the versions it speaks, and what it knows."""

    NAME = "hello_reply"
    name: str
    version: str
    protocol: int
    schema: int
    presets: list[str]
    commands: list[str]
    languages: list[str]
    levels: list[str]


class ErrorReply(Reply):
    """A request that cannot be done: the one error object, beside ``"ok": false``."""

    NAME = "error_reply"
    OK = False
    error: ErrorBody
