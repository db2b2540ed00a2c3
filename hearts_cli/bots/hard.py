"""Hard: determinized search over deals consistent with the view.

For each decision in the play phase:

1. collapse the legal cards into distinct candidates (cards of one suit with
   nothing unseen between them, and worth the same points, are equivalent);
2. sample ``simulations`` deals consistent with the view
   (:mod:`hearts_cli.play.sampling`: voids shown, cards passed, hand sizes,
   the first lead);
3. on each deal, play every candidate and then the rest of the round with the
   heuristic playout policy (:mod:`hearts_cli.bots.playout`) on the project's
   one simulator, :mod:`hearts_cli.play.fast` (``fast.playout_steps`` with a policy
   hook), using the same random stream for every candidate on that deal
   (common random numbers); in the endgame (``ENDGAME_TRICKS`` cards left or
   fewer and ``ENDGAME_CARDS`` in all hands, past the first trick) each deal
   is instead solved exactly by a max-n search
   (:func:`hearts_cli.bots.playout.solve`);
4. score each result with the rules in force (moon, J♦, Spot Hearts, Black
   Maria) as own points minus the others' average; when the game can end this
   round, by the final margin to the best other seat with a bonus for winning
   if it ends, and by the seat's chance of winning the game from the totals if
   it goes on (:func:`win_chance`: a point given to the seat likeliest to win is
   worth more than one given to the last); pick the candidate with the best mean.

When no other seat has taken a penalty card and the hand looks strong enough,
every candidate is also tried with this seat playing for the moon, and the
better of the two plans counts: Hard shoots when its hand supports it. A moon
attempt by another seat is spotted inside the playouts (a seat holding every
penalty card taken so far), and the defenders there stop ducking and keep a
heart for it, so the search sees the 26 points coming and defends.

The pass is the learned evaluation's (:mod:`.learned`, trained by ``bench/train.py``):
it beat Hard with Normal's pass in whole games with passing (docs/bots.md, issue 35);
under rules it was not trained for, it is Normal's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..model.cards import CARDS, SUIT_MASKS, Card, mask_of
from ..model.rules import Moon, Rules
from ..play.fast import Position, playout_steps
from ..play.knowledge import knowledge
from ..play.round import SeatView
from ..play.sampling import Constraints, Sampler, constraints
from . import multi
from .common import Public, decision_rng, public, trick_winner
from .learned import DIRECTIONS, cards_of, learned_pass, ranked_passes, shipped_weights, trained_for
from .learned_play import mixed_policy, shipped_policy
from .normal import Voids, hand_pass, normal_pass
from .playout import PolicyMaker, make_policy, popcount, sole_holder, solve, threat

DEFAULT_SIMULATIONS = 120

# A search's deals, drawn at once: (view, pub, constraints, sampler, rng, count) -> hidden hands
# per deal, in the order of ``constraints.holders``.
DealDraw = Callable[[SeatView, Public, Constraints, Sampler, random.Random, int], list[list[int]]]
# A playout's value to the seat: (round scores, another seat shot the moon) -> lower is better.
Valuation = Callable[..., float]


@dataclass(frozen=True, slots=True)
class Tuning:
    """Hard's experiment switches, given explicitly; the defaults are the Hard people play.

    The benches try variants by making a ``HardBot(..., tuning=Tuning(...))``
    (``bench/tweak.py``); no module constant is patched from outside.
    """

    # when the round can end the game, another seat's moon is valued as if the game ended there:
    # the moon keeps the game going, which the match value otherwise rates far above losing it now
    moon_ends: bool = True
    endgame_tricks: int = 2  # with this many cards left or fewer, each sampled deal is solved exactly,
    endgame_cards: int = 12  # when the seats hold this many cards between them at most
    # the heuristic playout policy's spade flush (playout.choose; with learned_play=False): measured
    # against hard0, not shown to pay
    flush: bool = False
    # how a decision's deals are drawn; None: uniformly, one by one, from the sampler (the
    # belief sampling of bench/bots/belief.py was measured against hard0, not shown to pay)
    draw: DealDraw | None = None
    # the pass: the learned evaluation's (bots/learned.py, trained by bench/train.py); False: Normal's.
    # Measured in whole games with passing against Hard with Normal's pass (docs/bots.md, issue 35)
    learned_pass: bool = True
    # the pass searched: Normal's and the learned evaluation's ``pass_top`` best, each played out on
    # ``pass_deals`` sampled deals (0: no search)
    pass_deals: int = 0
    pass_top: int = 5
    # in a round that can end the game, a playout after which it goes on is valued by the seat's
    # chance of winning it from the totals then (:func:`win_chance`), times this many points; 0:
    # own points minus the others' average, the totals aside (the Hard before, docs/bots.md,
    # issue 35, "Sixth"). One that ends the game is the margin plus or minus 30 either way:
    # plus or minus half of these points was measured worse
    standings: float = 130.0
    # and in earlier rounds the round's value still (False: the chance there too, which took
    # more points a round in whole games and in single rounds against ISMCTS)
    standings_late: bool = True
    # in the heuristic playouts (learned_play=False) only this seat defends against another's moon
    # (the others play as if nobody shot); and the chance that a seat plays a random card at a
    # turn of a playout. Both measured against ISMCTS with the heuristic, neither shown to move it
    # (docs/bots.md, issue 35, "Seventh")
    lone_defence: bool = False
    playout_eps: float = 0.1
    # the chance that a seat of a playout plays the policy learned from Hard's cards
    # (bots/learned_play.py, fitted by bench/imitate.py), drawn for each seat of each playout,
    # under the rules its weights know; otherwise the heuristic (playout.choose). Every seat
    # learned (1) is stronger against Hards and ISMCTS and weaker against Normals, whose play the
    # heuristic models better; half and half is the better of the two against either
    # (docs/bots.md, issue 35, "Eighth" and "Ninth")
    learned_play: float = 0.5
    # another playout policy's maker, with :func:`playout.make_policy`'s signature, before
    # either (a bench experiment's: bench/bots/imitate.py gives the learned policy other weights)
    policy: PolicyMaker | None = None


PLAYED = Tuning()  # the Hard of the table
# study (``evaluate``: the hint, ``replay --analyze``) plays out the heuristic: a third of the
# learned playouts' time, so the hint stays as quick (docs/bots.md, issue 35, "Ninth")
STUDIED = replace(PLAYED, learned_play=0.0)


def distinct_candidates(pub: Public) -> list[int]:
    """One card per class of equivalent legal cards (the lowest of each)."""
    pts = pub.facts.points
    fixed = pub.hand | (pub.played & ~mask_of(pub.trick))
    out: list[int] = []
    for s in range(4):
        m = pub.legal & SUIT_MASKS[s]
        prev = -1
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            if prev >= 0:
                between = ((1 << c) - 1) & ~((2 << prev) - 1)
                if not between & ~fixed and pts[c] == pts[prev]:
                    prev = c
                    continue
            out.append(c)
            prev = c
    return out


# b = STANDINGS_SCALE / sqrt(gap + STANDINGS_OFFSET) in :func:`win_chance`, fitted by maximum
# likelihood on whole games of four Normals to 50 and to 100 (bench/standings.py)
STANDINGS_SCALE = 0.6
STANDINGS_OFFSET = 10.0


def win_chance(totals: Sequence[int], me: int, target: int) -> float:
    """The seat's chance of winning the game from ``totals``: ``exp(-b * total)``, shared out.

    The lower a total the likelier it wins, and the more so the nearer the highest total is to
    the target (``b`` grows as the rounds left, the noise still to come, shrink), so a point
    given to the seat most likely to win is worth more than one given to the last.
    """
    gap = max(target - max(totals), 0)
    return winning_shares(totals, STANDINGS_SCALE / math.sqrt(gap + STANDINGS_OFFSET))[me]


def winning_shares(totals: Sequence[int], b: float) -> list[float]:
    """Each seat's share of ``exp(-b * total)``: the softmax :func:`win_chance` reads (and
    bench/standings.py fits ``b`` with)."""
    low = min(totals)
    weights = [math.exp(b * (low - t)) for t in totals]
    norm = sum(weights)
    return [w / norm for w in weights]


def _value(scores: Sequence[int], me: int, before: Sequence[int], target: int,
           ending: bool, moon: bool = False, standings: float = 0.0) -> float:
    n = len(scores)
    if ending:  # the round can end the game: the match margin, and who wins, once it has
        final = [before[s] + scores[s] for s in range(n)]
        if max(final) >= target or moon:
            best_other = min(final[s] for s in range(n) if s != me)
            margin = final[me] - best_other
            return margin + (-30.0 if margin < 0 else 30.0 if margin > 0 else 0.0)
    if standings:  # the game goes on: the chance of winning it from there
        return standings * (0.5 - win_chance([before[s] + scores[s] for s in range(n)], me, target))
    others = (sum(scores) - scores[me]) / (n - 1)
    return scores[me] - others


def _moon_plausible(pub: Public) -> bool:
    ctx = pub.facts
    if ctx.moon is Moon.OFF:
        return False
    me = pub.seat
    mine = 0
    for s, m in enumerate(pub.taken):
        if m & ctx.penalty_mask:
            if s != me:
                return False
            mine = popcount(m & ctx.penalty_mask)
    high = sum(1 for c in range(52) if pub.hand >> c & 1 and c % 13 >= 9)
    size = popcount(pub.hand)
    return mine >= 3 or high * 2 >= size + 1


def _weigh(view: SeatView, pub: Public, cands: Sequence[int], rng: random.Random, simulations: int,
           value: Valuation, tuning: Tuning = PLAYED) -> list[float]:
    """Mean ``value`` of each candidate over ``simulations`` sampled deals.

    Every candidate is played on the same deals with the same random stream;
    when a moon is plausible for this seat each candidate also gets the plan
    of shooting, and its better plan counts. With ``tuning.moon_ends`` a
    playout's value is ``value(scores, moon)``, ``moon`` telling that another
    seat shot.
    """
    ctx = pub.facts
    con = constraints(knowledge(view))  # (what the seat knows: only the search needs all of it)
    left = popcount(pub.hand)
    endgame = pub.ntricks > 0 and left <= tuning.endgame_tricks and left * ctx.players <= tuning.endgame_cards
    plans = [-1, pub.seat] if not endgame and _moon_plausible(pub) else [-1]
    totals = [[0.0] * len(cands) for _ in plans]
    # the public part of every sampled deal: tricks, points, taken cards, the trick in progress
    base = Position.from_view(view, [0] * ctx.players)
    deals = max(1, simulations)
    sampler = Sampler(con)
    drawn = tuning.draw(view, pub, con, sampler, rng, deals) if tuning.draw is not None else None
    playouts = _Playouts(view, pub, base, cands, plans, value, tuning)
    for d in range(deals):
        root = _dealt(base, con.holders, drawn[d] if drawn is not None else sampler.sample(rng),
                      not view.tricks, pub)
        if endgame:
            row = totals[0]
            for j, scores in enumerate(solve(ctx, root, cands)):
                row[j] += value(scores)
        else:
            playouts.add(root, rng.getrandbits(64), totals)
    return [min(t[j] for t in totals) / deals for j in range(len(cands))]


def _dealt(base: Position, holders: Sequence[int], assigned: Sequence[int], first: bool, pub: Public) -> Position:
    """``base`` with the hidden hands of one sampled deal (the kitty too, before the first trick)."""
    root = base.copy()
    hands = root.hands
    for h, m in zip(holders, assigned):
        if h < 0:
            if first:
                root.kitty = m
        else:
            hands[h] = m
    hands[pub.seat] = pub.hand
    return root


class _Playouts:
    """Every candidate under every plan played out on one deal, with one random stream."""

    def __init__(self, view: SeatView, pub: Public, base: Position, cands: Sequence[int], plans: list[int],
                 value: Valuation, tuning: Tuning) -> None:
        ctx = pub.facts
        self.ctx = ctx
        self.me = pub.seat
        self.cands = cands
        self.plans = plans
        self.value = value
        self.flush = tuning.flush
        self.defender = pub.seat if tuning.lone_defence else -1
        self.eps = tuning.playout_eps
        self.make_policy = tuning.policy or playout_policy(tuning.learned_play, view.rules)
        moon = ctx.moon is not Moon.OFF
        self.runner = moon_suspect(view, pub) if moon else -1
        threat0 = threat(ctx, base.taken) if moon else -1
        self.threat0 = self.runner if threat0 < 0 else threat0
        self.judge_moons = tuning.moon_ends and moon

    def add(self, root: Position, stream: int, totals: list[list[float]]) -> None:
        """Add each candidate's value on the deal ``root`` to ``totals`` (a row per plan)."""
        ctx, me, value = self.ctx, self.me, self.value
        pen = ctx.penalty_mask
        for p, shooter in enumerate(self.plans):
            row = totals[p]
            for j, c in enumerate(self.cands):
                pos = root.copy()
                pos.play(c)
                r = random.Random(stream)
                policy = self.make_policy(ctx, r, self.eps, shooter, self.threat0, self.runner, self.flush,
                                          self.defender)
                scores = playout_steps(pos, policy)
                row[j] += value(scores, any(t & pen == pen for s, t in enumerate(pos.taken) if s != me)) \
                    if self.judge_moons else value(scores)


