"""The save of a hosted table (``hearts host``): ``tables/`` in the data directory.

The game is saved as ``hearts play`` saves it, and the table's invitations and
settings beside it in ``table.json``; finished games go to the common archive, where
``hearts stats`` and ``hearts replay`` find every game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..base.files import write_private
from ..base.jsonvalue import JsonObject
from ..play.game import Game
from ..records.record_parts import Seat
from .saves import Store, home


class HostStore(Store):
    """The host's save (``tables/`` in the data directory: the game, as ``hearts play`` saves
    it, and the table's invitations beside it in ``table.json``); finished games go to the
    common archive, where ``hearts stats`` and ``hearts replay`` find every game."""

    def __init__(self, root: Path | None = None, archive_dir: Path | None = None):
        super().__init__(root or home() / "tables", archive_dir or home() / "archive")

    @property
    def meta_path(self) -> Path:
        return self.root / "table.json"

    def archive(self, game: Game, seats: Sequence[Seat], unfinished: bool = False, undos: int = 0,
                lang: str | None = None) -> Path:
        """The game to the archive; its save and invitations go with it."""
        target = super().archive(game, seats, unfinished=unfinished, undos=undos, lang=lang)
        try:
            self.meta_path.unlink()
        except FileNotFoundError:
            pass
        return target

    def record_change(self) -> None:
        """A host has no record of its own to tell of."""
        return None

    def write_meta(self, meta: JsonObject) -> None:
        """The invitations and settings of the table: 0600 in a 0700 directory, written atomically."""

        write_private(self.meta_path, json.dumps(meta).encode("utf-8"))

    def read_meta(self) -> JsonObject | None:
        try:
            if self.meta_path.stat().st_size > 65536:
                return None
            data = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None
