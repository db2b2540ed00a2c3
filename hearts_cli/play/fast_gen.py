"""Code generated from the one definition of the rules, for the fast playout path.

:mod:`hearts_cli.play.core` writes the rules once: a chain of legality
restrictions (:data:`core.RESTRICTIONS`), the trick winner (:data:`core.BEATS`)
and the scores. This module *reads* them and writes, once per rule set, the
Python source of:

* ``playout_steps(pos, policy)``: the Hard player's playout loop, with the
  restrictions in force written out as plain ``legal = legal & M or legal``
  lines (:func:`steps_source`);
* ``play`` and ``round_``: the random playout loops on suit chunks
  (:func:`loop_source`; see docs/speed.md for how they are fast).

Nothing here decides a rule: a restriction removed from ``core`` disappears
from every generated function, one added appears in them. The chunk loops
assume a shape of the rules (a follower's card of the led suit is one list
index; among the led suit the higher rank wins); :func:`chunk_shape_holds`
checks that shape against ``core`` and, when it does not hold (a two-deck
game, say), the fast path plays through :class:`fast.Position` instead.
``tests/test_core_paths.py`` holds every generated function equal to the
engine on random positions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import CodeType
from typing import cast

from ..model.cards import SUIT_MASKS
from ..model.rules import Moon, Rules
from . import core

# the chunk loops (generated): a trick boundary played on (leader, hearts broken, kitty), a whole round
PlayLoop = Callable[..., tuple[int, bool, int]]
RoundLoop = Callable[..., tuple[int, ...]]

# ---------------------------------------------------------------- tables the generated code reads


def _suit_chunks(suit: int) -> tuple[tuple[int, ...], ...]:
    """For each 13-bit chunk of ``suit``, its cards (plain ints) in order."""
    out: list[tuple[int, ...]] = [()]
    for chunk in range(1, 8192):
        low = chunk & -chunk
        out.append((13 * suit + low.bit_length() - 1,) + out[chunk ^ low])
    return tuple(out)


def _rank_chunks() -> tuple[tuple[int, ...], ...]:
    """For each 13-bit chunk, its rank bits (``1 << r``), lowest first."""
    out: list[tuple[int, ...]] = [()]
    for chunk in range(1, 8192):
        low = chunk & -chunk
        out.append((low,) + out[chunk ^ low])
    return tuple(out)


# suit s, 13-bit chunk -> its cards: mask -> cards (and a random card) with no bit loop
CHUNK_CARDS = tuple(_suit_chunks(s) for s in range(4))
RANKS = _rank_chunks()                          # chunk -> its rank bits in order
COUNT = tuple(len(t) for t in RANKS)            # chunk -> how many cards
SUIT_OF = tuple(c // 13 for c in range(52))     # card -> suit
RBIT = tuple(1 << c % 13 for c in range(52))    # card -> its bit in its suit's chunk
BIT = tuple(1 << c for c in range(52))
SHIFT = (0, 13, 26, 39)
_CHUNK_EXPR = ("{h} & 8191", "{h} >> 13 & 8191", "{h} >> 26 & 8191", "{h} >> 39")

_TABLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def chunk_points(points: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """Points of every 13-bit chunk of ``suit`` (shared between rule sets)."""
    key = (suit,) + points[13 * suit:13 * suit + 13]
    table = _TABLES.get(key)
    if table is None:
        vals = key[1:]
        if not any(vals):
            table = (0,) * 8192
        else:
            lst = [0] * 8192
            for chunk in range(1, 8192):
                low = chunk & -chunk
                lst[chunk] = lst[chunk ^ low] + vals[low.bit_length() - 1]
            table = tuple(lst)
        _TABLES[key] = table
    return table


def points_expr(rules: Rules, m: str) -> str:
    """Source for the points of mask ``m``: one chunk table per suit that scores."""
    parts = [f"P{u}[{_CHUNK_EXPR[u].format(h=m)}]" for u in range(4)
             if any(rules.points[13 * u:13 * u + 13])]
    return " + ".join(parts) or "0"


def point_tables(rules: Rules) -> dict[str, tuple[int, ...]]:
    return {f"P{u}": chunk_points(rules.points, u) for u in range(4)}


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


# ---------------------------------------------------------------- a chain of restrictions as code


def _const(consts: dict[str, int], m: int) -> str:
    """The name of constant mask ``m`` in the generated code (one name per value)."""
    for name, value in consts.items():
        if value == m:
            return name
    name = f"M{len(consts)}"
    consts[name] = m
    return name


def chain_source(rules: Rules, when: str, consts: dict[str, int], *, first: str | bool = "first",
                 broken: str | bool = "broken", hand: str = "legal",
                 lead: str = "1 << lead_card(hands)") -> str:
    """Source that narrows ``hand`` (a mask variable) by the restrictions of
    :data:`core.RESTRICTIONS` for ``when``, in their order and with their
    semantics (keep what is allowed unless that leaves nothing; a final rule
    that keeps something ends the chain). ``first``/``broken`` name the
    variables that say whether this is the first trick and whether hearts
    are broken, or are True/False when the caller knows; ``lead`` is the
    expression of the card that must lead; constant masks go into ``consts``."""
    rows = []
    for x in core.RESTRICTIONS:
        if when not in x.when:
            continue
        m = x.allows(rules)
        if m == core.ALL:
            continue
        conds = []
        if x.first_trick and first is not True:
            if first is False:
                continue
            conds.append(first)
        if x.unbroken and broken is not False:
            if broken is True:
                continue
            conds.append(f"not {broken}")
        if m == core.LED_SUIT:
            expr = "SUIT[led]"
        elif m == core.LEAD_CARD:
            expr = lead
        else:
            expr = _const(consts, m)
        rows.append((" and ".join(conds), expr, x.final, x.reason))

    def emit(rows: list[tuple[str, str, bool, str]]) -> str:
        if not rows:
            return ""
        cond, expr, final, why = rows[0]
        rest = emit(rows[1:])
        if not final:
            body = f"{hand} = {hand} & {expr} or {hand}  # {why}\n"
            return (f"if {cond}:\n" + _indent(body, 4) if cond else body) + rest
        body = (f"kept = {hand} & {expr}  # {why}\nif kept:\n    {hand} = kept\n"
                + ("else:\n" + _indent(rest, 4) if rest else ""))
        if cond:
            return f"if {cond}:\n" + _indent(body, 4) + ("else:\n" + _indent(rest, 4) if rest else "")
        return body

    return emit(rows)


# ---------------------------------------------------------------- playout_steps


_STEPS = """\
def playout_steps(pos, policy, {locals}):
    hands, taken, points, trick = pos.hands, pos.taken, pos.points, pos.trick
    leader = pos.leader
    broken = pos.hearts_broken
    first = pos.first_trick
    wc = ws = -1
    tm = 0
    led = 0
    for i, x in enumerate(trick):  # a trick in progress
        tm |= 1 << x
        if not i:
            led = x // 13
            wc, ws = x, leader
        elif {beats_x}:
            wc, ws = x, (leader + i) % {n}
    while True:
        k = len(trick)
        if k:
            seat = (leader + k) % {n}
            legal = hand = hands[seat]
{follow}\
        else:
            seat = leader
            legal = hand = hands[seat]
            if not hand:
                break
{lead}\
        c = policy(legal, seat, wc, ws, pos)
        b = 1 << c
        hands[seat] = hand & ~b
        if not broken and BRK & b:
            broken = pos.hearts_broken = True
        trick.append(c)
        tm |= b
        if not k:
            led = c // 13
            wc, ws = c, seat
        elif {beats_c}:
            wc, ws = c, seat
        if k + 1 == {n}:
            if first:
                tm |= pos.kitty
                pos.kitty = 0
                first = pos.first_trick = False
            taken[ws] |= tm
            points[ws] += {points}
            trick.clear()
            leader = pos.leader = ws
            wc = ws = -1
            tm = 0
    return score(taken, points, pos.scores)
