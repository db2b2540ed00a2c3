"""The library's face (issue 25 §1): ``import hearts_cli`` and a :class:`Game` scripted as
python-chess scripts a board: ``legal_moves``, ``why``, ``push``/``push_pass``/``push_moon``,
``pop`` (exact, whichever way a move was made), ``turn``, ``outcome``, one ``IllegalMove``
that says what ``why`` says, and a game from a record or a move log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import snapshot

import hearts_cli
from hearts_cli.bots import suggest
from hearts_cli.model.cards import CARDS, Card
from hearts_cli.model.codes import seed_for
from hearts_cli.play.engine import Game, IllegalMove, Phase, Step

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


def make(game: Game, step: Step, old: bool) -> None:
    """Make ``step`` through the new names (``push``...) or the old ones (``play``...)."""
    if step.kind == "pass":
        game.pass_cards(step.seat, step.cards) if old else game.push_pass(step.cards, step.seat)
    elif step.kind == "play":
        game.play(step.cards[0]) if old else game.push(step.cards[0])
    else:
        assert step.moon is not None
        game.choose_moon(step.moon) if old else game.push_moon(step.moon)


def cpu_moves(rules: str, code: str, extra: int) -> list[Step]:
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
    "one-deck-whole-game": lambda: hearts_cli.read_movelog(MOON_LOG).move_stack,
    # two decks (8 players, cancellation): a round and the first moves of the next
    "two-decks": lambda: cpu_moves("cancellation", "K7Q2MXA7", 12),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_push_then_pop_gives_back_the_game_exactly_at_every_move(case: str) -> None:
    moves = CASES[case]()
    rules = hearts_cli.read_movelog(MOON_LOG).rules if case.startswith("one") else "cancellation"
    code = "00000000" if case.startswith("one") else "K7Q2MXA7"
    game = Game(rules, code)
    start = state(game)
    for i, step in enumerate(moves):
        before = state(game)
        make(game, step, old=bool(i % 2))
        after = state(game)
        assert game.pop() == step
        assert state(game) == before, (i, step)
        make(game, step, old=not i % 2)  # the other way: both go on the stack
        assert state(game) == after, (i, step)
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
    game = hearts_cli.read_movelog(shooter_choice_log())
    assert game.phase is Phase.MOON and not game.legal_moves and game.outcome is None
    before = state(game)
    choice = hearts_cli.cpu_moon(game)
    assert isinstance(choice, hearts_cli.Moon)
    game.push_moon(choice)
    assert game.peek() == Step("moon", before["turn"], (), choice)  # type: ignore[arg-type]
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
    game = hearts_cli.read_movelog(MOON_LOG.split(" 3S QS")[0])  # the second trick, led with 4S
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
    assert game.peek() == Step("pass", 0, game.round.hand(0)[:3]) and game.turn == 1


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
             hearts_cli.read_record(record.read_text(encoding="utf-8")),
             hearts_cli.read_movelog(log), hearts_cli.read_movelog(tmp_path / "game.log"),
             hearts_cli.read_movelog(str(tmp_path / "game.log"))]
    first = state(games[0])
    assert first["moves"] and all(state(g) == first for g in games[1:])
    with pytest.raises(hearts_cli.MoveLogError):
        hearts_cli.read_movelog(log.replace("2C", "3C", 1) + "\n")
    with pytest.raises(hearts_cli.HeartsError):
        hearts_cli.read_movelog(tmp_path / "missing.log")


def test_the_face_names_what_a_script_needs_and_imports_none_of_it_until_asked() -> None:
    import hearts_cli as face

    source = (ROOT / "hearts_cli" / "__init__.py").read_text(encoding="utf-8")
    typed = set(__import__("re").findall(r" as (\w+)\n", source))
    assert set(face.__all__) - {"__version__"} == typed == set(face._WHERE)  # type: ignore[attr-defined]
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
