"""Counting cards from one seat: what is still out in each suit, and who has shown a void.

A pure function of a :class:`~hearts_cli.play.engine.SeatView`, so it can never
know more than the seat does: the cards still out are those in play that the
seat has neither in its hand nor seen played (nor seen in a turned-up kitty);
the voids are the suits each seat has shown it lacks by not following; and the
cards of the seat's own pass that the receiver still holds (still out, but placed). The
REPL's `count` command and its toolbar line, at a game of one's own or a
shared table, read it from the seat's view alone.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model.cards import Card, Suit
from .engine import SeatView


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
    by_suit: list[list[Card]] = [[] for _ in range(4)]
    for c in sorted(view.unseen(), reverse=True):
        by_suit[c.suit].append(c)
    return Count(tuple(tuple(s) for s in by_suit), view.voids, placed(view))


def placed(view: SeatView) -> tuple[tuple[Card, ...], ...]:
    """Per seat, the cards of ``view``'s own pass that seat still holds: once the
    exchange is done the receiver has them until it plays them (a copy at a time,
    with two decks: a twin played by someone else does not take one away)."""
    held: list[tuple[Card, ...]] = [() for _ in range(view.players)]
    to = view.passed_to
    if to is None or view.passed is None or view.received is None:
        return tuple(held)
    left = list(view.passed)
    plays = [p for tr in view.tricks for p in tr.plays()] + view.trick_plays()
    for seat, card in plays:
        if seat == to and card in left:
            left.remove(card)
    held[to] = tuple(sorted(left, reverse=True))
    return tuple(held)
