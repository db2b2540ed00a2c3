"""A learned value of a pass: the hand kept, the cards given, the direction.

A linear evaluation over simple features of what the seat knows at its pass
and their conjunctions (after Sturtevant and White, 2006): every card kept,
every pair of cards kept, every card given in each direction, each suit's
length alone and with its highest and its lowest card kept, the Q♠ kept with
the spades below her, the A♠/K♠ kept with the same. Its value estimates the
round's value to the seat as Hard counts it (own points minus the others'
average; lower is better) when the round is then played out.

The weights are trained by ``python -m bench.train`` (self-play playouts on
the fast path) and ship beside this module (``pass_weights.json``, a few tens
of kilobytes), read on the first pass that asks for them: no other command
pays for them, and no numpy is needed to play. The features are defined here
once, for the trainer and the bot alike.

:func:`learned_pass` picks the cards whose value is lowest among every way of
choosing them; it reads only the seat's own hand, the direction and the rules,
so nothing hidden can change it. Under rules the weights were not trained for
it is Normal's pass.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import combinations

from ..model.cards import CARDS, SUIT_MASKS, Card, mask_of
from ..model.rules import Direction, Rules
from ..play.round import SeatView
from .normal import normal_pass

DIRECTIONS = (Direction.LEFT, Direction.RIGHT, Direction.ACROSS)
QS, KS, AS = 49, 50, 51

# the feature blocks, in order: (name, size)
_BLOCKS = (
    ("bias", 1),
    ("kept", 52),
    ("pair", 52 * 51 // 2),
    ("given", 52 * 3),
    ("length", 4 * 11),
    ("length_top", 4 * 11 * 13),
    ("length_low", 4 * 11 * 13),
    ("queen_low", 2 * 11),
    ("high_low", 3 * 11),
)
OFFSET: dict[str, int] = {}
_at = 0
for _name, _size in _BLOCKS:
    OFFSET[_name] = _at
    _at += _size
SIZE = _at  # the number of weights

_PAIR = [[0] * 52 for _ in range(52)]
_k = OFFSET["pair"]
for _a in range(52):
    for _b in range(_a + 1, 52):
        _PAIR[_a][_b] = _k
        _k += 1

_SPADES_BELOW_Q = SUIT_MASKS[3] & ((1 << QS) - 1)
_HIGH_SPADES = (1 << KS) | (1 << AS)


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def features(kept: int, given: int, direction: int) -> list[int]:
    """The indices of the features that are on (all features are 0 or 1) for a seat that keeps
    the cards of mask ``kept`` and gives those of ``given`` in ``DIRECTIONS[direction]``."""
    out = [0]
    ks = cards_of(kept)
    k1 = OFFSET["kept"]
    for i, a in enumerate(ks):
        out.append(k1 + a)
        row = _PAIR[a]
        for b in ks[i + 1:]:
            out.append(row[b])
    g = OFFSET["given"] + 52 * direction
    for c in cards_of(given):
        out.append(g + c)
    lo, top, low = OFFSET["length"], OFFSET["length_top"], OFFSET["length_low"]
    for s in range(4):
        m = kept >> (13 * s) & 8191
        n = min(m.bit_count(), 10)
        out.append(lo + 11 * s + n)
        if m:
            out.append(top + 143 * s + 13 * n + m.bit_length() - 1)
            out.append(low + 143 * s + 13 * n + (m & -m).bit_length() - 1)
    below = min((kept & _SPADES_BELOW_Q).bit_count(), 10)
    out.append(OFFSET["queen_low"] + 11 * (kept >> QS & 1) + below)
    out.append(OFFSET["high_low"] + 11 * (kept & _HIGH_SPADES).bit_count() + below)
    return out


def value(weights: Sequence[float], kept: int, given: int, direction: int) -> float:
    """The evaluation: the round's value to the seat (lower is better)."""
    return sum(weights[i] for i in features(kept, given, direction))