"""


def steps_source(rules: Rules, consts: dict[str, int]) -> str:
    """The source of ``playout_steps`` for ``rules`` (see :func:`hearts_cli.play.fast.playout_steps`)."""
    follow = chain_source(rules, core.FOLLOW, consts)
    lead = chain_source(rules, core.LEAD, consts)
    names = ["SUIT", "BRK", "score", "lead_card", "P0", "P1", "P2", "P3"] + sorted(consts)
    return _STEPS.format(
        locals=", ".join(f"{x}={x}" for x in names),  # read as locals: cheaper than globals
        n=rules.players,
        beats_x=core.BEATS.format(c="x", w="wc", led="led"),
        beats_c=core.BEATS.format(c="c", w="wc", led="led"),
        follow=_indent(follow, 12),
        lead=_indent(lead, 12),
        points=points_expr(rules, "tm"),
    )


def scorer(rules: Rules) -> Callable[..., tuple[int, ...]]:
    """``score(taken, points, before)``: the round's scores, by :func:`core.score_round`
    when somebody may have shot the moon (or a seat may get ``no_trick_bonus``), else the
    points themselves."""
    if rules.no_trick_bonus or rules.sun:
        return lambda taken, points, before: core.score_round(rules, taken, points, before).scores
    if rules.moon is Moon.OFF:
        return lambda taken, points, before: tuple(points)
    pm = rules.penalty_mask

    def score(taken: Sequence[int], points: Sequence[int], before: Sequence[int]) -> tuple[int, ...]:
        for t in taken:
            if t & pm == pm:
                return core.score_round(rules, taken, points, before).scores
        return tuple(points)

    return score


def compile_steps(rules: Rules) -> Callable[..., tuple[int, ...]]:
    consts: dict[str, int] = {}
    source = steps_source(rules, consts)
    space: dict[str, object] = {"SUIT": SUIT_MASKS, "lead_card": core.lead_card,
                                "BRK": rules.breaks_mask, "score": scorer(rules),
                                **point_tables(rules), **consts}
    exec(_compiled(source, "playout_steps"), space)
    return cast("Callable[..., tuple[int, ...]]", space["playout_steps"])  # the source defines it


@functools.cache
def _compiled(source: str, what: str) -> CodeType:
    return compile(source, f"<hearts_cli.play.fast_gen {what}>", "exec")


# ---------------------------------------------------------------- the random loops on suit chunks
#
# The hot loop works on *suit chunks*: S<u>[s] is the 13-bit chunk of suit u
# in seat s's hand (bit r: the card of rank index r). Following suit, the
# common play, is then one list index, one table index and one pick, with no
# shift. The code is generated once per rule set: the n - 1 followers of a
# trick are straight-line code, and each restriction of the chain either is
# in the text or is not, so nothing a rule set has decided is tested at run
# time. Cards taken out of a chunk and added to a trick are disjoint, so the
# loop subtracts and adds (specialized int bytecodes) where it means ^ and |.
# Two functions share the trick code: `play` (from a trick boundary of a
# Position) and `round_` (a whole random round: deal string to scores).


@functools.cache
def chunk_shape_holds() -> bool:
    """Whether ``core`` has the shape the chunk loops are written for: within a
    trick, a card beats the card winning so far exactly when it is of the led
    suit and of higher rank (so a follower's card is compared by its rank bit,
    and a discard never wins)."""
    for led in range(4):
        for w in range(13 * led, 13 * led + 13):
            for c in range(52):
                if core.beats(c, w, led) != (c // 13 == led and c % 13 > w % 13):
                    return False
    return True


def _full_mask(seat: str) -> str:
    return f"S0[{seat}] | S1[{seat}] << 13 | S2[{seat}] << 26 | S3[{seat}] << 39"


_PICK_FROM_H = """\
t = C0[h & 8191] + C1[h >> 13 & 8191] + C2[h >> 26 & 8191] + C3[h >> 39]
"""


def _masks_source(chain: tuple[tuple[str, int, bool], ...], consts: dict[str, int]) -> str | None:
    """``h = h & M or h`` lines for a chain of constant masks; None when the chain
    holds something else."""
    out = []
    for why, m, _final in chain:
        if m < 0:
            return None
        else:
            expr = _const(consts, m)
        out.append(f"h = h & {expr} or h  # {why}\n")
    return "".join(out)


def _lead_source(chain: tuple[tuple[str, int, bool], ...], seat: str,
                 consts: dict[str, int]) -> str | None:
    """Source that leaves in ``t`` the cards ``seat`` may lead (a later trick)."""
    every = [f"C{u}[S{u}[{seat}]]" for u in range(4)]
    if not chain:
        return "t = " + " + ".join(every) + "\n"
    if len(chain) == 1 and chain[0][1] >= 0:
        m = chain[0][1]
        kept = [u for u in range(4) if m & SUIT_MASKS[u] == SUIT_MASKS[u]]
        dropped = [u for u in range(4) if not m & SUIT_MASKS[u]]
        if kept and dropped and len(kept) + len(dropped) == 4:  # whole suits: no shifts
            return ("t = " + " + ".join(every[u] for u in kept) + " or "
                    + " + ".join(every[u] for u in dropped) + f"  # {chain[0][0]}\n")
    masks = _masks_source(chain, consts)
    if masks is None:
        return None
    return f"h = {_full_mask(seat)}\n" + masks + _PICK_FROM_H


_FOLLOW = """\
f = col[{s}]
if f:
    b = R[f][grb(26) * N[f] >> 26]
    col[{s}] = f - b
    tl += b
    if b > best:
        best = b
        w = {s}
