"""The library's face (issue 25 §1): ``import hearts_cli`` and a :class:`Game` scripted as
python-chess scripts a board: ``legal_moves``, ``why``, ``push``/``push_pass``/``push_moon``,
``pop`` (exact, whichever way a move was made), ``turn``, ``outcome``, one ``IllegalMove``
that says what ``why`` says, and a game from a record or a move log."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import snapshot

import hearts_cli
from hearts_cli.bots import suggest
from hearts_cli.model.cards import CARDS, Card
from hearts_cli.model.codes import seed_for
from hearts_cli.play.dealt import IllegalMove, Phase
from hearts_cli.play.game import Game, Move

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "fixtures" / "replays"
MOON_LOG = (REPLAYS / "moon.log").read_text(encoding="utf-8")  # quick, target 30: a moon, then the end


def state(game: Game) -> dict[str, object]:
    """Everything a game is: the round's whole state and every seat's view (conftest's
    ``snapshot``), the totals, results, rounds, the end and the moves made."""
    return {"round": snapshot(game.round), "rounds": len(game.rounds), "totals": list(game.totals),
            "results": list(game.results), "over": game.over, "winners": game.winners,
            "target_reached": game.target_reached, "extra_round": game.extra_round,
            "outcome": game.outcome, "turn": game.turn, "phase": game.phase,
            "legal": tuple(game.legal_moves), "moves": game.move_stack}


def make(game: Game, move: Move, whole: bool) -> None:
    """Make ``move`` whole (``push(move)``) or by its parts (``push_pass``, ``push``, ``push_moon``)."""
    if whole:
        game.push(move)
    elif move.kind == "pass":
        game.push_pass(move.cards, move.seat)
    elif move.kind == "play":
        game.push(move.cards[0])
    else:
        assert move.moon is not None
        game.push_moon(move.moon, move.seat)


def cpu_moves(rules: str, code: str, extra: int) -> list[Move]:
    """The moves of the first round played by the Random CPU, and ``extra`` moves after it."""
    game = Game(rules, code)
    while not game.results:
        hearts_cli.cpu_move(game, "random")
    for _ in range(extra):
        hearts_cli.cpu_move(game, "random")
    return list(game.move_stack)


def shooter_choice_log() -> str:
    """The moon log under the shooter's choice: its last round, a moon, ends waiting for it."""
    return MOON_LOG.replace("rules quick target=30", "rules quick target=30 moon=shooter_choice")


