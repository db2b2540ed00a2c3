"""``hearts sim --export``: every game of a run written to a file as it ends, for other
programs: PBN-style sections (docs/pbn.md) or OpenSpiel's actions, one JSON line a round."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from ..bots.match import GamePlay, GameResult
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..records.openspiel import openspiel_params, write_openspiel
from ..records.pbn import write_pbn
from ..records.record import GameRecord
from ..records.record_parts import Seat
from ..text.catalog import os_problem

FORMATS = ("pbn", "openspiel")


class Export:
    """``--export pbn:FILE`` or ``openspiel:FILE``: every game of the run written as it ends
    (PBN-style sections, docs/pbn.md; or OpenSpiel's actions, one JSON line a round)."""

    def __init__(self, fmt: str, path: str):
        self.fmt = fmt
        self.path = path
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - written as games end, closed by close()
        self.games = 0
        self.event = "hearts sim"  # the PBN Event tag: the run's seed is added when known
        self.date = datetime.date.today().isoformat()  # the day the games are played: PBN's Date tag

    def game_over(self, game: GameResult) -> None:
        self.write(game.plays)

    def write(self, plays: Sequence[GamePlay]) -> None:
        for play in plays:
            game, play.game = play.game, None  # written, then let go
            if game is None:
                continue
            if self.fmt == "pbn":
                seats = tuple(Seat(lv, "cpu", lv) for lv in play.levels)
                text = write_pbn(GameRecord.from_game(game, seats, date=self.date), event=self.event)
                self.file.write(("\n" if self.games else "") + text)
            else:
                self.file.write(write_openspiel(game, list(play.levels)))
            self.games += 1
        self.file.flush()

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()


def open_export(fmt: str, path: str, rules: Rules) -> Export:
    """The export to ``path`` in ``fmt`` (one of :data:`FORMATS`), its file opened: OpenSpiel's
    only for rules it plays (:class:`~hearts_cli.records.openspiel.NotOpenSpiel`, before any game)."""
    if fmt == "openspiel":
        openspiel_params(rules)
    try:
        return Export(fmt, path)
    except OSError as e:
        raise HeartsError("cli_cannot_write", path=path, problem=os_problem(e, None)) from None
