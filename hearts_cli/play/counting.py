"""Counting cards from one seat: what is still out in each suit, and who has shown a void.

Read from the seat's :mod:`.knowledge`, so it can never know more than the seat
does: the cards still out by suit, the voids shown, and the cards of the seat's own
pass that the receiver still holds (still out, but placed). The
REPL's `count` command and its toolbar line, at a game of one's own or a
shared table, read it from the seat's view alone.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model.cards import Card, Suit
from .knowledge import knowledge
from .round import SeatView


class Count(NamedTuple):
    """What one seat can count: per suit (clubs, diamonds, hearts, spades) the cards
    still out, highest first; per seat the suits it has shown it lacks; per seat the
    cards out that the counting seat knows it holds (its own pass, not yet played)."""

    out: tuple[tuple[Card, ...], ...]
    voids: tuple[frozenset[Suit], ...]
    placed: tuple[tuple[Card, ...], ...]


def count(view: SeatView) -> Count:
    """The cards ``view``'s seat cannot place (a card out twice shows twice, with two
    decks), by suit, and every seat's shown voids."""
    known = knowledge(view)
    by_suit: list[list[Card]] = [[] for _ in range(4)]
    for c in known.out:
        by_suit[c.suit].append(c)
    return Count(tuple(tuple(s) for s in by_suit), view.voids, known.placed)
