"""Hard's game value (issue 35, docs/bots.md "Sixth"): the weights measured, and the Hard before it.

``Tuning(standings=W)``: a playout after which the game goes on is worth ``W`` points times the
seat's chance of winning from the totals then (``hearts_cli.bots.hard.win_chance``). Hard plays
with ``W = 130`` since an SPRT against the Hard before, ``RoundValueHard`` (``W = 0``: own
points minus the others' average), accepted H1; ``StandingsHard`` (60) and ``Standings90`` were
measured in whole games against Normals beside it::

    hearts sim --gauntlet hard,bench.bots.standings:RoundValueHard --sprt 0,10
    hearts sim --seats bench.bots.standings:Standings90,normal,normal,normal --duplicate
"""

from __future__ import annotations

import dataclasses

from hearts_cli.bots.hard import PLAYED, HardBot, Tuning


class StandingsHard(HardBot):
    """Hard with ``Tuning(standings=60)``: a game that goes on is valued by its chance of winning it."""

    TUNING = Tuning(standings=60.0)

    def __init__(self, seed: int = 0, simulations: int | None = None) -> None:
        super().__init__(seed, simulations, tuning=self.TUNING)


class Standings90(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 90 points."""

    TUNING = Tuning(standings=90.0)


class Standings130(StandingsHard):
    """:class:`StandingsHard` with a game's win worth 130 points: the Hard of the table."""

    TUNING = Tuning(standings=130.0)


class RoundValueHard(StandingsHard):
    """The Hard before its game value: own points minus the others' average while the game goes on."""

    TUNING = dataclasses.replace(PLAYED, standings=0.0)


class FiledHard(StandingsHard):
    """Hard as issue 35 found it: Normal's pass, and the round's points alone while the game goes on."""

    TUNING = dataclasses.replace(PLAYED, learned_pass=False, standings=0.0)


class LateStandingsHard(StandingsHard):
    """Hard valuing the game's standings only in a round that can end the game."""

    TUNING = dataclasses.replace(PLAYED, standings_late=True)