else:
{discard}"""

# A follow to the first trick when the first-trick rule can bind a follower (a
# free first lead: spades led, the Q♠ stays home while another spade follows):
# the suit's cards, narrowed by the rule unless that leaves none (core.RESTRICTIONS)
_FOLLOW_FIRST = _FOLLOW.replace("    b = R[f][grb(26) * N[f] >> 26]\n",
                                "    g = f & {allowed}[led] or f\n    b = R[g][grb(26) * N[g] >> 26]\n")

_DISCARD_PICK = """\
c = t[grb(26) * len(t) >> 26]
COL[SU[c]][{s}] -= RB[c]
dm += B[c]
"""

_TRICK = """\
led = SU[c]
best = tl = RB[c]
col = COL[led]
col[L] -= tl
dm = 0
w = L
{seats} = FOL[L]
{followers}\
T[w] += (tl << SH[led]) + dm
L = w
"""

_FIRST_LEAD = """\
h = {full}
{chain}\
t = C0[h & 8191] + C1[h >> 13 & 8191] + C2[h >> 26 & 8191] + C3[h >> 39]
c = t[grb(26) * len(t) >> 26]
"""

# from a trick boundary: the first trick (if it is still to come), tricks
# while hearts are unbroken, then the rest
_BODY = """\
if first and left:
    left -= 1
{first_lead}{first_trick}\
    T[w] += kitty
    kitty = 0
    if not broken and ({breaks}):
        broken = True
