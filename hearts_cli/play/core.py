"""The rules of play, written once: legality, the trick winner, scoring.

Every path that plays a card derives from this module, and nothing else
writes these rules:

* :class:`hearts_cli.play.round.Round` (the checked step API) asks :func:`legal`
  for the legal cards and :func:`reason` for why a card is refused;
* :class:`hearts_cli.play.fast.Position` asks :func:`legal` too;
* :mod:`hearts_cli.play.fast_gen` generates ``fast.playout_steps`` and the fast
  random loops *from* :data:`RESTRICTIONS` and :data:`BEATS` (the rules are
  read, not copied: change a row here and the generated code changes too);
* the bots' endgame search (:func:`hearts_cli.bots.playout.solve`) calls
  :func:`legal` and :func:`beats`.

``tests/test_core_paths.py`` holds every path equal to the engine on random
positions, and ``tests/mutation.py`` removes or inverts each rule here in
turn to show the test suite notices (see docs/testing.md).

Cards are ints (``suit * 13 + rank``) and a set of cards a 52-bit mask.
The rule-set facts these rules read (the point of every card, the cards
forbidden on the first trick, what breaks hearts...) are computed once, on
:class:`~hearts_cli.model.rules.Rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..model.cards import DECK_MASK, HEARTS_MASK, SUIT_MASKS
from ..model.rules import FirstLead, HeartsBreak, Moon, Rules, SetAside

__all__ = [
    "BEATS",
    "FOLLOW",
    "LEAD",
    "LEAD_CARD",
    "LED_SUIT",
    "RESTRICTIONS",
    "Restriction",
    "RoundScore",
    "beats",
    "better_moon_choice",
    "cancelled",
    "cancelling_winner",
    "chain",
    "first_leader",
    "lead_card",
    "legal",
    "moon_scores",
    "reason",
    "score_round",
    "set_aside_winner",
    "shooter",
    "trick_winner",
    "winner",
]

# ---------------------------------------------------------------- legality
#
# The legal cards are the hand, narrowed by a chain of restrictions applied in
# the order of RESTRICTIONS. Each keeps only the cards it allows, unless that
# would leave none: then it keeps what it was given (a hand of nothing but
# hearts may lead one). A restriction marked `final` ends the chain when it
# keeps something; no rule is final today (following suit was, until a free
# first lead showed that the first-trick rule binds a follower too).
# A card the chain takes away is refused with the reason of the rule that
# took it, so the reasons are ordered as the rules are.

LEAD = "lead"      # the seat leads the trick
FOLLOW = "follow"  # the seat plays to a trick already led

LED_SUIT = -1   # `allows` placeholder: the cards of the suit led
LEAD_CARD = -2  # `allows` placeholder: the one card that must lead (see lead_card)
ALL = DECK_MASK


class Restriction(NamedTuple):
    """One rule of legality: in ``when`` (LEAD, FOLLOW), on the first trick only
    (``first_trick``) or while hearts are unbroken only (``unbroken``), keep the
    cards ``allows(rules)`` gives (a mask, or a placeholder); ALL means this rule
    set does not have the rule."""

    reason: str
    when: tuple[str, ...]
    first_trick: bool
    unbroken: bool
    allows: Callable[[Rules], int]
    final: bool = False


def _lead_card(r: Rules) -> int:
    return LEAD_CARD if r.first_lead is FirstLead.LOWEST_CLUB else ALL


def _led_suit(r: Rules) -> int:
    return LED_SUIT


def _not_on_first_trick(r: Rules) -> int:
    return ALL & ~r.first_trick_forbidden


def _not_hearts(r: Rules) -> int:
    return ALL if r.hearts_break is HeartsBreak.FREE else ALL & ~HEARTS_MASK


RESTRICTIONS: tuple[Restriction, ...] = (
    # the first trick is led by the holder of the lowest club, with it
    Restriction("must_lead_lowest_club", (LEAD,), True, False, _lead_card),
    # you must follow the led suit if you can
    Restriction("must_follow_suit", (FOLLOW,), False, False, _led_suit),
    # no points on the first trick while the hand holds another card the rules above
    # allow: a lead, a discard, or a follow to a free first lead (spades led: the Q♠
    # stays home while another spade can follow; seeds/README.md)
    Restriction("no_points_on_first_trick", (LEAD, FOLLOW), True, False, _not_on_first_trick),
    # hearts cannot be led until they are broken
    Restriction("hearts_not_broken", (LEAD,), False, True, _not_hearts),
)


Chain = tuple[tuple[str, int, bool], ...]


def _chains(rules: Rules) -> tuple[Chain, ...]:
    """Every situation's chain, indexed ``following << 2 | first << 1 | broken``: a
    fact of the rule set, computed once (kept on the Rules, like a cached property)."""
    out = []
    for w in (LEAD, FOLLOW):
        for f in (False, True):
            for b in (False, True):
                out.append(tuple(
                    (x.reason, m, x.final) for x in RESTRICTIONS
                    if w in x.when and (f or not x.first_trick) and (not b or not x.unbroken)
                    and (m := x.allows(rules)) != ALL))
    rules.__dict__["_chains"] = chains = tuple(out)
    return chains


def chain(rules: Rules, when: str, first: bool, broken: bool) -> Chain:
    """The restrictions in force, as ``(reason, allows, final)``, in order."""
    chains = rules.__dict__.get("_chains") or _chains(rules)
    return chains[(when == FOLLOW) << 2 | first << 1 | broken]


def lead_card(hands: Sequence[int]) -> int:
    """The card that must lead the first trick: the lowest club held, or, with
    every club out of the hands, the lowest card held."""
    held = 0
    for m in hands:
        held |= m
    pool = held & SUIT_MASKS[0] or held
    return (pool & -pool).bit_length() - 1


def first_leader(rules: Rules, hands: Sequence[int], dealer: int) -> int:
    """Who leads the first trick: the holder of :func:`lead_card`, or (first lead
    ``any``) the player left of the dealer. With two decks both copies of that card
    may be out: the holder first clockwise from the dealer's left leads."""
    n = rules.players
    if _lead_card(rules) == ALL:
        return (dealer + 1) % n
    bit = 1 << lead_card(hands)
    return next(s % n for s in range(dealer + 1, dealer + 1 + n) if hands[s % n] & bit)


