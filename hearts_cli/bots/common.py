"""What every level derives from a :class:`SeatView`, and nothing more.

All functions here read the view only; a bot never receives anything else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..model.cards import mask_of
from ..model.rules import Facts
from ..play import core
from ..play.knowledge import face_down_kitty, seat_counts
from ..play.round import SeatView
from .playout import JD, QS


def decision_rng(seed: int, view: SeatView, salt: str = "") -> random.Random:
    """A generator that is a pure function of (seed, where in the game the decision is).

    String seeds are hashed with SHA-512 by :mod:`random`, the same on every
    machine and independent of ``PYTHONHASHSEED``.
    """
    pos = (view.round_index, view.phase.value, len(view.tricks), len(view.trick), view.seat)
    return random.Random(f"hearts-bot/{seed}/{pos}/{salt}")


@dataclass
class Public:
    """The public position plus this seat's own knowledge, as masks."""

    facts: Facts  # the rule set's settings and facts (a slotted copy: cheap to read)
    seat: int
    hand: int
    legal: int
    trick: list[int]
    leader: int
    ntricks: int
    broken: bool
    played: int  # every card seen on the table, the current trick included
    taken: list[int]  # penalty cards (and J♦) each seat has taken
    points: list[int]
    counts: list[int]  # cards still held by each seat
    unseen: int
    kitty_unseen: int  # how many kitty cards are still face down


def public(view: SeatView) -> Public:
    ctx = view.rules.facts
    n = ctx.players
    played = mask_of(view.trick)
    taken = [0] * n
    keep = ctx.penalty_mask | (1 << JD)
    for tr in view.tricks:
        m = mask_of(tr.cards)
        played |= m
        if tr.winner is not None:  # two decks: a set-aside trick counts where it is carried
            taken[tr.winner] |= (m | mask_of(tr.kitty) | mask_of(tr.carried)) & keep
    leader = view.leader if view.leader is not None else 0  # a pass: no trick yet
    hand = mask_of(view.hand)
    # (with two decks a card counts as seen once a copy is: the bots' own reading, not the count's)
    unseen = ctx.in_play_mask & ~hand & ~played & ~mask_of(view.kitty)
    return Public(ctx, view.seat, hand, mask_of(view.legal), [int(c) for c in view.trick], leader,
                  len(view.tricks), view.hearts_broken, played, taken, list(view.points), seat_counts(view),
                  unseen, face_down_kitty(view))


def trick_winner(trick: list[int], leader: int, n: int) -> tuple[int, int]:
    """(winning card, winning seat) of a trick in progress. With two decks a card played
    twice cancels (core.cancelling_winner); while every card of the led suit is cancelled,
    the leader's card stands in."""
    if len(set(trick)) == len(trick):
        i = core.trick_winner(trick)
    else:
        found = core.cancelling_winner(trick)
        i = 0 if found is None else found
    return trick[i], (leader + i) % n


def queen_out(pub: Public) -> bool:
    """The Q♠ scores and has not been played yet."""
    return pub.facts.queen_scores and not pub.played >> QS & 1
