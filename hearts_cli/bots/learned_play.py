"""A playout policy learned from Hard's own cards: what Hard's search assumes the table plays.

Hard values a card by playing the round out for every seat, its own later cards
included, so its search is as good as its playout policy is a model of the
table. The heuristic (:func:`.playout.choose`) picks the card a Hard really
plays about half the time; this policy, fitted to Hard's cards (a conditional
logit over the legal cards, ``python -m bench.imitate``), picks it more often
and made Hard stronger (docs/bots.md, issue 35, "Eighth").

A card's score is a sum of weights, each looked up by one small feature of the
card and of what the seat knows (:func:`features`: its place in the trick, its
rank, the cards of its suit still out above and below it, the seat's length
in the suit, the Q♠, the moon threat, points on the table, hearts broken, and
whether the heuristic would play it). Only the lowest card of each class of
equivalent cards is scored, as the fit saw them. :func:`learned_card` is the
one plain reading of the features; :func:`learned_policy` folds the weights
into tables for the playouts, where a card must cost a few microseconds, and
``bench/imitate.py fit`` holds the two equal on every held-out decision.

The weights ship beside this module (``play_weights.json``) and are read the
first time Hard plays under the rules they were trained for
(:func:`.learned.trained_for`); under other rules it plays out with the heuristic.
Hard gives each seat of a playout this policy or the heuristic at random
(:func:`mixed_policy`, ``Tuning.learned_play``): it models Hards, the heuristic
Normals, and Hard cannot see whom it plays (docs/bots.md, issue 35, "Ninth").
"""

from __future__ import annotations

import json
import random
from importlib import resources

from ..base.jsonvalue import JsonValue
from ..model.cards import SUIT_MASKS
from ..model.rules import Facts, Moon, Rules
from ..play.fast import Position, StepPolicy, random_card
from .playout import QS, PolicyMaker, choose, sole_holder, threat

HIGH_SPADES = (1 << 50) | (1 << 51)
# a card's place: lead, follow (can duck), follow (cannot), last (can duck, no points on the
# table), last (can duck, points), last (cannot duck), discard; the same seven in the first trick
PLACES = 14
FIRST_TRICK = 7  # the places of the first trick follow the seven of the others

# the feature blocks (name, size per place), in order
BLOCKS = (
    ("rank", 4 * 13),  # the card
    ("out", 4 * 16),  # suit x cards of the suit still out above it (0-3+) x below it (0-3+)
    ("length", 4 * 5 * 4),  # suit x own length (1-5+) x cards of the suit out (0, 1-2, 3-5, 6+)
    ("place", 4 * 4),  # suit x the card's place in the suit (below)
    ("queen", 3 * 4),  # the Q♠ (played, mine, out) x the card (Q♠, K♠ or A♠, another spade, other)
    ("threat", 4 * 2 * 2),  # moon threat (none, me, another winning, another not) x penalty card x wins so far
    ("trick", 4 * 2 * 2),  # suit x points on the table x wins so far
    ("broken", 2 * 4),  # hearts broken x suit
    ("heuristic", 2),  # the heuristic's card or not
)
OFFSET: dict[str, int] = {}
_at = 0
for _name, _size in BLOCKS:
    OFFSET[_name] = _at
    _at += PLACES * _size
SIZE = _at  # the number of weights
O_RANK, O_OUT, O_LEN, O_PLACE, O_QUEEN, O_THREAT, O_TRICK, O_BROKEN, O_HEUR = (OFFSET[n] for n, _ in BLOCKS)


def _cap3(n: int) -> int:
    return n if n < 3 else 3