if not broken:
    while left:
        left -= 1
{unbroken_lead}\
        c = t[grb(26) * len(t) >> 26]
{trick_a}\
        if {breaks}:
            broken = True
            break
for _ in range(left):
{broken_lead}\
    c = t[grb(26) * len(t) >> 26]
{trick_b}\
"""

_CONSTANTS = ("C0=C0, C1=C1, C2=C2, C3=C3, R=R, N=N, SU=SU, RB=RB, B=B, SH=SH, FOL=FOL, "
              "BRK=BRK, len=len")

_PLAY = """\
def play(hands, T, L, left, first, broken, kitty, grb, low, {constants}):
    {unpack} = hands
{chunks}\
    COL = (S0, S1, S2, S3)
{body}\
    return L, broken, kitty
"""

_ROUND = """\
def round_(grb, tables, dealer, scores, {constants}, KB=KB, KM=KM, KF=KF, ORDER=ORDER,
           PACK=PACK, LOW=LOW, SPANS=SPANS, KT=KT, INPLAY=INPLAY, {point_tables}, PM=PM, MOON=MOON,
           lead_card=lead_card):
    keys = memoryview((grb(KB) & KM | KF).to_bytes(KB >> 3, ORDER)).cast("d").tolist()
    keys.sort()
    s = PACK(*keys)[LOW::8]
{spans}\
    {tables} = tables
    kitty = {kitty}
{hands}\
{chunks}\
    COL = (S0, S1, S2, S3)
{leader}\
    T = [0] * {n}
    left = {hand_size}
    first = True
    broken = False
{body}\
    {unpack} = T
{moon}\
    return ({points})
