"""Normal: the classic rules of thumb, from the view alone.

Pass: the Q♠ unless enough low spades protect it, the A♠/K♠ without the
queen's protection, high hearts; and, with the slots left, a short side suit
whole, to be void in it.

Play:
* lead the card least likely to win (the suit where the most unseen cards sit
  above it); lead spades under the queen to flush her out when she is still
  out and not ours; never lead a suit nobody else holds;
* follow with the highest card that ducks; when the trick is surely ours and
  pointless, take it with the most dangerous high card;
* when void, dump the Q♠ (it goes to whoever wins the trick, never to us),
  then the A♠/K♠ while she is out, then the highest penalty card, then the
  highest card;
* keeps track of broken hearts (legal cards come from the engine) and of
  which seats are void, to know when a trick is surely its own;
* defends the moon: once another seat holds every penalty card taken so far
  (three or more, or the Q♠ and another), it overtakes that seat when it can, plays low
  under it and keeps its hearts, gives a penalty card to any other seat that
  surely wins a trick, and leads a heart nobody can beat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.cards import CARDS, SUIT_MASKS, Card, Suit, mask_of
from ..model.rules import Facts, Moon, Rules
from ..play.round import SeatView
from .common import Public, public, queen_out, trick_winner
from .playout import AS, HIGH_SPADES, JD, KS, QS, popcount, threat

Voids = tuple[frozenset[Suit], ...]  # the suits each seat has shown it lacks (SeatView.voids)


def pass_danger(view: SeatView) -> dict[Card, float]:
    """How much each card wants to leave the hand."""
    return hand_danger(view.rules, view.hand)


def hand_danger(rules: Rules, cards: Sequence[Card]) -> dict[Card, float]:
    """:func:`pass_danger` of the hand ``cards`` under ``rules`` (all that it reads of a view)."""
    pts = rules.points
    hand = mask_of(cards)
    spades = hand & SUIT_MASKS[3]
    low_spades = popcount(spades & ((1 << QS) - 1))
    queen = pts[QS] > 0
    has_q = bool(hand >> QS & 1)
    danger: dict[Card, float] = {}
    for c in cards:
        r = c.rank
        d = float(r)  # high cards win tricks
        s = c // 13
        if s == 3 and queen:
            if c == QS:
                d = 100.0 if low_spades < 3 else 5.0
            elif c in (KS, AS):
                if has_q and low_spades >= 3:
                    d = 8.0
                else:
                    d = 90.0 - (10.0 if low_spades >= 4 else 0.0)
            else:
                d = r * 0.5  # low spades protect
        elif s == 3 and pts[c] > 0:
            d = 60.0 + pts[c]
        elif s == 2:
            d = r * 4.0 + pts[c] * 2.0 - 20.0  # A♥ 44, T♥ 20, 6♥ 4
            if r <= 6:
                d = r - 6.0
        elif pts[c] < 0:  # J♦ in Omnibus: keep it
            d = -50.0
        else:
            d = r * 1.5
        danger[c] = d
    return danger


def normal_pass(view: SeatView) -> tuple[Card, ...]:
    return hand_pass(view.rules, view.hand)


def hand_pass(rules: Rules, cards: Sequence[Card]) -> tuple[Card, ...]:
    """:func:`normal_pass` of the hand ``cards`` under ``rules`` (all that it reads of a view)."""
    k = rules.pass_count
    danger = hand_danger(rules, cards)

    def by_danger(c: Card) -> float:
        return -danger[c]

    must = [c for c in sorted(cards, key=by_danger) if danger[c] >= 40][:k]
    room = k - len(must)
    chosen = list(must)
    if room:
        # void a short side suit: clubs or diamonds (not spades, whose low cards protect)
        hand = mask_of(cards)
        best = None
        for s in (1, 0):
            m = hand & SUIT_MASKS[s] & ~mask_of(chosen)
            cnt = popcount(m)
            if not cnt or cnt > room:
                continue
            if s == 1 and rules.points[JD] < 0 and m >> JD & 1:
                continue
            key = (cnt, -sum(c % 13 for c in range(52) if m >> c & 1))
            if best is None or key < best[0]:
                best = (key, m)
        if best is not None:
            chosen += [CARDS[c] for c in range(52) if best[1] >> c & 1]

    def most_dangerous(c: Card) -> tuple[float, int]:
        return (-danger[c], -c)

    rest = [c for c in sorted(cards, key=most_dangerous) if c not in chosen]
    chosen += rest[: k - len(chosen)]
    return tuple(sorted(chosen[:k]))


def later_can_beat(pub: Public, card: int, voids: Voids) -> bool:
    """Could a seat still to play this trick hold a higher card of its suit?"""
    n = pub.facts.players
    suit = card // 13
    higher = pub.unseen & SUIT_MASKS[suit] & ~((2 << card) - 1)
    if not higher:
        return False
    for i in range(len(pub.trick) + 1, n):
        s = (pub.leader + i) % n
        if suit not in voids[s]:
            return True
    return False


def lead_card(pub: Public, legal: int) -> int:
    """Normal's lead from the view (:func:`lead_mask`)."""
    return lead_mask(legal, pub.hand, pub.unseen, queen_out(pub))


