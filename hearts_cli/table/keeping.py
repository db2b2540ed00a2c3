"""Saved before it is told: what a table keeps of its game.

An event told means the save already holds that move: the table has the
:class:`Keeper` write the save (or, once the game is over, the archive) before
any client hears of it. A save that fails raises, and the table takes the move
back first (``Game.pop``: the move just made is the top of the game's move stack):
a move is saved and told, or refused with the position really unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..play.game import Game

if TYPE_CHECKING:
    from ..records.record_parts import Seat
    from ..store.saves import Store
    from ..store.stats import Change


class Keeper:
    """A table's save and archive (``store``: a :class:`~hearts_cli.store.saves.Store`, or None:
    nothing is kept here), and what the record notes of the game (``undos``, ``lang``)."""

    def __init__(self, store: Store | None = None, undos: int = 0, lang: str | None = None):
        self.store = store
        self.undos = undos  # moves taken back in this game (the record notes how many)
        self.lang = lang  # the language the game is played in: a save is resumed in it
        self.archived: Path | None = None  # where the finished (or left) game went
        self.archived_unfinished: str | None = None  # the code of a game left unfinished there
        self._archived_game: Game | None = None
        self._left: Game | None = None

    def save(self, game: Game, seats: Sequence[Seat]) -> None:
        if self.store is not None and not game.over:
            self.store.save(game, seats, undos=self.undos, lang=self.lang)

    def keep(self, game: Game, seats: Sequence[Seat]) -> None:
        """The move just made, durable: the save, or once the game is over the archive (once).
        Raises when it cannot be written (the table takes the move back)."""
        if self.store is None:
            return
        if game.over:
            if self._archived_game is not game:  # once
                self.archived = self.store.archive(game, seats, undos=self.undos, lang=self.lang)
                self._archived_game = game
        else:
            self.store.save(game, seats, undos=self.undos, lang=self.lang)

    def archive_unfinished(self, game: Game, seats: Sequence[Seat]) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        if self.store is not None and not game.over and self._left is not game:
            self.archived = self.store.archive(game, seats, unfinished=True, undos=self.undos, lang=self.lang)
            self.archived_unfinished = game.code
            self._left = game

    def record_change(self) -> Change | None:
        """How the game just archived changes the person's record (None: nothing to tell)."""
        return self.store.record_change() if self.store is not None else None

