"""PBN-style records (docs/pbn.md): another program's reader gets every fact as a tag, and
what we write we read back exactly, whatever the rules; what is wrong is named by its line."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

import pytest
from conftest import assert_user_error, run

from hearts_cli import Game, Phase
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import Rules, preset_names
from hearts_cli.records.pbn import is_pbn, read_pbn, write_pbn
from hearts_cli.records.record import GameRecord
from hearts_cli.records.record_parts import Annotation, RecordError, Seat
from hearts_cli.records.record_reader import read_record

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted([*ROOT.glob("fixtures/records/*.yaml"), *ROOT.glob("fixtures/replays/*.yaml")])


def _both_ways(record: GameRecord) -> str:
    text = write_pbn(record)
    back = read_pbn(text)
    assert back.to_text() == record.to_text()
    assert write_pbn(back) == text  # canonical: the same game, the same bytes
    return text


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_record_of_the_fixtures_goes_to_pbn_and_back_exactly(path):
    _both_ways(read_record(path.read_text()))


def _random_game(rules: Rules, rng: random.Random, stop: float) -> Game:
    """A game of ``rules`` played at random for a while (the moon choice too), stopped anywhere."""
    game = Game(rules, code_from_number(rng.getrandbits(35)))
    while not game.over and rng.random() > stop:
        if game.phase is Phase.PASS:
            game.push_pass(tuple(rng.sample(list(game.round.hand(game.turn)), rules.pass_count)), game.turn)
        elif game.phase is Phase.MOON:
            game.push_moon(rng.choice(("others", "shooter_minus")))
        else:
            game.push(rng.choice(list(game.legal_moves)))
    return game


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_round_trips_at_any_point_of_a_game(preset):
    """One and two decks, a kitty, a moon still to choose, a trick half played, names and
    notes that need quoting: read back to the same record at every stop."""
    rng = random.Random(preset)
    rules = Rules.from_spec({"preset": preset})
    for stop in (0.002, 0.01, 0.05):
        game = _random_game(rules, rng, stop)
        seats = tuple(Seat(f'Ana "{i}"; {{x}}' if i == 0 else f"P{i}", "human" if i == 0 else "cpu",
                           None if i == 0 else "hard") for i in range(rules.players))
        record = GameRecord.from_game(game, seats, {"1": Annotation("!?", 'a "quoted"; {odd} note\non two lines')},
                                      undos=2)
        _both_ways(record)


PROGRAMS = ("exec:node bot.js", """exec:python3 "my bots/it's.py" --level 'a b'""", 'exec:sh -c "echo \\"x\\""',
            "exec:./bot;{x}", '"exec:quoted"')


def test_program_seats_with_spaces_and_quotes_read_back():
    """issue 34 §6: the SeatTable's Level was written bare, so `exec:node bot.js` gave a row of
    five words that did not read back; a field that needs it is quoted, a plain word stays bare."""
    game = _random_game(Rules.from_spec({"preset": "quick"}), random.Random(34), 0.01)
    seats = (Seat("You", "human", None), *(Seat(f"P{i}", "cpu", PROGRAMS[i - 1]) for i in (1, 2, 3)))
    text = _both_ways(GameRecord.from_game(game, seats, {}))
    assert '0 "You" human -\n1 "P1" cpu "exec:node bot.js"\n' in text
    seats = tuple(Seat(f"P{i}", "cpu", level) for i, level in enumerate((PROGRAMS[3], PROGRAMS[4], "easy", "hard")))
    text = _both_ways(GameRecord.from_game(game, seats, {}))
    assert '\n2 "P2" cpu easy\n' in text


@pytest.mark.slow
def test_a_sim_with_programs_whose_commands_hold_spaces_and_quotes_reads_back(tmp_path):
    """issue 34 §6: `hearts sim --seats "exec:node bot.js,..." --export pbn:games.pbn`, then
    `hearts replay games.pbn --game 2`, said "a row of [SeatTable] must have the columns"."""
    from hearts_cli.records.pbn import read_pbn_games

    folder = tmp_path / "my bots"
    folder.mkdir()
    script = folder / "it's.sh"
    script.write_text((ROOT / "examples" / "first_legal.sh").read_text())
    program = f'exec:sh "{script}"'
    pbn = tmp_path / "games.pbn"
    report = run("sim", "--seats", f"{program},easy,easy,easy", "--deals", "1", "--duplicate", "--seed", "q",
                 "--export", f"pbn:{pbn}", "--json")
    assert report.exit_code == 0, report.stderr
    games = read_pbn_games(pbn.read_text())
    assert len(games) == 4 and {s.level for g in games for s in g.seats} == {program, "easy"}
    second = run("replay", str(pbn), "--game", "2", "--export", "pbn")
    assert second.exit_code == 0, second.stderr
    assert read_pbn(second.stdout).to_text() == games[1].to_text()


def test_the_reader_is_forgiving_about_spelling():
    """Comments ({...}, ; and % lines), any case, spaces, a byte-order mark and CRLF: the same game."""
    record = read_record((ROOT / "fixtures/replays/quick-4p.yaml").read_text())
    text = write_pbn(record)
    rows = text.split("\n")
    first_row = rows.index('[Play "0"]') + 1
    rows[first_row] = rows[first_row].lower().replace(" ", "  ") + " ; the 2C leads {a brace comment too}"
    rows.insert(first_row - 1, "{a comment before the play}")
    loose = "\ufeff% exported by hand\r\n" + "\r\n".join(rows).replace('[Pass "', '[ Pass   "')
    assert is_pbn(loose)
    assert read_pbn(loose).to_text() == record.to_text()


def _broken(old: str, new: str) -> str:
    text = write_pbn(read_record((ROOT / "fixtures/replays/quick-4p.yaml").read_text()))
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("old, new, code, line", [
    ('[Deal "0:', '[Deal "1:', "pbn_mismatch", 16),  # the deal is the code's: checked
    ('[Score "', '[Score "1 ', "pbn_mismatch", None),
    ("\nC2 ", "\nC3 ", "record_bad_move", 19),  # a card the rules refuse, at its row
    ("\nC2 ", "\nX2 ", "pbn_bad_card", 19),
    ("[Round \"1\"]", "[Round \"1\"]\nnonsense here", "pbn_bad_line", 9),
    ('[Code "', '[Code "Z', "record_bad_code", 6),
    ('[Rules "quick', '[Rules "quick+moon=sideways', "record_bad_rules", 7),
])
def test_what_is_wrong_is_named_with_its_line(old, new, code, line):
    with pytest.raises(RecordError) as caught:
        read_pbn(_broken(old, new))
    assert caught.value.message_id == code
    if line is not None:
        assert caught.value.line == line


def test_the_command_line_replays_pbn_and_exports_both_formats(tmp_path):
    yaml_path = ROOT / "fixtures/replays/quick-4p.yaml"
    exported = run("replay", str(yaml_path), "--export", "pbn")
    assert exported.exit_code == 0, exported.stderr
    pbn = tmp_path / "game.pbn"
    pbn.write_text(exported.stdout)
    told = run("replay", str(pbn), "--lang", "en")
    assert told.exit_code == 0, told.stderr
    assert told.stdout == run("replay", str(yaml_path), "--lang", "en").stdout
    assert run("replay", str(pbn), "--export", "pbn").stdout == exported.stdout

    assert_user_error(run("replay", str(yaml_path), "--export", "xml", "--lang", "en"), "pbn or openspiel")
    assert_user_error(run("replay", str(yaml_path), "--export", "pbn", "--at", "1.2.1", "--lang", "en"), "--export")
    cancellation = ROOT / "fixtures/records/omnibus-6p-in-progress.yaml"
    assert_user_error(run("replay", str(cancellation), "--export", "openspiel", "--lang", "en"),
                      "OpenSpiel", "players")
    pbn.write_text(exported.stdout.replace("\nC2 ", "\nC3 ", 1))
    assert_user_error(run("replay", str(pbn), "--lang", "en"), "3♣", "(line 19)")


def test_the_export_writes_the_records_date(tmp_path):
    """Issue 33 §4: every export said PBN's unknown date. An archived record's file name says
    the day it was played: each section's Date tag says it, and reading the PBN keeps it."""
    source = (ROOT / "fixtures/records/quick-4p-finished.yaml").read_text()
    archived = tmp_path / "20261201-101112-QK4H7TSA.yaml"
    archived.write_text(source)
    text = run("replay", str(archived), "--export", "pbn").stdout
    sections = text.count("[Round ")
    assert sections > 1 and text.count('[Date "2026.12.01"]') == sections, text
    assert read_pbn(text).date == "2026-12-01" and write_pbn(read_pbn(text)) == text
    elsewhere = tmp_path / "game.yaml"  # a record that says no day: PBN's unknown date, as before
    elsewhere.write_text(source)
    assert text.replace("2026.12.01", "????.??.??") == run("replay", str(elsewhere), "--export", "pbn").stdout