def lead_mask(legal: int, hand: int, unseen: int, queen_is_out: bool) -> int:
    """Normal's lead on masks (one deck, or two as :mod:`.multi` reads them): spades under
    the Q♠ while she is out and not ours, else the card least likely to win, in the suit
    where the most ``unseen`` cards sit above it (a heart a little later)."""
    if queen_is_out and not hand >> QS & 1:
        low_sp = legal & SUIT_MASKS[3] & ((1 << QS) - 1)
        if low_sp and unseen >> QS & 1:
            return low_sp.bit_length() - 1  # flush the queen out, with the highest spade under her
    choice = legal
    if queen_is_out:
        if hand >> QS & 1:
            choice = legal & ~SUIT_MASKS[3] or legal
        else:
            choice = legal & ~(HIGH_SPADES | (1 << QS)) or legal
    best, best_risk = -1, 1e9
    for s in range(4):
        m = choice & SUIT_MASKS[s]
        if not m:
            continue
        c = (m & -m).bit_length() - 1
        others = unseen & SUIT_MASKS[s]
        lower = popcount(others & ((1 << c) - 1))
        higher = popcount(others) - lower
        if not higher:
            risk = 10.0 + lower  # surely ours: whatever is discarded on it
        else:
            risk = lower / (lower + higher) - 0.02 * higher
        if s == 2:
            risk += 0.3
        if risk < best_risk:
            best, best_risk = c, risk
    return best


def discard_card(pub: Public, legal: int) -> int:
    """Normal's discard from the view (:func:`discard_mask`)."""
    return discard_mask(pub.facts, legal, pub.hand, queen_out(pub))


def discard_mask(facts: Facts, legal: int, hand: int, queen_is_out: bool) -> int:
    """Normal's discard on masks: the Q♠, the A♠/K♠ while she is out, the costliest penalty
    card, then the highest card of the shortest suit (to make a new void)."""
    if facts.queen_scores and legal >> QS & 1:
        return QS
    if queen_is_out and legal & HIGH_SPADES:
        return (legal & HIGH_SPADES).bit_length() - 1
    p = legal & facts.penalty_mask
    if p:
        if facts.uneven_penalties:
            pts = facts.points

            def weight(x: int) -> tuple[int, int]:
                return (pts[x], x)

            return max((x for x in range(52) if p >> x & 1), key=weight)
        return p.bit_length() - 1  # every penalty card but the Q♠ (gone above) is worth the same
    if (facts.bonus_mask >> JD & 1) and legal >> JD & 1 and legal & ~(1 << JD):
        legal &= ~(1 << JD)
    best, key = -1, None
    for s in range(4):
        m = legal & SUIT_MASKS[s]
        if m:
            c = m.bit_length() - 1
            k = (c % 13 >= 8, -popcount(hand & SUIT_MASKS[s]), c % 13)
            if key is None or k > key:
                best, key = c, k
    return best


MOON_WATCH = 3  # penalty cards one other seat must hold, alone, before Normal defends


def moon_threat(pub: Public) -> int:
    """The other seat that may be running for the moon, or -1.

    It holds every penalty card taken so far, at least ``MOON_WATCH`` of them
    (or the Q♠ and another), and the moon is still on.
    """
    ctx = pub.facts
    if ctx.moon is Moon.OFF:
        return -1
    who = threat(ctx, pub.taken, MOON_WATCH)
    return -1 if who == pub.seat else who