def playout_policy(learned: float, rules: Rules) -> PolicyMaker:
    """The playouts' policy maker: each seat learned with chance ``learned`` (see Tuning)."""
    if learned <= 0 or not trained_for(rules):
        return make_policy
    if learned >= 1:
        return shipped_policy()
    return mixed_policy(shipped_policy(), make_policy, learned)


SUSPECT_TRICKS = 3  # tricks another seat must have won, and
SUSPECT_LEADS = 2  # high cards (queen or better) it must have led, to be taken for a runner
SUSPECT_RANK = 10


def moon_suspect(view: SeatView, pub: Public) -> int:
    """Another seat that plays like a moon runner before it holds enough points to be a
    threat: it holds every penalty card taken so far (perhaps none yet), has won
    ``SUSPECT_TRICKS`` tricks and led ``SUSPECT_LEADS`` high cards (a ducking player
    leads low). -1 when there is none."""
    ctx = pub.facts
    who = sole_holder(ctx, pub.taken)
    if who == -2:  # several seats have taken points: no moon
        return -1
    n = ctx.players
    won = [0] * n
    high = [0] * n
    for tr in view.tricks:
        if tr.winner is None:
            continue
        won[tr.winner] += 1
        if tr.cards[0] % 13 >= SUSPECT_RANK:
            high[tr.leader] += 1
    cands = [who] if who >= 0 else range(n)
    for s in cands:
        if s != pub.seat and won[s] >= SUSPECT_TRICKS and high[s] >= SUSPECT_LEADS:
            return s
    return -1