def _resolve(m: int, led: int, hands: Sequence[int]) -> int:
    if m == LED_SUIT:
        return SUIT_MASKS[led]
    if m == LEAD_CARD:
        return 1 << lead_card(hands)
    return m


def legal(rules: Rules, hand: int, led: int, first: bool, broken: bool,
          hands: Sequence[int]) -> int:
    """The legal cards of ``hand``: ``led`` is the suit led (-1 when leading),
    ``first`` whether this is the first trick, ``broken`` whether hearts are;
    ``hands`` every hand (to find the card that must lead)."""
    chains = rules.__dict__.get("_chains") or _chains(rules)
    legal = hand
    for _, m, final in chains[(led >= 0) << 2 | first << 1 | broken]:
        if m < 0:
            m = _resolve(m, led, hands)
        kept = legal & m
        if kept:
            legal = kept
            if final:
                break
    return legal


def reason(rules: Rules, card: int, hand: int, led: int, first: bool, broken: bool,
           hands: Sequence[int]) -> tuple[str, int] | None:
    """Why ``card`` (in ``hand``) is not legal: ``(reason, allowed)`` of the first
    restriction that takes it away, ``allowed`` the cards that rule left; None
    when it is legal."""
    legal = hand
    bit = 1 << card
    for code, m, final in chain(rules, FOLLOW if led >= 0 else LEAD, first, broken):
        kept = legal & _resolve(m, led, hands)
        if kept:
            if not kept & bit:
                return code, kept
            legal = kept
            if final:
                break
    return None


# ---------------------------------------------------------------- the trick

# Does card `c` beat `w`, the card winning the trick so far, in a trick led in
# suit `led`? The highest card of the led suit wins; there are no trumps. As
# text, because fast_gen writes it into the code it generates; `beats` is the
# same text compiled.
BEATS = "{c} // 13 == {led} and {c} > {w}"

beats: Callable[[int, int, int], bool] = eval(
    "lambda c, w, led: " + BEATS.format(c="c", w="w", led="led"))


