"""Hard's playout policy and the rule constants the bots share.

The simulation itself is :mod:`hearts_cli.play.fast` (one bitmask simulator of the
rules for the whole project): a playout is ``fast.playout_steps(position,
policy)`` on a :class:`fast.Position` built from a *sampled* deal (every
hidden hand filled in by :mod:`hearts_cli.play.sampling`, never the real
one). This module only holds what is bot-specific:

* the heuristics read the rule facts (points, penalty cards, whether the
  Q♠ scores, moon mode...) from :class:`~hearts_cli.model.rules.Rules`, where they
  are computed once;
* :func:`make_policy`, the heuristic playout policy as a
  :func:`fast.playout_steps` hook: Normal's logic on bitmasks with a little
  randomness, plus moon modelling (a shooter plays high, the others defend);
* :func:`solve`, an exact max-n search of the last tricks of one
  full-information deal (Hard's endgame).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..model.cards import HEARTS_MASK, SUIT_MASKS
from ..model.rules import Facts, Moon, Rules
from ..play import core
from ..play.fast import Position, StepPolicy, random_card

QS, KS, AS, JD = 49, 50, 51, 22
SPADES = SUIT_MASKS[3]
HIGH_SPADES = (1 << KS) | (1 << AS)


def threat_min(rules: Facts) -> int:
    """A seat that holds every penalty card taken so far, and at least this many (or the Q♠ and
    another), is shooting."""
    return max(3, rules.penalty_count // 4)


def popcount(m: int) -> int:
    return m.bit_count()


def top_rank_card(m: int) -> int:
    """The card of highest rank in ``m`` (ties: the higher suit)."""
    best = -1
    best_rank = -1
    for s in (3, 2, 1, 0):
        chunk = m >> (13 * s) & 8191
        if chunk:
            r = chunk.bit_length() - 1
            if r > best_rank:
                best_rank = r
                best = 13 * s + r
    return best


def low_rank_card(m: int) -> int:
    """The card of lowest rank in ``m`` (ties: the lower suit)."""
    best = -1
    best_rank = 99
    for s in (0, 1, 2, 3):
        chunk = m >> (13 * s) & 8191
        if chunk:
            r = (chunk & -chunk).bit_length() - 1
            if r < best_rank:
                best_rank = r
                best = 13 * s + r
    return best


def sole_holder(c: Facts, taken: list[int]) -> int:
    """The one seat holding penalty cards (-1: nobody yet, -2: several seats)."""
    who = -1
    for s, m in enumerate(taken):
        if m & c.penalty_mask:
            if who >= 0:
                return -2
            who = s
    return who


def threat(c: Facts, taken: list[int], least: int | None = None) -> int:
    """The seat that holds every penalty card taken so far, when it has enough of them
    (``least``, default :func:`threat_min`; or the Q♠ and another)."""
    who = sole_holder(c, taken)
    if who >= 0:
        held = taken[who] & c.penalty_mask
        # the Q♠ with a heart is a start too: it is how a run that takes the queen early looks
        count = held.bit_count()
        if count >= (threat_min(c) if least is None else least) or \
                (c.queen_scores and held >> QS & 1 and count >= 2):
            return who
    return -1


def choose(c: Facts, seat: int, hand: int, legal: int, trick: list[int], win_card: int,
           win_seat: int, queen_out: int, threat_seat: int, flush: bool = False) -> int:
    """The heuristic card (no randomness): duck, dump the Q♠ then high hearts when
    void, lead low; a shooter plays high, the others spoil its moon. ``flush``: a seat
    without the Q♠, K♠, A♠ leads spades under the queen while she is out (a bench variant)."""
    if trick:
        if legal & SUIT_MASKS[trick[0] // 13]:  # following suit
            if threat_seat == seat:
                return legal.bit_length() - 1
            if threat_seat >= 0 and win_seat == threat_seat:
                hi = legal.bit_length() - 1
                if hi > win_card:
                    return hi
            below = legal & ((1 << win_card) - 1)
            if below:
                return below.bit_length() - 1
            # cannot duck: the highest card that carries no points
            safe = legal & ~c.penalty_mask
            return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1
        return discard(c, seat, legal, win_seat, queen_out, threat_seat)
    # leading
    if threat_seat == seat:
        return top_rank_card(legal)
    choice = legal
    if queen_out:
        if hand >> QS & 1:
            choice = legal & ~SPADES or legal
        else:
            if flush and not hand & HIGH_SPADES:
                low = legal & SPADES & ((1 << QS) - 1)
                if low:  # lead spades under her to flush the Q♠ out
                    return low.bit_length() - 1
            choice = legal & ~(HIGH_SPADES | (1 << QS)) or legal
    nh = choice & ~HEARTS_MASK
    if nh:
        choice = nh
    return low_rank_card(choice)


def discard(c: Facts, seat: int, legal: int, win_seat: int, queen_out: int, threat_seat: int) -> int:
    """The card of a seat void in the suit led: a shooter keeps its points, the others give
    points away from the threat; else the Q♠, the high spades while she is out, then the
    worst penalty card, then the highest card (keeping the J♦ when it is a bonus)."""
    pen = c.penalty_mask
    if threat_seat == seat:
        safe = legal & ~pen
        return low_rank_card(safe if safe else legal)
    if threat_seat >= 0:
        if win_seat != threat_seat:
            p = legal & pen
            if p:
                return low_rank_card(p & HEARTS_MASK or p)
        else:
            safe = legal & ~pen
            if safe:
                return top_rank_card(safe)
    if c.queen_scores:
        if legal >> QS & 1:
            return QS
        if queen_out:
            hs = legal & HIGH_SPADES
            if hs:
                return hs.bit_length() - 1
    p = legal & pen
    if p:
        if c.uneven_penalties:
            pts = c.points
            best = -1
            for x in range(52):
                if p >> x & 1 and (best < 0 or pts[x] >= pts[best]):
                    best = x
            return best
        return p.bit_length() - 1
    if (c.bonus_mask >> JD & 1) and legal >> JD & 1 and legal & ~(1 << JD):
        legal &= ~(1 << JD)
    return top_rank_card(legal)


def _queen_held(pos: Position) -> int:
    out = pos.kitty >> QS & 1
    for h in pos.hands:
        out |= h >> QS & 1
    return out


Chooser = Callable[[Facts, int, int, int, list[int], int, int, int, int, bool], int]  # :func:`choose`'s shape
PolicyMaker = Callable[..., StepPolicy]  # :func:`make_policy`'s shape (Hard's Tuning.policy)


def make_policy(c: Facts | Rules, rng: random.Random, eps: float = 0.1, shooter: int = -1,
                threat_seat: int = -1, suspect: int = -1, flush: bool = False,
                defender: int = -1) -> StepPolicy:
    """The playout policy as a :func:`hearts_cli.play.fast.playout_steps` hook.

    With probability ``eps`` a seat plays a random legal card; otherwise
    :func:`choose`. ``shooter`` makes that seat play for the moon from the
    start; otherwise a seat holding every penalty card taken so far (and
    enough of them) is taken to be shooting, and the others defend.
    ``threat_seat`` is that seat at the start (:func:`threat` of what has
    been taken: public, so the same on every sampled deal); it is looked at
    again at each lead, since it only changes when a trick is won.
    ``suspect`` is a seat already seen playing like a runner: it stays the
    threat while nobody else has taken a penalty card. ``flush``: see :func:`choose`.
    ``defender``: the only seat that minds another seat's moon (-1: every seat does); the rest
    play as if nobody were shooting (a table that does not defend; a moon of the defender's own
    is still defended against by all).
    """
    facts = c.facts if isinstance(c, Rules) else c
    moon = facts.moon is not Moon.OFF and shooter < 0
    rnd = rng.random
    queen = facts.queen_scores
    # [threat seat, is the Q♠ still in a hand or the face-down kitty (-1: not looked yet)]
    state = [shooter if shooter >= 0 else threat_seat, -1 if queen else 0]
    seen: list[int] = []  # the points taken when the threat was last looked at

    def policy(legal: int, seat: int, win_card: int, win_seat: int, pos: Position) -> int:
        if win_seat < 0:  # a lead: a trick may have been won since the last one
            if moon and pos.points != seen:  # the threat changes only when points are taken
                state[0] = threat(facts, pos.taken)
                if state[0] < 0 <= suspect and sole_holder(facts, pos.taken) in (suspect, -1):
                    state[0] = suspect
                seen[:] = pos.points
            if state[1]:
                state[1] = _queen_held(pos)
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        if eps and rnd() < eps:
            return random_card(legal, rng)
        trick = pos.trick
        if state[1] < 0:
            state[1] = _queen_held(pos)
        queen_out = state[1] and QS not in trick
        return pick(facts, seat, pos.hands[seat], legal, trick, win_card, win_seat, queen_out,
                    state[0], flush)

    pick: Chooser = choose if defender < 0 else _lone_defence(defender)  # (decided once: a card costs ~1 µs)
    return policy


def _lone_defence(defender: int) -> Chooser:
    """:func:`choose` where only ``defender`` minds another seat's moon."""

    def pick(facts: Facts, seat: int, hand: int, legal: int, trick: list[int], win_card: int,
             win_seat: int, queen_out: int, runner: int, flush: bool) -> int:
        if runner != defender and seat != defender and seat != runner:
            runner = -1  # another's moon: only the defender minds it
        return choose(facts, seat, hand, legal, trick, win_card, win_seat, queen_out, runner, flush)

    return pick