CASES = {
    # one deck: a moon, a round's end, the game's end (every move of a whole game)
    "one-deck-whole-game": lambda: hearts_cli.parse_movelog(MOON_LOG).move_stack,
    # two decks (8 players, cancellation): a round and the first moves of the next
    "two-decks": lambda: cpu_moves("cancellation", "K7Q2MXA7", 12),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_push_then_pop_gives_back_the_game_exactly_at_every_move(case: str) -> None:
    moves = CASES[case]()
    rules = hearts_cli.parse_movelog(MOON_LOG).rules if case.startswith("one") else "cancellation"
    code = "00000000" if case.startswith("one") else "K7Q2MXA7"
    game = Game(rules, code)
    start = state(game)
    for i, move in enumerate(moves):
        before = state(game)
        make(game, move, whole=bool(i % 2))
        after = state(game)
        assert game.pop() == move
        assert state(game) == before, (i, move)
        make(game, move, whole=not i % 2)  # the other way: both go on the stack the same
        assert state(game) == after, (i, move)
    assert game.move_stack == tuple(moves)
    if case.startswith("one"):
        assert game.over and game.outcome == hearts_cli.Outcome(game.winners, tuple(game.totals), 2)
        assert game.turn is None and not game.legal_moves
    round_one = game.rounds[0]  # a round object keeps its identity through pop
    while game.move_stack:
        game.pop()
    assert state(game) == start and game.rounds == [round_one]
    with pytest.raises(IndexError):
        game.pop()


def test_the_shooters_choice_is_a_move_pop_takes_back() -> None:
    game = hearts_cli.parse_movelog(shooter_choice_log())
    assert game.phase is Phase.MOON and not game.legal_moves and game.outcome is None
    before = state(game)
    choice = hearts_cli.cpu_moon(game)
    assert isinstance(choice, hearts_cli.Moon)
    game.push_moon(choice)
    assert game.peek() == Move(before["rounds"], before["turn"], (), moon=choice)  # type: ignore[arg-type]
    assert game.over and game.outcome is not None and game.turn is None  # the moon ended the game
    game.pop()
    assert state(game) == before


def test_legal_moves_are_the_engines_and_every_other_card_raises_what_why_says() -> None:
    game = Game("quick", "K7Q2MXA7")
    rnd = game.round
    # the pass: any card the seat to move holds; playing one now is refused as why refuses it
    assert tuple(game.legal_moves) == rnd.hand(0) and len(game.legal_moves) == 13
    assert all(game.why(c).legal for c in rnd.hand(0))
    with pytest.raises(IllegalMove) as e:
        game.push(rnd.hand(0)[0])
    assert e.value.code == "wrong_phase"
    while game.phase is Phase.PASS:
        game.push_pass(hearts_cli.cpu_pass(game, "easy"))
    codes = set()
    while not game.results:
        legal = rnd.legal_cards()
        assert tuple(game.legal_moves) == legal and len(game.legal_moves) == len(legal) > 0
        before = snapshot(rnd)
        for c in CARDS:
            verdict = game.why(c)
            assert verdict.legal == (c in game.legal_moves) == (c in legal)
            if verdict.legal:
                continue
            with pytest.raises(IllegalMove) as e:
                game.push(c)
            assert verdict.reason is not None and e.value.code == verdict.reason.code
            assert str(e.value) == e.value.message() == verdict.message()
            codes.add(e.value.code)
        assert snapshot(rnd, keep=False) == before  # refusals change nothing
        game.push(hearts_cli.cpu_play(game, "easy"))
    assert {"not_in_hand", "must_follow_suit", "hearts_not_broken"} <= codes


def test_the_refusal_says_the_card_as_why_does_with_its_suit_symbol() -> None:
    game = hearts_cli.parse_movelog(MOON_LOG.split(" 3S QS")[0])  # the second trick, led with 4S
    assert game.round.trick == [Card("4S")] and game.turn is not None
    hand = game.round.hand(game.turn)
    club = next(c for c in hand if c.suit == Card("2C").suit)
    with pytest.raises(hearts_cli.IllegalMove) as e:
        game.push(club)
    assert isinstance(e.value, hearts_cli.HeartsError)
    assert e.value.code == "must_follow_suit" and e.value.card == club
    said = str(e.value)
    assert said == game.why(club).message()
    assert all(c.symbol in said and str(c) not in said for c in game.round.legal_cards())  # 3♠, not 3S


@pytest.mark.parametrize("text", ["QS", "qs", "Q♠", "q♠", "queen of spades", "dama de picas", "reina de picas"])
def test_every_notation_the_table_reads_names_a_card_here(text: str) -> None:
    game = Game("quick", "K7Q2MXA7")
    seat = next(s for s in range(4) if Card("QS") in game.round.hand(s))
    while game.turn != seat:
        game.push_pass(hearts_cli.cpu_pass(game, "easy"))
    assert text in game.legal_moves and game.why(text) == game.why(Card("QS")) == game.why(49)


def test_a_notation_that_is_no_card_is_not_a_legal_move_and_pushing_it_is_a_users_error() -> None:
    game = Game("quick", "K7Q2MXA7")
    assert "XX" not in game.legal_moves and None not in game.legal_moves and 99 not in game.legal_moves
    with pytest.raises(hearts_cli.CardParseError):
        game.push("XX")
    game.push_pass(" ".join(c.symbol for c in game.round.hand(0)[:3]))  # one text, any notation
    assert game.peek() == Move(1, 0, game.round.hand(0)[:3]) and game.turn == 1


def test_the_cpu_helpers_choose_as_a_tables_cpu_does_from_the_seats_view() -> None:
    game = Game("quick", "K7Q2MXA7")
    seed = seed_for(game.code, "cpu", 0)
    assert hearts_cli.cpu_pass(game, "normal") == suggest(game.view(0), "normal", seed)
    while game.phase is Phase.PASS:
        hearts_cli.cpu_move(game, "normal")
    seat = game.turn
    assert seat is not None
    assert hearts_cli.cpu_play(game, "normal") == suggest(game.view(seat), "normal", seed_for(game.code, "cpu", seat))


def test_a_record_and_its_move_log_read_as_the_same_game(tmp_path: Path) -> None:
    record = REPLAYS / "quick-4p.yaml"
    log = (REPLAYS / "quick-4p.log").read_text(encoding="utf-8")
    (tmp_path / "game.log").write_text(log, encoding="utf-8")
    games = [hearts_cli.read_record(record), hearts_cli.read_record(str(record)),
             hearts_cli.parse_record(record.read_text(encoding="utf-8")),
             hearts_cli.parse_movelog(log), hearts_cli.read_movelog(tmp_path / "game.log"),
             hearts_cli.read_movelog(str(tmp_path / "game.log"))]
    first = state(games[0])
    assert first["moves"] and all(state(g) == first for g in games[1:])
    with pytest.raises(hearts_cli.MoveLogError):
        hearts_cli.parse_movelog(log.replace("2C", "3C", 1) + "\n")
    with pytest.raises(hearts_cli.HeartsError):
        hearts_cli.read_movelog(tmp_path / "missing.log")


def test_the_face_names_what_a_script_needs_and_imports_none_of_it_until_asked() -> None:
    import hearts_cli as face

    source = (ROOT / "hearts_cli" / "__init__.py").read_text(encoding="utf-8")
    typed = set(__import__("re").findall(r" as (\w+)\n", source))
    assert set(face.__all__) - {"__version__"} == typed == set(face._WHERE) | set(face._MODULES)  # type: ignore[attr-defined]
    for name in ("Game", "Card", "Rules", "Verdict", "HeartsError", "IllegalMove", "read_record",
                 "read_movelog", "LEVELS", "cpu_play"):
        assert name in face.__all__
    for name in face.__all__:
        assert getattr(face, name) is not None
    with pytest.raises(AttributeError):
        face.Gmae  # type: ignore[attr-defined]  # noqa: B018
    done = subprocess.run([sys.executable, "-c", "import sys, hearts_cli; "
                           "print(sorted(m for m in sys.modules if m.startswith('hearts_cli')))"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "['hearts_cli', 'hearts_cli.base', 'hearts_cli.base.version']"


# ---------------------------------------------------------------- issue 34 §8: the face holds at its edges


def _ended() -> Game:
    game = hearts_cli.Game("quick", "K7Q2MXA7")
    while game.turn is not None:
        hearts_cli.cpu_move(game, "easy")
    return game


def _playing() -> Game:
    game = hearts_cli.Game("quick", "K7Q2MXA7")
    for seat in range(4):
        game.push_pass(game.hand(seat)[-3:])
    return game


EDGES = {  # what a script may get wrong, and what the face said before (in the comment)
    "push after the end": lambda: _ended().push("2C"),  # PhaseError, a RuntimeError only
    "push_moon after the end": lambda: _ended().push_moon("others"),  # the same
    "push_pass after the end": lambda: _ended().push_pass("2C 3C 4C"),
    "view(9)": lambda: hearts_cli.Game("quick", "K7Q2MXA7").view(9),  # a bare IndexError
    "view(-1)": lambda: hearts_cli.Game("quick", "K7Q2MXA7").view(-1),  # seat 3's hand, as seat -1
    "position(seat=9)": lambda: hearts_cli.Game("quick", "K7Q2MXA7").position(seat=9),
    "hand(4)": lambda: hearts_cli.Game("quick", "K7Q2MXA7").hand(4),
    "push_pass(seat=7)": lambda: hearts_cli.Game("quick", "K7Q2MXA7").push_pass("2C 3C 4C", 7),
    "Card(99)": lambda: hearts_cli.Card(99),  # a bare ValueError
    "Card(-1)": lambda: hearts_cli.Card(-1),  # the A♠
    "parse_card(99)": lambda: hearts_cli.parse_card(99),  # type: ignore[arg-type]  # AttributeError
    "Game(5, code)": lambda: hearts_cli.Game(5, "K7Q2MXA7"),  # type: ignore[arg-type]  # AttributeError
    "cpu_pass in play": lambda: hearts_cli.cpu_pass(_playing()),  # a bare ValueError
    "cpu_play in the pass": lambda: hearts_cli.cpu_play(hearts_cli.Game("quick", "K7Q2MXA7")),
    "cpu_move after the end": lambda: hearts_cli.cpu_move(_ended()),
    "at_round with two hands": lambda: hearts_cli.Game.at_round(  # a bare ValueError
        hearts_cli.Rules.from_spec("quick"), None, 0, None, [list(range(13)), list(range(13, 26))]),
    "at_round with three totals": lambda: hearts_cli.Game.at_round(
        hearts_cli.Rules.from_spec("quick"), "K7Q2MXA7", 1, [1, 2, 3]),
    "pop before any move": lambda: hearts_cli.Game("quick", "K7Q2MXA7").pop(),  # a bare IndexError
    "peek before any move": lambda: hearts_cli.Game("quick", "K7Q2MXA7").peek(),
    "read_record of no file": lambda: hearts_cli.read_record("/nonexistent/x.yaml"),  # read as YAML text
    "read_movelog of no file": lambda: hearts_cli.read_movelog("/nonexistent/x.log"),  # read as a log
    "read_record of a text": lambda: hearts_cli.read_record("code: K7Q2MXA7\nrules: quick\n"),
    "parse_record of a path": lambda: hearts_cli.parse_record(REPLAYS / "quick-4p.yaml"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", EDGES)
def test_every_error_from_the_face_is_a_hearts_error_with_its_sentence(name: str) -> None:
    """issue 34 §8: errors leaked past the face as RuntimeError, IndexError, ValueError and
    AttributeError, or were no error at all; each is a HeartsError, one sentence in each language."""
    with pytest.raises(hearts_cli.HeartsError) as caught:
        EDGES[name]()
    en, es = caught.value.message("en"), caught.value.message("es")
    assert en != es and "\n" not in en and "\n" not in es, (en, es)
    assert str(caught.value) == caught.value.message()


def test_the_errors_keep_what_they_were_as_well() -> None:
    """The new edges are HeartsErrors and still what a script caught before (python-chess's
    pop is an IndexError too)."""
    with pytest.raises(RuntimeError):
        _ended().push("2C")
    with pytest.raises(IndexError):
        hearts_cli.Game("quick", "K7Q2MXA7").view(9)
    with pytest.raises(IndexError):
        hearts_cli.Game("quick", "K7Q2MXA7").pop()
    with pytest.raises(ValueError):
        hearts_cli.Card(99)
    with pytest.raises(hearts_cli.PhaseError):
        _ended().push("2C")
    with pytest.raises(hearts_cli.SeatError):
        hearts_cli.Game("quick", "K7Q2MXA7").view(-1)
    with pytest.raises(hearts_cli.NoMoveError):
        hearts_cli.Game("quick", "K7Q2MXA7").peek()
    for read in (hearts_cli.read_record, hearts_cli.read_movelog):
        with pytest.raises(hearts_cli.HeartsError) as caught:
            read("/nonexistent/x.yaml")
        assert "No such file" in caught.value.message("en") and "no existe" in caught.value.message("es")


def test_what_the_game_hands_out_cannot_change_it() -> None:
    """issue 34 §8: `game.totals` and `game.results` were the game's own lists."""
    game = _ended()
    totals, results, winners = game.totals, game.results, game.winners
    assert type(totals) is tuple and type(results) is tuple and type(winners) is tuple
    game.pop()
    assert sum(totals) > sum(game.totals) and len(results) == len(game.results) + 1
    game.push(hearts_cli.cpu_play(game, "easy"))
    assert game.totals == totals and game.results == results and game.winners == winners


def test_the_rules_text_the_project_writes_is_read_back() -> None:
    """issue 34 §8: `Game("quick+target=30", code)` refused the rules text that position()
    and PBN write."""
    from hearts_cli.model.rules import read_rules_text, rules_text
    from hearts_cli.records.movelog import format_log
    from hearts_cli.records.pbn import write_pbn
    from hearts_cli.records.record import GameRecord

    game = hearts_cli.Game("quick+target=30", "K7Q2MXA7")
    assert game.rules.target == 30 and game.rules == hearts_cli.Rules.from_spec({"preset": "quick", "target": 30})
    written = game.position().split()[1]
    pbn = write_pbn(GameRecord.from_game(game, None)).split('[Rules "')[1].split('"')[0]
    assert written == pbn == rules_text(game.rules) == "quick+target=30"
    for rules in (game.rules, hearts_cli.Rules.from_spec({"preset": "omnibus", "moon": "off", "players": 5}),
                  hearts_cli.Rules.from_spec("cancellation")):
        assert hearts_cli.Rules.from_spec(rules_text(rules)) == read_rules_text(rules_text(rules)) == rules
        assert hearts_cli.Game(rules_text(rules), "K7Q2MXA7").rules == rules
        logged = next(line for line in format_log(hearts_cli.Game(rules, "K7Q2MXA7")) if line.startswith("rules "))
        assert hearts_cli.Rules.from_spec(logged.removeprefix("rules ")) == rules  # the move log's line
    with pytest.raises(hearts_cli.RulesError):
        hearts_cli.Game("quick+target=x", "K7Q2MXA7")


def test_a_script_reads_the_hand_and_the_trick_from_the_game() -> None:
    """issue 34 §8: the docs reached into `game.round` (not on the face) for a hand or the trick."""
    game = _playing()
    assert game.hand(0) == game.round.hand(0) and isinstance(game.hand(0), tuple)
    assert game.trick == ()
    game.push("2C")
    assert game.trick == (Card("2C"),) and game.trick_plays() == [(game.round.leader, Card("2C"))]
    root = Path(__file__).resolve().parent.parent
    for doc in (root / "README.md", *sorted((root / "docs").glob("*.md"))):
        assert not re.search(r"game\.round\b(?!s)", doc.read_text(encoding="utf-8")), doc.name


def test_the_fast_path_has_a_name_on_the_face() -> None:
    """issue 34 §8: the fast path (for Monte Carlo work) was not reachable from `import hearts_cli`."""
    import random

    assert hearts_cli.fast.random_round(hearts_cli.Rules.from_spec("quick"), random.Random(3)) == (
        __import__("hearts_cli.play.fast", fromlist=["random_round"]).random_round(
            hearts_cli.Rules.from_spec("quick"), random.Random(3)))
    assert "fast" in dir(hearts_cli) and "fast" in hearts_cli.__all__