def defend_moon(pub: Public, voids: Voids, shooter: int) -> int:
    """A card that spoils ``shooter``'s moon, or -1 to play as usual.

    Take a trick the shooter is winning when we can (the lowest card that
    does when last, else the highest), and play the lowest card under it when
    we cannot, keeping the high ones; when void, put a penalty card on a trick
    the shooter cannot win, and otherwise keep the penalty cards (they are the
    stoppers) or, holding nothing else, give it the cheapest; lead a heart no
    unseen card can beat.
    """
    ctx = pub.facts
    n = ctx.players
    legal = pub.legal
    trick = pub.trick
    if not trick:
        hearts = legal & SUIT_MASKS[2]
        if hearts:
            top = hearts.bit_length() - 1
            if not pub.unseen & SUIT_MASKS[2] & ~((2 << top) - 1):
                return top  # a sure heart trick: a point taken away from the shooter
        return -1
    wc, ws = trick_winner(trick, pub.leader, n)
    later = [(pub.leader + i) % n for i in range(len(trick) + 1, n)]
    follow = legal & SUIT_MASKS[trick[0] // 13]
    if follow:
        if ws == shooter:
            over = follow & ~((2 << wc) - 1)
            if over:
                # last to play: the lowest card that wins; else the highest, to hold the trick
                return (over & -over).bit_length() - 1 if not later else over.bit_length() - 1
            return (follow & -follow).bit_length() - 1  # under it anyway: keep the high cards
        return -1
    pen = legal & ctx.penalty_mask
    shooter_can_win = ws == shooter or (shooter in later and trick[0] // 13 not in voids[shooter]
                                        and pub.unseen & SUIT_MASKS[trick[0] // 13] & ~((2 << wc) - 1))
    if not shooter_can_win:
        if pen:
            if ctx.queen_scores and pen >> QS & 1:
                return QS

            def weight(x: int) -> tuple[int, int]:
                return (ctx.points[x], x)

            return max((x for x in range(52) if pen >> x & 1), key=weight)
        return -1
    safe = legal & ~ctx.penalty_mask
    if safe:
        return discard_card(pub, safe)
    # only penalty cards: give the shooter the cheapest, keep the high hearts to stop it later
    def cheapest(x: int) -> tuple[int, int]:
        return (ctx.points[x], x)

    return min((x for x in range(52) if legal >> x & 1), key=cheapest)


def normal_card_mask(pub: Public, voids: Voids) -> int:
    legal = pub.legal
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    ctx = pub.facts
    trick = pub.trick
    shooter = moon_threat(pub)
    if shooter >= 0:
        card = defend_moon(pub, voids, shooter)
        if card >= 0:
            return card
    if not trick:
        return lead_card(pub, legal)
    led_mask = SUIT_MASKS[trick[0] // 13]
    if not legal & led_mask:
        return discard_card(pub, legal)
    wc, _ = trick_winner(trick, pub.leader, ctx.players)
    last = len(trick) == ctx.players - 1
    trick_pts = sum(ctx.points[x] for x in trick)
    unknown_kitty = pub.ntricks == 0 and pub.kitty_unseen
    below = legal & ((1 << wc) - 1)
    safe = legal & ~ctx.penalty_mask
    if below:
        if last and trick_pts <= 0 and not unknown_kitty and safe & ~below:
            # the trick is pointless and ours for the taking: shed the most dangerous high card
            hi = (safe & ~below).bit_length() - 1
            if not (ctx.queen_scores and trick[0] // 13 == 3 and hi < QS and queen_out(pub)):
                return hi
        if ctx.queen_scores and below >> QS & 1:
            return QS  # someone else's K♠/A♠ wins it
        return below.bit_length() - 1
    # cannot duck: every card we hold of the suit beats the winner so far
    if last or not later_can_beat(pub, (legal & -legal).bit_length() - 1, voids):
        return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1
    if trick[0] // 13 == 3 and queen_out(pub):
        # someone may still drop the queen: win as cheaply as possible
        s2 = safe & ~HIGH_SPADES
        if s2:
            return s2.bit_length() - 1
    if pub.ntricks == 0:
        return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1
    return safe.bit_length() - 1 if safe else (legal & -legal).bit_length() - 1


def normal_card(view: SeatView) -> Card:
    pub = public(view)
    return CARDS[normal_card_mask(pub, view.voids)]


class NormalBot:
    level = "normal"

    def __init__(self, seed: int = 0, simulations: int | None = None):
        self.seed = seed

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return normal_pass(view)

    def choose_card(self, view: SeatView) -> Card:
        return normal_card(view)

