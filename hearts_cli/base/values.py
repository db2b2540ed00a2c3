"""Cheap bases for the small record-like classes: what a dataclass gives them, defined fast.

``@dataclass`` writes its methods as source code and compiles them when the
module is imported: about half a millisecond a class, close to one for a
frozen one, which the scripted commands (``hearts replay --json``...) pay on
every start (see ``bench/startup.py``). These bases give what our classes use
of it, from ``__match_args__`` (the fields, in order, as a dataclass sets it):

- :class:`Plain`: equality with the same class only (field by field), a
  ``Name(field=value, ...)`` repr, and no hash (the fields can change);
  each class writes its own ``__init__``;
- :class:`Frozen`: that, a hash, assignment refused with
  :class:`dataclasses.FrozenInstanceError`, pickling and copying. A subclass
  declares its fields as annotations, a default after ``=``, as a frozen
  dataclass does (the type checker reads them so: ``dataclass_transform``);
  its class (:class:`FrozenType`) makes them the ``__slots__`` and
  ``__match_args__``, and one ``__init__`` shared by every class takes them in
  order, by position or by name, without compiling anything: as fast as a
  constructor written out field by field (a seat view's eighteen, a move's six).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from operator import attrgetter
from typing import Protocol, cast, dataclass_transform

__all__ = ["Frozen", "FrozenInstanceError", "FrozenType", "Plain"]


class _Slot(Protocol):
    """A field's slot, as ``__slots__`` makes it: what sets it, bypassing ``__setattr__``."""

    def __set__(self, instance: object, value: object, /) -> None: ...


class Plain:
    """Fields ``__match_args__``, compared and shown like a dataclass's; unhashable."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def _fields(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()
        return NotImplemented

    def __repr__(self) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({body})"


class FrozenType(type):
    """The class of every :class:`Frozen`: its annotated fields (a ``ClassVar`` is not one),
    after those of a :class:`Frozen` it extends, become its ``__slots__`` and
    ``__match_args__``; their defaults are kept for ``__init__`` (a slot cannot have one)."""

    _put: tuple[Callable[[object, object], None], ...]  # each field's slot setter, in order
    _tail: tuple[object, ...]  # the defaults of the last fields
    _least: int  # how many fields have no default
    __match_args__: tuple[str, ...]
    _fields: Callable[[object], tuple[object, ...]]

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, object], **kw: object) -> FrozenType:
        notes = cast("dict[str, object]", ns.get("__annotations__", {}))
        own = tuple([n for n, note in notes.items() if not str(note).startswith(("ClassVar", "typing.ClassVar"))])
        inherited = next((b for b in bases if isinstance(b, FrozenType)), None)
        fields = (inherited.__match_args__ if inherited is not None else ()) + own
        tail = (inherited._tail if inherited is not None else ()) + tuple([ns.pop(n) for n in own if n in ns])
        ns["__slots__"] = own
        ns["__match_args__"] = fields
        cls = super().__new__(mcls, name, bases, ns, **kw)
        put = []
        for n in fields:
            slot: _Slot = getattr(cls, n)
            put.append(slot.__set__)
        cls._put = tuple(put)
        cls._tail = tail
        cls._least = len(fields) - len(tail)
        if len(fields) > 1:  # a tuple of the fields in one call (the hash and equality's)
            get: Callable[[object], tuple[object, ...]] = attrgetter(*fields)
            cls._fields = lambda self: get(self)
        return cls


@dataclass_transform(frozen_default=True)  # the type checker makes each class's __init__ from its fields
class Frozen(Plain, metaclass=FrozenType):
    """An immutable :class:`Plain` whose fields are its annotations (see :class:`FrozenType`)."""

    __slots__ = ()

    def __init__(self, *args: object, **named: object) -> None:
        cls = type(self)
        if named or not cls._least <= len(args) <= len(cls._put):
            args = cls._bind(args, named)
        elif len(args) < len(cls._put):
            args += cls._tail[len(args) - cls._least:]
        for put, value in zip(cls._put, args):
            put(self, value)

    @classmethod
    def _bind(cls, args: tuple[object, ...], named: dict[str, object]) -> tuple[object, ...]:
        """The fields' values, in order, from arguments given by name too (or a TypeError, as a
        function with the fields for parameters would raise)."""
        fields = cls.__match_args__
        if len(args) > len(fields):
            raise TypeError(f"{cls.__qualname__}() takes {len(fields)} arguments but {len(args)} were given")
        values = list(args)
        for i in range(len(args), len(fields)):
            if fields[i] in named:
                values.append(named.pop(fields[i]))
            elif i >= cls._least:
                values.append(cls._tail[i - cls._least])
            else:
                raise TypeError(f"{cls.__qualname__}() missing required argument: {fields[i]!r}")
        for name in named:
            how = "multiple values for" if name in fields else "an unexpected keyword"
            raise TypeError(f"{cls.__qualname__}() got {how} argument {name!r}")
        return tuple(values)

    def __hash__(self) -> int:  # type: ignore[override]  # Plain has none: its fields change
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return self.__class__, self._fields()
