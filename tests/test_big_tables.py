"""Issue 9 §3: the table at 6 to 11 seats, from 40 columns up: every line fits, no name or word
split, every seat and every card of the trick shown.

Tables are drawn from real Cancellation games (two decks, 6 to 11 players) mid-trick, and from
synthetic positions: a stand-in for the game that holds exactly what the renderer reads (seats,
trick, points, totals, hand), with the real :class:`Table` methods that place and name the
seats, so every shape (whose turn, where you sit, how much of the trick is out) is covered.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from hearts_cli.model.cards import Card, HandOrder
from hearts_cli.model.rules import Direction, Rules
from hearts_cli.model.seating import place_name, places
from hearts_cli.play.dealt import Phase, Trick
from hearts_cli.play.game import Game
from hearts_cli.records.record_parts import Seat
from hearts_cli.repl.render import Renderer, plain, wrap
from hearts_cli.repl.table import Table, make_seats

WIDTHS = (40, 60, 80, 120)
LEVELS = ("easy", "normal", "hard")


class _Stand(SimpleNamespace):
    """The renderer's view of a table of ``players`` seats, the person at seat ``me``."""

    position = Table.position
    round_the_table = Table.round_the_table
    name = Table.name
    level = Table.level
    label = Table.label


def synthetic(players: int, me: int = 0, lang: str = "en", ascii: bool = False, played: int | None = None,
              turn_is_mine: bool = False):
    """A table mid-trick: the seats after the leader have played; a card may be played twice
    (two decks), and seats have points this round and totals in the game."""
    played = players - 1 if played is None else played
    leader = (me + 1) % players
    trick = [Card(c) for c in ("AS", "KS", "AS", "2S", "QS", "TS", "9S", "8S", "7S", "6S", "5S")[:played]]
    # two tricks taken before this one; with none played yet, the last stays on the table
    last = Trick(leader, tuple(Card(c) for c in ("QH", "KH", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H",
                                                 "9H")[:players]), (leader + 2) % players, players)
    rnd = SimpleNamespace(
        phase=Phase.PLAY, trick=trick, leader=leader, turn=(leader + played) % players,
        points=[(s * 3) % 14 for s in range(players)], hearts_broken=True, tricks=[last, last],
        direction=Direction.LEFT, hand=lambda seat: [Card(c) for c in ("2C", "9D", "TD", "2H", "JH", "3S")],
        legal_mask=lambda: -1, trick_plays=lambda: [((leader + i) % players, c) for i, c in enumerate(trick)])
    game = SimpleNamespace(code="JYR35SWD", round=rnd, rounds=[1, 2, 3], totals=[s * 17 for s in range(players)],
                           over=False,
                           rules=SimpleNamespace(players=players, preset="cancellation", target=100, pass_count=3,
                                                 overrides=()))
    seats = tuple(Seat("You", "human", None) if s == me else Seat("x", "cpu", LEVELS[s % 3])
                  for s in range(players))
    if turn_is_mine:
        rnd.turn = me
    rnd.mover = rnd.turn  # Round.mover: the seat to move, in play
    # what the renderer asks of the person's seat table (repl/client.py): the view, the legal cards,
    # the standing
    view = SimpleNamespace(phase=rnd.phase, trick=tuple(trick), leader=leader, turn=rnd.turn, points=rnd.points,
                           hearts_broken=True, tricks=rnd.tricks, direction=rnd.direction, hand=rnd.hand(me),
                           trick_plays=rnd.trick_plays, passed=None)
    return _Stand(game=game, seats=seats, me=me, lang=lang, ascii=ascii, players=players, selection=set(), local=True,
                  hand_order=HandOrder(),
                  view=lambda: view, legal=lambda: tuple(view.hand), rules=game.rules, over=False,
                  code=game.code, round_number=len(game.rounds), core=SimpleNamespace(totals=game.totals))


def shown(renderer: Renderer, width: int) -> list[str]:
    """What the session prints at ``width`` columns (one spare, as it sets the renderer)."""
    renderer.width = width - 1
    return [plain(part) for line in renderer.table() for part in wrap(line, width - 1)]


