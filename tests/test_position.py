"""The position notation (play/position.py, docs/position.md): every position of a round of
every preset, one deck and two, reads back to the same game; a seat's text to the same
view, with no card the seat cannot see; a bad text is one sentence naming its field."""

from __future__ import annotations

import json
import random

import pytest
from conftest import R, assert_user_error, run

from hearts_cli.model.cards import CARDS
from hearts_cli.model.errors import HeartsError
from hearts_cli.model.rules import preset_names
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.position import PositionTextError
from hearts_cli.play.round import SeatView

CODE = "K7Q2MXA7"

# one deck at every preset, odd and even tables, a kitty, two decks with and without a kitty
RULE_SETS = [R(name) for name in preset_names()] + [
    R("standard", players=5, target=60), R("kitty", passing=["right", "left"]),
    R("cancellation", players=7, deck="kitty"), R("cancellation", players=6, moon="shooter_choice")]


def _move(game: Game, rng: random.Random) -> None:
    """One random legal move: a pass of the seat to move, a card, or the shooter's choice."""
    rd = game.round
    if rd.phase is Phase.PASS:
        game.push_pass(rng.sample(list(rd.hand(rd.mover)), game.rules.pass_count), rd.mover)
    elif rd.phase is Phase.MOON:
        game.push_moon(rng.choice(["others", "shooter_minus"]))
    else:
        game.push(rng.choice(rd.legal_cards()))


