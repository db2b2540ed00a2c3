"""The analysis of ``hearts replay --analyze``: each decision of a seat weighed, marked and explained.

:func:`analyze` has the Hard player weigh every decision of a seat (or of every
seat) with :mod:`hearts_cli.records.evaluate`: the expected points of the card (or
pass) chosen against the best alternative, marked ``?`` (costs at least 1 point),
``??`` (at least 4) or ``!`` (the only good move), with a one-line reason; a
:class:`Decision` is one such verdict, :func:`summary` counts them per seat and
:func:`annotations_of` writes them as record annotations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal

from ..base.values import Plain
from ..bots.hard import equivalent_cards
from ..model.cards import QUEEN_OF_SPADES, Card, Suit
from ..model.codes import seed_for
from ..play import core
from ..play.events import Decision as DecisionEvent
from ..play.events import Summary
from ..play.game import Game, Move
from ..play.round import SeatView
from ..text.catalog import t
from .evaluate import (
    DEFAULT_SIMULATIONS,
    METHOD_TWO,
    classes_two,
    evaluate_pass,
    evaluate_play,
    pass_candidates,
)
from .record import GameRecord
from .record_parts import Annotation, MoveAddress

if TYPE_CHECKING:
    from ..bots.match import Mapper as Mapper  # an ordered map (a process pool's)

Reason = tuple[str, dict[str, object]]  # a comment's message id and its parameters

__all__ = ["BLUNDER", "DEFAULT_SIMULATIONS", "METHOD_TWO", "MISTAKE", "Decision", "analyze", "annotations_of",
           "summary"]

MISTAKE = 1.0  # expected points lost for a `?`
BLUNDER = 4.0  # ... for a `??`


class Decision(Plain):
    """One decision weighed: the move made, the best alternative, their expected points."""

    __match_args__ = ("move", "played", "best", "value", "best_value", "second_value", "glyph", "reason",
                      "values")

    def __init__(self, move: Move, played: tuple[Card, ...], best: tuple[Card, ...], value: float,
                 best_value: float, second_value: float | None, glyph: str,
                 reason: Reason | None, values: dict[str, float]):
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
    def position(self) -> MoveAddress:
        return MoveAddress.of(self.move)

    @property
    def loss(self) -> float:
        return max(0.0, self.value - self.best_value)

    def event(self) -> DecisionEvent:
        m = self.move
        ev = DecisionEvent(position=str(MoveAddress.of(m)), round=m.round, seat=m.seat, decided=m.kind,
                           played=list(self.played), best=list(self.best), expected=round(self.value, 2),
                           best_expected=round(self.best_value, 2), loss=round(self.loss, 2), glyph=self.glyph,
                           values={k: round(v, 2) for k, v in self.values.items()})
        if m.trick:  # a card's (a pass has neither): absent from the event, not null
            ev = ev.replace(trick=m.trick, card=m.index)
        if self.reason is not None:
            ev = ev.replace(reason=self.reason[0], reason_params=self.reason[1])
        return ev

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
            progress: Callable[[int, int], None] | None = None, mapper: Mapper | None = None) -> list[Decision]:
    """Weigh every decision of ``seats`` (default: every seat) in the record.

    A pure function of the record, the seats, ``seed`` and ``simulations``: each
    decision is weighed from its seat's view at a seed of its own, so ``mapper`` (an
    ordered ``map``, such as a pool of processes) may weigh them side by side and the
    result is the same. Forced moves (a single distinct candidate) are neither weighed nor
    listed. ``progress(done, total)`` is called before the first decision weighed and after each.
    """
    rules = record.rules
    chosen = set(range(rules.players) if seats is None else seats)
    game = Game(rules, record.code)
    asked: list[tuple[Move, SeatView, Job]] = []
    for move in record.moves:  # a card, or a pass with ``passes`` (never the moon's choice)
        if move.seat in chosen and (move.kind == "play" or (passes and move.kind == "pass")):
            view = game.round.view(move.seat)
            asked.append((move, view, _job(move, view, seed, simulations, record.code)))
        game.push(move)
    jobs = [job for _, _, job in asked]
    total = sum(job is not None for job in jobs)  # the decisions with a choice to weigh
    if progress is not None:
        progress(0, total)
    if mapper is None or total < 2:  # (a pool for one decision is all cost)
        mapper = map
    out: list[Decision] = []
    done = 0
    for (move, view, _), weighed in zip(asked, mapper(_values, jobs), strict=True):
        if weighed is None:
            continue
        if weighed[0] == "pass":  # (the kind of the move weighed)
            d: Decision | None = _pass_decision(move, view, weighed[1])
        else:
            d = _play_decision(move, view, weighed[1])
        if d is not None:
            out.append(d)
        done += 1
        if progress is not None:
            progress(done, total)
    return out


# what one decision asks to be weighed: ("play", view, seed, simulations) or
# ("pass", view, candidates, seed, simulations); None when there is nothing to weigh
Job = (tuple[Literal["play"], SeatView, int, int]
       | tuple[Literal["pass"], SeatView, list[tuple[Card, ...]], int, int] | None)


def _job(move: Move, view: SeatView, seed: int, simulations: int, code: str) -> Job:
    if move.kind == "pass":
        cands = pass_candidates(view, move.cards)
        if len(cands) < 2:
            return None
        return ("pass", view, cands, _mix(seed, "pass", move.seat) ^ view.round_index, simulations)
    if len(set(_classes_of(view).values())) < 2:  # equivalent cards only: no choice to weigh
        return None
    return ("play", view, _mix(seed, code, move.seat), simulations)


# the expected points of each choice, by the kind of decision weighed
Weighed = (tuple[Literal["play"], dict[Card, float]] | tuple[Literal["pass"], dict[tuple[Card, ...], float]]
           | None)


def _values(job: Job) -> Weighed:
    """The expected points of each choice of one decision (in a worker process, or here)."""
    if job is None:
        return None
    if job[0] == "pass":
        return ("pass", dict(evaluate_pass(*job[1:])))
    return ("play", dict(evaluate_play(*job[1:])))


def _play_decision(move: Move, view: SeatView, values: dict[Card, float]) -> Decision | None:
    if len(values) < 2:
        return None
    card = move.card
    v = values[card]
    best = min(values, key=lambda c: (values[c], c))
    bv = values[best]
    others = [x for c, x in values.items() if _classes_of(view)[c] != _classes_of(view)[card]]
    second = min(others) if others else None
    glyph = _glyph(v, bv, second)
    reason = _play_reason(view, card, best, v, bv, second, glyph) if glyph else None
    shown = {str(c): x for c, x in sorted(values.items())}
    return Decision(move, (card,), (best,) if v - bv >= 1e-9 else (card,), v, bv if v - bv >= 1e-9 else v,
                    second, glyph, reason, shown)


def _classes_of(view: SeatView) -> dict[Card, Card]:
    if view.rules.decks > 1:
        return classes_two(view)

    return equivalent_cards(view)


def _mix(seed: int, code: str, seat: int) -> int:
    return seed_for(code, "analysis", seed, seat)


def _pass_decision(move: Move, view: SeatView, values: dict[tuple[Card, ...], float]) -> Decision:
    chosen = tuple(sorted(move.cards))
    v = values[chosen]
    best = min(values, key=lambda c: (values[c], c))
    bv = values[best]
    second = min(x for c, x in values.items() if c != chosen)
    glyph = _glyph(v, bv, second)
    reason = _pass_reason(view, chosen, best, v, bv, second, glyph) if glyph else None
    shown = {" ".join(str(c) for c in k): x for k, x in values.items()}
    if v - bv < 1e-9:
        best, bv = chosen, v
    return Decision(move, chosen, best, v, bv, second, glyph, reason, shown)


def _play_reason(view: SeatView, card: Card, best: Card, v: float, bv: float,
                 second: float | None, glyph: str) -> Reason:
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


def _play_reason_two(view: SeatView, card: Card, best: Card, diff: float) -> Reason:
    """Why a two-deck card cost points, where the trick itself shows it: the last card of a
    trick that takes its points (with any set-aside trick's, cancellation counted) when the
    better card would not have; otherwise the generic reason."""

    trick = [int(c) for c in view.trick]
    n = view.players
    if len(trick) != n - 1:
        return ("an_generic", {"best": best, "diff": diff})
    pts = view.rules.points
    last = len(view.hand) == 1
    aside = view.takings().aside  # the set-aside tricks waiting for this trick's winner
    points = sum(pts[c] for c in trick + [int(card)] + aside)
    mine = core.winner(view.rules, trick + [int(card)], last)
    alt = core.winner(view.rules, trick + [int(best)], last)
    if mine == n - 1 and points > 0 and alt != n - 1:
        return ("an_takes_points", {"card": card, "points": points, "best": best, "diff": diff})
    return ("an_generic", {"best": best, "diff": diff})


def _pass_reason(view: SeatView, chosen: tuple[Card, ...], best: tuple[Card, ...], v: float, bv: float,
                 second: float | None, glyph: str) -> Reason:
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
                   keep: dict[MoveAddress, Annotation] | None = None) -> dict[MoveAddress, Annotation]:
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


def summary(decisions: Iterable[Decision], players: int, seats: Iterable[int] | None = None,
            method: str | None = None) -> list[Summary]:
    """Per seat: decisions weighed, mistakes (``?``), blunders (``??``), good moves (``!``), points
    lost; ``method`` (two decks) how they were weighed."""
    chosen = sorted(set(range(players) if seats is None else seats))
    counts = {s: [0, 0, 0, 0] for s in chosen}  # decisions, mistakes, blunders, good
    lost = dict.fromkeys(chosen, 0.0)
    marks = {"?": 1, "??": 2, "!": 3}
    for d in decisions:
        row = counts.get(d.move.seat)
        if row is None:
            continue
        row[0] += 1
        if d.glyph in marks:
            row[marks[d.glyph]] += 1
        lost[d.move.seat] += d.loss
    out = [Summary(seat=s, decisions=n, mistakes=mistakes, blunders=blunders, good=good, lost=round(lost[s], 1))
           for s, (n, mistakes, blunders, good) in counts.items()]
    if method is not None:  # absent from the event otherwise
        out = [told.replace(method=method) for told in out]
    return out