def _check(tb, width: int) -> list[str]:
    lines = shown(Renderer(tb, plain=True), width)
    text = "\n".join(lines)
    assert all(len(line) <= width - 1 for line in lines), text
    for seat in range(tb.players):  # every seat's whole label (name and level) on one line
        assert any(tb.label(seat) in line for line in lines), (tb.label(seat), text)
        # and its name with its total on the scores line(s), after a colon where a name ends in a
        # number ("Left 2: 34", never "Left 2 34")
        sep = ":" if any(tb.name(s)[-1].isdigit() for s in range(tb.players)) else ""
        assert any(f"{tb.name(seat)}{sep} {tb.game.totals[seat]}" in line for line in lines), text
    for c in tb.game.round.trick:
        assert c.face(tb.ascii) in text
    # the same words as on the widest table: none cut in two ("West:" in a list is "West")
    wide = Renderer(tb, plain=True)
    wide.width = 200
    words = {w.rstrip(":") for line in wide.table() for w in plain(line).split()}
    assert {w.rstrip(":") for line in lines for w in line.split()} == words, text
    return lines


@pytest.mark.parametrize("players", range(6, 12))
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ("en", "es"))
def test_six_to_eleven_seats_fit_every_width(players, width, lang):
    for me in (0, players - 1):
        for played in (0, players // 2, players - 1):
            _check(synthetic(players, me, lang, played=played), width)
    _check(synthetic(players, 0, lang, ascii=True, turn_is_mine=True), width)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_real_six_seat_game_fits(width):
    rules = Rules.from_spec({"preset": "reference", "players": 6})
    for lang in ("en", "es"):
        tb = Table(Game(rules, "JYR35SWD"), make_seats(6, 2, None), lang=lang)
        tb.handle("auto")
        while len(tb.game.round.trick) < 5 or not tb.game.round.tricks:
            assert tb.cpu_step()
        _check(tb, width)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(6, 12))
def test_a_real_cancellation_game_fits(players):
    rules = Rules.from_spec({"preset": "cancellation", "players": players})
    for lang in ("en", "es"):
        tb = Table(Game(rules, "JYR35SWD"), make_seats(players, 1, None), lang=lang)
        tb.handle("auto")
        while len(tb.game.round.trick) < players - 2 or not tb.game.round.tricks:
            assert tb.cpu_step()
        for width in WIDTHS:
            _check(tb, width)


def _seat_rows(lines: list[str]) -> list[str]:
    # the seats: from under the header to the trick in words (or, with none, the situation)
    return lines[1:lines.index(next(x for x in lines if x.startswith("On the table:") or "to play" in x
                                    or "Your turn" in x))]


def test_seven_and_eight_sit_round_the_trick_at_80_columns():
    """South-West and South-East sit either side of you, their cards beside yours."""
    for players in (7, 8):
        tb = synthetic(players)
        rows = _seat_rows(shown(Renderer(tb, plain=True), 80))
        assert len(rows) == 5, rows  # the drawn table: top, cards, sides, cards, bottom
        bottom = rows[-1]
        assert bottom.startswith(" South-West (") and "South-East (" in bottom.split("You")[1], rows
        assert rows[-2].split()[1:2] == ["10♠" if players == 7 else "9♠"], rows  # South-West's card


@pytest.mark.parametrize("players", range(9, 12))
def test_nine_or_more_are_a_compact_list_round_the_table(players):
    tb = synthetic(players)
    rows = _seat_rows(shown(Renderer(tb, plain=True), 80))
    assert len(rows) < players  # more than one seat a line
    text = " ".join(rows)
    order = [text.index(tb.label(s)) for s in tb.round_the_table()[1:] + [tb.me]]
    assert order == sorted(order)  # from your left round the table, you last
    names = [place_name(p) for p in places(players)]
    assert names[1] in rows[0]  # Left 1 first


def test_a_name_with_a_number_is_never_broken():
    """"Izquierda 5" at 40 columns: the name and its number stay on one line."""
    tb = synthetic(11, lang="es")
    lines = _check(tb, 40)
    assert not any(line.rstrip().endswith("Izquierda") for line in lines)
    assert sum("Izquierda\u00a05" in line for line in lines) >= 2  # the seat row and the scores


def test_make_seats_names_every_count():
    for players in range(3, 12):
        seats = make_seats(players, 0, None)
        assert len({s.name for s in seats}) == players
        assert seats[0].name == "South" and seats[0].kind == "human"
