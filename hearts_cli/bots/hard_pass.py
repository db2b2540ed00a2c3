"""Hard's pass: Normal's, but it keeps a moon stopper.

Normal passes its most dangerous cards: the Q♠, the A♠/K♠ without the queen's
protection and its high hearts. Against a seat running for the moon that is
the worst pass there is: the receiver gets the queen and the hearts that
would have stopped it. Hard keeps its highest heart when it is high enough
(``STOPPER_RANK``) to win a heart trick from a runner, and passes the next
most dangerous card instead.
"""

from __future__ import annotations

from ..cards import Card
from ..engine import SeatView
from ..rules import Moon
from .normal import normal_pass, pass_danger

STOPPER_RANK = 11  # the lowest rank kept as a stopper (index in the suit: 11 = the king, 12 = the ace)
HEARTS = 2


def stopper(view: SeatView) -> Card | None:
    """The heart Hard keeps to stop a moon, or None (no moon, or no high enough heart)."""
    rules = view.rules
    if rules.moon is Moon.OFF:
        return None
    hearts = [c for c in view.hand if c // 13 == HEARTS and rules.points[c] > 0]
    if not hearts:
        return None
    top = max(hearts)
    return top if top % 13 >= STOPPER_RANK else None


def hard_pass(view: SeatView) -> tuple[Card, ...]:
    keep = stopper(view)
    if keep is None:
        return normal_pass(view)
    danger = pass_danger(view)
    danger[keep] = -100.0
    return normal_pass(view, danger)