def _check(game: Game) -> None:
    text = game.position()
    assert text.isascii() and "\n" not in text and len(text.split(" ")) == 9
    again = Game.from_position(text)
    assert again == game, text
    assert again.position() == text
    for seat in range(game.rules.players):
        seen = game.position(seat)
        assert SeatView.from_position(seen) == game.view(seat), seen
        assert SeatView.from_position(seen).position() == seen


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset}-{r.players}")
def test_every_position_of_a_round_reads_back_to_the_same_game(rules):
    rng = random.Random(f"{rules.preset}-{rules.players}")
    index = rng.randrange(7)  # a round of the pass cycle (and past one turn of it), with scores before it
    totals = [rng.randrange(rules.target // 2) for _ in range(rules.players)]
    game = Game.at_round(rules, CODE, index, totals)
    assert len(game.rounds) == index + 1 and game.round.scores_before == tuple(totals)
    _check(game)
    while game.round.round_index == index and not game.over:
        _move(game, rng)
        _check(game)
    assert game.over or game.round.round_index == index + 1  # the next round, dealt from the code


def test_two_decks_a_trick_set_aside_and_the_kitty_read_back():
    """Cancellation Hearts, seven seats and a kitty of six: a deal and a play (found once,
    pinned here) where a whole led suit cancels and the trick waits for the next winner."""
    rules = R("cancellation", players=7, deck="kitty")
    game = Game.at_round(rules, "K000000S", 3)
    rng = random.Random(19)
    while game.round.round_index == 3 and not game.over:
        _move(game, rng)
        _check(game)
        if any(tr.winner is None for tr in game.round.tricks):
            break
    rd = game.round
    assert any(tr.winner is None for tr in rd.tricks) and len(rd.tricks[0].kitty) == 6
    while rd.set_aside and game.round is rd:  # until a later trick's winner takes it
        _move(game, rng)
        _check(game)
    assert any(tr.carried for tr in rd.tricks)
    assert "+" in rd.view(0).position().split(" ")[6]  # a seat's view shows the kitty turned up


def test_a_deal_given_by_its_hands_a_pending_moon_and_a_chosen_one():
    """Hands, not a code (a study): seat 0 holds every club and takes every trick; the
    shooter's choice is pending, then made, and the game ends with the round."""
    suits = ["".join(str(c) for c in CARDS[s * 13:(s + 1) * 13]) for s in range(4)]
    text = f"hearts shooter-choice 4:2 10,20,30,40 {'/'.join(suits)} - 0: 0 -"
    game = Game.from_position(text)
    assert game.position() == text and game.code == "" and len(game.rounds) == 4
    while game.round.phase is Phase.PLAY:
        game.push(game.round.legal_cards()[0])
        _check(game)
    assert game.round.phase is Phase.MOON and game.position().endswith(" 0 pending")
    assert SeatView.from_position(game.position(3)).phase is Phase.MOON
    game.push_moon("shooter_minus")
    assert game.over and game.position().endswith(" - shooter_minus")
    _check(game)


def _cards_in(fields: list[str]) -> set[str]:
    """Every card written in the hand, passes and plays fields of a text."""
    out = set()
    for field in fields:
        for part in field.replace(":", "/").replace("+", "/").split("/"):
            if part != "-" and not part.isdigit():
                out |= {part[i:i + 2] for i in range(0, len(part), 2)}
    return out


def test_a_seat_text_holds_no_card_of_another_hand():
    rng = random.Random(3)
    game = Game(R("standard"), CODE)
    for _ in range(4 + 9):  # the passes, and two tricks and a card
        _move(game, rng)
    rd = game.round
    public = {str(c) for c in game.view(0).played()}
    for seat in range(4):
        text = game.position(seat)
        assert CODE not in text
        fields = text.split(" ")
        may_see = public | {str(c) for c in rd.hand(seat)} | {str(c) for c in rd.passes[seat] or ()}
        may_see |= {str(c) for c in rd.received[seat] or ()}
        assert _cards_in(fields[4:7]) <= may_see, (seat, text)
        hidden = {str(c) for s in range(4) if s != seat for c in rd.hand(s)} - may_see
        assert len(hidden) > 20 and not hidden & _cards_in(fields[4:7])


GOOD = "hearts standard 1 0,0,0,0 K7Q2MXA7 - - 0 -"


@pytest.mark.parametrize(("text", "field"), [
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - -", None),  # fields missing
    ("chess standard 1 0,0,0,0 K7Q2MXA7 - - 0 -", "kind"),
    ("hearts@9 standard 1 0,0,0,0 - - - 0 -", "kind"),
    ("hearts nosuch 1 0,0,0,0 K7Q2MXA7 - - 0 -", "rules"),
    ("hearts standard+moon=sometimes 1 0,0,0,0 K7Q2MXA7 - - 0 -", "rules"),
    ("hearts standard 0 0,0,0,0 K7Q2MXA7 - - 0 -", "round"),
    ("hearts standard 1:2 0,0,0,0 K7Q2MXA7 - - 0 -", "round"),  # a dealer with a code
    ("hearts standard 1 0,0,0 K7Q2MXA7 - - 0 -", "scores"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA8 - - 0 -", "deal"),
    ("hearts standard 1 0,0,0,0 2C3C/4C - - 0 -", "deal"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 2C2C2C/-/-/- - 0 -", "passes"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - 0:1C 0 -", "plays"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - 0: 0 -", "plays"),  # play before the pass
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - - 3 -", "turn"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - - 0 maybe", "moon"),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - - 0 pending", "moon"),
    ("hearts standard 1 100,0,9,9 K7Q2MXA7 - - 0 -", "scores"),  # the game was over
    ("hearts@1 standard 1 0,0,0,0 2C - - 0 -", "deal"),  # a hand of one card
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - - 0 - " + "x" * 5000, None),
    ("hearts standard 1 0,0,0,0 K7Q2MXA7 - - \x1b[2J 0 -", None),
])
def test_a_bad_text_is_one_sentence_naming_its_field(text, field):
    read = SeatView.from_position if text.startswith("hearts@") else Game.from_position
    with pytest.raises(PositionTextError) as caught:
        read(text)
    sentence = caught.value.message("en")
    assert "\n" not in sentence and "\x1b" not in sentence and "<" not in sentence, sentence
    if field is not None:
        assert caught.value.field == field and f"{field} field" in sentence, sentence
        assert "campo " + field in caught.value.message("es")


def test_a_move_the_rules_refuse_names_the_plays_field_and_the_rule():
    game = Game(R("standard"), CODE)
    rng = random.Random(5)
    for _ in range(4):
        _move(game, rng)
    text = game.position()
    leader = game.round.mover
    wrong = next(c for c in game.round.hand(leader) if str(c) != "2C")
    with pytest.raises(PositionTextError) as caught:
        Game.from_position(text.replace(f" {leader}: ", f" {leader}:{wrong} "))
    assert caught.value.field == "plays" and "2" in caught.value.message("en")
    with pytest.raises(PositionTextError, match="start with"):
        Game.from_position(text.replace(f" {leader}: ", f" {(leader + 1) % 4}: "))


def test_a_whole_table_is_not_a_seat_and_a_seat_not_a_whole_table():
    with pytest.raises(PositionTextError, match="hearts@SEAT"):
        SeatView.from_position(GOOD)
    seat_text = Game(R("standard"), CODE).position(1)
    with pytest.raises(HeartsError, match="one seat's view"):
        Game.from_position(seat_text)


def test_a_seat_text_whose_turn_does_not_follow_is_refused():
    game = Game(R("cutthroat"), CODE)  # no pass: the play starts at once
    text = game.position(1)
    turn = game.round.mover
    with pytest.raises(PositionTextError, match=f"must be {turn}"):
        SeatView.from_position(text[: text.rindex(f" {turn} ")] + f" {(turn + 1) % 4} -")


def test_the_examples_of_the_docs_read_back_and_write_themselves():
    import pathlib
    import re

    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "position.md").read_text(encoding="utf-8")
    examples = re.findall(r"^(hearts(?:@\d+)? \S.*)$", doc, re.MULTILINE)
    assert len(examples) == 4
    for text in examples:
        if text.startswith("hearts@"):
            assert SeatView.from_position(text).position() == text
        else:
            assert Game.from_position(text).position() == text
    code = re.search(r"```python\n(.*?)```", doc, re.DOTALL)
    assert code is not None
    exec(compile(code.group(1), "docs/position.md", "exec"), {})  # the example's asserts hold


# ---------------------------------------------------------------- the command line and the engine protocol


def test_explain_reads_a_position_text():
    game = Game(R("cutthroat"), CODE)
    leader = game.round.mover
    text = game.position()
    legal = run("explain", "2C", "--position", text)
    assert legal.exit_code == 0, legal.stderr
    assert "2♣ can be played" in legal.stdout
    other = next(c for c in game.round.hand(leader) if str(c) != "2C")
    refused = run("explain", str(other), "--position", text, "--json")
    assert refused.exit_code == 0 and json.loads(refused.stdout)["reason"]["code"] == "must_lead_two_clubs"
    seat = run("explain", "2C", "--position", game.position(leader))
    assert seat.exit_code == 0 and "2♣ can be played" in seat.stdout
    fields = text.split(" ")
    fields[6] = "9:"  # no seat 9
    assert_user_error(run("explain", "2C", "--position", " ".join(fields)), "plays field")


def test_replay_at_a_position_text_shows_the_table_there():
    game = Game(R("cutthroat"), CODE)
    game.push("2C")
    result = run("replay", "--at", game.position(), "--json")
    assert result.exit_code == 0, result.stderr
    assert '"event": "view"' in result.stdout and '"trick": [' in result.stdout
    assert_user_error(run("replay", "--at", game.position().replace("cutthroat", "nosuch")), "rules field")


def test_the_engine_protocol_takes_a_position_text():
    from hearts_cli.cli.protocol import Session

    game = Game(R("standard"), CODE)
    rng = random.Random(11)
    for _ in range(6):
        _move(game, rng)
    session = Session("en")
    reply = session.handle({"cmd": "position", "text": game.position()})
    assert reply["ok"] and reply["seat"] == game.round.mover
    assert [p["card"] for p in reply["trick"]] == [str(c) for c in game.round.trick]
    bad = session.handle({"cmd": "position", "text": "hearts"})
    assert not bad["ok"] and "9 fields" in bad["error"]["message"]


def test_the_games_code_command_shows_the_persons_seat_text_only(isolated):
    import json

    result = run("new", "--code", CODE, "--delay", "0", "--json", input="code\nquit\n")
    said = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    texts = [e["text"] for e in said if e.get("event") == "info" and e.get("topic") == "code"]
    assert len(texts) == 2 and CODE in texts[0]
    seat_text = texts[1][texts[1].index("hearts@"):]
    game = Game(R("quick"), CODE)
    assert seat_text == game.position(0) and CODE not in seat_text
    assert SeatView.from_position(seat_text) == game.view(0)