_TRICK_WINNER = """\
def trick_winner(cards):
    led = cards[0] // 13
    best = 0
    w = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if {beats}:
            best = i
            w = c
    return best
"""
_space: dict[str, object] = {}
exec(_TRICK_WINNER.format(beats=BEATS.format(c="c", w="w", led="led")), _space)
trick_winner: Callable[[Sequence[int]], int] = _space["trick_winner"]  # type: ignore[assignment]
trick_winner.__doc__ = """The index in ``cards`` (play order) of the card that wins the trick
(BEATS folded over the trick, compiled with it written in)."""


# ---------------------------------------------------------------- cancellation (two decks)
#
# With two decks, identical cards in one trick cancel each other: neither can
# win it (both still score). The highest uncancelled card of the led suit wins,
# BEATS folded over the uncancelled cards. When every card of the led suit is
# cancelled nobody wins: the trick is set aside for the winner of the next
# trick, and on the last trick the rule set's fallback (``set_aside_last``) decides.


def cancelled(cards: Sequence[int]) -> tuple[int, ...]:
    """The cards played twice in ``cards`` (each once, in order of play)."""
    out: list[int] = []
    for c in cards:
        if c not in out and cards.count(c) > 1:
            out.append(c)
    return tuple(out)


def cancelling_winner(cards: Sequence[int]) -> int | None:
    """The index of the card that wins under cancellation, or None when every card
    of the led suit is cancelled."""
    led = cards[0] // 13
    best = None
    w = -1
    for i, c in enumerate(cards):
        if cards.count(c) == 1 and beats(c, w, led):
            best = i
            w = c
    return best


