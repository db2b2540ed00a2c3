"""Perfect-information playouts on bitmasks: the inner loop of the Hard level.

A playout takes one *sampled* deal (every hand filled in by
:mod:`hearts_cli.bots.sampling`, never the real one) and plays it to the end of
the round with a cheap heuristic policy that has a little randomness. Nothing
here sees a real :class:`~hearts_cli.engine.Round`: the search only ever plays
worlds it invented from the seat's view.

Everything the rules decide is taken from :class:`~hearts_cli.rules.Rules`
once, into :class:`Ctx`. The legality rules mirror :meth:`Round.legal_mask`
exactly (a test checks them against the engine on random games); keep this the
only place that simulates, so it can move onto ``hearts_cli.fast`` later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import HEARTS_MASK, SUIT_MASKS
from ..rules import Rules

QS, KS, AS, JD = 49, 50, 51, 22
S0, S1, S2, S3 = SUIT_MASKS
SPADES = S3
HIGH_SPADES = (1 << KS) | (1 << AS)


class Ctx:
    """Rule constants a playout needs, computed once per rule set."""

    __slots__ = (
        "any_lead",
        "forb",
        "free",
        "hand_size",
        "in_play",
        "jd",
        "moon",
        "n",
        "pen",
        "pen_count",
        "pen_total",
        "pts",
        "qbreaks",
        "queen",
        "rules",
        "threat_min",
    )

    def __init__(self, rules: Rules):
        self.rules = rules
        self.n = rules.players
        self.pts = rules.points
        self.pen = rules.penalty_mask
        self.forb = rules.first_trick_forbidden
        self.free = rules.hearts_break == "free"
        self.qbreaks = rules.hearts_break == "heart_or_queen"
        self.queen = rules.points[QS] > 0
        self.moon = rules.moon
        self.pen_total = rules.penalty_total
        self.any_lead = rules.first_lead == "any"
        self.pen_count = self.pen.bit_count()
        # a seat that holds every penalty card taken so far, and at least this many, is shooting
        self.threat_min = max(4, self.pen_count // 3)
        self.jd = rules.points[JD] < 0
        self.in_play = rules.in_play_mask
        self.hand_size = rules.hand_size


_CTX: dict[Rules, Ctx] = {}


def ctx_for(rules: Rules) -> Ctx:
    c = _CTX.get(rules)
    if c is None:
        c = _CTX[rules] = Ctx(rules)
    return c


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


def legal_mask(c: Ctx, hand: int, trick: Sequence[int], first: bool, broken: bool) -> int:
    """The same answer as :meth:`Round.legal_mask` for a seat holding ``hand``.

    The first lead of a round under ``lowest_club`` is not handled here: the
    search never starts before that card is on the table.
    """
    if trick:
        legal = hand & SUIT_MASKS[trick[0] // 13]
        if legal:
            return legal
        if first and c.forb:
            return hand & ~c.forb or hand
        return hand
    legal = hand
    if first and c.forb:
        legal = hand & ~c.forb or hand
    if not broken and not c.free:
        legal = legal & ~HEARTS_MASK or legal
    return legal


def random_bit(m: int, rng: random.Random) -> int:
    k = rng.randrange(popcount(m))
    while k:
        m &= m - 1
        k -= 1
    return (m & -m).bit_length() - 1


def policy(c: Ctx, seat: int, hand: int, legal: int, trick: list[int], win_card: int,
           win_seat: int, last: bool, played: int, threat: int, rng: random.Random,
           eps: float) -> int:
    """The playout policy: duck, dump the Q♠ then high hearts when void, spoil a moon."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if eps and rng.random() < eps:
        return random_bit(legal, rng)
    pen = c.pen
    if trick:
        led_mask = SUIT_MASKS[trick[0] // 13]
        if legal & led_mask:  # following suit
            if threat == seat:
                return legal.bit_length() - 1
            if threat >= 0 and win_seat == threat:
                hi = legal.bit_length() - 1
                if hi > win_card:
                    return hi
            below = legal & ((1 << win_card) - 1)
            if below:
                return below.bit_length() - 1
            safe = legal & ~pen
            if last:
                return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1
            # may still be overtaken: the highest card that carries no points
            return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1
        # void in the led suit: a discard
        if threat == seat:
            safe = legal & ~pen
            return low_rank_card(safe if safe else legal)
        if threat >= 0:
            if win_seat != threat:
                p = legal & pen
                if p:
                    return low_rank_card(p & HEARTS_MASK or p)
            else:
                safe = legal & ~pen
                if safe:
                    return top_rank_card(safe)
        if c.queen and legal >> QS & 1:
            return QS
        if not played >> QS & 1 and c.queen:
            hs = legal & HIGH_SPADES
            if hs:
                return hs.bit_length() - 1
        p = legal & pen
        if p:
            if c.rules.spot_hearts or c.rules.black_maria:
                pts = c.pts
                best = -1
                for x in range(52):
                    if p >> x & 1 and (best < 0 or pts[x] >= pts[best]):
                        best = x
                return best
            return p.bit_length() - 1
        if c.jd and legal >> JD & 1 and legal & ~(1 << JD):
            legal &= ~(1 << JD)
        return top_rank_card(legal)
    # leading
    if threat == seat:
        return top_rank_card(legal)
    choice = legal
    if c.queen and not played >> QS & 1:
        if hand >> QS & 1:
            choice = legal & ~S3 or legal
        else:
            choice = legal & ~(HIGH_SPADES | (1 << QS)) or legal
    nh = choice & ~HEARTS_MASK
    if nh:
        choice = nh
    return low_rank_card(choice)


def play_out(c: Ctx, hands: list[int], kitty: int, trick: list[int], leader: int,
             ntricks: int, broken: bool, taken: list[int], points: list[int], played: int,
             rng: random.Random, eps: float = 0.1, shooter: int = -1, forced: int = -1,
             before: Sequence[int] | None = None) -> list[int]:
    """Play a full-information position to the end; returns each seat's round score.

    ``hands``, ``taken`` and ``points`` are consumed (pass copies); ``shooter``
    forces that seat to play for the moon from the start; ``forced`` is the
    first card played (the candidate being evaluated).
    """
    n = c.n
    pts = c.pts
    pen = c.pen
    trick = list(trick)
    threat = shooter
    if threat < 0:
        threat = _threat(c, taken)
    while True:
        pos = len(trick)
        seat = (leader + pos) % n
        hand = hands[seat]
        if not hand:
            break
        legal = legal_mask(c, hand, trick, ntricks == 0, broken)
        if pos:
            led_mask = SUIT_MASKS[trick[0] // 13]
            wc = -1
            wpos = 0
            for i, x in enumerate(trick):
                if led_mask >> x & 1 and x > wc:
                    wc = x
                    wpos = i
            win_seat = (leader + wpos) % n
        else:
            wc = -1
            win_seat = -1
        if forced >= 0:
            card = forced
            forced = -1
        else:
            card = policy(c, seat, hand, legal, trick, wc, win_seat, pos == n - 1, played, threat,
                          rng, eps)
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        if not broken and (card // 13 == 2 or (c.qbreaks and card == QS)):
            broken = True
        trick.append(card)
        if pos == n - 1:
            led_mask = SUIT_MASKS[trick[0] // 13]
            best = 0
            for i in range(1, n):
                x = trick[i]
                if led_mask >> x & 1 and x > trick[best]:
                    best = i
            winner = (leader + best) % n
            p = 0
            tm = 0
            for x in trick:
                p += pts[x]
                tm |= 1 << x
            if ntricks == 0 and kitty:
                tm |= kitty
                for x in range(52):
                    if kitty >> x & 1:
                        p += pts[x]
            taken[winner] |= tm & (pen | (1 << JD))
            points[winner] += p
            ntricks += 1
            trick = []
            leader = winner
            if shooter < 0 and tm & pen:
                threat = _threat(c, taken)
    return score(c, taken, points, before)


def _threat(c: Ctx, taken: list[int]) -> int:
    """The seat that holds every penalty card taken so far, when it has enough of them."""
    who = -1
    pen = c.pen
    for s, m in enumerate(taken):
        if m & pen:
            if who >= 0:
                return -1
            who = s
    if who >= 0 and popcount(taken[who] & pen) >= c.threat_min:
        return who
    return -1


def score(c: Ctx, taken: Sequence[int], points: Sequence[int],
          before: Sequence[int] | None = None) -> list[int]:
    """Round scores after the moon and the J♦, like :func:`engine.score_round`."""
    pen = c.pen
    if c.moon != "off":
        for s in range(c.n):
            if taken[s] & pen == pen:
                value = c.pen_total
                jd = [c.pts[JD] if taken[x] >> JD & 1 else 0 for x in range(c.n)]
                mode = c.moon
                if mode == "shooter_choice":
                    b = before or (0,) * c.n
                    after = [b[x] + (0 if x == s else value) + jd[x] for x in range(c.n)]
                    low = min(after)
                    mode = "others" if after[s] == low and after.count(low) == 1 else "shooter_minus"
                if mode == "others":
                    return [(0 if x == s else value) + jd[x] for x in range(c.n)]
                return [(-value if x == s else 0) + jd[x] for x in range(c.n)]
    return list(points)
