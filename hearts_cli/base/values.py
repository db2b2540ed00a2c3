"""Cheap bases for the small record-like classes: what a dataclass gives them, defined fast.

``@dataclass`` writes its methods as source code and compiles them when the
module is imported: about half a millisecond a class, close to one for a
frozen one, which the scripted commands (``hearts replay --json``...) pay on
every start (see ``bench/startup.py``). These bases give what our classes use
of it, from ``__match_args__`` (the fields, in order, as a dataclass sets it):

- :class:`Plain`: equality with the same class only (field by field), a
  ``Name(field=value, ...)`` repr, and no hash (the fields can change);
- :class:`Frozen`: that, a hash, assignment refused with
  :class:`dataclasses.FrozenInstanceError`, pickling and copying; the fields
  are its ``__slots__``.

Each class writes its own ``__init__`` (a frozen one sets its fields with
``object.__setattr__``).
"""

from dataclasses import FrozenInstanceError

__all__ = ["Frozen", "FrozenInstanceError", "Plain"]


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


class Frozen(Plain):
    """An immutable :class:`Plain` whose ``__slots__`` are its fields; ``__init__`` takes them in order."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # Plain has none: its fields change
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return self.__class__, self._fields()
