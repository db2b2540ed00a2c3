"""What one seat knows of a round: the one model every reader of a seat's knowledge shares.

A pure function of a :class:`~hearts_cli.play.round.SeatView`, so it never knows more
than the seat does: the cards still out (in play, neither in its hand nor seen), the
voids each seat has shown by not following, where each card of its own pass is until
it is played (the receiver holds it), how many cards each seat still holds, the points
already in the trick and the seats still to play to it. The verdict on a card
(:mod:`.verdicts`: how likely it is to be covered, the fact that decides it), the
``count`` command (:mod:`.counting`), the hint and the CPUs' deals
(:mod:`.sampling`: Hard draws its worlds from it; the bots' ``Public`` shares its hand
counts) all read it here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..base.values import Frozen
from ..model.cards import SUIT_MASKS, Card, Suit, mask_of
from ..model.rules import Direction, FirstLead, Rules

__all__ = ["Knowledge", "SeatView", "face_down_kitty", "knowledge", "placed", "seat_counts"]


class _Trick(Protocol):
    @property
    def cards(self) -> tuple[Card, ...]: ...
    def plays(self) -> list[tuple[int, Card]]: ...


class SeatView(Protocol):
    """What knowledge reads of a seat's view (:class:`hearts_cli.play.round.SeatView`): the
    engine's own class, named here by what it offers (the engine asks the verdicts, which ask
    here: no import goes back up)."""

    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def direction(self) -> Direction: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def passed(self) -> tuple[Card, ...] | None: ...
    @property
    def received(self) -> tuple[Card, ...] | None: ...
    @property
    def leader(self) -> int | None: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def trick(self) -> tuple[Card, ...]: ...
    @property
    def tricks(self) -> Sequence[_Trick]: ...
    @property
    def voids(self) -> tuple[frozenset[Suit], ...]: ...
    @property
    def kitty(self) -> tuple[Card, ...]: ...
    @property
    def players(self) -> int: ...
    @property
    def passed_to(self) -> int | None: ...
    def trick_plays(self) -> list[tuple[int, Card]]: ...
    def unseen(self) -> tuple[Card, ...]: ...
    def position(self) -> str: ...


class Knowledge(Frozen):
    """One seat's knowledge of its round (see the module's docstring; a :class:`Frozen`, not a
    NamedTuple: ``hearts explain`` pays for the class's definition at start-up)."""

    seat: int
    players: int
    out: tuple[Card, ...]  # the cards the seat cannot place, highest first (twice with two decks)
    unseen: int  # the same as a mask (one copy)
    counts: tuple[int, ...]  # the cards each seat still holds
    voids: tuple[int, ...]  # per seat, the suits it has shown it lacks (bit s: suit s)
    placed: tuple[tuple[Card, ...], ...]  # per seat, the cards of the seat's own pass it still holds
    kitty_unseen: int  # kitty cards still face down
    kitty_low: int  # unseen clubs below the first lead under ``lowest_club``: they lie in the kitty
    trick_points: int  # the points already in the trick in progress
    still_to_play: tuple[int, ...]  # the other seats yet to play to the trick, in their order

    def placed_mask(self, seat: int) -> int:
        return mask_of(self.placed[seat])

    def holder_of(self, card: int) -> int | None:
        """The seat known to hold ``card`` (one the seat passed), if any."""
        for s, cards in enumerate(self.placed):
            if card in cards:
                return s
        return None

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)


def knowledge(view: SeatView) -> Knowledge:
    """What ``view``'s seat knows (see :class:`Knowledge`)."""
    rules = view.rules
    n = rules.players
    out = tuple(sorted(view.unseen(), reverse=True))
    unseen = mask_of(out)
    kitty_unseen = face_down_kitty(view)
    kitty_low = 0
    if kitty_unseen:  # the first lead was the lowest club held: lower unseen clubs are in the kitty
        first = view.tricks[0].cards[0] if view.tricks else (view.trick[0] if view.trick else None)
        if first is not None and rules.first_lead is FirstLead.LOWEST_CLUB and first // 13 == 0:
            kitty_low = unseen & SUIT_MASKS[0] & ((1 << first) - 1)
    pts = rules.points
    return Knowledge(view.seat, n, out, unseen, tuple(seat_counts(view)),
                     tuple(sum(1 << int(s) for s in v) for v in view.voids), placed(view),
                     kitty_unseen, kitty_low, sum(pts[c] for c in view.trick), _still_to_play(view))


def face_down_kitty(view: SeatView) -> int:
    """How many kitty cards are still face down (none once the first trick has turned it up)."""
    size = view.rules.kitty_size
    return size if size and not view.kitty else 0


def seat_counts(view: SeatView) -> list[int]:
    """Cards each seat still holds: its share of the deal less the cards it has played (its own
    hand, counted)."""
    n = view.rules.players
    plays = [0] * n
    for tr in view.tricks:
        for s, _ in tr.plays():
            plays[s] += 1
    for s, _ in view.trick_plays():
        plays[s] += 1
    out = [view.rules.hand_size - plays[s] for s in range(n)]
    out[view.seat] = len(view.hand)
    return out


def _still_to_play(view: SeatView) -> tuple[int, ...]:
    """The seats other than ``view``'s yet to play to the trick in progress (all the others
    before a lead)."""
    n = view.players
    if view.leader is None or view.turn is None:
        return ()
    first = (view.leader + len(view.trick)) % n
    return tuple(s for s in ((first + i) % n for i in range(n - len(view.trick))) if s != view.seat)


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