# ---------------------------------------------------------------- the endgame, solved exactly


def solve(c: Facts, pos: Position, cands: Sequence[int]) -> list[tuple[int, ...]]:
    """The round scores after each of ``cands`` (cards of the seat to move) when
    every seat then plays perfectly for itself, on this full-information deal.

    A max-n search to the end of the round: each seat picks the card that
    minimizes its own score against the others' average (``n * own - total``,
    the value Hard plays for; ties: the lowest card), so a seat shooting the
    moon is stopped by whoever can stop it, and a seat that can shoot does.
    Cards that are equivalent on this deal (adjacent in their suit among the
    cards still out, worth the same points) are searched once. Meant for the
    last few tricks (the tree grows fast); ``pos`` must be past the first trick.
    """
    if isinstance(c, Rules):
        c = c.facts
    n = c.players
    hands = list(pos.hands)
    taken = list(pos.taken)
    points = list(pos.points)
    trick = list(pos.trick)
    leader = pos.leader
    led = trick[0] // 13 if trick else 0
    wc = ws = -1
    tm = 0
    for x in trick:
        tm |= 1 << x
    if trick:
        i = core.trick_winner(trick)
        wc, ws = trick[i], (leader + i) % n
    seat = (leader + len(trick)) % n
    out = []
    for card in cands:
        out.append(_after(c, hands, taken, points, leader, len(trick), led, wc, ws, tm,
                          pos.hearts_broken, seat, card, pos.scores))
    return out