"""


def loop_source(rules: Rules, consts: dict[str, int], *, spans: bool, kitty: bool) -> str | None:
    """The source of ``play`` and ``round_`` for ``rules``, or None when the rules
    do not have the shape the chunk loops are written for."""
    if not chunk_shape_holds():
        return None
    found = _body_source(rules, consts)
    if found is None:
        return None
    body, lead_first = found
    n = rules.players
    hs = [f"h{i}" for i in range(n)]
    chunks = "".join(f"    S{u} = [{', '.join(_CHUNK_EXPR[u].format(h=h) for h in hs)}]\n"
                     for u in range(4))
    play = _PLAY.format(constants=_CONSTANTS, unpack=", ".join(hs), chunks=chunks,
                        body=_indent(body, 4))
    return play + "\n\n" + _round_source(rules, body, chunks, _leader_source(rules, lead_first),
                                         spans=spans, kitty=kitty)


def _discard_source(rules: Rules, consts: dict[str, int], first: bool, broken: bool) -> str | None:
    """A follower's card when it cannot follow (``{s}`` the seat), or None."""
    chain = core.chain(rules, core.FOLLOW, first, broken)
    # a follower's first rule must be "follow the led suit"; the rest narrow a
    # discard here, and a follow to the first trick in _trick_source (first_follow)
    if not chain or chain[0][1] != core.LED_SUIT:
        return None
    rest = chain[1:]
    if not rest:
        return ("t = " + " + ".join(f"C{u}[S{u}[{{s}}]]" for u in range(4)) + "\n"
                + _DISCARD_PICK)
    masks = _masks_source(rest, consts)
    if masks is None:
        return None
    return f"h = {_full_mask('{s}')}\n" + masks + _PICK_FROM_H + _DISCARD_PICK


def _trick_source(n: int, discard: str, first_follow: str = "") -> str:
    """One trick after its lead: each follower in turn, ``discard`` when void; a follow
    narrowed by ``first_follow`` (each suit's allowed ranks) when it is given."""
    seats = [f"s{i}" for i in range(1, n)]
    follow = _FOLLOW_FIRST.replace("{allowed}", first_follow) if first_follow else _FOLLOW
    followers = "".join(follow.format(s=s, discard=_indent(discard.format(s=s), 4))
                        for s in seats)
    return _TRICK.format(seats=", ".join(seats) + ("," if n == 2 else ""), followers=followers)


def _breaks_source(rules: Rules) -> str:
    """What breaks hearts (rules.breaks_mask): a card of the led suit (in `tl`, the led
    suit's chunk) or a discard (in `dm`)."""
    led_breaks = []
    for u in range(4):
        chunk = rules.breaks_mask >> 13 * u & 8191
        if chunk == 8191:
            led_breaks.append(f"led == {u}")
        elif chunk:
            led_breaks.append(f"led == {u} and tl & {chunk}")
    return " or ".join([*led_breaks, "dm and dm & BRK"])


