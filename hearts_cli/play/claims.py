"""When the rest of a round is decided, so that it can be finished at once (a claim, as
NeuralPlay and Hearts2 offer): no card that scores is left to play, or the seat to lead holds
every winning card.

Both are read from the round as the engine holds it, and neither plays anything: what the
table then plays is played through the engine, move by move, so the record, the move log and
every export hold a whole round. ``tests/test_claims.py`` holds each against playing the rest
out at random: the same scores, every time.
"""

from __future__ import annotations

from ..model.cards import CARDS, Card, iter_bits
from .dealt import Phase
from .round import Round

__all__ = ["claim_blocker", "claim_order", "concede_to", "points_left"]

HEARTS = 2


def points_left(rnd: Round) -> bool:
    """Whether a card that scores (a heart, the Q♠, the J♦...) is still to be played this round:
    if not, nothing the players do changes the scores. (A kitty is taken with the first trick,
    while every hand still holds cards that score.)"""
    held = 0
    for m in rnd.hands:
        held |= m
    pts = rnd.rules.points
    return any(pts[c] for c in iter_bits(held))


def _beats_all(rnd: Round, seat: int) -> bool:
    """Whether, in every suit ``seat`` holds, its lowest card beats every card of that suit
    still in another hand."""
    return _blocking(rnd, seat) is None


def _blocking(rnd: Round, seat: int) -> tuple[Card, Card] | None:
    """The first suit where ``seat``'s lowest card is below a card of that suit in another hand:
    the highest such card, and ``seat``'s lowest; None when there is none."""
    others = 0
    for s, m in enumerate(rnd.hands):
        if s != seat:
            others |= m
    mine = rnd.hands[seat]
    for suit in range(4):
        block = 0x1FFF << (13 * suit)
        ours, theirs = mine & block, others & block
        if ours and theirs and (ours & -ours).bit_length() < theirs.bit_length():  # our lowest below their highest
            return CARDS[theirs.bit_length() - 1], CARDS[(ours & -ours).bit_length() - 1]
    return None


def _claimable(rnd: Round) -> bool:
    """A round where a claim can be made: one deck, in play after the first trick, no kitty to come."""

    return not (rnd.rules.decks > 1 or rnd.phase is not Phase.PLAY or not rnd.tricks
                or (rnd.kitty_mask and not rnd.kitty_taken))


def concede_to(rnd: Round, seat: int) -> int | None:
    """The seat ``seat`` concedes the rest of the round to, leading now: one that holds every
    winning card and a card of every suit ``seat`` holds, so that whatever ``seat`` leads it
    takes this trick and then, on lead, every other; None when there is none."""
    if not _claimable(rnd) or rnd.turn != seat or rnd.trick:
        return None
    mine = rnd.hands[seat]
    for other in range(rnd.players):
        if other == seat or not _beats_all(rnd, other):
            continue
        theirs = rnd.hands[other]
        if all(not mine >> (13 * s) & 0x1FFF or theirs >> (13 * s) & 0x1FFF for s in range(4)):
            return other
    return None


def claim_order(rnd: Round, seat: int) -> tuple[Card, ...] | None:
    """The cards ``seat`` leads, in the order it leads them, when it holds every winning card;
    None when it does not (or cannot claim now).

    A claim is made on lead, after the first trick, with one deck and no kitty still to come:
    in every suit it holds, its lowest card beats every card of that suit still in another hand,
    so whatever it leads wins the trick (a card of another suit never does) and it leads again,
    to the last trick. The order leads hearts last (they may not be led while unbroken); the
    table plays the first card of it that is legal at each lead, and any legal lead wins.
    """
    if not _claimable(rnd) or rnd.turn != seat or rnd.trick or not _beats_all(rnd, seat):
        return None
    cards = [CARDS[c] for c in iter_bits(rnd.hands[seat])]

    def hearts_last(c: Card) -> tuple[bool, int, int]:
        return (c.suit == HEARTS, c.suit, -c.rank)

    return tuple(sorted(cards, key=hearts_last))


def claim_blocker(rnd: Round, seat: int) -> tuple[Card, Card] | None:
    """Why ``seat``, on lead with a claim possible, does not hold every winning card: the
    highest card still in another hand that beats its lowest card of that suit, and that card
    of its own; None when nothing blocks it (or it cannot claim now for another reason)."""
    if not _claimable(rnd) or rnd.turn != seat or rnd.trick:
        return None
    return _blocking(rnd, seat)
