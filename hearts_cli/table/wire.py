"""The JSON lines of a shared table as they go over the wire: strict JSON both ways,
compact and encoded once on the way out, the one error shape, and a line read in.

Strict JSON: a number that is not finite (``NaN``, ``Infinity``, ``1e999``) or a lone
surrogate is refused coming in and never sent (docs/tables.md, "Limits").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json import encoder as std
from typing import TYPE_CHECKING, NoReturn

from ..base.untrusted import strict_json
from ..play.events import Event
from ..play.replies import OK
from ..play.requests import RequestError

if TYPE_CHECKING:  # (an outside program's lines need no event loop: start-up stays as it is)
    import asyncio


def _compact_encoder() -> Callable[[object], str]:
    """Compact JSON, UTF-8 as it is. ``JSONEncoder.encode`` makes a new C encoder at every
    call (a quarter of the cost of a small message); the table server sends several lines
    a move, so it makes one, once (the same C encoder, the same output)."""

    # strict JSON: a number that is not finite is refused (ValueError), never sent as ``Infinity``
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
    make = getattr(std, "c_make_encoder", None)
    if make is None:  # a Python without the C accelerator
        return plain

    def refuse(value: object) -> NoReturn:
        raise TypeError(f"{type(value).__name__} is not JSON")
    # markers None: no check for cycles (a message is a tree of plain values)
    # (markers, default, encoder, indent, key separator, item separator, sort_keys, skipkeys, allow_nan)
    once = make(None, refuse, std.encode_basestring, None, ":", ",", False, False, False)
    return lambda obj: "".join(once(obj, 0))


_encode = _compact_encoder()


def encode(obj: Mapping[str, object]) -> bytes:
    return (_encode(obj) + "\n").encode("utf-8")


OK_LINE = encode(OK.to_json())  # the reply to most requests (play.replies.OK), encoded once


def encode_event(ev: Event) -> bytes:
    """An event as one line, encoded once however many clients it goes to."""
    line = ev.__dict__.get("_line")
    if line is None:
        line = ev.__dict__["_line"] = encode(ev.to_json())
    return line


def fail(code: str, message_id: str, lang: str, **params: object) -> dict[str, object]:
    """The error reply (the one shape: :class:`~hearts_cli.play.requests.RequestError`)."""
    return dict(RequestError(code, message_id, params).reply(lang))


def problem(e: BaseException) -> str:
    """What went wrong inside, in a few words (an OS error says which: ``Too many open files``)."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return type(e).__name__


async def read_line(reader: asyncio.StreamReader) -> bytes | None:
    """One line from a client (None: it has closed)."""
    line = await reader.readline()
    return line if line else None


def parse(line: bytes | None) -> object:
    """One line from a client, as strict JSON (:func:`hearts_cli.base.untrusted.strict_json`), or None."""
    if line is None:
        return None
    try:
        return strict_json(line)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
