"""The move-log notation: round trips with records, forgiving spelling, and every bad input
reported at its line and column, round, trick and card."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearts_cli.model.rules import Rules
from hearts_cli.records.movelog import MoveLogError, format_log, parse, replay_log
from hearts_cli.records.record_reader import read_record
from hearts_cli.records.record_writer import write_record

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "replays"
GAMES = sorted(p.stem for p in FIX.glob("*.yaml"))

# round 1 of DEM0GAMV (quick, target 30): the start of fixtures/replays/quick-4p.log
PASSES = "KC 9H QS | AC QD JH | KD QH KS | 6C AH AS"
TRICK1 = "2C KC 9C KS"


def test_fixtures_exist():
    assert {"quick-4p", "moon", "omnibus-jd", "three-players", "five-players", "tie-share",
            "tie-one-more-round", "tie-until-single", "blunder"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_log_and_record_round_trip(name):
    record = read_record(FIX / f"{name}.yaml")
    game = record.replay()
    text = "\n".join(format_log(game)) + "\n"
    assert text == (FIX / f"{name}.log").read_text(encoding="utf-8")
    again = replay_log(text).game
    assert write_record(again, seats=record.seats, annotations=record.annotations,
                        program=record.program) == (FIX / f"{name}.yaml").read_text(encoding="utf-8")
    assert again.totals == game.totals and again.over


def test_spelling_is_free():
    loose = ("code dem0-gamv   # the code in any case, with a hyphen\n"
             "rules quick target=30\n"
             "kc, 9h, q♠   ac qd jh\n   kd QH ks 6c AH as\n"
             "2c k♣ 9C KS  # no separators, one trick over two lines\n")
    strict = f"code DEM0GAMV\nrules quick target=30\nR1 {PASSES}\n{TRICK1} /\n"
    a, b = replay_log(loose).game, replay_log(strict).game
    assert write_record(a) == write_record(b)
    assert len(a.round.tricks) == 1


def test_header_is_optional_given_code_and_rules():
    rules = Rules.from_spec({"preset": "quick", "target": 30})
    got = replay_log(f"{PASSES} {TRICK1}", "DEM0GAMV", rules)
    assert len(got.moves) == 8 and got.places[0] == (1, 1) and got.places[4] == (1, 43)


def test_partial_log_stops_where_it_ends():
    got = replay_log(f"code DEM0GAMV\nrules quick target=30\n{PASSES}\n{TRICK1} 8C 5C")
    rd = got.game.round
    assert len(rd.tricks) == 1 and len(rd.trick) == 2 and rd.turn == 3


def test_parse_gives_tokens_with_places():
    p = parse("R1  2C | QS  # note\n  / ")
    assert [(t.kind, t.line, t.column) for t in p.tokens] == [
        ("round", 1, 1), ("card", 1, 5), ("bar", 1, 8), ("card", 1, 10), ("slash", 2, 3)]


def _err(text: str, code: str | None = "DEM0GAMV", rules: Rules | None = None) -> MoveLogError:
    rules = rules if rules is not None or code is None else Rules.from_spec({"preset": "quick", "target": 30})
    with pytest.raises(MoveLogError) as info:
        replay_log(text, code, rules)
    return info.value


def test_unknown_token():
    e = _err(f"{PASSES}\n2C KC 9X KS")
    assert (e.message_id, e.line, e.column) == ("movelog_bad_token", 2, 7)
    assert "'9X' is not a card" in e.message("en") and "line 2, column 7" in e.message("en")
    assert "línea 2, columna 7" in e.message("es")
    # the near misses are offered as cards, never as a Python object
    assert "Did you mean 9C, 9D, 9H, 9S?" in e.message("en", ascii=True)
    assert "¿quizá 9C, 9D, 9H, 9S?" in e.message("es", ascii=True)
    assert "object at" not in e.message("en")


def test_card_not_in_the_hand_when_passing():
    e = _err("KC 9H QS | AC QD 2C | KD QH KS | 6C AH AS")
    assert (e.message_id, e.code, e.round, e.seat, e.line, e.column) == (
        "movelog_bad_pass", "not_in_hand", 1, 1, 1, 18)


def test_card_not_in_the_hand_when_playing():
    e = _err(f"{PASSES}\n2C KC 9C 7H")
    assert (e.message_id, e.code, e.round, e.trick, e.position, e.seat) == (
        "movelog_bad_play", "not_in_hand", 1, 1, 4, 3)
    assert (e.line, e.column) == (2, 10)


def test_illegal_play_names_the_rule():
    e = _err(f"{PASSES}\n{TRICK1}\n8C 5C KH 4D")  # seat 0 holds clubs: it must follow
    assert (e.code, e.round, e.trick, e.position, e.line, e.column) == ("must_follow_suit", 1, 2, 4, 3, 10)
    msg = e.message("en", ascii=True)
    assert "follow suit" in msg and "round 1, trick 2, card 4" in msg and "line 3, column 10" in msg
    assert "asistir al palo" in e.message("es")


def test_pass_of_the_wrong_size():
    e = _err("KC 9H | AC QD JH KD | QH KS 6C | AH AS")
    assert (e.message_id, e.round, e.seat, e.line, e.column) == ("movelog_pass_size", 1, 0, 1, 1)
    assert "has 2 cards; a pass is 3 cards" in e.message("en")
    e = _err("KC 9H QS | AC")  # the log ends inside a pass
    assert (e.message_id, e.seat, e.params["given"]) == ("movelog_pass_size", 1, 1)


def test_trick_separator_inside_a_trick():
    e = _err(f"{PASSES}\n2C KC 9C / KS")
    assert (e.message_id, e.trick, e.line, e.column) == ("movelog_trick_size", 1, 2, 10)


def test_log_for_another_code_or_preset():
    text = f"code DEM0GAMV\nrules quick target=30\n{PASSES}"
    e = _err(text, code="K7Q2MXA7")
    assert (e.message_id, e.line) == ("movelog_other_code", 1)
    e = _err(text, code=None, rules=Rules.from_spec("standard"))
    assert (e.message_id, e.line) == ("movelog_other_rules", 2)
    assert "quick target=30" in e.message("en") and "standard" in e.message("en")


def test_bad_header_and_late_header_and_no_code():
    assert _err("code DEM0GAMW").message_id == "movelog_bad_header"
    assert _err("rules quick tagret=30").message_id == "movelog_bad_header"
    assert _err(f"{PASSES}\ncode DEM0GAMV").message_id == "movelog_header_late"
    assert _err(PASSES, code=None).message_id == "movelog_no_code"


def test_round_markers_are_checked():
    assert _err(f"R2 {PASSES}").message_id == "movelog_round_marker"
    e = _err("R1 KC 9H QS R1")
    assert (e.message_id, e.column) == ("movelog_round_marker", 13)


def test_moves_after_the_end_of_the_game():
    text = (FIX / "tie-share.log").read_text(encoding="utf-8") + "2C\n"
    with pytest.raises(MoveLogError) as info:
        replay_log(text)
    assert info.value.message_id == "movelog_after_end"


def test_format_log_hides_a_round_under_way():
    game = replay_log(f"code DEM0GAMV\nrules quick target=30\n{PASSES}\n{TRICK1}").game
    lines = format_log(game, hide_round_in_progress=True)
    assert not any("QS" in ln for ln in lines)
    assert lines[-1].startswith("# R1")
    assert any("KC 9H QS" in ln for ln in format_log(game))


def test_the_game_loop_prints_the_log():
    from hearts_cli.repl.table import Table, make_seats

    record = read_record(FIX / "quick-4p.yaml")
    finished = Table(record.replay(), make_seats(4, 0, None), lang="en")
    finished.handle("log")
    text = finished.events[-1].data["text"]
    assert text == (FIX / "quick-4p.log").read_text(encoding="utf-8").rstrip("\n")
    playing = Table(record.replay(upto=20), make_seats(4, 0, None), lang="es")
    playing.handle("jugadas")
    text = playing.events[-1].data["text"]
    assert "KC 9H QS" not in text and "La ronda 1 está en juego" in text