def context(facts: Facts, seat: int, hand: int, legal: int, trick: list[int], win_card: int,
            win_seat: int, taken: list[int], first: bool, broken: bool, runner: int) -> tuple[int, ...]:
    """What every card's features share: (place, cards still out, the Q♠ (0 played, 1 mine,
    2 out), the threat (0 none, 1 me, 2 another winning the trick, 3 another), points on the
    table, hearts broken, the led suit's mask or 0). ``runner``: the seat taken to be
    shooting the moon, or -1."""
    played = 0
    for t in taken:
        played |= t
    table = 0
    for x in trick:
        table |= 1 << x
    played |= table
    out = facts.in_play_mask & ~hand & ~played
    led = 0
    if not trick:
        place = 0
    else:
        led = SUIT_MASKS[trick[0] // 13]
        if legal & led:
            below = legal & ((1 << win_card) - 1)
            if len(trick) == facts.players - 1:
                place = 5 if not below else 4 if table & facts.penalty_mask else 3
            else:
                place = 1 if below else 2
        else:
            place = 6
    if first:
        place += FIRST_TRICK
    queen = 0 if played >> QS & 1 else 1 if hand >> QS & 1 else 2
    th = 0 if runner < 0 else 1 if runner == seat else 2 if win_seat == runner else 3
    return place, out, queen, th, 1 if table & facts.penalty_mask else 0, 1 if broken else 0, led


def features(facts: Facts, ctx: tuple[int, ...], hand: int, legal: int, win_card: int, card: int,
             heuristic: bool) -> list[int]:
    """The indexes of the weights that score ``card`` in ``ctx`` (:func:`context`).

    The card's place in its suit: following, the highest card that ducks, another that ducks,
    the lowest that wins, another that wins; leading or discarding, the suit's highest card
    in hand, its lowest, one between, the only one."""
    place, out, queen, th, pts, broken, led = ctx
    s = card // 13
    sm = SUIT_MASKS[s]
    hi = (out & sm & ~((2 << card) - 1)).bit_count()
    lo = (out & sm & ((1 << card) - 1)).bit_count()
    own = (hand & sm).bit_count()
    n_out = hi + lo
    out_b = 0 if not n_out else 1 if n_out <= 2 else 2 if n_out <= 5 else 3
    mine = legal & sm
    if led and legal & led:
        wins = 1 if card > win_card else 0
        if not wins:
            pl = 0 if card == (mine & ((1 << win_card) - 1)).bit_length() - 1 else 1
        else:
            over = mine & ~((1 << win_card) - 1)
            pl = 2 if card == (over & -over).bit_length() - 1 else 3
    else:
        wins = 0 if led else 1
        held = hand & sm
        top = card == held.bit_length() - 1
        bottom = card == (held & -held).bit_length() - 1
        pl = 3 if top and bottom else 0 if top else 1 if bottom else 2
    kind = 0 if card == QS else 1 if HIGH_SPADES >> card & 1 else 2 if s == 3 else 3
    pen = 1 if facts.points[card] else 0
    return [
        O_RANK + place * 52 + card,
        O_OUT + place * 64 + 16 * s + 4 * _cap3(hi) + _cap3(lo),
        O_LEN + place * 80 + 20 * s + 4 * (min(own, 5) - 1) + out_b,
        O_PLACE + place * 16 + 4 * s + pl,
        O_QUEEN + place * 12 + 4 * queen + kind,
        O_THREAT + place * 16 + 4 * th + 2 * pen + wins,
        O_TRICK + place * 16 + 4 * s + 2 * pts + wins,
        O_BROKEN + place * 8 + 4 * broken + s,
        O_HEUR + place * 2 + heuristic,
    ]


def class_low(card: int, legal: int, loose: int, points: tuple[int, ...]) -> int:
    """The lowest card of ``card``'s class of equivalent legal cards (``loose``: the cards still
    out or on the table; two cards of a suit worth the same points with none of those between
    them are equivalent), the card that stands for the class."""
    while True:
        below = legal & SUIT_MASKS[card // 13] & ((1 << card) - 1)
        if not below:
            return card
        prev = below.bit_length() - 1
        if points[prev] != points[card] or loose & ((1 << card) - (2 << prev)):
            return card
        card = prev


def learned_card(facts: Facts, weights: list[float], seat: int, hand: int, legal: int, trick: list[int],
                 win_card: int, win_seat: int, taken: list[int], first: bool, broken: bool,
                 runner: int, moon_heuristic: bool = False) -> int:
    """The legal card of highest score (ties: the lowest), scoring the lowest card of each
    class of equivalent cards: nothing still out or on the table between two cards of a
    suit worth the same points (the classes of Hard's search). ``moon_heuristic``: while a
    seat is taken to be shooting the moon (``runner``), the heuristic's card instead (its runs
    and defences; measured worse than the learned card, docs/bots.md, issue 35, "Eighth")."""
    ctx = context(facts, seat, hand, legal, trick, win_card, win_seat, taken, first, broken, runner)
    h = choose(facts, seat, hand, legal, trick, win_card, win_seat, 1 if ctx[2] else 0, runner)
    if moon_heuristic and runner >= 0:
        return h
    table = 0
    for x in trick:
        table |= 1 << x
    loose = ctx[1] | table
    pts = facts.points
    h = class_low(h, legal, loose, pts)
    best, best_v = -1, -1e300
    prev = -1
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        if prev >= 0 and prev // 13 == card // 13 and pts[prev] == pts[card] \
                and not loose & ((1 << card) - (2 << prev)):
            prev = card
            continue
        prev = card
        v = sum(weights[i] for i in features(facts, ctx, hand, legal, win_card, card, card == h))
        if v > best_v + 1e-9:
            best, best_v = card, v
    return best


class _Folded:
    """The weights folded for play: what depends on the card and the context alone summed once
    per context (on first use), what depends on the suit or the card's place read at the card."""

    def __init__(self, facts: Facts, w: list[float]) -> None:
        self.facts = facts
        self.w = w
        self.by_context: dict[int, tuple[list[float], list[float]]] = {}
        self.out = w[O_OUT:O_OUT + PLACES * 64]
        self.length = w[O_LEN:O_LEN + PLACES * 80]
        self.place = w[O_PLACE:O_PLACE + PLACES * 16]
        self.heuristic = w[O_HEUR:O_HEUR + PLACES * 2]

    def of(self, key: int) -> tuple[list[float], list[float]]:
        """Per card, (not winning the trick, winning it): the rank, queen, threat, trick and
        broken weights; ``key`` is ((((place, queen), threat), points), broken)."""
        got = self.by_context.get(key)
        if got is None:
            w, pts_of = self.w, self.facts.points
            rest, broken = divmod(key, 2)
            rest, pts = divmod(rest, 2)
            rest, th = divmod(rest, 4)
            place, queen = divmod(rest, 3)
            got = ([], [])
            for wins in (0, 1):
                row = got[wins]
                for card in range(52):
                    s = card // 13
                    kind = 0 if card == QS else 1 if HIGH_SPADES >> card & 1 else 2 if s == 3 else 3
                    pen = 1 if pts_of[card] else 0
                    row.append(w[O_RANK + place * 52 + card] + w[O_QUEEN + place * 12 + 4 * queen + kind]
                               + w[O_THREAT + place * 16 + 4 * th + 2 * pen + wins]
                               + w[O_TRICK + place * 16 + 4 * s + 2 * pts + wins]
                               + w[O_BROKEN + place * 8 + 4 * broken + s])
            self.by_context[key] = got
        return got


_CAP3 = tuple(min(n, 3) for n in range(14))
_OUT_BUCKET = tuple(0 if not n else 1 if n <= 2 else 2 if n <= 5 else 3 for n in range(14))  # cards out
_LENGTH = tuple(max(min(n, 5) - 1, 0) for n in range(14))  # own length 1-5+ -> 0-4


def _out_row(u: int) -> tuple[int, ...]:
    """For a suit whose cards still out are the 13-bit chunk ``u``: per rank, the ``out``
    block's index within the suit (4 x cards out above, capped at 3, + cards out below, capped)."""
    n = u.bit_count()
    row = []
    for r in range(13):
        lo = (u & ((1 << r) - 1)).bit_count()
        row.append(4 * _CAP3[n - lo - (u >> r & 1)] + _CAP3[lo])
    return tuple(row)


_OUT_ROWS: list[tuple[int, ...] | None] = [None] * 8192  # _out_row of each chunk, made on first use


def learned_policy(weights: tuple[float, ...], moon_heuristic: bool = False) -> PolicyMaker:
    """A maker of playout policies with :func:`.playout.make_policy`'s signature whose seats
    play :func:`learned_card` (``eps``: a random card instead; ``shooter``, ``threat_seat`` and
    ``suspect`` give the moon threat as there; ``flush`` and ``defender`` are the heuristic's
    switches and change nothing here; ``moon_heuristic``: see :func:`learned_card`)."""
    out_rows = _OUT_ROWS
    folds: dict[int, _Folded] = {}  # by the rules' facts (one per rule set a process plays)

    def maker(c: Facts | Rules, rng: random.Random, eps: float = 0.1, shooter: int = -1,
              threat_seat: int = -1, suspect: int = -1, flush: bool = False,
              defender: int = -1) -> StepPolicy:
        facts = c.facts if isinstance(c, Rules) else c
        folded = folds.get(id(facts))
        if folded is None or folded.facts is not facts:
            folded = folds[id(facts)] = _Folded(facts, list(weights))
        base_of, out_w, len_w, place_w, heur_w = folded.of, folded.out, folded.length, folded.place, folded.heuristic
        moon = facts.moon is not Moon.OFF and shooter < 0
        rnd = rng.random
        state = [shooter if shooter >= 0 else threat_seat]
        seen: list[int] = []  # the points taken when the threat was last looked at
        in_play, pen_mask, n, pts = facts.in_play_mask, facts.penalty_mask, facts.players, facts.points

        def policy(legal: int, seat: int, win_card: int, win_seat: int, pos: Position) -> int:
            if win_seat < 0 and moon and pos.points != seen:  # as the heuristic's policy does
                state[0] = threat(facts, pos.taken)
                if state[0] < 0 <= suspect and sole_holder(facts, pos.taken) in (suspect, -1):
                    state[0] = suspect
                seen[:] = pos.points
            if not legal & (legal - 1):
                return legal.bit_length() - 1
            if eps and rnd() < eps:
                return random_card(legal, rng)
            # context(), inlined
            hand = pos.hands[seat]
            trick = pos.trick
            runner = state[0]
            table = 0
            for x in trick:
                table |= 1 << x
            played = table
            for t in pos.taken:
                played |= t
            queen = 0 if played >> QS & 1 else 1 if hand >> QS & 1 else 2
            if moon_heuristic and runner >= 0:
                return choose(facts, seat, hand, legal, trick, win_card, win_seat, 1 if queen else 0, runner)
            out = in_play & ~hand & ~played
            loose = out | table
            following = False
            if not trick:
                place = 0
            else:
                if legal & SUIT_MASKS[trick[0] // 13]:
                    following = True
                    below = legal & ((1 << win_card) - 1)
                    if len(trick) == n - 1:
                        place = 5 if not below else 4 if table & pen_mask else 3
                    else:
                        place = 1 if below else 2
                else:
                    place = 6
            if pos.first_trick:
                place += FIRST_TRICK
            th = 0 if runner < 0 else 1 if runner == seat else 2 if win_seat == runner else 3
            key = (((place * 3 + queen) * 4 + th) * 2 + (1 if table & pen_mask else 0)) * 2 \
                + (1 if pos.hearts_broken else 0)
            lose_w, win_w = base_of(key)
            if trick and not following:
                win_w = lose_w  # a discard never wins
            h = class_low(choose(facts, seat, hand, legal, trick, win_card, win_seat, 1 if queen else 0, runner),
                          legal, loose, pts)
            h_yes, h_no = heur_w[place * 2 + 1], heur_w[place * 2]
            p16, p64, p80 = place * 16, place * 64, place * 80
            best, best_v = -1, -1e300
            for s in range(4):
                sm = SUIT_MASKS[s]
                mine = legal & sm
                if not mine:
                    continue
                out_s = out & sm
                suit_v = len_w[p80 + 20 * s + 4 * _LENGTH[(hand & sm).bit_count()] + _OUT_BUCKET[out_s.bit_count()]]
                pw = p16 + 4 * s
                ow = p64 + 16 * s
                top = bottom = duck_top = over_low = -1
                if following:
                    duck = mine & ((1 << win_card) - 1)
                    duck_top = duck.bit_length() - 1
                    over = mine & ~duck
                    over_low = (over & -over).bit_length() - 1
                else:
                    held = hand & sm
                    top = held.bit_length() - 1
                    bottom = (held & -held).bit_length() - 1
                oi = out_rows[out_s >> 13 * s]
                if oi is None:
                    oi = out_rows[out_s >> 13 * s] = _out_row(out_s >> 13 * s)
                between = loose & sm
                r0 = 13 * s
                prev = -1
                m = mine
                while m:
                    low = m & -m
                    m ^= low
                    card = low.bit_length() - 1
                    if prev >= 0 and pts[prev] == pts[card] and not between & ((1 << card) - (2 << prev)):
                        prev = card  # equivalent to the card before it: scored once
                        continue
                    prev = card
                    if following:
                        if card < win_card:
                            v = lose_w[card] + place_w[pw + (0 if card == duck_top else 1)]
                        else:
                            v = win_w[card] + place_w[pw + (2 if card == over_low else 3)]
                    else:
                        v = win_w[card] + place_w[
                            pw + (3 if card == top == bottom else 0 if card == top else 1 if card == bottom else 2)]
                    v += suit_v + out_w[ow + oi[card - r0]] + (h_yes if card == h else h_no)
                    if v > best_v + 1e-9:
                        best, best_v = card, v
            return best

        return policy

    return maker


_SHIPPED: list[tuple[float, ...]] = []  # the shipped weights, once read
_SHIPPED_POLICY: list[PolicyMaker] = []


def weights_of(text: str) -> tuple[float, ...]:
    """The weights of a weights file's text (``fit``'s output); ValueError if they are not
    :data:`SIZE` numbers."""
    data: JsonValue = json.loads(text)
    weights = data.get("weights") if isinstance(data, dict) else None
    read = [float(w) for w in weights if isinstance(w, (int, float))] if isinstance(weights, list) else []
    if len(read) != SIZE:
        raise ValueError(f"not {SIZE} weights: not the features of hearts_cli.bots.learned_play")
    return tuple(read)


def shipped_play_weights() -> tuple[float, ...]:
    """The weights that ship with the package (read once, on first use)."""
    if not _SHIPPED:
        _SHIPPED.append(weights_of(resources.files(__package__).joinpath("play_weights.json").read_text(encoding="utf-8")))
    return _SHIPPED[0]


def shipped_policy() -> PolicyMaker:
    """The learned policy of the shipped weights (made once a process)."""
    if not _SHIPPED_POLICY:
        _SHIPPED_POLICY.append(learned_policy(shipped_play_weights()))
    return _SHIPPED_POLICY[0]


def mixed_policy(first: PolicyMaker, second: PolicyMaker, share: float) -> PolicyMaker:
    """Playouts where each seat plays ``first``'s policy with chance ``share`` and ``second``'s
    otherwise, drawn once a playout from its random stream: the table's players are not known,
    so each is played out as either kind (the learned policy models Hards, the heuristic
    Normals: docs/bots.md, issue 35, "Ninth")."""
    def maker(c: Facts | Rules, rng: random.Random, *args: object) -> StepPolicy:
        one, two = first(c, rng, *args), second(c, rng, *args)
        facts = c.facts if isinstance(c, Rules) else c
        picks = [one if rng.random() < share else two for _ in range(facts.players)]

        def policy(legal: int, seat: int, win_card: int, win_seat: int, pos: Position) -> int:
            return picks[seat](legal, seat, win_card, win_seat, pos)
        return policy
    return maker
