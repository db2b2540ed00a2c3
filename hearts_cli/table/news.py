"""What a table tells its seats, built from the game: one function per kind of event.

Each builds one event of the vocabulary (:mod:`hearts_cli.play.events`) for one
seat or for all, from the game alone; :class:`~hearts_cli.table.game.GameTable`
decides when and to whom each is told, and never builds one by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..play.engine import Game, Trick
from ..play.events import SCHEMA, Event, cancel_fields, trick_json, view_json


def start_event(game: Game, seats: Sequence[Any], seat: int, show_code: bool) -> Event:
    """The ``start`` of the game for ``seat`` (its code only when ``show_code``; ``seats``: the
    table's :class:`~hearts_cli.table.seats.Seat` values)."""
    return Event("start", {"schema": SCHEMA, "code": game.code if show_code else None,
                           "preset": game.rules.preset, "rules": game.rules.spec(), "target": game.rules.target,
                           "players": game.rules.players, "you": seat,
                           "seats": [{"seat": i, "name": s.name, "kind": "human" if s.human else "cpu",
                                      "level": None if s.human else s.level}
                                     for i, s in enumerate(seats)]})


def view_of(game: Game, seat: int, history: bool = False) -> dict[str, Any]:
    """The seat's view; with ``history`` also the round's completed tricks (``tricks``), for a
    seat taken mid-round (and ``state``), which was not there to be told them."""
    rd = game.round
    view = rd.view(seat)
    out: dict[str, Any] = {"event": "view", **view_json(view, rd.result)}
    if history:
        out["tricks"] = [trick_json(view, tr, i + 1) for i, tr in enumerate(view.tricks)]
    return out


def deal_event(game: Game, seat: int) -> Event:
    rd = game.round
    v = rd.view(seat)
    return Event("deal", {"round": len(game.rounds), "direction": rd.direction.value,
                          "dealer": rd.dealer, "to": v.passed_to, "hands": {seat: list(v.hand)}})


def lead_event(game: Game) -> Event:
    return Event("lead", {"round": len(game.rounds), "seat": game.round.leader})


def receive_event(game: Game, seat: int) -> Event:
    """What ``seat`` received once everybody has passed, and its hand now."""
    v = game.round.view(seat)
    return Event("receive", {"round": len(game.rounds), "seat": seat, "cards": list(v.received or ()),
                             "source": v.received_from, "hand": list(v.hand)})


def trick_event(number: int, trick_no: int, done: Trick) -> Event:
    return Event("trick", {"round": number, "trick": trick_no, "leader": done.leader,
                           "plays": [{"seat": s, "card": c} for s, c in done.plays()],
                           "winner": done.winner, "points": done.points,
                           "kitty": sorted(done.kitty)} | cancel_fields(done))


def moon_default(game: Game) -> str:
    """The better choice for the shooter's match standing (what a CPU would choose)."""
    from ..bots import choose_moon

    rd = game.round
    return str(choose_moon(rd.view(rd.mover)))


def moon_choice_event(game: Game) -> Event:
    rd = game.round
    return Event("moon_choice", {"round": len(game.rounds), "seat": rd.turn,
                                 "choices": {str(c): list(v) for c, v in rd.moon_outcomes().items()},
                                 "default": moon_default(game)})


def round_end_event(game: Game) -> Event:
    """The round just ended (the next one may be dealt already)."""
    res = game.results[-1]
    return Event("round_end", {"round": len(game.results), "taken": list(res.taken),
                               "scores": list(res.scores), "totals": list(game.totals),
                               "shooter": res.shooter, "moon": res.moon})


def game_end_event(game: Game, extra: dict[str, Any]) -> Event:
    return Event("game_end", {"code": game.code, "winners": list(game.winners), "totals": list(game.totals),
                              "standings": [{"place": p, "seat": s, "total": v} for p, s, v in game.standings()],
                              "rounds": [list(r.scores) for r in game.results]} | extra)