_Chain = tuple[tuple[str, int, bool], ...]


def _body_source(rules: Rules, consts: dict[str, int]) -> tuple[str, _Chain] | None:
    """The tricks of a round (the first, then unbroken and broken), with the first
    lead's chain; None when the rules do not fit the chunk loops."""
    n = rules.players
    # the first trick: its discards must not depend on hearts breaking during it
    d_first = _discard_source(rules, consts, True, False)
    d_unbroken = _discard_source(rules, consts, False, False)
    d_broken = _discard_source(rules, consts, False, True)
    if d_first is None or d_unbroken is None or d_broken is None:
        return None
    if d_first != _discard_source(rules, consts, True, True):
        return None
    lead_first = core.chain(rules, core.LEAD, True, False) + core.chain(rules, core.LEAD, True, True)
    if any(m == core.LED_SUIT for _, m, _ in lead_first):
        return None
    first_follow = _first_follow(rules, lead_first)
    if first_follow is None:
        return None
    first_chain = chain_source(rules, core.LEAD, consts, first=True, hand="h", lead="1 << low")
    unbroken_lead = _lead_source(core.chain(rules, core.LEAD, False, False), "L", consts)
    broken_lead = _lead_source(core.chain(rules, core.LEAD, False, True), "L", consts)
    if unbroken_lead is None or broken_lead is None:
        return None
    first_lead = _FIRST_LEAD.format(full=_full_mask("L"), chain=first_chain)
    if lead_first and lead_first[0][1] == core.LEAD_CARD:
        # the first restriction keeps one card, and no later one can take it away
        first_lead = f"c = low  # {lead_first[0][0]}\ngrb(26)  # the draw a forced lead still makes\n"
    body = _BODY.format(
        first_lead=_indent(first_lead, 4),
        first_trick=_indent(_trick_source(n, d_first, first_follow), 4),
        breaks=_breaks_source(rules),
        unbroken_lead=_indent(unbroken_lead, 8),
        broken_lead=_indent(broken_lead, 4),
        trick_a=_indent(_trick_source(n, d_unbroken), 8),
        trick_b=_indent(_trick_source(n, d_broken), 4),
    )
    return body, lead_first


def _first_follow(rules: Rules, lead_first: _Chain) -> str | None:
    """The rules after "follow the led suit" on the first trick, as each suit's allowed
    ranks (a tuple's source), for a follow to a free first lead; "" when nothing narrows
    a follow (the lead is the lowest club and no club is forbidden), None when the rules
    do not fit."""
    follow_rest = core.chain(rules, core.FOLLOW, True, False)[1:]
    if len(follow_rest) > 1 or any(m < 0 for _, m, _ in follow_rest):
        return None
    allowed = follow_rest[0][1] if follow_rest else core.ALL
    clubs_lead = (bool(lead_first) and lead_first[0][1] == core.LEAD_CARD
                  and (rules.in_play_mask & SUIT_MASKS[0]).bit_count() > rules.kitty_size)
    if allowed == core.ALL or (clubs_lead and SUIT_MASKS[0] & allowed == SUIT_MASKS[0]):
        return ""
    return "(" + ", ".join(str(allowed >> 13 * u & 8191) for u in range(4)) + ")"


def _leader_source(rules: Rules, lead_first: _Chain) -> str:
    """The first leader ``L`` and the lowest card ``low``: core.first_leader, written out."""
    n = rules.players
    hs = [f"h{i}" for i in range(n)]
    low = rules.lead_card
    if not any(m == core.LEAD_CARD for _, m, _ in lead_first):
        return f"    L = (dealer + 1) % {n}\n    low = 0\n"
    if low is not None:  # every card in play is held: the lead card is known
        held = "{h} & 1" if low == 0 else "{h} >> low & 1"
        return "    low = LOWCARD\n" + "".join(
            f"    {'el' if i else ''}if {held.format(h=h)}:\n        L = {i}\n"
            for i, h in enumerate(hs[:-1])) + f"    else:\n        L = {n - 1}\n"
    return (f"    low = lead_card(({', '.join(hs)},))\n    L = 0\n"
            f"    while not ({', '.join(hs)},)[L] >> low & 1:\n        L += 1\n")


