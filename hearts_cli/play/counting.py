"""Counting cards from one seat: what is still out in each suit, and who has shown a void.

A pure function of a :class:`~hearts_cli.play.engine.SeatView`, so it can never
know more than the seat does: the cards still out are those in play that the
seat has neither in its hand nor seen played (nor seen in a turned-up kitty);
the voids are the suits each seat has shown it lacks by not following. The
REPL's `count` command and its toolbar line, at a game of one's own or a
shared table, read it from the seat's view alone.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model.cards import Card, Suit
from .engine import SeatView


class Count(NamedTuple):
    """What one seat can count: per suit (clubs, diamonds, hearts, spades) the cards
    still out, highest first; per seat the suits it has shown it lacks."""

    out: tuple[tuple[Card, ...], ...]
    voids: tuple[frozenset[Suit], ...]


def count(view: SeatView) -> Count:
    """The cards ``view``'s seat cannot place (a card out twice shows twice, with two
    decks), by suit, and every seat's shown voids."""
    by_suit: list[list[Card]] = [[] for _ in range(4)]
    for c in sorted(view.unseen(), reverse=True):
        by_suit[c.suit].append(c)
    return Count(tuple(tuple(s) for s in by_suit), view.voids)