def sure_stop(pub: Public, voids: Voids, shooter: int, card: int) -> bool:
    """After ``card`` the trick surely gives a penalty card to a seat other than ``shooter``.

    From the view alone: the seats still to play after us cannot change the
    winner (void in the suit led, or no unseen card of it above the winner).
    A lead stops only with a penalty card nobody can beat (we take it ourselves).
    """
    ctx = pub.facts
    n = ctx.players
    trick = pub.trick + [card]
    if len(trick) == 1:
        suit = card // 13
        return bool(ctx.penalty_mask >> card & 1) and ctx.points[card] <= 1 and \
            not pub.unseen & SUIT_MASKS[suit] & ~((2 << card) - 1)
    wc, ws = trick_winner(trick, pub.leader, n)
    if ws == shooter or not any(ctx.penalty_mask >> x & 1 for x in trick):
        return False
    above = pub.unseen & SUIT_MASKS[wc // 13] & ~((2 << wc) - 1)
    for i in range(len(trick), n):
        s = (pub.leader + i) % n
        if above and wc // 13 not in voids[s]:
            return False
    return True


def search(view: SeatView, seed: int, simulations: int, tuning: Tuning = PLAYED) -> Card:
    """Hard's card: the candidate with the best mean value (see the module's docstring).

    Two guards while another seat has a moon in view (:func:`moon_seat`: it
    holds every penalty card taken so far, at least ``threat_min`` of them or
    the Q♠ and another, or it plays like a runner before that), both always:

    - a candidate that surely stops the moon now (:func:`sure_stop`) is played
      (the best of them). The playouts assume the other seats defend too, and
      they may not; near the end of a game the match value can prefer a moon
      that keeps the game going; and a few points taken early are cheap beside
      26. Issue 11: Hard never lets a moon through that one card would stop.
    - otherwise Hard keeps a heart that surely wins a heart trick
      (:func:`gives_up_stopper`) while it has another card to play.
    """
    pub = public(view)
    legal = pub.legal
    if not legal & (legal - 1):
        return CARDS[legal.bit_length() - 1]
    cands = distinct_candidates(pub)
    if len(cands) == 1:
        return CARDS[cands[0]]
    rng = decision_rng(seed, view, "hard")
    me = pub.seat
    before = tuple(view.scores)
    target = pub.facts.target
    ending = max(before) + pub.facts.penalty_total >= target
    standings = tuning.standings if ending or not tuning.standings_late else 0.0
    seen: dict[tuple[bool, tuple[int, ...]], float] = {}

    def value(scores: Sequence[int], moon: bool = False) -> float:
        if not standings:  # the round's value: cheaper than remembering it
            return _value(scores, me, before, target, ending, moon)
        key = (moon, tuple(scores))  # the chance of winning: few distinct scores, each computed once
        v = seen.get(key)
        if v is None:
            v = seen[key] = _value(scores, me, before, target, ending, moon, standings)
        return v

    means = _weigh(view, pub, cands, rng, simulations, value, tuning)

    def by_mean(j: int) -> tuple[float, int]:
        return (means[j], j)

    best = min(range(len(cands)), key=by_mean)
    shooter = moon_seat(view, pub)
    if shooter >= 0:
        stops = [j for j, c in enumerate(cands) if sure_stop(pub, view.voids, shooter, c)]
        if stops:
            if best not in stops:
                best = min(stops, key=by_mean)
        elif gives_up_stopper(pub, cands[best]):
            keep = [j for j, c in enumerate(cands) if not gives_up_stopper(pub, c)]
            if keep:
                best = min(keep, key=by_mean)
    return CARDS[cands[best]]


def moon_seat(view: SeatView, pub: Public) -> int:
    """Another seat with a moon in view: a threat by the points it holds, or a suspect."""
    ctx = pub.facts
    if ctx.moon is Moon.OFF:
        return -1
    who = threat(ctx, pub.taken)
    if who >= 0:
        return who if who != pub.seat else -1
    return moon_suspect(view, pub)


def sure_stopper(hand: int, unseen: int, penalty: int) -> int:
    """Our highest heart when no unseen heart ranks above it (it wins any heart trick), or -1."""
    hearts = hand & SUIT_MASKS[2] & penalty
    if not hearts:
        return -1
    top = hearts.bit_length() - 1
    return -1 if unseen & SUIT_MASKS[2] & ~((2 << top) - 1) else top


def gives_up_stopper(pub: Public, card: int) -> bool:
    """Playing ``card`` leaves us without a heart that surely wins a heart trick."""
    pen = pub.facts.penalty_mask
    return sure_stopper(pub.hand, pub.unseen, pen) >= 0 and \
        sure_stopper(pub.hand & ~(1 << card), pub.unseen, pen) < 0


def evaluate(view: SeatView, seed: int, simulations: int) -> dict[Card, float]:
    """Expected round points for the seat of every legal card, as Hard weighs them.

    For study (``hearts replay --analyze``, the hint): the same sampled deals
    and endgame search as :func:`search`, measured in the seat's own points
    (lower is better), with the heuristic playouts (``STUDIED``). Equivalent
    cards share a value.
    """
    pub = public(view)
    stands_for = _classes(pub)
    cands = sorted(set(stands_for.values()))
    if len(cands) == 1:
        return dict.fromkeys(stands_for, 0.0)
    me = pub.seat
    means = _weigh(view, pub, cands, decision_rng(seed, view, "analysis"), simulations,
                   lambda scores, moon=False: float(scores[me]), STUDIED)
    value = dict(zip(cands, means))
    return {c: value[rep] for c, rep in stands_for.items()}


def hard_pass(view: SeatView, tuning: Tuning = PLAYED, seed: int = 0) -> tuple[Card, ...]:
    if tuning.pass_deals > 0:
        return searched_pass(view, seed, tuning.pass_deals, tuning.pass_top)
    if tuning.learned_pass:
        return learned_pass(view)
    return normal_pass(view)


def searched_pass(view: SeatView, seed: int, deals: int, top: int) -> tuple[Card, ...]:
    """The pass of best mean value among Normal's and the learned evaluation's ``top`` best.

    Each of ``deals`` sampled deals gives the cards this seat cannot see to the
    other seats at random; they pass by Normal's rule, the exchange is made and
    the round is played out with the playout policy, every candidate on the same
    deal with the same random stream, valued as the search values a round. Ties
    go to Normal's pass. Under rules the evaluation was not trained for: Normal's.
    """

    rules = view.rules
    normal = normal_pass(view)
    if view.direction not in DIRECTIONS or not trained_for(rules):
        return normal
    hand = mask_of(view.hand)
    first = mask_of(normal)
    cands = [first] + [g for g in ranked_passes(shipped_weights(), hand, DIRECTIONS.index(view.direction),
                                                rules.pass_count, top) if g != first]
    if len(cands) == 1:
        return normal
    rng = decision_rng(seed, view, "pass")
    n = rules.players
    me = view.seat
    off = view.direction.receiver(0, n)
    before = tuple(view.scores)
    target = rules.target
    ending = max(before) + rules.penalty_total >= target
    unseen = [c for c in range(52) if rules.in_play_mask >> c & 1 and not hand >> c & 1]
    others = [s for s in range(n) if s != me]
    size = len(view.hand)
    totals = [0.0] * len(cands)
    for _ in range(max(1, deals)):
        rng.shuffle(unseen)
        hands = [0] * n
        hands[me] = hand
        passes = [0] * n
        at = 0
        for s in others:
            dealt = sorted(unseen[at:at + size])
            at += size
            hands[s] = mask_of(CARDS[c] for c in dealt)
            passes[s] = mask_of(hand_pass(rules, [CARDS[c] for c in dealt]))
        stream = rng.getrandbits(64)
        for j, g in enumerate(cands):
            passes[me] = g
            after = [hands[s] & ~passes[s] for s in range(n)]
            for s in range(n):
                after[(s + off) % n] |= passes[s]
            pos = Position.start(rules, after, scores=before)
            scores = playout_steps(pos, make_policy(rules.facts, random.Random(stream), 0.1))
            totals[j] += _value(scores, me, before, target, ending)

    def by_total(j: int) -> tuple[float, int]:
        return (totals[j], j)

    best = min(range(len(cands)), key=by_total)
    return tuple(CARDS[c] for c in cards_of(cands[best]))


def equivalent_cards(view: SeatView) -> dict[Card, Card]:
    """Every legal card -> the card that stands for its class of equivalent cards."""
    return _classes(public(view))


def _classes(pub: Public) -> dict[Card, Card]:
    # a legal card is equivalent to the highest candidate of its suit at or below it
    cands = distinct_candidates(pub)
    return {CARDS[c]: CARDS[max(x for x in cands if x <= c and x // 13 == c // 13)]
            for c in range(52) if pub.legal >> c & 1}


class HardBot:
    """Hard; ``tuning`` holds its experiment switches (the benches' variants), the table's by default."""

    level = "hard"

    def __init__(self, seed: int = 0, simulations: int | None = None, *, tuning: Tuning = PLAYED) -> None:
        self.seed = seed
        self.simulations = DEFAULT_SIMULATIONS if simulations is None else simulations
        self.given = simulations  # two decks: worlds per decision, when given
        self.tuning = tuning

    def choose_pass(self, view: SeatView) -> tuple[Card, ...]:
        return hard_pass(view, self.tuning, self.seed)

    def choose_card(self, view: SeatView) -> Card:
        if view.rules.decks > 1:  # a hand may hold a card twice: the generic two-deck search

            return multi.search(view, self.seed, multi.DEFAULT_WORLDS if self.given is None else self.given)
        return search(view, self.seed, self.simulations, self.tuning)