def set_aside_winner(rules: Rules, cards: Sequence[int]) -> int:
    """Who takes a last trick whose every card of the led suit is cancelled: the
    leader (index 0), or the second copy of the highest card of the led suit."""
    if rules.set_aside_last is SetAside.LEADER:
        return 0
    led = cards[0] // 13
    top = max(c for c in cards if c // 13 == led)
    return max(i for i, c in enumerate(cards) if c == top)


def winner(rules: Rules, cards: Sequence[int], last: bool = False) -> int | None:
    """The index of the winning card of a complete trick under ``rules``: the
    one-deck :func:`trick_winner`, or with two decks the cancelling winner (None: the
    trick is set aside; ``last``: the last trick of the round, which cannot be)."""
    if rules.decks == 1:
        return trick_winner(cards)
    best = cancelling_winner(cards)
    if best is None and last:
        return set_aside_winner(rules, cards)
    return best


# ---------------------------------------------------------------- scoring


class RoundScore(NamedTuple):
    """What each seat scores for the round (moon and J♦ applied), who shot the moon
    and how it was scored (``Moon.OTHERS`` or ``Moon.SHOOTER_MINUS``)."""

    scores: tuple[int, ...]
    shooter: int | None = None
    moon: Moon | None = None
    sun: bool = False  # the shooter took every trick (``rules.sun``): scored as a sun, not a moon
    no_trick: tuple[int, ...] = ()  # the seats that took no trick and scored ``rules.no_trick_bonus``


def sun_taker(rules: Rules, taken: Sequence[int], twice: Sequence[int] = ()) -> int | None:
    """The seat that took every trick (every card in play, each copy), when the rules score a
    sun (``rules.sun``): gnome-hearts' and World of Card Games' "shooting the sun"."""
    if not rules.sun:
        return None
    every, both = rules.in_play_mask, rules.twice_mask
    return next((s for s, t in enumerate(taken)
                 if t & every == every and (not both or twice[s] & both == both)), None)


def sun_scores(rules: Rules, who: int, taken: Sequence[int], twice: Sequence[int] = ()) -> tuple[int, ...]:
    """A sun's round scores: ``rules.sun`` for its taker when below zero (gnome-hearts: -52),
    else for every other seat (World of Card Games: 39); the J♦ still counts, as in a moon."""
    keep = [sum(p for c, p in rules.moon_keeps if t >> c & 1) for t in taken]
    for s, t in enumerate(twice):
        keep[s] += sum(p for c, p in rules.moon_keeps if t >> c & 1)
    value = rules.sun
    if value < 0:
        return tuple((value if s == who else 0) + keep[s] for s in range(rules.players))
    return tuple((0 if s == who else value) + keep[s] for s in range(rules.players))


def shooter(rules: Rules, taken: Sequence[int], twice: Sequence[int] = ()) -> int | None:
    """The seat that shot the moon (took every penalty card, every copy of it), if the
    rules have a moon. ``twice``: with two decks, the cards each seat took twice."""
    if rules.moon is Moon.OFF:
        return None
    pm = rules.penalty_mask
    pm2 = pm & rules.twice_mask
    if not pm2:
        return next((s for s, t in enumerate(taken) if t & pm == pm), None)
    return next((s for s, t in enumerate(taken) if t & pm == pm and twice[s] & pm2 == pm2), None)


def moon_scores(rules: Rules, who: int, taken: Sequence[int], mode: Moon | str,
                twice: Sequence[int] = ()) -> tuple[int, ...]:
    """A moon's round scores: ``Moon.OTHERS`` (the moon's value to everybody else) or
    ``Moon.SHOOTER_MINUS`` (the shooter subtracts it); the J♦ still counts for whoever took it
    (each copy, with two decks: ``twice``)."""
    n = rules.players
    value = rules.penalty_total
    jd = rules.moon_keeps
    keep = [sum(p for c, p in jd if t >> c & 1) for t in taken]  # J♦ still counts
    for s, t in enumerate(twice):
        keep[s] += sum(p for c, p in jd if t >> c & 1)
    if mode == Moon.OTHERS:
        scores = tuple((0 if s == who else value) + keep[s] for s in range(n))
    else:
        scores = tuple((-value if s == who else 0) + keep[s] for s in range(n))
    return scores


def better_moon_choice(rules: Rules, who: int, taken: Sequence[int], before: Sequence[int],
                       twice: Sequence[int] = ()) -> Moon:
    """The shooter's better choice for the match, from public facts (who took what, the totals).

    Both choices leave the shooter the same margin; what differs is when the game ends.
    A shooter who is then strictly lowest takes "others +26", which brings the
    end closer; anyone else subtracts 26 and keeps the game going. The CPUs
    choose with it (``bots.choose_moon``), a person is offered it as the
    default, and a round scored with no choice given (a search's playout) assumes it.
    """
    after = [b + x for b, x in zip(before, moon_scores(rules, who, taken, Moon.OTHERS, twice))]
    lowest = min(after)
    if after[who] == lowest and after.count(lowest) == 1:
        return Moon.OTHERS
    return Moon.SHOOTER_MINUS


def no_trick_seats(rules: Rules, taken: Sequence[int], shooter: int | None,
                   twice: Sequence[int] = ()) -> tuple[int, ...]:
    """The seats that score ``no_trick_bonus``: those that took no trick (``taken``: every card
    each seat took), in a round where nobody shot the moon or the sun (OpenSpiel's rule)."""
    if not rules.no_trick_bonus or shooter is not None:
        return ()
    return tuple(s for s, t in enumerate(taken) if not t and not (twice and twice[s]))


def score_round(rules: Rules, taken: Sequence[int], points: Sequence[int],
                scores_before: Sequence[int], choice: Moon | str | None = None,
                twice: Sequence[int] = ()) -> RoundScore:
    """The round's scores from what each seat took (masks; ``twice``: the cards taken
    twice, with two decks) and its points.

    Under ``moon: shooter_choice`` the shooter's ``choice`` (``others`` or
    ``shooter_minus``) decides how a moon scores; without one, the better choice. A seat that
    took every trick under ``rules.sun`` shot the sun, scored as such (no choice). With no
    moon, ``no_trick_bonus`` goes to each seat that took nothing (it took no trick)."""
    sun = sun_taker(rules, taken, twice)
    if sun is not None:
        return RoundScore(sun_scores(rules, sun, taken, twice), sun, None, True)
    who = shooter(rules, taken, twice)
    if who is None:
        bonus = no_trick_seats(rules, taken, None, twice)
        return RoundScore(tuple(p + (rules.no_trick_bonus if s in bonus else 0) for s, p in enumerate(points)),
                          no_trick=bonus)
    mode = rules.moon
    if mode is Moon.SHOOTER_CHOICE:
        mode = Moon(choice) if choice in (Moon.OTHERS, Moon.SHOOTER_MINUS) else \
            better_moon_choice(rules, who, taken, scores_before, twice)
    return RoundScore(moon_scores(rules, who, taken, mode, twice), who, mode)
