"""The two-deck variant (Cancellation Hearts): the steps of a round that differ.

A hand is two masks (held at least once, held twice), identical cards in a trick cancel,
and a trick whose led suit all cancels is set aside for the next trick's winner.
:class:`~hearts_cli.play.round.TwoDeckRound` is a round with these steps in place of the
one-deck ones, as python-chess keeps its variants in ``variant.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.cards import Card, parse_card
from . import core
from .dealt import DealtRound, PhaseError, Trick, cards_of_pair, pair_of

__all__ = ["TwoDecks"]


class TwoDecks(DealtRound):
    """The steps of a round that differ with two decks, taken before
    :class:`~hearts_cli.play.round.Round`'s (``TwoDeckRound(TwoDecks, Round)``): dealing a
    hand that may hold a card twice, passing it, and playing a card into a trick that may
    cancel."""

    two = True

    def _deal_hands(self, hands: list[Sequence[int | str]]) -> None:
        pairs = [pair_of(h) for h in hands]
        self.twice = [p[1] for p in pairs]
        self._check_two(hands)
        self.hands = [p[0] for p in pairs]

    def _deal_kitty(self, hands: list[Sequence[int | str]], kitty: Iterable[int | str] | None) -> None:
        if kitty is None:
            left = list(self.rules.copies)
            for h in hands:
                for c in h:
                    left[parse_card(c) if isinstance(c, str) else c] -= 1
            kitty = [c for c in range(52) for _ in range(left[c])]
        self.kitty_mask, self.kitty_twice = pair_of(kitty)

    def _pair(self, cards: Iterable[int]) -> tuple[int, int]:
        return pair_of(cards)

    def _check_two(self, hands: list[Sequence[int | str]]) -> None:
        r = self.rules
        if len(hands) != r.players:
            raise ValueError(f"expected {r.players} hands, got {len(hands)}")
        left = list(r.copies)
        for seat, h in enumerate(hands):
            if len(h) != r.hand_size:
                raise ValueError(f"seat {seat}'s hand must be {r.hand_size} cards")
            for x in h:
                c = parse_card(x) if isinstance(x, str) else x
                left[c] -= 1
                if left[c] < 0:
                    raise ValueError(f"seat {seat}'s hand holds a card more often than it is in play")

    def _add(self, seat: int, c: int) -> None:
        bit = 1 << c
        if self.hands[seat] & bit:
            self.twice[seat] |= bit
        self.hands[seat] |= bit

    def _remove(self, seat: int, c: int) -> None:
        bit = 1 << c
        if self.twice[seat] & bit:
            self.twice[seat] &= ~bit
        else:
            self.hands[seat] &= ~bit

    def _take_out(self, seat: int, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self._remove(seat, c)

    def _put_in(self, seat: int, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self._add(seat, c)

    def play_unchecked(self, c: Card) -> Trick | None:
        """A hand pair, and cancellation (core.winner): a trick whose led suit all cancels
        is set aside, and its leader leads again."""
        seat, leader = self.turn, self.leader
        if seat is None or leader is None:
            raise PhaseError("phase_no_card")
        self._remove(seat, c)
        if not self._lay(seat, c):
            return None
        trick = self.trick
        last = not self.hands[leader]
        best = core.winner(self.rules, trick, last)
        kitty: tuple[Card, ...] = ()
        if not self.tricks and self.kitty_mask:
            kitty = cards_of_pair(self.kitty_mask, self.kitty_twice)
            self.kitty_taken = True
        self.trick = []
        self.turn = leader
        if best is None:  # every card of the led suit cancelled: set aside, same leader
            self.set_aside.extend(trick)
            self.set_aside.extend(kitty)
            done = Trick(leader, tuple(trick), None, self._sum_points(trick, kitty), kitty)
            self.tricks.append(done)
            return done
        return self._take_trick(leader, (leader + best) % self.players, trick, kitty, last)

    def _sum_points(self, *groups: Sequence[int]) -> int:
        pts = self._pts
        return sum(pts[x] for cards in groups for x in cards)

    def _take_trick(self, leader: int, winner: int, trick: list[Card], kitty: tuple[Card, ...],
                    last: bool) -> Trick:
        """``winner`` takes the trick, the kitty and the cards set aside before it."""
        carried = tuple(self.set_aside)
        self.set_aside = []
        points = self._sum_points(trick, kitty, carried)
        done = Trick(leader, tuple(trick), winner, points, kitty, carried)
        self.tricks.append(done)
        for x in trick + list(kitty) + list(carried):
            bit = 1 << x
            if self.taken[winner] & bit:
                self.taken_twice[winner] |= bit
            self.taken[winner] |= bit
        self.points[winner] += points
        self.leader = winner
        self.turn = winner
        if last:
            self._finish()
        return done
