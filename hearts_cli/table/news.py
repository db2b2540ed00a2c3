"""What a table tells its seats, built from the game: one function per kind of event.

Each builds one event of the vocabulary (:mod:`hearts_cli.play.events`) for one
seat or for all, from the game alone; :class:`~hearts_cli.table.game.GameTable`
decides when and to whom each is told, and never builds one by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..base.jsonvalue import JsonObject
from ..bots import choose_moon
from ..play.events import (
    SCHEMA,
    Deal,
    GameEnd,
    Lead,
    MoonChoice,
    Receive,
    RoundEnd,
    Start,
    View,
    trick_event,
    trick_json,
    view_event,
)
from ..play.game import Game
from ..records.record_parts import Seat

__all__ = ["deal_event", "game_end_event", "lead_event", "moon_choice_event", "receive_event", "round_end_event",
           "seat_view", "start_event", "trick_event", "view_of"]


def start_event(game: Game, seats: Iterable[Seat], seat: int, show_code: bool) -> Start:
    """The ``start`` of the game for ``seat`` (its code only when ``show_code``; ``seats``: who
    sits where, as the record has them)."""
    return Start(schema=SCHEMA, code=game.code if show_code else None, preset=game.rules.preset,
                 rules=dict(game.rules.spec()), players=game.rules.players, target=game.rules.target,
                 seats=[{"seat": i, "name": s.name, "kind": s.kind, "level": None if s.kind == "human" else s.level}
                        for i, s in enumerate(seats)],
                 you=seat)


def seat_view(game: Game, seat: int, history: bool = False) -> View:
    """The seat's view event; with ``history`` also the round's completed tricks (``tricks``),
    for a seat taken mid-round (and ``state``), which was not there to be told them."""
    rd = game.round
    view = rd.view(seat)
    out = view_event(view, rd.result)
    if history:
        out = out.replace(tricks=[trick_json(view, tr, i + 1) for i, tr in enumerate(view.tricks)])
    return out


def view_of(game: Game, seat: int, history: bool = False) -> JsonObject:
    """The seat's view event as JSON (:func:`seat_view`)."""
    return seat_view(game, seat, history).to_json()


def deal_event(game: Game, seat: int) -> Deal:
    rd = game.round
    v = rd.view(seat)
    return Deal(round=len(game.rounds), direction=rd.direction.value, dealer=rd.dealer, to=v.passed_to,
                hands={seat: list(v.hand)})


def lead_event(game: Game) -> Lead:
    leader = game.round.leader
    assert leader is not None  # told once the cards are passed: the two of clubs has a holder
    return Lead(round=len(game.rounds), seat=leader)


def receive_event(game: Game, seat: int) -> Receive:
    """What ``seat`` received once everybody has passed, and its hand now."""
    v = game.round.view(seat)
    return Receive(round=len(game.rounds), seat=seat, cards=list(v.received or ()), source=v.received_from,
                   hand=list(v.hand))


def moon_default(game: Game) -> str:
    """The better choice for the shooter's match standing (what a CPU would choose)."""

    rd = game.round
    return str(choose_moon(rd.view(rd.mover)))


def moon_choice_event(game: Game) -> MoonChoice:
    rd = game.round
    assert rd.turn is not None  # the shooter's turn to choose
    return MoonChoice(round=len(game.rounds), seat=rd.turn,
                      choices={str(c): list(v) for c, v in rd.moon_outcomes().items()}, default=moon_default(game))


def round_end_event(game: Game) -> RoundEnd:
    """The round just ended (the next one may be dealt already)."""
    res = game.results[-1]
    ev = RoundEnd(round=len(game.results), taken=list(res.taken), scores=list(res.scores),
                  totals=list(game.totals), shooter=res.shooter, moon=res.moon)
    if res.sun:  # (given only for a sun)
        ev = ev.replace(sun=True)
    if res.no_trick:  # (given only when a seat scored the no-trick bonus)
        ev = ev.replace(no_trick=list(res.no_trick))
    return ev


def game_end_event(game: Game, extra: Mapping[str, object] | None = None) -> GameEnd:
    """The end of the game; ``extra``: at a person's own table, ``record``, how it changes theirs
    (the table's change, which the person's client words)."""
    ev = GameEnd(code=game.code, winners=list(game.winners), totals=list(game.totals),
                 standings=[{"place": p, "seat": s, "total": v} for p, s, v in game.standings()],
                 rounds=[list(r.scores) for r in game.results])
    for name in extra or {}:
        if name not in GameEnd.OPTIONAL:
            raise ValueError(f"game_end event with unknown {name}")
    return ev.replace(**extra) if extra else ev
