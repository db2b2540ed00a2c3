"""Game records: canonical writing, forgiving reading, re-play and checking.

Run ``python tests/test_record.py --write-fixtures`` to regenerate
``fixtures/records/`` from the games described in ``FIXTURE_GAMES``.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ref_code
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_cli import __version__
from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import MOON_CHOICES, Phase
from hearts_cli.play.game import Game, Move
from hearts_cli.records.record import GameRecord, in_record_order, save_record
from hearts_cli.records.record_parts import (
    FORMAT,
    GLYPHS,
    Annotation,
    MoveAddress,
    RecordError,
    Seat,
)
from hearts_cli.records.record_reader import MAX_RECORD_BYTES, read_record
from hearts_cli.records.record_writer import write_record
from hearts_cli.text.catalog import CATALOG

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "records"


def code_for(payload: str) -> str:
    return ref_code(payload)  # the conftest's independent check character


CODE = "K7QM2XAR"  # a payload; the check character is added below
CODE = code_for(CODE[:7])


def random_game(spec, code: str = CODE, seed: int = 1, stop: int | None = None) -> Game:
    """A game of random legal moves (random passes too); ``stop`` actions at most."""
    rules = Rules.from_spec(spec)
    rng = random.Random(seed)
    game = Game(rules, code)
    steps = 0
    while not game.over and (stop is None or steps < stop):
        rnd = game.round
        if rnd.phase is Phase.PASS:
            seat = rng.choice([s for s, p in enumerate(rnd.passes) if p is None])
            game.push_pass(rng.sample(list(rnd.hand(seat)), rules.pass_count), seat)
        elif rnd.phase is Phase.MOON:
            game.push_moon(rng.choice(MOON_CHOICES))
        else:
            game.push(rng.choice(rnd.legal_cards()))
        steps += 1
    return game


def state(game: Game) -> dict:
    """What must be the same after a re-play: the whole position, every round."""
    rounds = []
    for rnd in game.rounds:
        rounds.append((rnd.phase, rnd.direction, rnd.dealer, tuple(rnd.dealt), tuple(rnd.hands),
                       tuple(rnd.passes), tuple(rnd.received), tuple(rnd.tricks), tuple(rnd.trick),
                       rnd.leader, rnd.turn, rnd.hearts_broken, rnd.result))
    return {"rounds": rounds, "totals": list(game.totals), "over": game.over,
            "winners": game.winners, "results": list(game.results)}


def round_trip(text: str) -> GameRecord:
    record = read_record(text)
    assert record.errors == []
    assert record.to_text() == text  # byte for byte
    return record


PRESETS = [
    "quick",
    "standard",
    "kitty",  # three players and a kitty
    "omnibus",
    "spot",
    "black-maria",
    "cutthroat",
    "old-lead",
    "shooter-choice",
    "no-moon",
    {"preset": "reference", "players": 5},
    {"preset": "reference", "players": 6},
    {"preset": "online", "players": 5, "deck": "kitty", "target": 60},
    {"preset": "quick", "passing": ["right", "none"], "pass_count": 2},
]


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("spec", PRESETS, ids=str)
def test_whole_game_round_trips(spec):
    game = random_game(spec, seed=7)
    assert game.over
    text = write_record(game)
    record = round_trip(text)
    again = record.replay()
    assert again.totals == game.totals
    assert again.standings() == game.standings()
    assert state(again) == state(game)
    assert record.rules == game.rules
    assert record.code == game.code
    assert record.moves == in_record_order(game.move_stack)  # a round's passes by seat
    # one line per trick, never wrapped
    tricks = sum(len(r.tricks) for r in game.rounds)
    assert len(re.findall(r"^      - \{lead: \d, cards: \[[^\]\n]*\], won: \d, points: -?\d+\}$",
                          text, re.M)) == tricks
    # and plain YAML agrees with what we meant
    data = yaml.safe_load(text)
    assert data["format"] == FORMAT
    assert data["program"] == f"hearts {__version__}"
    assert data["totals"] == list(game.totals)
    assert data["result"]["winners"] == list(game.winners)


@pytest.mark.slow
def test_writing_is_deterministic_under_hash_seeds(tmp_path):
    script = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "from test_record import random_game\n"
        "from hearts_cli.records.record_writer import write_record\n"
        "sys.stdout.write(write_record(random_game('kitty', seed=3)))\n"
    )
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.append(subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT,
                                   capture_output=True, text=True, check=True, timeout=60).stdout)
    assert outs[0] == outs[1] == write_record(random_game("kitty", seed=3))


def test_fresh_game_round_trips():
    game = Game(Rules.from_spec("quick"), CODE)
    text = write_record(game)
    record = round_trip(text)
    assert record.moves == ()
    assert "result:" not in text and "passes:" not in text and "tricks:" not in text
    assert state(record.replay()) == state(game)


@pytest.mark.parametrize("spec", ["quick", "kitty", {"preset": "reference", "players": 5}], ids=str)
def test_pass_phase_in_progress_resumes(spec):
    rules = Rules.from_spec(spec)
    game = random_game(spec, seed=11, stop=1)  # one seat has chosen its pass
    rnd = game.round
    assert rnd.phase is Phase.PASS and sum(p is not None for p in rnd.passes) == 1
    text = write_record(game)
    assert len(re.findall(r"^      \d: \[", text, re.M)) == rules.players + 1  # hands + 1 pass
    record = round_trip(text)
    resumed = record.replay()
    assert state(resumed) == state(game)
    # both carry on the same way
    seat = resumed.round.passes.index(None)
    cards = list(resumed.round.hand(seat))[: rules.pass_count]
    resumed.push_pass(cards, seat)
    game.push_pass(cards, seat)
    assert state(resumed) == state(game)


@pytest.mark.parametrize("stop", [60, 111, 150])
def test_mid_trick_in_progress_resumes(stop):
    game = random_game("quick", seed=5, stop=stop)
    assert not game.over
    text = write_record(game)
    record = round_trip(text)
    resumed = record.replay()
    assert state(resumed) == state(game)
    assert resumed.round.turn == game.round.turn
    if game.round.trick:  # the partial trick is a line without won/points
        assert re.search(r"^      - \{lead: \d, cards: \[[^\]]*\]\}$", text, re.M)
    assert "result:" not in text
    # carry on to the end from both and compare
    for g in (game, resumed):
        rng = random.Random(9)
        while not g.over:
            rnd = g.round
            if rnd.phase is Phase.PASS:
                seat = rnd.passes.index(None)
                g.push_pass(rng.sample(list(rnd.hand(seat)), 3), seat)
            elif rnd.phase is Phase.MOON:
                g.push_moon(rng.choice(MOON_CHOICES))
            else:
                g.push(rng.choice(rnd.legal_cards()))
    assert state(resumed) == state(game)


def test_replay_upto_steps_through_moves():
    game = random_game("quick", seed=2, stop=40)
    record = read_record(write_record(game))
    for k in (0, 5, 17, 40):
        partial = record.replay(upto=k)
        assert len(list(partial.move_stack)) == k
        assert list(partial.move_stack) == list(record.moves[:k])


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(spec=st.sampled_from(PRESETS), payload=st.text(alphabet="0123456789ABCDEFGHJKMNPQRSTVWXYZ",
                                                       min_size=7, max_size=7),
       seed=st.integers(0, 2**32), stop=st.one_of(st.none(), st.integers(0, 400)))
def test_property_written_and_read_back_is_identical(spec, payload, seed, stop):
    game = random_game(spec, code_for(payload), seed, stop)
    text = write_record(game)
    record = read_record(text)
    assert record.to_text() == text
    assert state(record.replay()) == state(game)


# ---------------------------------------------------------------- seats, rules and annotations


NAMES = ["You", "yes", "off", "null", "O'Brien: #1", "Ñoño", "", " padded ", "7", "1e5",
         'say "hi"', "tab\tand\nnewline", "- dash", "[x]", "\u2028sep\x85", "🂡 ace"]


def test_seats_and_levels_round_trip():
    game = random_game("quick", seed=3, stop=20)
    for name in NAMES:
        seats = [Seat(name), Seat("West", "cpu", "easy"), Seat("North", "cpu", "normal"),
                 Seat("East", "cpu", "hard")]
        text = write_record(game, seats=seats)
        record = round_trip(text)
        assert record.seats == tuple(seats)


def test_rules_overrides_round_trip_and_yaml_gotchas():
    rules = Rules.from_spec({"preset": "standard", "moon": "off", "target": 75,
                             "passing": ["left", "none"], "removal": {3: ["2D"], 5: ["2D", "2C"]}})
    game = Game(rules, CODE)
    text = write_record(game)
    assert '  moon: "off"\n' in text  # a bare off would read as false
    assert "  removal: {3: [2D], 5: [2D, 2C]}\n" in text
    record = round_trip(text)
    assert record.rules == rules and record.rules.spec() == rules.spec()
    # a hand-written bare `off` is still understood
    assert read_record(text.replace('moon: "off"', "moon: off")).rules == rules


def test_rules_without_provenance_are_written_as_overrides():
    rules = Rules(target=30, hearts_break="free", removal=((3, (Card("2C"),)),))  # no preset recorded
    text = write_record(Game(rules, CODE))
    assert read_record(text).rules == rules


def test_annotations_round_trip():
    game = random_game("quick", seed=4, stop=90)
    notes = {
        "1.3.2": Annotation("?", "Too early for the queen."),
        "1.pass.2": Annotation("??", "Passing the A♠ into a void"),
        "1": Annotation("", "A quiet round."),
        "2.1.1": Annotation("!"),
        MoveAddress(1, 13, 4): Annotation("!?", 'quotes " and \\ and\nnew lines'),
        "1.1.1": Annotation("", ""),
    }
    text = write_record(game, annotations=notes)
    record = round_trip(text)
    assert record.annotations == {MoveAddress.parse(k): v for k, v in notes.items()}
    keys = re.findall(r'^  "([^"]+)":', text, re.M)
    assert keys == ["1", "1.pass.2", "1.1.1", "1.3.2", "1.13.4", "2.1.1"]  # canonical order
    # every annotation names a real move
    positions = {MoveAddress.of(m) for m in record.moves}
    assert all(p in positions or p.kind == "round" for p in record.annotations)


@settings(max_examples=25, deadline=None)
@given(glyph=st.sampled_from(("",) + GLYPHS), comment=st.text(max_size=40),
       name=st.text(max_size=12))
def test_property_any_text_survives(glyph, comment, name):
    game = Game(Rules.from_spec("quick"), CODE)
    game.push_pass(list(game.round.hand(0))[:3], 0)
    note = Annotation(glyph, comment)
    seats = [Seat(name)] + [Seat(f"CPU {i}", "cpu", "normal") for i in range(1, 4)]
    text = write_record(game, seats=seats, annotations={"1.pass.0": note})
    assert all(len(line) < 400 for line in text.splitlines())
    record = read_record(text)
    assert record.annotations[MoveAddress(1, seat=0)] == note
    assert record.seats[0].name == name
    assert record.to_text() == text


def test_position_text():
    assert str(MoveAddress.parse("1.3.2")) == "1.3.2"
    assert MoveAddress.parse(" 2.PASS.3 ") == MoveAddress(2, seat=3)
    assert MoveAddress.parse("2.p.1") == MoveAddress(2, seat=1)
    assert MoveAddress.parse(4) == MoveAddress(4)
    assert MoveAddress.of(Move(1, 2, (Card("QS"),), 3, 4)) == MoveAddress(1, 3, 4)
    for bad in ("", "0", "1.0.1", "1.2", "a.b.c", "1.pass", "1.3.2.1", True, None, 1.5):
        with pytest.raises(ValueError):
            MoveAddress.parse(bad)


def test_writer_is_strict():
    game = Game(Rules.from_spec("quick"), CODE)
    for notes in ({"1": Annotation("?!?")}, {"1": Annotation("?", 5)}, {"1.x": Annotation("?")}):
        with pytest.raises(ValueError):
            write_record(game, annotations=notes)
    for seats in ([Seat("a")] * 3, [Seat("a", "robot")] * 4, [Seat(None)] * 4, [Seat("a", "cpu", 3)] * 4):
        with pytest.raises(ValueError):
            write_record(game, seats=seats)


def test_bad_annotations():
    game = random_game("quick", seed=4, stop=10)
    text = write_record(game, annotations={"1.1.1": Annotation("!", "x")})
    err = expect_error(text.replace('"1.1.1"', '"1.9.1"'), "record_bad_annotation")
    assert "1.9.1" in err.message("en")
    expect_error(text.replace('"1.1.1"', '"one"'), "record_bad_annotation")
    expect_error(text.replace('glyph: "!"', 'glyph: "?!?"'), "record_bad_annotation")
    # forgiving: a bare comment
    rec = read_record(text.replace('{glyph: "!", comment: "x"}', "just a note"))
    assert rec.annotations == {MoveAddress(1, 1, 1): Annotation("", "just a note")}


# ---------------------------------------------------------------- forgiving reading


def test_reader_is_forgiving_about_spelling():
    game = random_game("quick", seed=6, stop=30)
    text = write_record(game)
    lowered = text.replace(f'code: "{game.code}"', f"code: {game.code[:4].lower()}-{game.code[4:].lower()}")
    lowered = re.sub(r"\bTH\b", "10h", lowered)
    lowered = re.sub(r"\bQS\b", "Q♠", lowered)
    lowered = lowered.replace("format: hearts-record/1", "format: hearts-record/1\nfuture_key: [1, 2]")
    lowered = re.sub(r"^#.*\n", "", lowered)
    record = read_record(lowered)
    assert record.to_text() == text  # back to the canonical form


def test_derived_fields_may_be_left_out():
    game = random_game("kitty", seed=8)
    text = write_record(game)
    slim = re.sub(r", won: \d, points: -?\d+", "", text)
    slim = re.sub(r"^    (dealer|pass|score|moon|kitty): .*\n", "", slim, flags=re.M)
    slim = re.sub(r"^    hands:\n(^      \d: .*\n)+", "", slim, flags=re.M)
    slim = re.sub(r"^(totals|result|  winners|  standings|    - \{place).*\n", "", slim, flags=re.M)
    slim = re.sub(r"^  - \{seat: \d, ", "  - {", slim, flags=re.M)
    assert "score" not in slim and "hands" not in slim
    assert read_record(slim).to_text() == text


def test_files_and_open_streams(tmp_path):
    game = random_game("quick", seed=1, stop=70)
    text = write_record(game)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    assert read_record(path).to_text() == text
    assert read_record(str(path)).to_text() == text
    with open(path, encoding="utf-8") as fh:
        assert read_record(fh).to_text() == text
    with open(path, "rb") as fh:
        assert read_record(fh).to_text() == text


# ---------------------------------------------------------------- bad records


def expect_error(source, message_id: str, **attrs) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_record(source)
    err = info.value
    assert err.message_id == message_id, err.message("en")
    for key, value in attrs.items():
        assert getattr(err, key) == value, (key, err.message("en"))
    # a sentence in both languages, every placeholder filled
    for lang in ("en", "es"):
        msg = err.message(lang)
        assert msg and not re.search(r"\{[a-z_]+\}", msg)
    assert err.message("en") != err.message("es") or message_id == "record_bad_yaml"
    assert isinstance(err, ValueError)
    return err


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def trick_line(lines: list[str], r: int, k: int) -> int:
    """The index of the line of round ``r``, trick ``k`` (both 1-based)."""
    start = lines.index(f"  - round: {r}")
    found = [i for i, line in enumerate(lines) if i > start and line.startswith("      - {lead:")]
    return found[k - 1]


def first_illegal(game_spec, seed=12):
    """Re-play a game and find the first play where some held card was illegal.

    Returns (game text, round, trick, position, legal card, illegal card, reason code).
    """
    game = random_game(game_spec, seed=seed)
    text = write_record(game)
    replay = Game(game.rules, game.code)
    for move in list(game.move_stack):
        rnd = replay.round
        if move.kind == "play" and move.trick > 1 and move.index > 1:
            held = set(rnd.hand(rnd.turn))
            illegal = sorted(held - set(rnd.legal_cards()))
            if illegal:
                bad = illegal[0]
                return text, move.round, move.trick, move.index, move.card, bad, rnd.why(bad).reason.code
        replay.push(move)
    raise AssertionError("no illegal alternative found")


def test_illegal_play_names_round_trick_position_and_rule():
    text, r, k, i, good, bad, code = first_illegal("quick")
    lines = lines_of(text)
    at = trick_line(lines, r, k)
    cards = re.search(r"cards: \[([^\]]*)\]", lines[at]).group(1).split(", ")
    assert cards[i - 1] == str(good)
    cards[i - 1] = str(bad)
    lines[at] = re.sub(r"cards: \[[^\]]*\]", "cards: [" + ", ".join(cards) + "]", lines[at])
    err = expect_error("\n".join(lines), "record_bad_move", round=r, trick=k, position=i, line=at + 1)
    assert err.code == code == "must_follow_suit"
    assert f"round {r}, trick {k}, card {i}" in err.message("en")
    assert f"ronda {r}, baza {k}, carta {i}" in err.message("es")
    assert "That seat must follow" in err.message("en") and "Ese asiento debe asistir" in err.message("es")
    # lenient: the error is noted, the moves stop before it, and the game can be replayed
    record = read_record("\n".join(lines), strict=False)
    assert [e.message_id for e in record.errors] == ["record_bad_move"]
    assert MoveAddress.of(record.moves[-1]) == MoveAddress(r, k, i - 1)
    record.replay()


def test_card_not_in_hand():
    game = random_game("quick", seed=12)
    text = write_record(game)
    lines = lines_of(text)
    at = trick_line(lines, 1, 2)
    seat_of_2 = (int(re.search(r"lead: (\d)", lines[at]).group(1)) + 1) % 4
    elsewhere = game.rounds[0].tricks[1].cards[2]  # a card the next seat over plays
    cards = re.search(r"cards: \[([^\]]*)\]", lines[at]).group(1).split(", ")
    cards[1] = str(elsewhere)
    lines[at] = re.sub(r"cards: \[[^\]]*\]", "cards: [" + ", ".join(cards) + "]", lines[at])
    err = expect_error("\n".join(lines), "record_bad_move", round=1, trick=2, position=2,
                       seat=seat_of_2)
    assert err.code == "not_in_hand"


def test_card_that_is_no_card():
    text = write_record(random_game("quick", seed=12))
    lines = lines_of(text)
    at = trick_line(lines, 1, 1)
    lines[at] = lines[at].replace("cards: [2C", "cards: [ZZ")
    err = expect_error("\n".join(lines), "record_bad_move", round=1, trick=1, position=1)
    assert "ZZ" in err.message("en")


def test_play_during_the_pass_phase():
    game = random_game("quick", seed=12, stop=3)  # three of four passes chosen
    text = write_record(game)
    lines = lines_of(text)
    end = lines.index("totals: [0, 0, 0, 0]")
    lines[end:end] = ["    tricks:", "      - {lead: 0, cards: [2C]}"]
    err = expect_error("\n".join(lines), "record_bad_move", round=1, trick=1, position=1)
    assert err.reason.detail == "wrong_phase_pass"


def test_pass_of_wrong_size_and_card_not_held():
    game = random_game("quick", seed=12)
    text = write_record(game)
    passed = game.rounds[0].passes[2]
    line = f"      2: [{', '.join(map(str, passed))}]"
    assert line in text
    short = text.replace(line, f"      2: [{', '.join(map(str, passed[:2]))}]", 1)
    err = expect_error(short, "record_bad_pass", round=1, seat=2)
    assert err.code == "pass_count"
    assert "seat 2" in err.message("en") and "asiento 2" in err.message("es")
    not_held = next(c for c in (Card(x) for x in range(52))
                    if game.rounds[0].dealt[0] >> c & 1)  # a card of seat 0
    swapped = text.replace(line, f"      2: [{', '.join(map(str, (not_held,) + passed[1:]))}]", 1)
    err = expect_error(swapped, "record_bad_pass", round=1, seat=2)
    assert err.code == "not_in_hand"
    dup = text.replace(line, f"      2: [{passed[0]}, {passed[0]}, {passed[1]}]", 1)
    assert expect_error(dup, "record_bad_pass").code == "pass_duplicate"
    seat9 = text.replace(line, f"      9: [{', '.join(map(str, passed))}]", 1)
    expect_error(seat9, "record_bad_field")


def test_tampered_score():
    game = random_game("quick", seed=12)
    text = write_record(game)
    scores = list(game.results[1].scores)
    old = f"    score: [{', '.join(map(str, scores))}]"
    scores[0] += 1
    lines = lines_of(text)
    at = next(i for i, line in enumerate(lines) if line == old)  # the first such line
    r = sum(1 for line in lines[:at] if line.startswith("  - round:"))
    lines[at] = f"    score: [{', '.join(map(str, scores))}]"
    # the line changed, not the round's first (issue 26 §13)
    err = expect_error("\n".join(lines), "record_score_mismatch", round=r, line=at + 1)
    assert str(scores[0]) in err.message("en") and f"(line {at + 1})" in err.message("en")
    # and a lenient read notes it but keeps the whole game
    record = read_record("\n".join(lines), strict=False)
    assert [e.message_id for e in record.errors] == ["record_score_mismatch"]
    assert record.moves == in_record_order(game.move_stack)


def test_tampered_trick_totals_and_result():
    game = random_game("quick", seed=12)
    text = write_record(game)
    lines = lines_of(text)
    at = trick_line(lines, 1, 1)
    lines[at] = re.sub(r"points: \d+", "points: 9", lines[at])
    expect_error("\n".join(lines), "record_trick_mismatch", round=1, trick=1)
    lines = lines_of(text)
    lines[at] = re.sub(r"lead: \d", "lead: 9", lines[at])
    expect_error("\n".join(lines), "record_trick_leader", round=1, trick=1)
    # a field edited by hand is named at its own line
    lines = lines_of(text)
    totals = f"totals: [{', '.join(map(str, game.totals))}]"
    expect_error(text.replace(totals, "totals: [1, 2, 3, 4]"), "record_totals_mismatch",
                 line=lines.index(totals) + 1)
    winners = f"  winners: [{', '.join(map(str, game.winners))}]"
    expect_error(text.replace(winners, "  winners: [9]"), "record_result_mismatch",
                 line=lines.index(winners) + 1)
    start = lines.index("  - round: 1")
    moon = "\n".join(lines[:start + 2] + ["    moon: 2"] + lines[start + 2:])  # nobody shot
    expect_error(moon, "record_bad_field", line=start + 3)
    # a result on an unfinished game
    partial = write_record(random_game("quick", seed=12, stop=10))
    expect_error(partial + "result:\n  winners: [0]\n", "record_result_early")


def test_tampered_hands():
    game = random_game("quick", seed=12)
    text = write_record(game)
    lines = lines_of(text)
    at = lines.index("    hands:", lines.index("  - round: 2")) + 1
    h0 = re.search(r"\[([^\]]*)\]", lines[at]).group(1).split(", ")
    h1 = re.search(r"\[([^\]]*)\]", lines[at + 1]).group(1).split(", ")
    h0[0], h1[0] = h1[0], h0[0]
    lines[at] = f"      0: [{', '.join(h0)}]"
    lines[at + 1] = f"      1: [{', '.join(h1)}]"
    err = expect_error("\n".join(lines), "record_hands_mismatch", round=2, line=at + 1)  # seat 0's line
    assert game.code in err.message("en")
    # seats 2 and 3 edited: named at seat 2's line, not where the hands start
    lines = lines_of(text)
    h2 = re.search(r"\[([^\]]*)\]", lines[at + 2]).group(1).split(", ")
    h3 = re.search(r"\[([^\]]*)\]", lines[at + 3]).group(1).split(", ")
    h2[0], h3[0] = h3[0], h2[0]
    lines[at + 2] = f"      2: [{', '.join(h2)}]"
    lines[at + 3] = f"      3: [{', '.join(h3)}]"
    expect_error("\n".join(lines), "record_hands_mismatch", round=2, line=at + 3)


def test_rounds_out_of_place():
    game = random_game("quick", seed=12)
    text = write_record(game)
    # a round after the end of the game
    extra = text.replace("totals:", "  - round: 99\n    pass: left\ntotals:")
    expect_error(extra, "record_after_end")
    # a second round recorded while the first is unfinished
    partial = write_record(random_game("quick", seed=12, stop=30))
    extra = partial.replace("totals:", "  - round: 2\n    pass: right\ntotals:")
    expect_error(extra, "record_unfinished_round", round=2)
    # a short trick that is not the last one
    lines = lines_of(text)
    at = trick_line(lines, 1, 2)
    lines[at] = re.sub(r"cards: \[(\w\w), (\w\w), (\w\w), (\w\w)\]", r"cards: [\1, \2, \3]", lines[at])
    expect_error("\n".join(lines), "record_trick_size", round=1, trick=2)


def test_bad_code():
    text = write_record(Game(Rules.from_spec("quick"), CODE))
    wrong = CODE[:-1] + ("0" if CODE[-1] != "0" else "1")
    err = expect_error(text.replace(CODE, wrong), "record_bad_code")
    assert err.code == "code_check"
    assert "last character" in err.message("en") and "último carácter" in err.message("es")
    expect_error(text.replace(f'code: "{CODE}"\n', ""), "record_bad_field")


def test_unknown_preset_and_bad_rules():
    text = write_record(Game(Rules.from_spec("quick"), CODE))
    err = expect_error(text.replace("preset: quick", "preset: nosuch"), "record_bad_rules")
    assert err.code == "rules_unknown_preset"
    assert "nosuch" in err.message("en") and "nosuch" in err.message("es")
    err = expect_error(text.replace("preset: quick", "preset: quick\n  players: 12"), "record_bad_rules")
    assert err.code == "rules_players"


def test_file_too_big(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    err = expect_error(path, "record_too_big")
    assert str(path) in err.message("en")
    expect_error("x" * (MAX_RECORD_BYTES + 1), "record_too_big")
    small = tmp_path / "ok.yaml"
    small.write_text(write_record(Game(Rules.from_spec("quick"), CODE)))
    with pytest.raises(RecordError):
        read_record(small, limit=100)


def test_not_yaml_and_not_a_mapping(tmp_path):
    err = expect_error("format: hearts-record/1\nrounds: [unclosed\n  - {\n", "record_yaml_syntax")
    assert "line 2" in err.message("en") and "línea 2" in err.message("es")
    expect_error("- just\n- a list\n", "record_not_mapping")
    expect_error("", "record_empty")
    expect_error(" \n\n", "record_empty")
    expect_error("just text", "record_not_mapping")
    expect_error("format: hearts-record/1\na: !!python/object:os.system ls\n", "record_yaml_syntax")  # safe loader only
    expect_error("a: !!python/object:os.system ls\n", "record_not_record")  # and no format line
    path = tmp_path / "latin1.yaml"
    path.write_bytes("format: hearts-record/1\nname: \xf1\n".encode("latin-1"))
    expect_error(path, "record_bad_yaml")
    expect_error(tmp_path / "missing.yaml", "record_bad_yaml")


@pytest.mark.parametrize("edit, en, es", [
    ((f'"{CODE}"\n', f'"{CODE}\n'), "the quote opened on line 4 is never closed", "la comilla abierta en la línea 4"),
    (("  - round: 1", " - round: 1"), "line 14 does not read as YAML", "la línea 14 no se lee como YAML"),
    (("rules:", "\trules:"), "line 5 is indented with a tab", "la línea 5 está sangrada con un tabulador"),
    (("kind: human}", "kind: human"), "the [ or { opened on line 8 is never closed", "el [ o { abierto en la línea 8"),
    (("rules:", "a: !!python/object:os.system ls\nrules:"), "line 5 has a YAML tag (!!...)", "una etiqueta YAML"),
])
def test_a_record_whose_yaml_is_broken_is_said_in_words_with_its_line(edit, en, es):
    """issue 33 §4: not PyYAML's words ("mapping values are not allowed in this context"), and
    said of the record (its own sentence, not "the file cannot be read")."""
    text = write_record(Game(Rules.from_spec("quick"), CODE))
    assert text.splitlines()[12] == "  - round: 1"  # (the lines named above)
    err = expect_error(text.replace(*edit, 1), "record_yaml_syntax")
    assert err.message("en").startswith(f"The record is not a readable game record: {en}")
    assert err.message("en").endswith(".") and es in err.message("es")
    for words in ("mapping values", "scalar", "token", "expected"):
        assert words not in err.message("en")


def test_wrong_format_and_wrong_types():
    text = write_record(Game(Rules.from_spec("quick"), CODE))
    expect_error(text.replace("hearts-record/1", "hearts-record/2"), "record_bad_format")
    expect_error(text.replace("format: hearts-record/1\n", ""), "record_bad_format")
    expect_error(text.replace("rounds:\n", "rounds: 5\n").split("  - round")[0] + "totals: [0,0,0,0]\n",
                 "record_bad_field")
    expect_error(text.replace("  - {seat: 3, name: East, kind: human}\n", ""), "record_bad_field")
    expect_error(text.replace("kind: human}", "kind: robot}", 1), "record_bad_field")


# ---------------------------------------------------------------- saving


def test_save_record_is_atomic(tmp_path, monkeypatch):
    game = random_game("quick", seed=1, stop=50)
    path = tmp_path / "saves" / "current.yaml"
    notes = {"1.1.1": Annotation("!", "opening")}
    save_record(path, game, annotations=notes)
    first = path.read_text(encoding="utf-8")
    assert first == write_record(game, annotations=notes)
    game.push(game.round.legal_cards()[0])
    # a failure while replacing leaves the old record and no stray files
    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_record(path, game)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == first
    assert sorted(p.name for p in path.parent.iterdir()) == ["current.yaml"]
    # a record saves as itself
    record = read_record(path)
    save_record(path, record)
    assert path.read_text(encoding="utf-8") == first


# ---------------------------------------------------------------- messages and fixtures


def test_every_record_message_exists_in_both_languages():
    files = sorted((ROOT / "hearts_cli" / "records").glob("record*.py"))  # the record and its parts, writer, reader
    source = "".join(p.read_text(encoding="utf-8") for p in files)
    ids = set(re.findall(r'"(record_[a-z0-9_]+)"', source))
    assert len(ids) > 20
    for lang in ("en", "es"):
        missing = ids - set(CATALOG[lang])
        assert not missing, (lang, missing)


FIXTURE_GAMES = {
    # name: (rules, code payload, seed, stop, seats, annotations)
    "quick-4p-finished": ("quick", "QK4H7TS", 21, None,
                          [Seat("You"), Seat("West", "cpu", "easy"), Seat("North", "cpu", "normal"),
                           Seat("East", "cpu", "hard")],
                          {"1": Annotation("", "North ends up with the Q♠; West takes 12 in hearts."),
                           "1.pass.0": Annotation("?!", "Passing the 2♣ gives away the first lead."),
                           "1.8.2": Annotation("??", "The T♦ wins the trick East dumps the Q♠ on."),
                           "1.8.3": Annotation("!", "Void in diamonds, East unloads the Q♠."),
                           "2": Annotation("", "East takes 22 and the game ends at 66.")}),
    "kitty-3p-finished": ({"preset": "kitty", "target": 40}, "KTY3P00", 5, None,
                          [Seat("Ana"), Seat("Bea", "cpu", "normal"), Seat("Carmen", "cpu", "hard")],
                          {"1.1.2": Annotation("", "The 9♣ wins the first trick, and the kitty (7♣) with it.")}),
    "omnibus-6p-in-progress": ({"preset": "omnibus", "players": 6}, "0MN1B6P", 8, 200, None, {}),
    "quick-pass-phase": ("quick", "PASS4PH", 3, 2,
                         [Seat("You"), Seat("West", "cpu", "normal"), Seat("North", "cpu", "normal"),
                          Seat("East", "cpu", "normal")], {}),
}


def fixture_text(name: str) -> str:
    spec, payload, seed, stop, seats, notes = FIXTURE_GAMES[name]
    game = random_game(spec, code_for(payload), seed, stop)
    return write_record(game, seats=seats, annotations=notes)


def test_documented_example_is_a_real_record():
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(.*?)```", doc, re.S).group(1)
    record = read_record(example)
    assert record.to_text() == example
    assert record.replay().over
    assert record.rules == Rules.from_spec({"preset": "quick", "target": 20})
    short = example.replace("rules:\n  preset: quick\n  target: 20\n", "rules: quick\n")
    lenient = read_record(short, strict=False)  # target 50: the game is not over after all
    assert lenient.rules == Rules.from_spec("quick")
    assert [e.message_id for e in lenient.errors] == ["record_result_early"]


@pytest.mark.parametrize("name", sorted(FIXTURE_GAMES))
def test_fixture_reads_back(name):
    path = FIXTURES / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    record = read_record(path)
    assert record.errors == []
    assert record.to_text() == text
    game = record.replay()
    assert game.over == name.endswith("finished")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write-fixtures"]:
        sys.exit("usage: python tests/test_record.py --write-fixtures")
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for fixture in sorted(FIXTURE_GAMES):
        (FIXTURES / f"{fixture}.yaml").write_text(fixture_text(fixture), encoding="utf-8")
        print(FIXTURES / f"{fixture}.yaml")


def test_value_types_behave_like_frozen_dataclasses():
    import copy
    import dataclasses
    import pickle

    from hearts_cli.records.record_parts import Annotation, Seat

    pos = MoveAddress(2, 3, 1)
    assert pos == MoveAddress.parse("2.3.1") and hash(pos) == hash(MoveAddress.parse("2.3.1"))
    assert pos != MoveAddress(2, seat=1) and pos != (2, 3, 1, None)
    assert repr(pos) == "MoveAddress(round=2, trick=3, card=1, seat=None)"
    move = Move(1, 0, (Card("2C"),), 1, 1)
    assert repr(move) == "Move(round=1, seat=0, cards=(Card('2C'),), trick=1, index=1, moon=None)"
    for value in (pos, move, Seat("Ana", "cpu", "hard"), Annotation("?", "too early")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.round = 5  # type: ignore[attr-defined]
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value
        assert {value: 1}[type(value)(*value._fields())] == 1


def test_a_pass_position_is_found_whatever_order_the_seats_passed_in() -> None:
    """Seats pass in any order: a record where seats 1 and 2 have passed and 0 and 3 not
    holds 1.pass.1 (before seat 1's pass) and 1.pass.2; 1.pass.0 and 1.pass.3 wait at the end."""
    record = read_record(Path(__file__).parent / "golden" / "inputs" / "quick-pass-phase.yaml")
    assert [str(MoveAddress.of(m)) for m in record.moves] == ["1.pass.1", "1.pass.2"]
    game, made = record.at(MoveAddress.parse("1.pass.1"))
    assert made == 0 and game.round.passes[1] is None
    game, made = record.at(MoveAddress.parse("1.pass.2"))
    assert made == 1 and game.round.passes[1] is not None and game.round.passes[2] is None
    for waiting in ("1.pass.0", "1.pass.3"):
        game, made = record.at(MoveAddress.parse(waiting))
        assert made == 2 and game.round.passes[int(waiting[-1])] is None
    with pytest.raises(LookupError):
        record.at(MoveAddress.parse("1.pass.4"))
    with pytest.raises(LookupError):
        record.at(MoveAddress.parse("2.pass.1"))