def _suit_shape(weights: Sequence[float], s: int, m: int) -> float:
    """The weights of the shape features of suit ``s`` kept as ``m`` (its 13-bit mask): its
    length with its top and low cards; for spades, the Q♠ and the A♠/K♠ with the spades below her."""
    n = min(m.bit_count(), 10)
    v = weights[OFFSET["length"] + 11 * s + n]
    if m:
        v += weights[OFFSET["length_top"] + 143 * s + 13 * n + m.bit_length() - 1]
        v += weights[OFFSET["length_low"] + 143 * s + 13 * n + (m & -m).bit_length() - 1]
    if s == 3:
        below = min((m & 1023).bit_count(), 10)  # the spades under the Q♠ (rank 10)
        v += weights[OFFSET["queen_low"] + 11 * (m >> 10 & 1) + below]
        v += weights[OFFSET["high_low"] + 11 * ((m >> 11 & 1) + (m >> 12 & 1)) + below]
    return v


def best_pass(weights: Sequence[float], hand: int, direction: int, count: int = 3) -> int:
    """The mask of the ``count`` cards of ``hand`` whose pass has the lowest value (ties: the
    first in the canonical order of combinations of the cards, lowest first)."""
    return ranked_passes(weights, hand, direction, count, 1)[0]


def ranked_passes(weights: Sequence[float], hand: int, direction: int, count: int = 3, top: int = 1) -> list[int]:
    """The masks of the ``top`` passes of lowest value, best first (ties: the first in the
    canonical order of combinations of the cards, lowest first).

    The same value as :func:`value`, summed another way: the singles and pairs of the whole
    hand once, less each card given with its pairs, plus the pairs given twice over."""
    cards = cards_of(hand)
    k1, g0 = OFFSET["kept"], OFFSET["given"] + 52 * direction
    pair = [[weights[_PAIR[min(a, b)][max(a, b)]] if a != b else 0.0 for b in cards] for a in cards]
    whole = weights[0] + sum(weights[k1 + a] for a in cards) + sum(map(sum, pair)) / 2
    out_of = [weights[k1 + a] + sum(pair[i]) - weights[g0 + a] for i, a in enumerate(cards)]
    shapes: list[dict[int, float]] = [{} for _ in range(4)]
    scored: list[tuple[float, int, int]] = []
    for k, combo in enumerate(combinations(range(len(cards)), count)):
        g = 0
        v = whole
        for x, i in enumerate(combo):
            g |= 1 << cards[i]
            v -= out_of[i]
            for j in combo[x + 1:]:
                v += pair[i][j]
        kept = hand & ~g
        for s in range(4):
            m = kept >> (13 * s) & 8191
            t = shapes[s].get(m)
            if t is None:
                t = shapes[s][m] = _suit_shape(weights, s, m)
            v += t
        scored.append((v, k, g))
    return [g for _, _, g in heapq.nsmallest(top, scored)]


def trained_for(rules: Rules) -> bool:
    """The rules the shipped weights were trained under (the default game's scoring and pass)."""
    base = _default_rules()
    return (rules.players == 4 and rules.decks == 1 and rules.pass_count == 3 and rules.kitty_size == 0
            and tuple(rules.points) == tuple(base.points) and rules.moon == base.moon
            and rules.bonus_mask == 0 and rules.first_lead == base.first_lead
            and rules.hearts_break == base.hearts_break and rules.first_trick == base.first_trick)


@cache
def _default_rules() -> Rules:
    return Rules()


@cache
def shipped_weights() -> tuple[float, ...]:
    """The weights that ship with the package (read once, on first use)."""
    text = resources.files(__package__).joinpath("pass_weights.json").read_text(encoding="utf-8")
    data = json.loads(text)
    weights = data["weights"]
    if not isinstance(weights, list) or len(weights) != SIZE:
        raise ValueError("pass_weights.json does not match the features of hearts_cli.bots.learned")
    return tuple(float(w) for w in weights)


def learned_pass(view: SeatView, weights: Sequence[float] | None = None) -> tuple[Card, ...]:
    """The pass of lowest learned value (by the shipped weights unless others are given, as the
    benches try them), or Normal's under rules the weights do not know."""
    if view.direction not in DIRECTIONS or not trained_for(view.rules):
        return normal_pass(view)
    g = best_pass(shipped_weights() if weights is None else weights, mask_of(view.hand),
                  DIRECTIONS.index(view.direction), view.rules.pass_count)
    return tuple(CARDS[c] for c in cards_of(g))
