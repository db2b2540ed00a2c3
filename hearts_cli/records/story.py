"""The story of a game: a record re-played as the events of ``hearts replay``.

:func:`narrate` re-plays the record and returns :class:`~hearts_cli.play.events.Event`
values: the deal, the passes, each trick (who led, every card, who won, the
points), what happens in it (hearts broken, the Q♠ landing, a seat showing a
void, the J♦, a moon attempt and who stopped it, a moon), the round scores with
running totals, and the final standings. With ``seat`` the story keeps to what
that seat could know (its own hand and pass, and the public play).
:mod:`hearts_cli.records.sentences` words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.cards import QUEEN_OF_SPADES, mask_of
from ..model.rules import Moon, Rules
from ..play.dealt import Phase, Trick, cards_of_pair
from ..play.events import (
    SCHEMA,
    Deal,
    Event,
    GameEnd,
    HeartsBroken,
    Jack,
    Lead,
    MoonAttempt,
    MoonShot,
    MoonStopped,
    Pass,
    Queen,
    Receive,
    RoundEnd,
    Start,
    Stop,
    Tie,
    Void,
    trick_event,
)
from ..play.game import Game, Move
from ..play.round import Round
from .positions import where
from .record import GameRecord
from .record_parts import MoveAddress

if TYPE_CHECKING:  # the analysis only for --analyze (start-up)
    from .analysis import Decision

__all__ = ["narrate"]

JACK_OF_DIAMONDS = 22


def _threat_min(rules: Rules) -> int:
    """Penalty cards one seat must hold alone before the story calls it a moon attempt."""
    mask: int = rules.penalty_mask
    return max(4, mask.bit_count() // 3)


def narrate(record: GameRecord, seat: int | None = None,
            decisions: Sequence[Decision] = ()) -> list[Event]:
    """The events of the whole record (every move in it), in the order they happen.

    ``seat``: keep to what that seat could know. ``decisions`` (from
    :func:`~hearts_cli.records.analysis.analyze`) are woven in after the pass or
    trick they belong to.
    """
    story = _Story(record, seat, decisions)
    for move in record.moves:
        story.deal(more=True)
        story.move(move)
    story.deal(more=False)
    story.end(len(record.moves))
    return story.events


class _Story:
    """The story being told: the game re-played so far and the events it made."""

    def __init__(self, record: GameRecord, seat: int | None, decisions: Sequence[Decision]):
        rules = self.rules = record.rules
        self.seat = seat
        self.notes = {d.position: d for d in decisions}
        self.game = Game(rules, record.code)
        self.state = _RoundState(rules)
        self.announced = 0  # the last round dealt in the story
        self.events: list[Event] = [Start(
            schema=SCHEMA, code=record.code, preset=rules.preset, rules=dict(rules.spec()),
            players=rules.players, target=rules.target,
            seats=[{"seat": i, "name": s.name, "kind": s.kind, "level": s.level}
                   for i, s in enumerate(record.seats)],
            you=seat,
        )]

    def note(self, move: Move) -> Event | None:
        """The weighed decision of ``move``, as its event (None when it was not weighed)."""
        d = self.notes.get(MoveAddress.of(move)) if self.notes else None
        return d.event() if d is not None else None

    def deal(self, more: bool) -> None:
        """A new round's deal (and its first lead when no pass comes first); ``more``: moves follow."""
        game, seat, n = self.game, self.seat, self.rules.players
        r = len(game.rounds)
        rd = game.round
        if self.announced == r or game.over or not (more or rd.phase is not Phase.OVER):
            return
        self.announced = r
        self.state = _RoundState(self.rules)
        hands = {s: list(cards_of_pair(rd.dealt[s], rd.dealt_twice[s]))
                 for s in range(n) if seat is None or s == seat}
        to = rd.direction.receiver(seat, n) if seat is not None and rd.direction.value != "none" else None
        self.events.append(Deal(round=r, direction=rd.direction.value, dealer=rd.dealer, to=to, hands=hands))
        if rd.phase is Phase.PLAY and more:
            self.events.append(_lead_event(r, rd))

    def move(self, move: Move) -> None:
        if move.kind == "pass":
            self.pass_(move)
        elif move.kind == "moon":  # the shooter's choice ends the round
            rd, r = self.game.round, len(self.game.rounds)
            self.game.push(move)
            self.round_over(rd, r)
        else:
            self.card(move)

    def pass_(self, move: Move) -> None:
        """A seat's pass (its cards only to itself or from above), and once all are made what
        the seat received and who leads."""
        game, seat, events = self.game, self.seat, self.events
        rd, r = game.round, len(game.rounds)
        game.push(move)
        shown = seat is None or move.seat == seat
        events.append(Pass(round=r, seat=move.seat, cards=list(move.cards) if shown else None,
                           to=rd.direction.receiver(move.seat, rd.players), by=None))
        d = self.note(move)
        if d is not None:
            events.append(d)
        if rd.phase is not Phase.PLAY:
            return
        if seat is not None:
            got = rd.received[seat]
            events.append(Receive(round=r, seat=seat, cards=list(got or ()),
                                  source=rd.view(seat).received_from, hand=list(rd.hand(seat))))
        events.append(_lead_event(r, rd))

    def card(self, move: Move) -> None:
        """A card played: what it shows at once (a void, hearts broken) waits for the trick's end."""
        game, state = self.game, self.state
        rd, r = game.round, len(game.rounds)
        before_broken = rd.hearts_broken
        trick_no = len(rd.tricks) + 1
        led = rd.trick[0] if rd.trick else None
        player = rd.mover
        done = game.push(move)
        card = move.card
        if led is not None and card.suit != led.suit and not state.void_shown(player, led.suit):
            state.voids.add((player, int(led.suit)))
            state.pending.append(Void(round=r, trick=trick_no, seat=player, suit=led.suit, card=card))
        if not before_broken and rd.hearts_broken:
            state.pending.append(HeartsBroken(round=r, trick=trick_no, seat=player, card=card))
        d = self.note(move)
        if d is not None:
            state.decisions.append(d)
        if done is not None:
            self.trick_done(rd, r, trick_no, done)

    def trick_done(self, rd: Round, r: int, trick_no: int, done: Trick) -> None:
        """A trick complete: the trick, what happened in it, the decisions weighed in it, and
        the end of the round or game when it came."""
        state, events = self.state, self.events
        events.append(trick_event(r, trick_no, done))
        events.extend(state.pending)
        state.pending = []
        events.extend(_trick_events(self.rules, state, r, trick_no, done))
        events.extend(state.decisions)
        state.decisions = []
        if rd.result is not None:
            self.round_over(rd, r)
        elif self.game.over:
            self.events.append(_game_end(self.game))

    def round_over(self, rd: Round, r: int) -> None:
        """The round's end (when it is over), a tie at the target, and the game's end."""
        game = self.game
        if rd.result is not None:
            self.events.extend(_round_end(game, rd, r))
            self.events.extend(_tie(game))
        if game.over:
            self.events.append(_game_end(game))

    def end(self, moves: int) -> None:
        """A record that stops before the game ends: what was pending, and where it stops."""
        if self.game.over:
            return
        self.events.extend(self.state.pending)
        self.events.extend(self.state.decisions)
        self.events.append(Stop(moves=moves, **where(self.game)))