def _after(c: Facts, hands: list[int], taken: list[int], points: list[int], leader: int, k: int,
           led: int, wc: int, ws: int, tm: int, broken: bool, seat: int, card: int,
           before: tuple[int, ...]) -> tuple[int, ...]:
    """Scores after ``seat`` plays ``card`` as the ``k``-th card of the trick, then best play."""
    n = c.players
    b = 1 << card
    hand = hands[seat]
    hands[seat] = hand & ~b
    if not broken and c.breaks_mask >> card & 1:
        broken = True
    if not k:
        led, wc, ws = card // 13, card, seat
    elif core.beats(card, wc, led):
        wc, ws = card, seat
    tm |= b
    if k + 1 < n:
        res = _best(c, hands, taken, points, leader, k + 1, led, wc, ws, tm, broken, before)
    else:
        t0, p0 = taken[ws], points[ws]
        taken[ws] = t0 | tm
        pts = c.points
        p = 0
        m = tm
        while m:
            low = m & -m
            p += pts[low.bit_length() - 1]
            m ^= low
        points[ws] = p0 + p
        if hands[ws]:
            res = _best(c, hands, taken, points, ws, 0, 0, -1, -1, 0, broken, before)
        else:
            res = _leaf(c, taken, points, before)
        taken[ws], points[ws] = t0, p0
    hands[seat] = hand
    return res


def _best(c: Facts, hands: list[int], taken: list[int], points: list[int], leader: int, k: int,
          led: int, wc: int, ws: int, tm: int, broken: bool,
          before: tuple[int, ...]) -> tuple[int, ...]:
    n = c.players
    seat = (leader + k) % n
    hand = hands[seat]
    legal = core.legal(c.rules, hand, led if k else -1, False, broken, hands)
    out = tm
    for h in hands:
        out |= h
    pts = c.points
    best = None
    bu = 0
    prev = -1
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        if prev >= 0 and prev // 13 == card // 13 and pts[prev] == pts[card] \
                and not out & ((1 << card) - (2 << prev)):
            prev = card  # nothing out between them: the same card on this deal
            continue
        prev = card
        res = _after(c, hands, taken, points, leader, k, led, wc, ws, tm, broken, seat, card,
                     before)
        u = n * res[seat] - sum(res)
        if best is None or u < bu:
            best, bu = res, u
    assert best is not None  # a seat to play holds a card
    return best


def _leaf(c: Facts, taken: list[int], points: list[int], before: tuple[int, ...]) -> tuple[int, ...]:
    return core.score_round(c.rules, taken, points, before).scores
