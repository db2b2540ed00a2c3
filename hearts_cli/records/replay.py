"""``hearts replay``: a game told trick by trick, the table at any position, and analysis.

Everything here works on a :class:`~hearts_cli.records.record.GameRecord` (read from a
record file, or made from a move log by :mod:`hearts_cli.records.movelog`) and returns
plain data; the command line prints it.

- :func:`narrate` re-plays the record and returns :class:`Event` values: the
  deal, the passes, each trick (who led, every card, who won, the points),
  what happens in it (hearts broken, the Q♠ landing, a seat showing a void, the
  J♦, a moon attempt and who stopped it, a moon), the round scores with running
  totals, and the final standings. With ``seat`` the story keeps to what that
  seat could know (its own hand and pass, and the public play).
- :func:`table_at` is the table at a position (``round.trick.card`` or a move
  number), from one seat or from above.
- :func:`analyze` has the Hard player weigh every decision of a seat (or of
  every seat): the expected points of the card (or pass) chosen against the
  best alternative, marked ``?`` (costs at least 1 point), ``??`` (at least 4)
  or ``!`` (the only good move), with a one-line reason.
- :func:`describe` turns an event into a sentence of the message catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..base.values import Plain
from ..model.cards import CARDS as CARDS_
from ..model.cards import QUEEN_OF_SPADES, Card, Suit, mask_of
from ..model.errors import HeartsError
from ..model.rules import Moon
from ..play.engine import Game, Phase, Round, SeatView, Trick, cards_of_pair
from ..play.events import SCHEMA, Event, cancel_fields, view_json
from ..text.catalog import preset_name, t
from .record import Annotation, GameRecord, Move, Position, display_name

if TYPE_CHECKING:
    import random

__all__ = [
    "BLUNDER",
    "MISTAKE",
    "Decision",
    "Event",
    "analyze",
    "annotations_of",
    "describe",
    "evaluate_pass",
    "evaluate_play",
    "game_at",
    "narrate",
    "summary",
    "table_at",
    "view_event",
]

MISTAKE = 1.0  # expected points lost for a `?`
BLUNDER = 4.0  # ... for a `??`
JACK_OF_DIAMONDS = 22
DEFAULT_SIMULATIONS = 40


# Events are the shared vocabulary of :mod:`hearts_cli.play.events` (re-exported here).


# ---------------------------------------------------------------- the narrative


def _threat_min(rules: Any) -> int:
    return max(4, rules.penalty_mask.bit_count() // 3)


def narrate(record: GameRecord, seat: int | None = None,
            decisions: Sequence[Decision] = ()) -> list[Event]:
    """The events of the whole record (every move in it), in the order they happen.

    ``seat``: keep to what that seat could know. ``decisions`` (from
    :func:`analyze`) are woven in after the pass or trick they belong to.
    """
    rules = record.rules
    n = rules.players
    notes = {d.position: d for d in decisions}
    game = Game(rules, record.code)
    events: list[Event] = [Event("start", {
        "schema": SCHEMA, "code": record.code, "preset": rules.preset, "rules": rules.spec(),
        "players": n, "target": rules.target,
        "seats": [{"seat": i, "name": s.name, "kind": s.kind, "level": s.level}
                  for i, s in enumerate(record.seats)],
        "you": seat,
    })]
    moves = list(record.moves)
    i = 0
    state = _RoundState(rules)
    announced_round = 0
    while True:
        r = len(game.rounds)
        rd = game.round
        if announced_round != r and not game.over and (i < len(moves) or rd.phase is not Phase.OVER):
            announced_round = r
            state = _RoundState(rules)
            hands = {s: cards_of_pair(rd.dealt[s], rd.dealt_twice[s])
                     for s in range(n) if seat is None or s == seat}
            to = rd.direction.receiver(seat, n) if seat is not None and rd.direction.value != "none" else None
            events.append(Event("deal", {"round": r, "direction": rd.direction.value,
                                         "dealer": rd.dealer, "to": to, "hands": hands}))
            if rd.phase is Phase.PLAY and i < len(moves):
                events.append(_lead_event(r, rd))
        if i >= len(moves):
            break
        move = moves[i]
        i += 1
        if move.kind == "pass":
            move.apply(game)
            shown = seat is None or move.seat == seat
            events.append(Event("pass", {"round": r, "seat": move.seat,
                                         "cards": list(move.cards) if shown else None,
                                         "to": rd.direction.receiver(move.seat, n), "by": None}))
            d = notes.get(move.position) if notes else None
            if d is not None:
                events.append(d.event())
            if rd.phase is Phase.PLAY:
                if seat is not None:
                    got = rd.received[seat]
                    events.append(Event("receive", {"round": r, "seat": seat, "cards": list(got or ()),
                                                    "source": rd.view(seat).received_from,
                                                    "hand": list(rd.hand(seat))}))
                events.append(_lead_event(r, rd))
            continue
        if move.kind == "moon":  # the shooter's choice ends the round
            move.apply(game)
            events.extend(_round_end(game, rd, r))
            events.extend(_tie(game))
            if game.over:
                events.append(_game_end(game))
            continue
        # a card
        before_broken = rd.hearts_broken
        trick_no = len(rd.tricks) + 1
        led = rd.trick[0] if rd.trick else None
        player = rd.turn
        done = game.play(move.card)
        card = move.card
        if led is not None and card.suit != led.suit and not state.void_shown(player, led.suit):
            state.voids.add((player, int(led.suit)))
            state.pending.append(Event("void", {"round": r, "trick": trick_no, "seat": player,
                                                "suit": int(led.suit), "card": card}))
        if not before_broken and rd.hearts_broken:
            state.pending.append(Event("hearts_broken", {"round": r, "trick": trick_no, "seat": player,
                                                         "card": card}))
        d = notes.get(move.position) if notes else None
        if d is not None:
            state.decisions.append(d.event())
        if done is None:
            continue
        events.append(Event("trick", {
            "round": r, "trick": trick_no, "leader": done.leader,
            "plays": [{"seat": s, "card": c} for s, c in done.plays()],
            "winner": done.winner, "points": done.points, "kitty": sorted(done.kitty),
        } | cancel_fields(done)))
        events.extend(state.pending)
        state.pending = []
        events.extend(_trick_events(rules, state, r, trick_no, done))
        events.extend(state.decisions)
        state.decisions = []
        finished = rd.result is not None
        if finished:
            events.extend(_round_end(game, rd, r))
            events.extend(_tie(game))
        if game.over:
            events.append(_game_end(game))
    if not game.over:
        events.extend(state.pending)
        events.extend(state.decisions)
        events.append(Event("stop", {"moves": len(moves), **_where(game)}))
    return events


def _tie(game: Game) -> list[Event]:
    """The target reached with a tie for lowest: who tied and what the tie policy does."""
    news = game.tie()
    if news is None:
        return []
    seats, total, outcome = news
    return [Event("tie", {"seats": list(seats), "total": total, "policy": str(game.rules.ties),
                          "outcome": outcome})]


def _game_end(game: Game) -> Event:
    return Event("game_end", {
        "code": game.code, "winners": list(game.winners), "totals": list(game.totals),
        "standings": [{"place": p, "seat": s, "total": v} for p, s, v in game.standings()],
        "rounds": [list(res.scores) for res in game.results],
    })


class _RoundState:
    def __init__(self, rules: Any):
        self.voids: set[tuple[int, int]] = set()
        self.taken_pen = [0] * rules.players
        self.attempt: int | None = None
        self.pending: list[Event] = []
        self.decisions: list[Event] = []

    def void_shown(self, seat: int, suit: int) -> bool:
        return (seat, int(suit)) in self.voids


def _lead_event(r: int, rd: Round) -> Event:
    return Event("lead", {"round": r, "seat": rd.leader})


def _trick_events(rules: Any, state: _RoundState, r: int, k: int, done: Trick) -> list[Event]:
    out: list[Event] = []
    if done.winner is None:  # set aside: told when the next trick's winner takes it
        return out
    pts = rules.points
    cards = list(done.cards) + list(done.kitty) + list(done.carried)
    if QUEEN_OF_SPADES in cards and pts[QUEEN_OF_SPADES]:
        by = next((s for s, c in done.plays() if c == QUEEN_OF_SPADES), None)
        out.append(Event("queen", {"round": r, "trick": k, "seat": done.winner, "by": by}))
    if JACK_OF_DIAMONDS in cards and pts[JACK_OF_DIAMONDS]:
        by = next((s for s, c in done.plays() if c == JACK_OF_DIAMONDS), None)
        out.append(Event("jack", {"round": r, "trick": k, "seat": done.winner, "by": by,
                                  "points": pts[JACK_OF_DIAMONDS]}))
    pen = rules.penalty_mask
    got = mask_of(cards) & pen
    if got:
        state.taken_pen[done.winner] |= got
        holders = [s for s, m in enumerate(state.taken_pen) if m]
        if state.attempt is not None and state.attempt >= 0 and holders != [state.attempt]:
            out.append(Event("moon_stopped", {"round": r, "trick": k, "seat": state.attempt,
                                              "by": done.winner}))
            state.attempt = -1  # stopped: not announced again this round
        elif (state.attempt is None and rules.moon is not Moon.OFF and len(holders) == 1
              and state.taken_pen[holders[0]].bit_count() >= _threat_min(rules)
              and state.taken_pen[holders[0]] != pen):
            state.attempt = holders[0]
            out.append(Event("moon_attempt", {"round": r, "trick": k, "seat": holders[0],
                                              "cards": state.taken_pen[holders[0]].bit_count()}))
    return out


def _round_end(game: Game, rd: Round, r: int) -> list[Event]:
    res = rd.result
    assert res is not None
    out = []
    if res.shooter is not None:
        moon = {"round": r, "seat": res.shooter, "mode": res.moon}
        if rd.rules.moon is Moon.SHOOTER_CHOICE:  # the shooter chose the mode
            moon |= {"chosen": True, "points": rd.rules.penalty_total}
        out.append(Event("moon", moon))
    totals = [rd.scores_before[s] + res.scores[s] for s in range(rd.players)]
    out.append(Event("round_end", {"round": r, "taken": list(res.taken), "scores": list(res.scores),
                                   "totals": totals, "shooter": res.shooter, "moon": res.moon}))
    return out


def _where(game: Game) -> dict[str, Any]:
    rd = game.round
    out: dict[str, Any] = {"round": len(game.rounds), "phase": rd.phase.value,
                           "trick": None, "card": None, "turn": None}
    if rd.phase is Phase.PLAY:
        out["trick"] = len(rd.tricks) + 1
        out["card"] = len(rd.trick) + 1
        out["turn"] = rd.turn
    elif rd.phase is Phase.PASS:
        out["turn"] = rd.passes.index(None)
    elif rd.phase is Phase.MOON:  # the shooter is still to choose
        out["turn"] = rd.turn
    return out


# ---------------------------------------------------------------- positions


class PositionError(HeartsError):
    """A position that is not in the record; :meth:`message` is one sentence."""

    def __init__(self, text: str, moves: int):
        self.text = text
        self.moves = moves
        super().__init__("cli_no_position", text=text, moves=moves)


def game_at(record: GameRecord, at: str | None) -> tuple[Game, int]:
    """The game just before the move at ``at`` (``round.trick.card``, ``round.pass.seat``
    or a move number ``N``: before move N), and how many moves were made; the end
    when ``at`` is None. :class:`PositionError` when the record has no such position;
    ``explain.ExplainError`` when the text is not a position."""
    from . import explain as ex

    where = None if at is None else ex.parse_at(at)[1]
    try:
        return record.at(where)
    except LookupError:
        raise PositionError(str(at), len(record.moves)) from None


def table_at(game: Game, seat: int | None = None, all_hands: bool = False,
             made: int | None = None) -> dict[str, Any]:
    """The table as plain data: whose turn, the trick on the table, hands (the seat's,
    or every one with ``all_hands``), points taken, totals, hearts, voids, legal cards."""
    rd = game.round
    n = game.rules.players
    where = _where(game)
    if seat is None:
        seat = where["turn"] if where["turn"] is not None and not game.over else 0
    shown = range(n) if all_hands else [seat]
    trick = [{"seat": (rd.leader + i) % n, "card": c} for i, c in enumerate(rd.trick)] \
        if rd.leader is not None else []
    view = rd.view(seat)
    out: dict[str, Any] = {
        "code": game.code, **where, "seat": seat, "all_hands": all_hands,
        "moves": made,
        "trick_cards": trick,
        "hands": {s: list(rd.hand(s)) for s in shown},
        "points": list(rd.points),
        "totals": list(game.totals),
        "scores_before": list(rd.scores_before),
        "hearts_broken": rd.hearts_broken,
        "voids": {s: sorted(int(x) for x in v) for s, v in enumerate(view.voids) if v},
        "legal": list(rd.legal_cards()) if rd.phase is Phase.PLAY and rd.turn == seat else [],
        "over": game.over,
    }
    if rd.phase is Phase.PASS:
        out["direction"] = rd.direction.value
        out["passed"] = {s: list(p) for s, p in enumerate(rd.passes)
                         if p is not None and (all_hands or s == seat)}
    if rd.tricks:
        last = rd.tricks[-1]
        out["last_trick"] = {"leader": last.leader, "cards": list(last.cards),
                             "winner": last.winner, "points": last.points}
    return out


# ---------------------------------------------------------------- evaluation


def _rng(seed: int, view: SeatView, salt: str) -> random.Random:
    import random  # only the analysis draws at random

    pos = (view.round_index, view.phase.value, len(view.tricks), len(view.trick), view.seat)
    return random.Random(f"hearts-analysis/{seed}/{pos}/{salt}")


def evaluate_play(view: SeatView, seed: int, simulations: int) -> dict[Card, float]:
    """Expected round points for this seat of each legal card (lower is better), as Hard weighs them
    (two decks: :func:`evaluate_play_two`)."""
    if view.rules.decks > 1:
        return evaluate_play_two(view, seed, simulations)
    from ..bots.hard import evaluate

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
    from ..bots import multi
    from ..play.fast import MultiPosition, pair_of_cards

    stands_for = _classes_two(view)
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


def _classes_two(view: SeatView) -> dict[Card, Card]:
    """Every legal card -> the card of Hard's two-deck candidates that stands for it."""
    from ..bots.multi import candidates

    cands = candidates(view)
    return {c: CARDS_[max(x for x in cands if x <= c and x // 13 == c // 13)] for c in set(view.legal)}


def _pass_deals(view: SeatView, rng: Any, unseen: list[int], deals: int):
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
    from ..bots import multi
    from ..bots.hard import hard_pass
    from ..play import core
    from ..play.fast import MultiPosition, pair_of_cards

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
    from ..bots.hard import hard_pass
    from ..bots.normal import pass_danger

    k = view.rules.pass_count
    chosen = tuple(sorted(chosen))
    hard = tuple(sorted(hard_pass(view)))
    danger = pass_danger(view)
    by_rank = tuple(sorted(sorted(view.hand, key=lambda c: (-c.rank, -c))[:k]))
    by_danger = tuple(sorted(sorted(view.hand, key=lambda c: (-danger[c], -c))[:k]))
    out = [chosen]
    for cand in (hard, by_rank, by_danger):
        if cand not in out:
            out.append(cand)
    keep = [c for c in hard if c not in chosen]
    keep += [c for c in sorted(view.hand, key=lambda c: (-danger[c], -c))
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
    import random

    from ..bots.hard import hard_pass
    from ..bots.playout import make_policy
    from ..play.fast import Position as FastPosition
    from ..play.fast import playout_steps

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
            scores = playout_steps(pos, make_policy(rules, random.Random(stream), 0.1))
            totals[j] += scores[me]
    return {cand: totals[j] / deals for j, cand in enumerate(candidates)}


# ---------------------------------------------------------------- analysis


class Decision(Plain):
    """One decision weighed: the move made, the best alternative, their expected points."""

    __match_args__ = ("move", "played", "best", "value", "best_value", "second_value", "glyph", "reason",
                      "values")

    def __init__(self, move: Move, played: tuple[Card, ...], best: tuple[Card, ...], value: float,
                 best_value: float, second_value: float | None, glyph: str,
                 reason: tuple[str, dict[str, Any]] | None, values: dict[str, float]):
        self.move = move
        self.played = played
        self.best = best
        self.value = value  # expected points of the move made
        self.best_value = best_value
        self.second_value = second_value  # the best value among the other choices
        self.glyph = glyph
        self.reason = reason
        self.values = values

    @property
    def position(self) -> Position:
        return self.move.position

    @property
    def loss(self) -> float:
        return max(0.0, self.value - self.best_value)

    def event(self) -> Event:
        m = self.move
        data: dict[str, Any] = {"position": str(m.position), "round": m.round, "seat": m.seat,
                                "kind": m.kind, "played": list(self.played), "best": list(self.best),
                                "expected": round(self.value, 2), "best_expected": round(self.best_value, 2),
                                "loss": round(self.loss, 2), "glyph": self.glyph,
                                "values": {k: round(v, 2) for k, v in self.values.items()}}
        if m.trick:
            data["trick"] = m.trick
            data["card"] = m.index
        if self.reason is not None:
            data["reason"] = self.reason[0]
            data["reason_params"] = self.reason[1]
        return Event("decision", data)

    def comment(self, lang: str | None, ascii: bool = False) -> str:
        if self.reason is None:
            return ""
        return t(self.reason[0], lang, ascii=ascii, **self.reason[1])


def _glyph(value: float, best: float, second: float | None) -> str:
    loss = value - best
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if second is not None and loss < 1e-9 and second - value >= MISTAKE:
        return "!"
    return ""


def analyze(record: GameRecord, seats: Iterable[int] | None = None, *, seed: int = 0,
            simulations: int = DEFAULT_SIMULATIONS, passes: bool = True,
            progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """Weigh every decision of ``seats`` (default: every seat) in the record.

    A pure function of the record, the seats, ``seed`` and ``simulations``.
    Forced moves (a single distinct candidate) are not listed. ``progress(done, total)``
    is called after each move is looked at.
    """
    rules = record.rules
    chosen = set(range(rules.players) if seats is None else seats)
    game = Game(rules, record.code)
    out: list[Decision] = []
    moves = record.moves
    def weighed(m: Move) -> bool:  # a card, or a pass with ``passes`` (never the moon's choice)
        return m.seat in chosen and (m.kind == "play" or (passes and m.kind == "pass"))

    total = sum(1 for m in moves if weighed(m))
    done = 0
    for move in moves:
        rd = game.round
        if weighed(move):
            view = rd.view(move.seat)
            d = _weigh_pass(move, view, seed, simulations) if move.kind == "pass" else \
                _weigh_play(move, view, rd, seed, simulations, record.code)
            if d is not None:
                out.append(d)
            done += 1
            if progress is not None:
                progress(done, total)
        move.apply(game)
    return out


def _weigh_play(move: Move, view: SeatView, rd: Round, seed: int, simulations: int,
                code: str) -> Decision | None:
    values = evaluate_play(view, _mix(seed, code, move.seat), simulations)
    if len(values) < 2 or len(set(_classes_of(view).values())) < 2:
        return None
    card = move.card
    v = values[card]
    best = min(values, key=lambda c: (values[c], c))
    bv = values[best]
    others = [x for c, x in values.items() if _classes_of(view)[c] != _classes_of(view)[card]]
    second = min(others) if others else None
    glyph = _glyph(v, bv, second)
    reason = _play_reason(view, rd, card, best, v, bv, second, glyph) if glyph else None
    shown = {str(c): x for c, x in sorted(values.items())}
    return Decision(move, (card,), (best,) if v - bv >= 1e-9 else (card,), v, bv if v - bv >= 1e-9 else v,
                    second, glyph, reason, shown)


def _classes_of(view: SeatView) -> dict[Card, Card]:
    if view.rules.decks > 1:
        return _classes_two(view)
    from ..bots.hard import equivalent_cards

    return equivalent_cards(view)


def _mix(seed: int, code: str, seat: int) -> int:
    from ..model.codes import seed_for

    return seed_for(code, "analysis", seed, seat)


def _weigh_pass(move: Move, view: SeatView, seed: int, simulations: int) -> Decision | None:
    cands = pass_candidates(view, move.cards)
    if len(cands) < 2:
        return None
    values = evaluate_pass(view, cands, _mix(seed, "pass", move.seat) ^ view.round_index, simulations)
    chosen = tuple(sorted(move.cards))
    v = values[chosen]
    best = min(cands, key=lambda c: (values[c], c))
    bv = values[best]
    second = min(x for c, x in values.items() if c != chosen)
    glyph = _glyph(v, bv, second)
    reason = _pass_reason(view, chosen, best, v, bv, second, glyph) if glyph else None
    shown = {" ".join(str(c) for c in k): x for k, x in values.items()}
    if v - bv < 1e-9:
        best, bv = chosen, v
    return Decision(move, chosen, best, v, bv, second, glyph, reason, shown)


def _play_reason(view: SeatView, rd: Round, card: Card, best: Card, v: float, bv: float,
                 second: float | None, glyph: str) -> tuple[str, dict[str, Any]]:
    diff = round(v - bv, 1)
    if glyph == "!":
        return ("an_only_good", {"card": card, "diff": round((second or v) - v, 1)})
    if view.rules.decks > 1:
        return _play_reason_two(view, card, best, diff)
    pts = view.rules.points
    queen_live = pts[QUEEN_OF_SPADES] > 0
    trick = list(view.trick)
    n = view.players
    if queen_live and card == QUEEN_OF_SPADES and trick and trick[0].suit == Suit(3) \
            and all(c.suit != Suit(3) or c < card for c in trick) and len(trick) == n - 1:
        return ("an_queen_on_self", {"card": card, "best": best, "diff": diff})
    if queen_live and card == QUEEN_OF_SPADES and trick and trick[0].suit == Suit(3) \
            and all(c.suit != Suit(3) or c < card for c in trick):
        return ("an_queen_risk", {"card": card, "best": best, "diff": diff})
    played = view.played_mask()
    queen_out = queen_live and not played >> QUEEN_OF_SPADES & 1 and QUEEN_OF_SPADES not in view.hand
    if queen_live and best == QUEEN_OF_SPADES and card != best:
        return ("an_keeps_queen", {"best": best, "diff": diff})
    if queen_out and best in (50, 51) and card != best:
        return ("an_keeps_high_spade", {"best": Card(best), "diff": diff})
    if trick:
        led = trick[0].suit
        high = max(c for c in trick if c.suit == led)
        points = sum(pts[c] for c in trick) + pts[card]
        if card.suit == led and card > high and len(trick) == n - 1 and points > 0 and \
                (best.suit != led or best < high):
            return ("an_takes_points", {"card": card, "points": points, "best": best, "diff": diff})
    if not trick and card.suit == Suit(3) and queen_live and QUEEN_OF_SPADES in view.hand and card != best:
        return ("an_leads_spade_with_queen", {"card": card, "best": best, "diff": diff})
    return ("an_generic", {"best": best, "diff": diff})


def _play_reason_two(view: SeatView, card: Card, best: Card, diff: float) -> tuple[str, dict[str, Any]]:
    """Why a two-deck card cost points, where the trick itself shows it: the last card of a
    trick that takes its points (with any set-aside trick's, cancellation counted) when the
    better card would not have; otherwise the generic reason."""
    from ..play import core

    trick = [int(c) for c in view.trick]
    n = view.players
    if len(trick) != n - 1:
        return ("an_generic", {"best": best, "diff": diff})
    pts = view.rules.points
    last = len(view.hand) == 1
    aside: list[int] = []
    for tr in view.tricks:  # the set-aside tricks waiting for this trick's winner
        aside = aside + list(tr.cards) + list(tr.kitty) if tr.winner is None else []
    points = sum(pts[c] for c in trick + [int(card)] + aside)
    mine = core.winner(view.rules, trick + [int(card)], last)
    alt = core.winner(view.rules, trick + [int(best)], last)
    if mine == n - 1 and points > 0 and alt != n - 1:
        return ("an_takes_points", {"card": card, "points": points, "best": best, "diff": diff})
    return ("an_generic", {"best": best, "diff": diff})


def _pass_reason(view: SeatView, chosen: tuple[Card, ...], best: tuple[Card, ...], v: float, bv: float,
                 second: float | None, glyph: str) -> tuple[str, dict[str, Any]]:
    diff = round(v - bv, 1)
    if glyph == "!":
        return ("an_only_good_pass", {"cards": list(chosen), "diff": round((second or v) - v, 1)})
    q = Card(QUEEN_OF_SPADES)
    if view.rules.points[QUEEN_OF_SPADES] and q in best and q not in chosen:
        low = sum(1 for c in view.hand if c.suit == Suit(3) and c < q)
        return ("an_pass_keeps_queen", {"low": low, "diff": diff})
    out = [c for c in best if c not in chosen]
    return ("an_pass_generic", {"cards": out or list(best), "diff": diff})


def annotations_of(decisions: Iterable[Decision], lang: str | None, ascii: bool = False,
                   keep: dict[Position, Annotation] | None = None) -> dict[Position, Annotation]:
    """Record annotations for the marked decisions, over the ones ``keep`` already has."""
    out = dict(keep or {})
    for d in decisions:
        if not d.glyph:
            continue
        comment = d.comment(lang, ascii)
        old = out.get(d.position)
        if old is not None and old.comment and old.comment != comment:
            comment = f"{old.comment} {comment}" if comment else old.comment
        out[d.position] = Annotation(d.glyph, comment)
    return out


def summary(decisions: Iterable[Decision], players: int, seats: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """Per seat: decisions weighed, mistakes (``?``), blunders (``??``), good moves (``!``), points lost."""
    chosen = sorted(set(range(players) if seats is None else seats))
    rows = {s: {"seat": s, "decisions": 0, "mistakes": 0, "blunders": 0, "good": 0, "lost": 0.0}
            for s in chosen}
    for d in decisions:
        row = rows.get(d.move.seat)
        if row is None:
            continue
        row["decisions"] += 1
        if d.glyph == "??":
            row["blunders"] += 1
        elif d.glyph == "?":
            row["mistakes"] += 1
        elif d.glyph == "!":
            row["good"] += 1
        row["lost"] += d.loss
    for row in rows.values():
        row["lost"] = round(row["lost"], 1)
    return [rows[s] for s in chosen]


# ---------------------------------------------------------------- sentences


def seat_name(record: GameRecord, seat: int | None, lang: str | None) -> str:
    if seat is None:
        return "-"
    name = display_name(record.seats[seat].name, lang) if 0 <= seat < len(record.seats) else str(seat)
    return t("rp_seat", lang, name=name, seat=seat)


def describe(event: Event, record: GameRecord, lang: str | None, ascii: bool = False) -> list[str]:
    """The lines (usually one) that tell ``event`` in ``lang``."""
    d = event.data
    k = event.kind

    def name(s: int | None) -> str:
        return seat_name(record, s, lang)

    def say(mid: str, **params: Any) -> str:
        return t(mid, lang, ascii=ascii, **params)

    if k == "start":
        spec = " ".join([preset_name(str(d["rules"]["preset"]), lang)] + [f"{a}={b}" for a, b in d["rules"].items()
                                                       if a != "preset"])
        lines = [say("rp_start", code=d["code"], rules=spec, target=d["target"], players=d["players"])]
        lines.append(", ".join(name(s["seat"]) for s in d["seats"]))
        if d["you"] is not None:
            lines.append(say("rp_view", seat=name(d["you"])))
        return lines
    if k == "deal":
        lines = ["", say("rp_round", round=d["round"], direction=say(f"dir_{d['direction']}"),
                         dealer=name(d["dealer"]))]
        for s, cards in d["hands"].items():
            lines.append("  " + say("rp_hand", seat=name(s), cards=list(cards)))
        return lines
    if k == "pass":
        if d["cards"] is None:  # another seat's pass, unseen from this one
            return []
        return [say("rp_pass", seat=name(d["seat"]), cards=list(d["cards"]), to=name(d["to"]))]
    if k == "receive":
        return [say("rp_received", seat=name(d["seat"]), cards=list(d["cards"]), frm=name(d["source"])),
                "  " + say("rp_hand", seat=name(d["seat"]), cards=list(d["hand"]))]
    if k == "lead":
        return [say("rp_lead", seat=name(d["seat"]))]
    if k == "trick":
        plays = ", ".join(f"{name(p['seat'])} {p['card'].face(ascii)}"
                          for p in d["plays"])
        if d["winner"] is None:
            text = say("rp_trick_aside", trick=d["trick"], plays=plays, points=d["points"])
        else:
            text = say("rp_trick", trick=d["trick"], leader=name(d["leader"]), plays=plays,
                       winner=name(d["winner"]), points=d["points"])
        if d.get("kitty"):
            text += " " + say("rp_kitty", cards=list(d["kitty"]))
        out = [text]
        if d.get("cancelled"):
            pairs = ", ".join(say("cancel_pair", card=c) for c in d["cancelled"])
            if d.get("by") is not None:
                then = say("rp_cancel_wins", card=d["by"])
            elif d["winner"] is not None:  # the last trick: the fallback gave it to somebody
                then = say(f"rp_cancel_last_{record.rules.set_aside_last}", seat=name(d["winner"]))
            else:
                then = say("rp_cancel_aside")
            said = say("rp_cancel", pairs=pairs, then=then)
            out.append("  " + said[:1].upper() + said[1:])
        if d.get("carried"):
            pts = sum(record.rules.points[c] for c in d["carried"])
            # the set-aside tricks are the ones just before this one: a kitty (set aside with the
            # first trick) is always smaller than a trick, so the count of tricks is exact
            aside = len(d["carried"]) // record.rules.players
            if aside:
                nums = [str(x) for x in range(d["trick"] - aside, d["trick"])]
                numbers = nums[0] if len(nums) == 1 else say("names_and", first=", ".join(nums[:-1]),
                                                             last=nums[-1])
                out.append("  " + say("rp_carried_from", seat=name(d["winner"]), tricks=len(nums),
                                      numbers=numbers, count=len(d["carried"]), points=pts,
                                      cards=list(d["carried"])))
            else:
                out.append("  " + say("rp_carried", seat=name(d["winner"]), count=len(d["carried"]),
                                      cards=list(d["carried"])))
        return out
    if k == "hearts_broken":
        return ["  " + say("rp_hearts_broken", seat=name(d["seat"]), card=d["card"])]
    if k == "void":
        return ["  " + say("rp_void", seat=name(d["seat"]), suit=d["suit"])]
    if k == "queen":
        if d["by"] == d["seat"]:
            return ["  " + say("rp_queen_self", seat=name(d["seat"]))]
        return ["  " + say("rp_queen", seat=name(d["seat"]), by=name(d["by"]))]
    if k == "jack":
        return ["  " + say("rp_jack", seat=name(d["seat"]), points=d["points"])]
    if k == "moon_attempt":
        return ["  " + say("rp_moon_attempt", seat=name(d["seat"]), cards=d["cards"])]
    if k == "moon_stopped":
        return ["  " + say("rp_moon_stopped", seat=name(d["seat"]), by=name(d["by"]))]
    if k == "moon":
        out = [say("rp_moon", seat=name(d["seat"]))]
        if d.get("chosen"):
            mid = "rp_moon_chose_others" if Moon(d["mode"]) is Moon.OTHERS else "rp_moon_chose_minus"
            out.append(say(mid, seat=name(d["seat"]), points=d["points"]))
        return out
    if k == "round_end":
        parts = ", ".join(f"{name(s)} {sc} ({tot})" for s, (sc, tot) in
                          enumerate(zip(d["scores"], d["totals"])))
        return [say("rp_round_end", round=d["round"], scores=parts)]
    if k == "game_end":
        lines = [say("rp_game_end")]
        for row in d["standings"]:
            lines.append("  " + say("rp_standing", place=row["place"], seat=name(row["seat"]),
                                    total=row["total"]))
        winners = ", ".join(name(s) for s in d["winners"])
        lines.append(say("rp_winners" if len(d["winners"]) > 1 else "rp_winner", seats=winners))
        return lines
    if k == "tie":
        names = [name(s) for s in d["seats"]]
        joined = say("names_and", first=", ".join(names[:-1]), last=names[-1])
        return [say(f"tie_{d['outcome']}", names=joined, total=d["total"])]
    if k == "stop":
        out = [say("rp_stop", moves=d["moves"], round=d["round"])]
        if d["phase"] == "moon":
            out.append(say("rp_moon_waiting", seat=name(d["turn"])))
        return out
    if k == "decision":
        return [_describe_decision(d, name, say, ascii)]
    if k == "summary":
        return [say("rp_summary_row", seat=name(d["seat"]), decisions=d["decisions"],
                    mistakes=d["mistakes"], blunders=d["blunders"], lost=d["lost"])]
    return []


def _cards_text(cards: Sequence[Card], ascii: bool) -> str:
    return " ".join(c.face(ascii) for c in cards)


def _describe_decision(d: dict[str, Any], name: Callable, say: Callable, ascii: bool) -> str:
    where = d["position"]
    played = _cards_text(d["played"], ascii)
    glyph = d["glyph"]
    head = say("rp_decision", position=where, seat=name(d["seat"]), played=played + glyph,
               expected=f"{d['expected']:.1f}")
    if d["loss"] >= 0.05:
        head += " " + say("rp_decision_best", best=_cards_text(d["best"], ascii),
                          best_expected=f"{d['best_expected']:.1f}")
    if d.get("reason"):  # "... expects 2.6 pts; the only good card: ..."
        return "  " + head + "; " + say(d["reason"], **d["reason_params"])
    return "  " + head + "."


def describe_table(table: dict[str, Any], record: GameRecord, lang: str | None,
                   ascii: bool = False) -> list[str]:
    """The table at a position, as lines."""
    def say(mid: str, **params: Any) -> str:
        return t(mid, lang, ascii=ascii, **params)

    def name(s: int | None) -> str:
        return seat_name(record, s, lang)

    lines = []
    if table["over"]:
        lines.append(say("rp_at_over", code=table["code"], moves=table["moves"]))
    elif table["phase"] == "pass":
        lines.append(say("rp_at_pass", code=table["code"], round=table["round"], moves=table["moves"],
                         direction=say(f"dir_{table['direction']}"), seat=name(table["turn"])))
    else:
        lines.append(say("rp_at_play", code=table["code"], round=table["round"], trick=table["trick"],
                         card=table["card"], moves=table["moves"], seat=name(table["turn"])))
    if table.get("last_trick") and not table["trick_cards"]:
        lt = table["last_trick"]
        lines.append(say("rp_at_last", cards=list(lt["cards"]), winner=name(lt["winner"]),
                         points=lt["points"]))
    if table["trick_cards"]:
        plays = ", ".join(f"{name(p['seat'])} {p['card'].face(ascii)}"
                          for p in table["trick_cards"])
        lines.append(say("rp_at_trick", plays=plays))
    for s, cards in table["hands"].items():
        lines.append(say("rp_hand", seat=name(s), cards=list(cards)))
    for s, cards in table.get("passed", {}).items():
        lines.append(say("rp_at_passed", seat=name(s), cards=list(cards)))
    if table["legal"]:
        lines.append(say("rp_at_legal", cards=list(table["legal"])))
    lines.append(say("rp_at_hearts_broken" if table["hearts_broken"] else "rp_at_hearts_unbroken"))
    for s, suits in table["voids"].items():
        lines.append(say("rp_at_void", seat=name(s), suits=", ".join(say(f"suit_{x}") for x in suits)))
    pts = ", ".join(f"{name(s)} {p}" for s, p in enumerate(table["points"]))
    tot = ", ".join(f"{name(s)} {p}" for s, p in enumerate(table["totals"]))
    lines.append(say("rp_at_points", points=pts))
    lines.append(say("rp_at_totals", totals=tot))
    return lines


def view_event(game: Game, seat: int | None = None, all_hands: bool = False,
               made: int | None = None) -> dict[str, Any]:
    """The ``view`` event at a position (``--json``): the seat's view (the seat to move
    by default), with the game code, the moves made, and every hand with ``all_hands``."""
    rd = game.round
    if seat is None:
        turn = _where(game)["turn"]
        seat = turn if turn is not None and not game.over else 0
    out = {"event": "view"} | view_json(rd.view(seat), rd.result) | {"code": game.code, "moves": made}
    if all_hands:
        out["hands"] = {str(s): [str(c) for c in rd.hand(s)] for s in range(rd.players)}
    return out