def test_a_sim_exports_every_game_it_plays_in_both_formats(tmp_path):
    """hearts sim --export: every rotation of every game, each a whole game that reads back
    (PBN) or replays in OpenSpiel (tests/test_openspiel.py checks those lines' scores)."""
    from hearts_cli.records.pbn import read_pbn_games

    pbn = tmp_path / "games.pbn"
    day = datetime.date.today().isoformat()
    report = run("sim", "--seats", "normal,easy,easy,easy", "--deals", "6", "--duplicate", "--seed", "x",
                 "--export", f"pbn:{pbn}", "--json")
    assert report.exit_code == 0, report.stderr
    played = json.loads(report.stdout)["game_log"]
    games = read_pbn_games(pbn.read_text())
    assert [g.code for g in games] == [g["code"] for g in played for _ in g["plays"]]
    assert [[s.name for s in g.seats] for g in games] == [p["seats"] for g in played for p in g["plays"]]
    assert [list(g.replay().totals) for g in games] == [p["totals"] for g in played for p in g["plays"]]
    assert {g.date for g in games} <= {day, datetime.date.today().isoformat()}  # the run's day (at midnight, either)
    third = run("replay", str(pbn), "--game", "3", "--export", "pbn")
    assert third.exit_code == 0, third.stderr
    assert read_pbn(third.stdout).to_text() == games[2].to_text()
    assert_user_error(run("replay", str(pbn), "--lang", "en"), "--game")
    assert_user_error(run("sim", "--seats", "normal,easy,easy,easy", "--export", "xml:f", "--lang", "en"), "pbn:FILE")