def _round_source(rules: Rules, body: str, chunks: str, leader: str, *, spans: bool,
                  kitty: bool) -> str:
    """``round_``: a deal from the shuffled keys, then the tricks and the scores."""
    n = rules.players
    hs = [f"h{i}" for i in range(n)]
    ts = [f"t{i}" for i in range(n)]
    moon = ""
    if rules.no_trick_bonus or rules.sun:  # a seat may take no trick, or all: core scores every round
        moon = "    return MOON(T, scores)\n"
    elif rules.moon is not Moon.OFF:
        moon = (f"    if {' or '.join(f'{t} & PM == PM' for t in ts)}:\n"
                f"        return MOON(T, scores)\n")
    return _ROUND.format(
        constants=_CONSTANTS,
        point_tables="P0=P0, P1=P1, P2=P2, P3=P3",
        spans="    s = b\"\\xff\".join([s[a:b] for a, b in SPANS])\n" if spans else "",
        tables=", ".join(f"x{i}" for i in range(n)) + ("," if n == 1 else ""),
        # the last hand is what the others and the kitty leave of the cards in play
        hands="".join(f"    h{i} = int(s.translate(x{i}), 2)\n" for i in range(n - 1))
        + f"    h{n - 1} = INPLAY - {' - '.join(hs[:-1])} - kitty\n",
        kitty="int(s.translate(KT), 2)" if kitty else "0",
        chunks=chunks, leader=leader, n=n, hand_size=rules.hand_size, body=_indent(body, 4),
        unpack=", ".join(ts), moon=moon,
        points=", ".join(points_expr(rules, t) for t in ts) + ("," if n == 1 else ""),
    )


def compile_loops(rules: Rules, space: dict[str, object], *, spans: bool,
                  kitty: bool) -> tuple[PlayLoop, RoundLoop] | None:
    """``(play, round_)`` for ``rules``, or None (see :func:`loop_source`); ``space``
    holds the deal's tables (``KB``, ``PACK``, ``SPANS``...)."""
    consts: dict[str, int] = {}
    source = loop_source(rules, consts, spans=spans, kitty=kitty)
    if source is None:
        return None
    score = scorer(rules)

    def moon(taken: list[int], scores: Sequence[int]) -> tuple[int, ...]:
        points = [sum(rules.points[c] for c in range(52) if m >> c & 1) for m in taken]
        return score(taken, points, scores)

    space = space | {
        "C0": CHUNK_CARDS[0], "C1": CHUNK_CARDS[1], "C2": CHUNK_CARDS[2], "C3": CHUNK_CARDS[3],
        "R": RANKS, "N": COUNT, "SU": SUIT_OF, "RB": RBIT, "B": BIT, "SH": SHIFT,
        "FOL": tuple(tuple((s + i) % rules.players for i in range(1, rules.players))
                     for s in range(rules.players)),
        "BRK": rules.breaks_mask,
        "INPLAY": rules.in_play_mask, "LOWCARD": rules.lead_card,
        "PM": rules.penalty_mask, "MOON": moon, "lead_card": core.lead_card,
        **point_tables(rules), **consts,
    }
    exec(_compiled(source, "loops"), space)
    return cast("PlayLoop", space["play"]), cast("RoundLoop", space["round_"])  # the source defines them


__all__ = [
    "CHUNK_CARDS",
    "chain_source",
    "chunk_shape_holds",
    "compile_loops",
    "compile_steps",
    "loop_source",
    "steps_source",
]
