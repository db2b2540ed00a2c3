"""A game's rounds as OpenSpiel's action sequences, for the rules OpenSpiel's Hearts can play.

OpenSpiel (``pyspiel.load_game("hearts(...)")``) plays one round a game: a chance action
for the pass direction, 52 chance actions that deal the cards round the table, each
seat's three passed cards in seat order, then the 52 cards in play order. A card is
an action number, ``rank * 4 + suit`` (clubs, diamonds, hearts, spades; 2 to ace).
Seat ``s`` here is OpenSpiel's player ``s``; both pass left to the next seat.

Only four players with one deck and the rules OpenSpiel's parameters can say are
exported; :func:`openspiel_game` says which setting stops the others. The exported
sequence, replayed in ``pyspiel``, gives every round's points as our engine scored
it: ``tests/test_openspiel.py`` checks it (and every legal move on the way).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..model.cards import Card
from ..model.errors import HeartsError
from ..model.rules import Direction, FirstLead, FirstTrick, HeartsBreak, Moon, Passing, Rules
from ..play.dealt import cards_of_pair
from ..play.game import Game, RoundMoves
from ..play.round import Round

__all__ = ["action", "openspiel_game", "openspiel_params", "round_actions", "write_openspiel"]

# OpenSpiel's pass-direction chance outcomes
_DIRECTIONS = {Direction.NONE: 0, Direction.LEFT: 1, Direction.ACROSS: 2, Direction.RIGHT: 3}


class NotOpenSpiel(HeartsError):
    """These rules are not a game OpenSpiel's Hearts can play: ``setting`` says which one."""

    def __init__(self, setting: str):
        self.setting = setting
        super().__init__("export_not_openspiel", setting=setting)


def action(card: int) -> int:
    """OpenSpiel's action number of ``card`` (ours is ``suit * 13 + rank``)."""
    return card % 13 * 4 + card // 13


def openspiel_params(rules: Rules) -> dict[str, bool]:
    """OpenSpiel's Hearts parameters for ``rules``; :class:`NotOpenSpiel` names the first
    setting they cannot say."""
    facts = (
        ("players", rules.players == 4), ("decks", rules.decks == 1),
        ("pass_count", rules.pass_count == 3 or rules.passing == Passing.NONE),
        ("first_lead", rules.first_lead is FirstLead.LOWEST_CLUB),
        ("first_trick", rules.first_trick is not FirstTrick.NO_HEARTS),
        ("moon", rules.moon is Moon.OTHERS), ("spot_hearts", not rules.spot_hearts),
        ("black_maria", not rules.black_maria), ("queen_penalty", rules.queen_penalty),
        ("no_trick_bonus", rules.no_trick_bonus in (0, -5)),  # avoid_all_tricks_bonus: -5 or none
        ("sun", not rules.sun),
    )
    for setting, holds in facts:
        if not holds:
            raise NotOpenSpiel(setting)
    return {
        "pass_cards": rules.passing != Passing.NONE,
        "no_pts_on_first_trick": rules.first_trick is FirstTrick.NO_POINTS,
        "can_lead_any_club": False,
        "jd_bonus": rules.jack_of_diamonds,
        "avoid_all_tricks_bonus": rules.no_trick_bonus == -5,
        "must_break_hearts": rules.hearts_break is not HeartsBreak.FREE,
        "qs_breaks_hearts": rules.hearts_break is HeartsBreak.HEART_OR_QUEEN,
        "can_lead_hearts_instead_of_qs": False,
    }


def openspiel_game(rules: Rules) -> str:
    """The string ``pyspiel.load_game`` takes for ``rules``: ``hearts(jd_bonus=True,...)``."""
    params = openspiel_params(rules)
    return "hearts(" + ",".join(f"{k}={'true' if v else 'false'}" for k, v in params.items()) + ")"


def round_actions(rnd: Round, moves: RoundMoves | None = None) -> list[int]:
    """The actions of ``rnd`` so far, from its pass direction on: the deal is the round's, the
    moves those of its game's stack (``moves``: :meth:`Game.round_moves`) or, for a round
    without them, its own passes and tricks."""
    if moves is None:
        played = [tr.cards for tr in rnd.tricks] + [tuple(rnd.trick)]
        return _actions(rnd, rnd.passes, played)
    return _actions(rnd, moves.passes, moves.cards)


def _actions(rnd: Round, passes: Iterable[tuple[Card, ...] | None], tricks: Iterable[Iterable[Card]]) -> list[int]:
    """The round's direction and deal (what OpenSpiel's chance deals), then ``passes`` (by
    seat) and the cards of ``tricks``, in play order."""
    hands = [sorted(cards_of_pair(m, twice)) for m, twice in zip(rnd.dealt, rnd.dealt_twice, strict=True)]
    out = [_DIRECTIONS[rnd.direction]]
    out += [action(hands[k % 4][k // 4]) for k in range(52)]  # dealt round the table, seat 0 first
    for passed in passes:
        if passed is None:
            break  # OpenSpiel's seats pass in turn: the first that has not yet ends the sequence
        out += [action(c) for c in sorted(passed)]
    for cards in tricks:
        out += [action(c) for c in cards]
    return out


def write_openspiel(game: Game, seats: list[str] | None = None) -> str:
    """One JSON line a round dealt: the game's code (and its ``seats``, when given: who sat
    where), the round, OpenSpiel's game string, the actions, and, once the round is over,
    its points as we scored them (what OpenSpiel's points are at its end). The moves are the
    stack's; a round gives its deal and its points."""
    name = openspiel_game(game.rules)
    lines = []
    for r, rnd in enumerate(game.rounds, 1):
        item: dict[str, object] = {"code": game.code, **({"seats": seats} if seats else {}), "round": r,
                                   "game": name, "actions": round_actions(rnd, game.round_moves(r))}
        if r <= len(game.results):
            item["points"] = list(game.results[r - 1].scores)
        lines.append(json.dumps(item, separators=(",", ":")))
    return "\n".join(lines) + "\n"
