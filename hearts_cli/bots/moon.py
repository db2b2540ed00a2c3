"""The shooter's choice (``moon: shooter_choice``): how a CPU that shot the moon scores it.

A pure function of the shooter's :class:`~hearts_cli.play.round.SeatView`: which
seat took which tricks is public, and so are the totals, so the choice needs
nothing a seat may not know.
"""

from __future__ import annotations

from ..play.dealt import Phase, better_moon_choice
from ..play.round import SeatView

__all__ = ["choose_moon"]


def choose_moon(view: SeatView) -> str:
    """``"others"`` or ``"shooter_minus"``: whichever is better for the shooter's match
    standing (see :func:`hearts_cli.play.dealt.better_moon_choice`)."""
    if view.phase is not Phase.MOON or view.turn != view.seat:
        raise ValueError("this seat has no moon to score")
    got = view.takings()  # two decks: a set-aside trick counts with the trick that took it
    return better_moon_choice(view.rules, view.seat, got.taken, view.scores, got.twice)
