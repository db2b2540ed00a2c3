"""Hard's game value (issue 35, docs/bots.md "Sixth"): the variants measured, and the Hard before it.

``Tuning(standings=W)``: a playout after which the game goes on is worth ``W`` points times the
seat's chance of winning from the totals then (``hearts_cli.bots.hard.win_chance``). Hard plays
with ``W = 130`` in the rounds that can end the game (``LateStandingsHard``, the default since
its SPRT against the Hard before, ``RoundValueHard``: ``W = 0``, own points minus the others'
average). ``StandingsHard`` (60), ``Standings90`` and ``Standings130`` value every round so
(``standings_late=False``); they were measured in whole games against Normals beside it::

    hearts sim --gauntlet hard,bench.bots.standings:RoundValueHard --sprt 0,10
    hearts sim --seats bench.bots.standings:Standings90,normal,normal,normal --duplicate
"""

from __future__ import annotations

import dataclasses

from hearts_cli.bots.hard import PLAYED, HardBot, Tuning


class StandingsHard(HardBot):
    """Hard with ``Tuning(standings=60)``: a game that goes on is valued by its chance of winning it."""

    TUNING = Tuning(standings=60.0, standings_late=False)

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=self.TUNING)


class Standings90(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 90 points."""

    TUNING = Tuning(standings=90.0, standings_late=False)


class Standings130(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 130 points."""

    TUNING = Tuning(standings=130.0, standings_late=False)


class RoundValueHard(StandingsHard):
    """The Hard before its game value: own points minus the others' average while the game goes on."""

    TUNING = dataclasses.replace(PLAYED, standings=0.0)


class LateStandingsHard(StandingsHard):
    """Hard valuing the game's standings only in a round that can end the game: the Hard of the table."""

    TUNING = dataclasses.replace(PLAYED, standings_late=True)