def _tie(game: Game) -> list[Event]:
    """The target reached with a tie for lowest: who tied and what the tie policy does."""
    news = game.tie()
    if news is None:
        return []
    seats, total, outcome = news
    return [Tie(seats=list(seats), total=total, policy=str(game.rules.ties), outcome=outcome)]


def _game_end(game: Game) -> GameEnd:
    return GameEnd(code=game.code, winners=list(game.winners), totals=list(game.totals),
                   standings=[{"place": p, "seat": s, "total": v} for p, s, v in game.standings()],
                   rounds=[list(res.scores) for res in game.results])


class _RoundState:
    def __init__(self, rules: Rules):
        self.voids: set[tuple[int, int]] = set()
        self.taken_pen = [0] * rules.players
        self.attempt: int | None = None
        self.pending: list[Event] = []
        self.decisions: list[Event] = []

    def void_shown(self, seat: int, suit: int) -> bool:
        return (seat, int(suit)) in self.voids


def _lead_event(r: int, rd: Round) -> Lead:
    assert rd.leader is not None  # told once the cards are passed: the two of clubs has a holder
    return Lead(round=r, seat=rd.leader)


def _trick_events(rules: Rules, state: _RoundState, r: int, k: int, done: Trick) -> list[Event]:
    out: list[Event] = []
    if done.winner is None:  # set aside: told when the next trick's winner takes it
        return out
    pts = rules.points
    cards = list(done.cards) + list(done.kitty) + list(done.carried)
    if QUEEN_OF_SPADES in cards and pts[QUEEN_OF_SPADES]:
        by = next((s for s, c in done.plays() if c == QUEEN_OF_SPADES), None)
        out.append(Queen(round=r, trick=k, seat=done.winner, by=by))
    if JACK_OF_DIAMONDS in cards and pts[JACK_OF_DIAMONDS]:
        by = next((s for s, c in done.plays() if c == JACK_OF_DIAMONDS), None)
        out.append(Jack(round=r, trick=k, seat=done.winner, by=by, points=pts[JACK_OF_DIAMONDS]))
    pen = rules.penalty_mask
    got = mask_of(cards) & pen
    if got:
        state.taken_pen[done.winner] |= got
        holders = [s for s, m in enumerate(state.taken_pen) if m]
        if state.attempt is not None and state.attempt >= 0 and holders != [state.attempt]:
            out.append(MoonStopped(round=r, trick=k, seat=state.attempt, by=done.winner))
            state.attempt = -1  # stopped: not announced again this round
        elif (state.attempt is None and rules.moon is not Moon.OFF and len(holders) == 1
              and state.taken_pen[holders[0]].bit_count() >= _threat_min(rules)
              and state.taken_pen[holders[0]] != pen):
            state.attempt = holders[0]
            out.append(MoonAttempt(round=r, trick=k, seat=holders[0],
                                   cards=state.taken_pen[holders[0]].bit_count()))
    return out


def _round_end(game: Game, rd: Round, r: int) -> list[Event]:
    res = rd.outcome
    out: list[Event] = []
    if res.shooter is not None and not res.sun:  # (a sun is said with the round's end)
        assert res.moon is not None  # a moon shot scores one way or the other
        if rd.rules.moon is Moon.SHOOTER_CHOICE:  # the shooter chose the mode
            out.append(MoonShot(round=r, seat=res.shooter, mode=res.moon, chosen=True,
                                points=rd.rules.penalty_total))
        else:
            out.append(MoonShot(round=r, seat=res.shooter, mode=res.moon))
    totals = [rd.scores_before[s] + res.scores[s] for s in range(rd.players)]
    end = RoundEnd(round=r, taken=list(res.taken), scores=list(res.scores), totals=totals,
                   shooter=res.shooter, moon=res.moon)
    if res.sun:  # (given only for a sun)
        end = end.replace(sun=True)
    if res.no_trick:  # (given only when a seat scored the no-trick bonus)
        end = end.replace(no_trick=list(res.no_trick))
    out.append(end)
    return out

