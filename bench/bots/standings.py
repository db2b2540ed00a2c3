"""Hard valuing the playouts that do not end the game by its chance of winning it (issue 35).

``Tuning(standings=W)``: a playout after which the game goes on is worth ``W`` points times the
seat's chance of winning from the totals then (``hearts_cli.bots.hard.win_chance``), where
today's Hard counts own points minus the others' average. Measured against today's Hard and
against Normals in whole games (docs/bots.md, issue 35, "Sixth")::

    hearts sim --gauntlet bench.bots.standings:StandingsHard,hard --sprt 0,10
    hearts sim --seats bench.bots.standings:StandingsHard,normal,normal,normal --duplicate
"""

from __future__ import annotations

from hearts_cli.bots.hard import HardBot, Tuning


class StandingsHard(HardBot):
    """Hard with ``Tuning(standings=60)``: a game that goes on is valued by its chance of winning it."""

    TUNING = Tuning(standings=60.0)

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=self.TUNING)


class Standings90(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 90 points."""

    TUNING = Tuning(standings=90.0)


class Standings130(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 130 points."""

    TUNING = Tuning(standings=130.0)


class Standings200(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 200 points."""

    TUNING = Tuning(standings=200.0)

