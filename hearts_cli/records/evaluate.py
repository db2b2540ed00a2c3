"""Hard's weighing of a decision: the expected round points of each card or pass a seat could choose.

Sampled deals of the cards a seat cannot see, played out with Hard's playout
policy (one deck: :func:`hearts_cli.bots.hard.evaluate`; two decks: the
two-deck Hard's worlds and playouts). Every draw derives from the seed it is
given, so an analysis is a pure function of the record and its seed.
:mod:`hearts_cli.records.analysis` turns these values into marks and reasons.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..model.cards import CARDS as CARDS_
from ..model.cards import Card, mask_of
from ..play import core
from ..play.round import Round, SeatView
from .record_parts import DEFAULT_SIMULATIONS

__all__ = ["DEFAULT_SIMULATIONS", "METHOD_TWO", "classes_two", "evaluate_pass", "evaluate_pass_two", "evaluate_play",
           "evaluate_play_two", "pass_candidates"]


def _rng(seed: int, view: SeatView, salt: str) -> random.Random:
    pos = (view.round_index, view.phase.value, len(view.tricks), len(view.trick), view.seat)
    return random.Random(f"hearts-analysis/{seed}/{pos}/{salt}")


def evaluate_play(view: SeatView, seed: int, simulations: int) -> dict[Card, float]:
    """Expected round points for this seat of each legal card (lower is better), as Hard weighs them
    (two decks: :func:`evaluate_play_two`)."""
    if view.rules.decks > 1:
        return evaluate_play_two(view, seed, simulations)
    from ..bots.hard import evaluate  # the CPUs only when a position is weighed: start-up

    return evaluate(view, seed, simulations)


# Two decks (Cancellation Hearts). Hard's one-deck search (sampling, heuristic playouts,
# endgame solver) works on 52-bit masks where a card is held once; a two-deck decision is
# weighed as the two-deck Hard weighs it (:mod:`hearts_cli.bots.multi`): worlds sampled from
# the unseen multiset, one card per class of equivalent legal cards played on each, and the
# round played out on :class:`hearts_cli.play.fast.MultiPosition` (cancellation and set-aside
# tricks by hearts_cli.play.core) with Hard's two-deck playout policy. No endgame search: the
# summary says so (``METHOD_TWO``).
METHOD_TWO = "two_deck_playout"


def evaluate_play_two(view: SeatView, seed: int, simulations: int) -> dict[Card, float]:
    """Expected round points for this seat of each legal card of a two-deck round
    (equivalent cards share a value)."""
    from ..bots import multi  # the CPUs only when a position is weighed: start-up
    from ..play.fast import MultiPosition, pair_of_cards  # the fast path only when a position is weighed: start-up

    stands_for = classes_two(view)
    cands = sorted(set(stands_for.values()))
    if len(cands) == 1:
        return dict.fromkeys(stands_for, 0.0)
    rng = _rng(seed, view, "play2")
    me = view.seat
    facts = view.rules.facts
    mine = pair_of_cards([int(c) for c in view.hand])
    left0 = multi.unplayed(view)
    played0 = sum(1 << c for c in range(52) if left0[c] < view.rules.copies[c])
    sampler = multi.WorldSampler(view)
    totals = [0.0] * len(cands)
    deals = max(1, simulations)
    for _ in range(deals):
        hands, kitty = sampler.sample(rng)
        pairs = [pair_of_cards(h) for h in hands]
        pairs[me] = mine
        root = MultiPosition.from_view(view, [p[0] for p in pairs], [p[1] for p in pairs], kitty)
        for j, c in enumerate(cands):
            pos = root.copy()
            pos.play(int(c))
            left = list(left0)
            left[c] -= 1
            totals[j] += multi.playout(pos, left, facts, me, played0 | 1 << int(c))[me]
    value = {c: totals[j] / deals for j, c in enumerate(cands)}
    return {c: value[rep] for c, rep in stands_for.items()}


def classes_two(view: SeatView) -> dict[Card, Card]:
    """Every legal card -> the card of Hard's two-deck candidates that stands for it."""
    from ..bots.multi import candidates  # the CPUs only when a position is weighed: start-up

    cands = candidates(view)
    return {c: CARDS_[max(x for x in cands if x <= c and x // 13 == c // 13)] for c in set(view.legal)}


def _pass_deals(view: SeatView, rng: random.Random, unseen: list[int],
                deals: int) -> Iterator[tuple[list[list[int]], list[int], Round]]:
    """Each sampled deal of a pass decision, as (hands, kitty, round): the seat's own hand,
    and the unseen cards shuffled out to the others (a seat sees only its own hand when
    it passes). The shuffle for a deal is drawn when the deal is asked for."""
    rules = view.rules
    n = rules.players
    me = view.seat
    size = rules.hand_size
    own = [int(c) for c in view.hand]
    for _ in range(max(1, deals)):
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        pos = 0
        for s in range(n):
            if s == me:
                hands.append(list(own))
            else:
                hands.append(unseen[pos:pos + size])
                pos += size
        kitty = unseen[pos:]
        yield hands, kitty, Round(rules, hands, kitty=kitty, direction=view.direction,
                                  round_index=view.round_index, scores=view.scores)


def evaluate_pass_two(view: SeatView, candidates: Sequence[tuple[Card, ...]], seed: int,
                      simulations: int) -> dict[tuple[Card, ...], float]:
    """:func:`evaluate_pass` for two decks: the other hands dealt from the unseen multiset,
    the others pass as Hard would, and the round is played out from the first lead on
    :class:`hearts_cli.play.fast.MultiPosition` with Hard's two-deck playout policy."""
    from ..bots import multi  # the CPUs only when a position is weighed: start-up
    from ..bots.hard import hard_pass  # the CPUs only when a position is weighed: start-up
    from ..play.fast import MultiPosition, pair_of_cards  # the fast path only when a position is weighed: start-up

    rules = view.rules
    n = rules.players
    me = view.seat
    rng = _rng(seed, view, "pass2")
    unseen = [int(c) for c in view.unseen()]
    totals = [0.0] * len(candidates)
    deals = max(1, simulations)
    for hands, kitty, rd in _pass_deals(view, rng, unseen, deals):
        others = {s: [int(c) for c in hard_pass(rd.view(s))] for s in range(n) if s != me}
        for j, cand in enumerate(candidates):
            passes = dict(others)
            passes[me] = [int(c) for c in cand]
            after = [list(h) for h in hands]
            for s in range(n):
                for c in passes[s]:
                    after[s].remove(c)
            for s in range(n):
                after[view.direction.receiver(s, n)].extend(passes[s])
            pairs = [pair_of_cards(h) for h in after]
            once = [p[0] for p in pairs]
            start = MultiPosition(rules, once, [p[1] for p in pairs], kitty=kitty, scores=view.scores,
                                  leader=core.first_leader(rules, once, rd.dealer))
            totals[j] += multi.playout(start, list(rules.copies), rules.facts, me)[me]
    return {cand: totals[j] / deals for j, cand in enumerate(candidates)}


def pass_candidates(view: SeatView, chosen: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The passes weighed against the one chosen: Hard's own, the highest cards, the
    most dangerous ones, and the chosen pass with each of its cards swapped for the
    best card Hard would pass instead (or the most dangerous card kept)."""
    from ..bots.hard import hard_pass  # the CPUs only when a position is weighed: start-up
    from ..bots.normal import pass_danger  # the CPUs only when a position is weighed: start-up

    k = view.rules.pass_count
    chosen = tuple(sorted(chosen))
    hard = tuple(sorted(hard_pass(view)))
    danger = pass_danger(view)

    def highest(c: Card) -> tuple[int, int]:
        return (-c.rank, -c)

    by_rank = tuple(sorted(sorted(view.hand, key=highest)[:k]))

    def most_dangerous(c: Card) -> tuple[float, int]:
        return (-danger[c], -c)

    by_danger = tuple(sorted(sorted(view.hand, key=most_dangerous)[:k]))
    out = [chosen]
    for cand in (hard, by_rank, by_danger):
        if cand not in out:
            out.append(cand)
    keep = [c for c in hard if c not in chosen]
    keep += [c for c in sorted(view.hand, key=most_dangerous)
             if c not in chosen and c not in keep][:1]
    for i in range(len(chosen)):
        alt = tuple(sorted(chosen[:i] + chosen[i + 1:] + (keep[0],)))
        if alt not in out:
            out.append(alt)
    return out


def evaluate_pass(view: SeatView, candidates: Sequence[tuple[Card, ...]], seed: int,
                  simulations: int) -> dict[tuple[Card, ...], float]:
    """Expected round points for this seat of each candidate pass.

    Each sampled deal gives the unseen cards to the other seats at random (a
    seat sees only its own hand when it passes); the other seats pass as Hard
    would, the exchange is made, and the round is played out from the first
    lead with the playout policy, the same random stream for every candidate.
    """

    from ..bots.hard import hard_pass  # the CPUs only when a position is weighed: start-up
    from ..bots.playout import make_policy  # the CPUs only when a position is weighed: start-up
    from ..play.fast import Position as FastPosition  # the fast path only when a position is weighed: start-up
    from ..play.fast import playout_steps  # the fast path only when a position is weighed: start-up

    if view.rules.decks > 1:
        return evaluate_pass_two(view, candidates, seed, simulations)
    rules = view.rules
    n = rules.players
    me = view.seat
    rng = _rng(seed, view, "pass")
    unseen = [c for c in range(52) if rules.in_play_mask >> c & 1 and c not in view.hand]
    totals = [0.0] * len(candidates)
    deals = max(1, simulations)
    offset = view.direction.receiver(0, n)
    for hands, kitty, rd in _pass_deals(view, rng, unseen, deals):
        others = {s: mask_of(hard_pass(rd.view(s))) for s in range(n) if s != me}
        stream = rng.getrandbits(64)
        for j, cand in enumerate(candidates):
            passes = dict(others)
            passes[me] = mask_of(cand)
            masks = [mask_of(h) for h in hands]
            for s in range(n):
                masks[s] &= ~passes[s]
            for s in range(n):
                masks[(s + offset) % n] |= passes[s]
            pos = FastPosition.start(rules, masks, kitty=mask_of(kitty), dealer=rd.dealer,
                                     scores=view.scores)
            scores = playout_steps(pos, make_policy(rules.facts, random.Random(stream), 0.1))
            totals[j] += scores[me]
    return {cand: totals[j] / deals for j, cand in enumerate(candidates)}

