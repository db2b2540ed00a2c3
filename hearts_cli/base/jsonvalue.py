"""JSON values as the type checker sees them.

What crosses a seam as JSON (an event, a request, a record read from a file) is
one of these rather than ``Any``, so that the type checker follows it from the
reader to the place that looks inside. No imports from the project.
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JsonObject", "JsonValue"]

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"
