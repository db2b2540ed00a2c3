"""Easy: avoids taking points right away, and nothing more.

* Pass: its highest cards.
* Follow: the highest card that still ducks under the winning card; when it
  cannot duck, its highest card if the trick carries no points, else its lowest.
* Discard (void): the card worth most points, else its highest card.
* Lead: its lowest card.
"""

from __future__ import annotations

from ..model.cards import CARDS, SUIT_MASKS, Card, cards_of
from ..play.round import SeatView
from .common import public, trick_winner
from .playout import low_rank_card, top_rank_card


def easy_pass(view: SeatView) -> tuple[Card, ...]:
    k = view.rules.pass_count

    def weight(c: Card) -> tuple[int, int, Card]:
        return (c.rank, view.rules.points[c], c)

    order = sorted(view.hand, key=weight, reverse=True)
    return tuple(sorted(order[:k]))


def easy_card(view: SeatView) -> Card:
    pub = public(view)
    legal = pub.legal
    if not legal & (legal - 1):
        return CARDS[legal.bit_length() - 1]
    pts = pub.facts.points
    if pub.trick:
        wc, _ = trick_winner(pub.trick, pub.leader, pub.facts.players)
        led = SUIT_MASKS[pub.trick[0] // 13]
        if legal & led:
            below = legal & ((1 << wc) - 1)
            if below:
                return CARDS[below.bit_length() - 1]
            if sum(pts[x] for x in pub.trick) <= 0:
                return CARDS[legal.bit_length() - 1]
            return CARDS[(legal & -legal).bit_length() - 1]

        def weight(c: Card) -> tuple[int, int, Card]:
            return (pts[c], c.rank, c)

        worst = max(cards_of(legal), key=weight)
        if pts[worst] > 0:
            return worst
        return CARDS[top_rank_card(legal)]
    return CARDS[low_rank_card(legal)]


class EasyBot:
    level = "easy"

    def __init__(self, seed: int = 0, simulations: int | None = None):
        self.seed = seed

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return easy_pass(view)

    def choose_card(self, view: SeatView) -> Card:
        return easy_card(view)


