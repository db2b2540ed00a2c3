"""The `hearts` command line: every subcommand, and every error a person can cause.

Errors (a bad card, code, preset, file, position or move) must give one clear
sentence on stderr and exit status 2, never a traceback; data goes to stdout.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from conftest import assert_user_error, check_schema, run

from hearts_cli import __version__
from hearts_cli.cli import options
from hearts_cli.model.rules import Rules
from hearts_cli.play.game import Game
from hearts_cli.records.record import save_record
from hearts_cli.records.record_parts import Seat

CODE = "K7Q2MXA7"  # seat 0 holds the 2♣ after these passes
PASSES = "8S 9S TS  AS KH 2H  QS JS AH  KS 6S 2S"
VOID_CODE = "HEART046"  # after these passes seat 2 has no clubs, but hearts
VOID_PASSES = "7S 8S 9S, AH KS AS, TS JS QS, 4H 6H 8H"


# English by default, and a save directory of our own (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("isolated")


def flat(text: str) -> str:
    """The text with its line wrapping undone."""
    return " ".join(text.split())


# ---------------------------------------------------------------- version and help


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"hearts {__version__}"


@pytest.mark.parametrize("command", [[], ["play"], ["new"], ["rules"], ["explain"], ["engine"]])
def test_every_help_is_complete_with_examples(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Usage: hearts" in result.stdout
    assert "Example" in result.stdout
    assert "--lang" in result.stdout


def test_top_help_lists_every_command():
    out = run("--help").stdout
    for name in ("play", "new", "rules", "explain", "engine"):
        assert f"  {name} " in out


def test_shell_completion_is_offered():
    out = run("--help").stdout
    assert "--install-completion" in out and "--show-completion" in out


def test_completion_of_option_values():
    assert [name for name, _ in options.complete_preset("sh")] == ["shooter-choice", "shooter-minus"]
    # a Spanish name, which --preset reads in any language, is offered when no English one fits
    assert dict(options.complete_preset("rapi")) == {"rápida": "the default: 4 players to 50, ties share first place"}
    assert [name for name, _ in options.complete_preset("a-deg")] == ["a-degüello"]
    assert options.complete_lang("e") == ["en", "es"]
    assert options.complete_level("h") == ["hard"]
    assert options.complete_card("Q") == ["QC", "QD", "QH", "QS"]


def test_bad_option_is_a_usage_error():
    result = run("rules", "--no-such-option")
    assert result.exit_code == 2
    assert "No such option" in result.stderr


# ---------------------------------------------------------------- rules


def test_rules_prints_the_default_preset():
    result = run("rules")
    assert result.exit_code == 0
    out = flat(result.stdout)
    assert "the rules of preset 'quick'" in out
    assert "reaches or passes 50 points" in out
    assert "Strategy tips" not in out
    assert result.stderr == ""


def test_rules_preset_and_overrides():
    out = flat(run("rules", "--preset", "online", "--players", "5").stdout)
    assert "5 players" in out and "the 3♣, leads it" in out
    assert "reaches or passes 100 points" in flat(run("rules", "-p", "standard").stdout)
    assert "reaches or passes 70 points" in flat(run("rules", "--target", "70").stdout)


def test_rules_tips():
    out = flat(run("rules", "--tips").stdout)
    assert "Strategy tips" in out and "Typical mistakes" in out
    assert "A♠ and the K♠" in out


@pytest.mark.parametrize("how", ["option", "global", "env"])
def test_rules_in_spanish(how, monkeypatch):
    if how == "option":
        result = run("rules", "--lang", "es")
    elif how == "global":
        result = run("--lang", "es", "rules")
    else:
        monkeypatch.setenv("HEARTS_LANG", "es")
        result = run("rules")
    assert result.exit_code == 0
    assert "Corazones: las reglas de la variante «rápida»" in result.stdout
    assert "Tirar a la luna" in result.stdout


def test_locale_chooses_spanish_and_option_wins_over_env(monkeypatch):
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    assert "Tirar a la luna" in run("rules").stdout
    monkeypatch.setenv("HEARTS_LANG", "es")
    assert "Shooting the moon" in run("rules", "--lang", "en").stdout


def test_rules_plain_uses_letters_for_suits():
    out = run("rules", "--plain", "--tips").stdout
    assert not set("♣♦♥♠") & set(out)
    assert "2C" in out and "QS" in out
    out = run("--plain", "rules").stdout
    assert "♠" not in out


def _rules_in_a_terminal(**env: str) -> str:
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "hearts_cli", "rules"], env=dict(os.environ, **env),
                          encoding="utf-8", dimensions=(40, 100), timeout=30)
    out = child.read()
    child.close()
    return out


def test_no_color_and_pipes_get_no_escape_codes(monkeypatch):
    piped = run("rules", "--tips").stdout  # CliRunner's stdout is not a terminal
    assert "Strategy tips" in piped and "\x1b[" not in piped
    # in a terminal the headings are bold; NO_COLOR turns that off
    assert "\x1b[1m" in _rules_in_a_terminal()
    monkeypatch.setenv("NO_COLOR", "1")
    out = _rules_in_a_terminal()
    assert "reaches or passes 50 points" in flat(out) and "\x1b[" not in out


def test_rules_json():
    result = run("rules", "--preset", "black-maria", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["preset"] == "black-maria"
    assert data["settings"] == json.loads(json.dumps(Rules.from_spec("black-maria").settings()))
    assert data["derived"]["penalty_total"] == 43
    data = json.loads(run("rules", "--json", "--tips", "--lang", "es").stdout)
    assert data["tips"][0]["heading"] == "Consejos de estrategia"


def test_rules_errors():
    assert_user_error(run("rules", "--preset", "nope"), "Unknown preset 'nope'", "quick")
    assert_user_error(run("rules", "--players", "2"), "players", "3 to 6")
    assert_user_error(run("rules", "--players", "7"), "players", "--preset cancellation")  # two decks
    assert_user_error(run("rules", "--target", "0"), "target")
    assert_user_error(run("rules", "--lang", "fr"), "'fr'", "en or es")
    assert_user_error(run("rules", "--preset", "nope", "--lang", "es"), "No existe la variante «nope»")
    # the Typer-level error for a non-number is still exit 2 and no traceback
    result = run("rules", "--players", "many")
    assert result.exit_code == 2 and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [
    ("rules", "--preset", "nope", "--json"), ("explain", "ZZ", "--json"), ("replay", "/nonexistent/x.yaml", "--json"),
    ("new", "--code", "ZZZ", "--no-play", "--json"), ("play", "--json", "--resume", "ZZZ"),
    ("stats", "--json", "--preset", "nope"), ("sim", "--seats", "x,y", "--json"), ("join", "nonsense", "--json"),
    ("rules", "--json", "--players", "many"), ("explain", "QS", "--json", "--lang", "es", "--code", "ZZZ")])
def test_under_json_a_commands_own_error_is_the_one_error_object(args):
    """Issue 34 §9: every error on every surface is one object (README): under --json a command's
    own error, and a usage error, is ``{"code", "message"}`` on one line of stderr (it was the
    sentence alone), exit status 2, nothing on stdout."""
    err = assert_user_error(run(*args))
    obj = check_schema(json.loads(err), "error")
    assert set(obj) == {"code", "message"} and obj["message"] and obj["code"]
    plain = run(*[a for a in args if a != "--json"])  # without --json: the sentence (usage: Click's lines)
    assert plain.exit_code == 2 and obj["message"] in plain.stderr and not plain.stderr.startswith("{")


# ---------------------------------------------------------------- explain from --code and --moves


def test_explain_first_lead():
    result = run("explain", "3C", "--code", CODE, "--moves", PASSES)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == [
        f"Game {CODE}, round 1, trick 1; you are to play.",
        "3♣ cannot be played: the first lead.",
        "The first trick must be led with 2♣.",
    ]


def test_explain_legal_card_says_what_it_would_do():
    out = run("explain", "2C", "--code", CODE, "--moves", PASSES).stdout
    assert "2♣ can be played." in out
    # issue 33: the first trick's forced 2♣ says nothing false: it cannot win
    assert ("2♣ cannot win the trick: every club still out is higher, and a seat still to play must follow "
            "with one.") in out


def test_explain_follow_suit_names_the_cards():
    out = run("explain", "4D", "--code", CODE, "--moves", PASSES + " 2C").stdout
    assert "4♦ cannot be played: follow suit." in out
    assert "You must follow clubs: you still hold 7♣, K♣." in out


def test_explain_hearts_not_broken():
    moves = PASSES + " 2C KC TC 5C TS AS 3S KS"
    out = run("explain", "2H", "--code", CODE, "--moves", moves).stdout
    assert "North is to play" in out
    assert "2♥ cannot be played: breaking hearts." in out
    assert "Hearts are not broken yet" in out


def test_explain_no_points_on_the_first_trick():
    out = run("explain", "2H", "--code", VOID_CODE, "--moves", VOID_PASSES + ", 2C").stdout
    assert "2♥ cannot be played: the first trick." in out
    out = run("explain", "4D", "--code", VOID_CODE, "--moves", VOID_PASSES + ", 2C").stdout
    assert "4♦ can be played." in out


def test_explain_card_not_held_and_during_the_pass():
    out = run("explain", "QS", "--code", CODE).stdout
    assert "passing (left)" in out
    # said once: not "it is not in the hand. You do not hold Q♠."
    assert out.splitlines()[1:] == ["Q♠ cannot be played.", "You do not hold Q♠."]


def test_explain_names_the_seat_to_play_by_its_place():
    # issue 18: "seat 0" for you; the others by where they sit (West is to your left)
    out = run("explain", "3C", "--code", CODE, "--moves", PASSES + ", 2C").stdout
    assert out.splitlines()[0] == f"Game {CODE}, round 1, trick 1; West is to play."
    out = run("explain", "3C", "--code", CODE, "--moves", PASSES, "--lang", "es").stdout
    assert out.splitlines()[0] == f"Partida {CODE}, ronda 1, baza 1; juegas tú."


def test_explain_in_spanish_and_ascii_and_any_notation():
    out = run("explain", "dama de picas", "--code", CODE, "--moves", PASSES, "--lang", "es").stdout
    assert "No tienes Q♠." in out
    out = run("explain", "3♣", "--code", CODE, "--moves", PASSES, "--plain").stdout
    assert "3C cannot be played" in out and "♣" not in out


def test_explain_json():
    result = run("explain", "4D", "--code", CODE, "--moves", PASSES + " 2C", "--json")
    assert result.exit_code == 0
    data = check_schema(result.stdout, "explain_json")  # the why of every surface, and where
    assert data["card"] == "4D" and data["legal"] is False
    assert data["reason"] == {"code": "must_follow_suit", "cards": ["7C", "KC"],
                              "message": "You must follow clubs: you still hold 7♣, K♣."}
    assert data["position"]["seat"] == 1 and data["position"]["trick_cards"] == ["2C"]
    assert data["position"]["legal"] == ["7C", "KC"]
    legal = check_schema(run("explain", "KC", "--code", CODE, "--moves", PASSES + " 2C", "--json").stdout,
                         "explain_json")
    assert legal["legal"] is True and "reason" not in legal
    assert legal["effect"] == {"wins": None, "points": None, "exact": False, "breaks_hearts": False, "higher": 1,
                               "covered": 0.67, "message": "K♣ is likely to be covered: 1 higher club is out, with "
                                                           "West and North still to play."}


def test_explain_with_another_preset():
    # cutthroat: no passing, so the first move is already a play
    result = run("explain", "2C", "--code", CODE, "--preset", "cutthroat")
    assert result.exit_code == 0 and "trick 1" in result.stdout


def test_explain_errors():
    assert_user_error(run("explain", "QX", "--code", CODE), "'QX' is not a card", "Q♠")
    assert_user_error(run("explain", "zz", "--code", CODE), "'zz' is not a card.")
    assert_user_error(run("explain", "QS", "--code", "K7Q2MXA9"), "'K7Q2MXA9' is not a game code")
    assert_user_error(run("explain", "QS", "--code", "ABC"), "8 characters")
    assert_user_error(run("explain", "QS", "--code", CODE, "--preset", "nope"), "Unknown preset")
    # an illegal move in the list names the move and the rule
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", PASSES + " 3C"),
                      "Move 13 (3♣) cannot be made", "must be led with 2♣")
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", PASSES + " 2C QD"),
                      "Move 14", "Q♦ is not in that hand")
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", "8S 9S 8S"), "Move 1", "twice")
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", "8S 9S"), "a pass is 3 cards")
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", PASSES + " 2C blah"),
                      "Move 14", "'blah' is not a card")
    assert_user_error(run("explain", "QS", "--moves", "2C"), "--moves needs --code")
    assert_user_error(run("explain", "QS", "--at", "3"), "--at needs --record")
    assert_user_error(run("explain", "QS", "--code", CODE, "--moves", "2C", "--record", "x.yaml"), "not both")
    assert_user_error(run("explain", "QS", "--code", CODE, "--lang", "es", "--moves", PASSES + " 3C"),
                      "La jugada 13 (3♣) no se puede hacer")


# ---------------------------------------------------------------- explain from a record or the save


def _game_after(code: str, passes: str, plays: int) -> Game:
    game = Game(Rules.from_spec("quick"), code)
    groups = passes.split()
    for seat in range(4):
        game.push_pass(groups[3 * seat:3 * seat + 3], seat)
    for _ in range(plays):
        game.push(game.round.legal_cards()[0])
    return game


@pytest.fixture
def record_file(tmp_path) -> Path:
    path = tmp_path / "game.yaml"
    save_record(path, _game_after(CODE, PASSES, 10))
    return path


def test_explain_record_positions(record_file):
    # the end: 10 cards played, seat to move in trick 3
    out = run("explain", "QS", "--record", str(record_file)).stdout
    assert "round 1, trick 3" in out
    # round.trick.card: before the first card of trick 1
    out = run("explain", "3C", "--record", str(record_file), "--at", "1.1.1").stdout
    assert "trick 1; you are to play" in out and "must be led with 2♣" in out
    # a move number: move 5 is the first card (4 passes come first)
    out = run("explain", "3C", "--record", str(record_file), "--at", "5").stdout
    assert "must be led with 2♣" in out
    out = run("explain", "4D", "--record", str(record_file), "--at", "1.1.2", "--json").stdout
    assert json.loads(out)["reason"]["code"] == "must_follow_suit"


def test_explain_record_errors(record_file, tmp_path):
    assert_user_error(run("explain", "QS", "--record", str(tmp_path / "none.yaml")),
                      "none.yaml", "No such file")
    assert_user_error(run("explain", "QS", "--record", str(tmp_path)), "Is a directory")
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: hearts-record/1\njust: [a, list\n", encoding="utf-8")  # (no format: a move log)
    assert_user_error(run("explain", "QS", "--record", str(bad)), "bad.yaml")
    assert_user_error(run("explain", "QS", "--record", str(record_file), "--at", "9.1.1"),
                      "no position 9.1.1", "14 moves")
    assert_user_error(run("explain", "QS", "--record", str(record_file), "--at", "99"), "no position 99")
    assert_user_error(run("explain", "QS", "--record", str(record_file), "--at", "two"),
                      "'two' is not a position")
    # a record with an illegal move in it is refused with the rule broken
    original = record_file.read_text(encoding="utf-8")
    assert "cards: [2C, " in original  # the first trick, led with the 2♣
    text = original.replace("cards: [2C, ", "cards: [3C, ", 1)
    broken = tmp_path / "broken.yaml"
    broken.write_text(text, encoding="utf-8")
    assert_user_error(run("explain", "QS", "--record", str(broken)), "broken.yaml",
                      "round 1, trick 1, card 1", "3♣ cannot be played", "must be led with 2♣")


def test_explain_reads_a_move_log_given_as_a_record(record_file, tmp_path, monkeypatch):
    """It used to answer "not a YAML mapping" for a log without its header comment, and "a move
    log, not a game record: replay it" with one (issue 26 §14): the same game as the record."""
    from hearts_cli.records.movelog import format_log

    monkeypatch.chdir(tmp_path)
    log = format_log(_game_after(CODE, PASSES, 10))
    assert log[0].startswith("# hearts move log") and log[1] == f"code {CODE}"
    (tmp_path / "game.log").write_text("\n".join(log) + "\n", encoding="utf-8")
    (tmp_path / "bare.log").write_text("\n".join(log[3:]) + "\n", encoding="utf-8")  # no header at all
    for at in ([], ["--at", "1.1.2"], ["--at", "5"]):
        expected = run("explain", "4D", "--record", str(record_file), *at, "--json")
        assert expected.exit_code == 0, expected.stderr
        assert run("explain", "4D", "--record", "game.log", *at, "--json").stdout == expected.stdout
        assert run("explain", "4D", "--record", "bare.log", "--code", CODE, "--preset", "quick", *at,
                   "--json").stdout == expected.stdout
    assert_user_error(run("explain", "QS", "--record", "bare.log"), "needs a game code")
    assert_user_error(run("explain", "QS", "--record", "game.log", "--code", "DEM0GAMV"),
                      "This log is for game")
    # a record carries its own code
    assert_user_error(run("explain", "QS", "--record", str(record_file), "--code", CODE), "is a game record")
    # text that is neither is answered as `hearts replay` answers it
    (tmp_path / "notes.txt").write_text("shopping: [milk\n", encoding="utf-8")
    assert_user_error(run("explain", "QS", "--record", "notes.txt"), "'shopping:' is not a card")


def _write_save(isolated: Path, game: Game) -> Path:
    home = isolated / "home"
    home.mkdir(exist_ok=True)
    seats = [Seat("You")] + [Seat(f"CPU {i}", "cpu", "normal") for i in (1, 2, 3)]
    return save_record(home / "current.yaml", game, seats=seats)


def test_explain_saved_game(isolated):
    _write_save(isolated, _game_after(CODE, PASSES, 0))
    out = run("explain", "3C").stdout
    assert out.splitlines() == [
        f"Game {CODE}, round 1, trick 1; you are to play.",
        "3♣ cannot be played: the first lead.",
        "The first trick must be led with 2♣.",
    ]
    assert "2♣ can be played." in run("explain", "2c").stdout


def test_explain_without_a_save():
    assert_user_error(run("explain", "QS"), "There is no saved game yet")
    assert_user_error(run("explain", "QS", "--lang", "es"), "Aún no hay ninguna partida guardada")


def test_explain_unreadable_save_is_reported_and_left_alone(isolated):
    home = isolated / "home"
    home.mkdir()
    (home / "current.yaml").write_text("- not a record\n", encoding="utf-8")
    assert_user_error(run("explain", "QS"), "The saved game cannot be read")
    assert (home / "current.yaml").exists()


# ---------------------------------------------------------------- new and play: validation and wiring


class FakeLoop(types.SimpleNamespace):
    """Stands in for the game loop: records what the command line hands it."""

    def start_new(self, *args, **kw):
        self.calls.append(("start_new", args, kw))
        return 0

    def resume(self, **kw):
        self.calls.append(("resume", (), kw))
        return 0


@pytest.fixture
def fake_loop(monkeypatch):
    from hearts_cli.repl import start as repl

    loop = FakeLoop(calls=[])
    monkeypatch.setattr(repl, "start_new", loop.start_new)
    monkeypatch.setattr(repl, "resume", loop.resume)
    return loop


def test_hearts_alone_is_hearts_play(fake_loop):
    result = run()
    assert result.exit_code == 0
    assert [name for name, _, _ in fake_loop.calls] == ["resume"]
    result = run("--lang", "es", "--plain")
    (_, _, kw) = fake_loop.calls[-1]
    assert kw["lang"] == "es" and kw["plain"] is True


def test_play_passes_its_options(fake_loop):
    run("play", "--no-confirm", "--delay", "0", "--json", "--turn-timer", "30")
    (name, _, kw) = fake_loop.calls[-1]
    assert name == "resume"
    assert kw["confirm"] is False and kw["delay"] == 0 and kw["json_events"] is True
    assert kw["turn_timer"] == 30 and kw["lang"] == "en"


def test_new_passes_its_options(fake_loop):
    result = run("new", "--preset", "reference", "--players", "5", "--target", "50", "--level", "HARD",
                 "--code", "k7q2-mxa7", "--seat", "4", "--no-confirm", "--no-play")
    assert result.exit_code == 0, result.stderr
    (name, (new,), kw) = fake_loop.calls[-1]
    assert name == "start_new"  # one new game, checked once, handed down whole
    assert new.rules.preset == "reference" and new.rules.players == 5 and new.rules.target == 50
    assert new.level == "hard" and new.code == CODE and new.seat == 4
    assert kw["confirm"] is False and kw["play"] is False
    run("new")
    (_, (new,), kw) = fake_loop.calls[-1]
    assert new.code != CODE and new.level is None and new.seat == 0
    assert kw["confirm"] is True and kw["play"] is True


def test_new_errors_never_reach_the_game(fake_loop):
    assert_user_error(run("new", "--preset", "nope"), "Unknown preset")
    assert_user_error(run("new", "--code", "K7Q2MXA9"), "is not a game code")
    assert_user_error(run("new", "--players", "2"), "players")
    assert_user_error(run("new", "--level", "expert"), "'expert' is not a CPU level")
    assert_user_error(run("new", "--seat", "4"), "There is no seat 4", "0 to 3")
    assert_user_error(run("new", "--preset", "reference", "--players", "3", "--seat", "3"), "0 to 2")
    assert_user_error(run("new", "--lang", "de"), "'de'")
    assert fake_loop.calls == []


def test_new_and_play_with_the_real_game_loop(isolated):
    """End to end: deal and save without playing, ask about it, then resume it."""
    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0, result.stderr
    assert CODE in result.stdout
    assert (isolated / "home" / "current.yaml").exists()
    out = run("explain", "QS").stdout
    assert f"Game {CODE}, round 1: passing (left)." in out
    result = run("play", "--plain", input="quit\n")
    assert result.exit_code == 0, result.stderr
    assert CODE in result.stdout
    assert (isolated / "home" / "current.yaml").exists()


@pytest.mark.parametrize("settings, words", [
    ("confirm: maybe\n", ["settings.yaml: 'confirm' must be true or false, not 'maybe'"]),
    ("delay: 30\nturn_timer: 2\n", ["'delay' must be a number of seconds from 0 to 10, not '30'",
                                     "'turn_timer' must be a whole number of seconds from 5 to 600, not '2'"]),
    ("confrim: false\n", ["'confrim' is not a setting"]),
    ("confirm: [false\n", ["(the [ or { opened on line 1 is never closed); the game uses the default settings."]),
    ("- confirm\n", ["settings.yaml is not a list of settings"]),
])
def test_bad_settings_are_named_on_stderr_and_the_game_starts(isolated, settings, words):
    home = isolated / "home"
    home.mkdir()
    (home / "settings.yaml").write_text(settings, encoding="utf-8")
    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0, result.stderr
    assert CODE in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == len(words), lines  # one line per problem
    for line, w in zip(lines, words):
        assert str(home / "settings.yaml") in line and w in line, (w, line)


@pytest.mark.parametrize("lang, said", [("en", "is not a setting (the settings are "),
                                        ("es", "no es un ajuste (los ajustes son ")])
def test_an_unknown_setting_is_told_with_every_setting(isolated, lang, said):
    """issue 26 §5: `foo: 1` listed the settings without auto_play; the list is now the
    declaration's own (store.saves.Settings), so a new setting cannot be left out again."""
    from hearts_cli.store.saves import SETTING_KEYS, Settings

    home = isolated / "home"
    home.mkdir()
    (home / "settings.yaml").write_text("foo: 1\n", encoding="utf-8")
    result = run("new", "--code", CODE, "--no-play", "--plain", "--lang", lang)
    assert result.exit_code == 0, result.stderr
    [line] = result.stderr.splitlines()
    listed = line[line.index(said) + len(said):line.index(")")]
    keys = sorted(Settings.__annotations__)
    assert "auto_play" in keys and tuple(keys) == SETTING_KEYS
    last = " and " if lang == "en" else " y "
    assert listed == ", ".join(keys[:-1]) + last + keys[-1], listed


def test_good_settings_say_nothing_and_spanish_warnings(isolated):
    home = isolated / "home"
    home.mkdir()
    (home / "settings.yaml").write_text("confirm: false\ndelay: 0.2\nturn_timer: off\n", encoding="utf-8")
    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0 and result.stderr == ""
    (home / "settings.yaml").write_text("confirm: quizá\n", encoding="utf-8")
    result = run("--lang", "es", "new", "--code", CODE, "--no-play", "--plain")
    assert "«confirm» debe ser true o false, no «quizá»" in result.stderr


def _ascii_run(*args: str, input: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    env.pop("HEARTS_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "hearts_cli", *args], capture_output=True, env=env,
                          input=input.encode(), timeout=120, check=False)


@pytest.mark.slow
def test_an_ascii_terminal_gets_near_ascii_never_an_error(isolated):
    rules = _ascii_run("--lang", "es", "rules")
    assert rules.returncode == 0, rules.stderr
    text = rules.stdout.decode("ascii")  # every byte is ASCII
    assert 'variante "rapida"' in text and "partida rapida" in text
    bad = _ascii_run("--lang", "es", "explain", "as de bolas", "--code", CODE)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.decode("ascii").startswith('"as de bolas" no es una carta; quiza ')
    game = _ascii_run("--lang", "es", "play", input="score\n")
    assert game.returncode == 0, game.stderr
    out = game.stdout.decode("ascii")
    assert "Something went wrong" not in out + game.stderr.decode("ascii")
    assert "Tu mano" in out and "Dificil" in out
    story = _ascii_run("--lang", "es", "replay",
                       str(Path(__file__).parent.parent / "fixtures" / "replays" / "quick-4p.yaml"))
    assert story.returncode == 0 and "Ronda 1: pase a la izquierda" in story.stdout.decode("ascii")


# ---------------------------------------------------------------- engine


def test_engine_answers_hello():
    result = run("engine", input='{"cmd":"hello"}\n')
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 1  # one reply per request
    reply = json.loads(lines[0])
    assert reply["ok"] is True and reply["name"] == "hearts" and reply["protocol"] == 4
    assert reply["version"] == __version__
    assert reply["presets"][0] == "quick" and "omnibus" in reply["presets"]


def test_engine_speaks_the_chosen_language():
    en = json.loads(run("engine", input="not json\n").stdout.splitlines()[0])
    es = json.loads(run("engine", "--lang", "es", input="not json\n").stdout.splitlines()[0])
    assert en != es
    assert "JSON" in json.dumps(es, ensure_ascii=False)
    assert_user_error(run("engine", "--lang", "xx"), "'xx'")


@pytest.mark.parametrize("args", [["--plain"], []])
def test_a_plain_screen_writes_the_ten_as_10_too(args):
    """``--plain`` writes suits as letters, and a ten as everywhere else: ``10H``; ``TH``
    is still read."""
    result = run("explain", "TH", "--code", CODE, *args)
    assert result.exit_code == 0
    first = result.stdout.splitlines()[1]
    assert first.startswith("10H " if args else "10♥ ")
    assert "TH" not in result.stdout


def test_engine_with_immediate_eof():
    result = run("engine", input="")
    assert result.exit_code == 0
    assert result.stdout == "" and result.stderr == ""  # nothing asked, nothing said


# ---------------------------------------------------------------- start-up discipline


def _modules_after(*args: str) -> set[str]:
    code = (
        "import sys\n"
        "from hearts_cli.cli.app import app\n"
        "try:\n"
        f"    app({list(args)!r}, prog_name='hearts')\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, HEARTS_HOME=os.environ["HEARTS_HOME"])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          input="", timeout=60)
    return set(proc.stderr.split("\n"))


@pytest.mark.parametrize("args", [
    ["--version"],
    ["rules"],
    ["rules", "--tips", "--json"],
    ["rules", "--set", "moon=off", "--set", "passing=right,left"],
    ["explain", "QS", "--code", CODE],
    ["engine"],
])
def test_scripted_commands_do_not_load_the_game_loop(args):
    mods = _modules_after(*args)
    assert "hearts_cli.cli.app" in mods
    loop = {m for m in mods if m == "hearts_cli.repl" or m.startswith("hearts_cli.repl.")}
    assert loop == set()  # the game loop itself
    heavy = {m for m in mods if m.split(".")[0] in ("prompt_toolkit", "rich", "pygments")}
    assert heavy == set()
    # nor what only other commands need: PyYAML (records, settings), the network
    # (host, join), the archive's database (stats), pydantic (Typer's own coercion)
    unused = {m for m in mods if m.split(".")[0] in ("yaml", "asyncio", "ssl", "_ssl", "sqlite3", "pydantic")}
    assert unused == set()


@pytest.mark.parametrize("args, needed", [
    (["stats"], {"sqlite3"}),
    (["host", "--help"], set()),
    (["join", "--help"], set()),
    (["new", "--help"], set()),
    (["replay", "--help"], set()),
    # issue 33 §5: a game with no outside program at a seat starts no network code
    (["new", "--no-play", "--code", CODE, "--plain"], {"yaml"}),
])
def test_commands_load_only_the_heavy_modules_they_use(args, needed):
    """The network, the database, PyYAML and the screen libraries are imported by the command
    that uses them, when it runs: never by another command, nor by a command's help."""
    mods = _modules_after(*args)
    heavy = {m.split(".")[0] for m in mods} & {
        "asyncio", "ssl", "sqlite3", "yaml", "prompt_toolkit", "rich", "pygments", "pydantic"}
    assert heavy == needed


def test_a_run_in_one_language_reads_only_its_own_sentences():
    """The catalog imports a language's sentences when it is first asked for (text/catalog.py)."""
    for lang, other in (("en", "es"), ("es", "en")):
        mods = _modules_after("--lang", lang, "explain", "QS", "--code", CODE)
        assert f"hearts_cli.text.{lang}" in mods and f"hearts_cli.text.{other}" not in mods


def test_the_console_script_spares_its_exit_the_last_collection():
    """``main`` leaves the objects alive at its end out of the collection Python runs as it
    exits (``gc.freeze``): a tenth of every command's start-up (see docs/cli.md)."""
    code = ("import gc, sys\n"
            "sys.argv = ['hearts', '--version']\n"
            "from hearts_cli.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(gc.get_freeze_count() > 1000)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines()[-1] == "True", proc.stdout + proc.stderr


def test_the_console_script_collects_no_garbage_while_it_starts():
    """``main`` puts the first garbage collection off until :data:`START_OBJECTS` objects are
    allocated (none during a scripted command), then gives Python its thresholds back."""
    code = ("import gc, sys\n"
            "default = gc.get_threshold()\n"
            "sys.argv = ['hearts', '--version']\n"
            "from hearts_cli.cli.app import START_OBJECTS, main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(gc.get_threshold() == (START_OBJECTS,) + default[1:], len(gc.callbacks))\n"
            "kept = [[] for _ in range(2 * START_OBJECTS)]\n"
            "print(gc.get_threshold() == default, len(gc.callbacks))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines()[-2:] == ["True 1", "True 0"], proc.stdout + proc.stderr


def test_set_is_read_without_pydantic_or_yaml():
    """A repeatable --set gets the light coercion too, and KEY=VALUE needs no YAML reader."""
    mods = _modules_after("rules", "--set", "moon=off", "--set", "removal=3:2D", "--json")
    assert {m for m in mods if m.split(".")[0] in ("pydantic", "yaml")} == set()
    assert "hearts_cli.model.overrides" in mods


def test_version_loads_nothing_of_the_game():
    """Nor any command's module: the group imports a command's module when it is asked for."""
    mods = _modules_after("--version")
    shared = {"hearts_cli.cli", "hearts_cli.cli.app", "hearts_cli.cli.command", "hearts_cli.cli.options",
              "hearts_cli.cli.output",
              "hearts_cli.base", "hearts_cli.base.version"}  # the version itself, one line
    assert "hearts_cli.cli.app" in mods
    assert not {m for m in mods if m.startswith("hearts_cli.") and m not in shared}


def test_a_command_loads_its_own_module_only():
    mods = _modules_after("engine")
    assert {m for m in mods if m.startswith("hearts_cli.cli.commands.")} == {"hearts_cli.cli.commands.engine"}


@pytest.mark.parametrize("delay", ["20", "-1"])
def test_host_refuses_a_delay_out_of_range_in_one_sentence(delay):
    """issue 18 §6: `hearts host --delay 20` said "Something went wrong inside hearts"."""
    err = assert_user_error(run("host", "--port", "0", "--delay", delay), "0", "10")
    assert err == "The delay must be from 0 to 10 seconds."
    err = assert_user_error(run("host", "--port", "0", "--delay", delay, "--lang", "es"))
    assert err == "La pausa debe ser de 0 a 10 segundos."


def test_an_unknown_preset_lists_the_presets_in_the_chosen_language():
    """issue 18 §5: `--preset nada` named the presets in English in a Spanish sentence."""
    for command in ("new", "stats", "rules"):
        err = assert_user_error(run(command, "--preset", "nada", "--lang", "es"), "«nada»")
        assert "las variantes son: rápida, siempre-izquierda, " in err and "quick" not in err, err
        err = assert_user_error(run(command, "--preset", "nada", "--lang", "en"), "'nada'")
        assert "the presets are: quick, always-left, " in err, err


@pytest.mark.parametrize("lang, one, two", [
    ("en", "Rule 'players' must be from 3 to 6 with one deck.", "Rule 'players' must be from 6 to 11 with two decks."),
    ("es", "La regla «players» debe estar entre 3 y 6 con una baraja.",
     "La regla «players» debe estar entre 6 y 11 con dos barajas."),
])
def test_the_number_of_players_is_refused_in_proper_words(lang, one, two):
    """issue 18 §5, issue 26 §3: not "with 1 deck(s)" nor "con 1 baraja": "with one deck", "con dos barajas"."""
    err = assert_user_error(run("new", "--players", "12", "--no-play", "--lang", lang))
    assert err == one, err
    err = assert_user_error(run("new", "--preset", "cancellation", "--players", "4", "--no-play", "--lang", lang))
    assert err == two, err


@pytest.mark.parametrize("lang, said", [
    ("en", "8 players need two decks: play with the two-deck preset, --preset cancellation "
           "(its rule 'players' goes from 6 to 11)."),
    ("es", "8 jugadores necesitan dos barajas: usa la variante de dos barajas, --preset cancellation "
           "(su regla «players» va de 6 a 11)."),
])
def test_seven_to_eleven_players_are_told_the_two_deck_preset(lang, said):
    """issue 33 §4: `hearts new --players 8` said the rule goes from 3 to 6; the two-deck
    preset, which plays 8, is what the player needs to hear of (and it does play them)."""
    assert assert_user_error(run("new", "--players", "8", "--no-play", "--lang", lang)) == said
    err = assert_user_error(run("new", "--set", "players=11", "--no-play", "--lang", lang))
    assert err.startswith("11 ") and "--preset cancellation" in err
    assert "--preset cancellation" not in assert_user_error(run("new", "--players", "12", "--no-play"))
    assert run("new", "--players", "8", "--preset", "cancellation", "--no-play").exit_code == 0


@pytest.mark.parametrize("lang", ["en", "es"])
def test_replay_of_a_mistyped_code_says_so_as_new_does(isolated, lang):
    """issue 33 §4: `hearts replay W3EXPH38` (its check character wrong) said the file could not
    be read; it is said as `hearts new --code W3EXPH38` says it. A name that is no code still
    reads as a file's."""
    said = assert_user_error(run("new", "--code", "W3EXPH38", "--no-play", "--lang", lang), "W3EXPH38")
    assert assert_user_error(run("replay", "W3EXPH38", "--lang", lang)) == said
    assert assert_user_error(run("replay", "w3exph38", "--lang", lang)) == said.replace("W3EXPH38", "w3exph38")
    err = assert_user_error(run("replay", "game.yaml", "--lang", "en"), "game.yaml")
    assert "not a game code" not in err


def test_an_empty_file_is_said_to_be_empty(isolated):
    """issue 33 §4: an empty file given to hearts replay (or explain --record) was told it
    needs a game code, as a move log does."""
    path = isolated / "empty.yaml"
    path.write_text("\n  \n")
    err = assert_user_error(run("replay", str(path)))
    assert err == f"{path} is empty: it holds no game record and no move log."
    err = assert_user_error(run("replay", "-", "--lang", "es", input=""))
    assert err == "La entrada estándar está vacía: no contiene ningún registro de partida ni de jugadas."
    assert_user_error(run("explain", "QS", "--record", str(path)), str(path), "is empty")
    # with --code, an empty move log is a game of no moves yet: its first table, as before
    result = run("replay", str(path), "--code", CODE)
    assert result.exit_code == 0 and "round 1" in result.stdout, result.stderr


def test_a_broken_record_played_on_is_told_as_a_record(home):
    """issue 33 §4: `hearts play --resume` of an archived record whose YAML is broken said "FILE
    cannot be read: FILE is not a readable game record: ..." (the file's sentence around the
    record's): now the record's sentence alone, in words, with its line."""
    assert run("new", "--no-play", "--code", CODE).exit_code == 0
    assert run("new", "--no-play").exit_code == 0  # the first one archived, unfinished
    [archived] = (home / "archive").iterdir()
    text = archived.read_text(encoding="utf-8")
    archived.write_text(text.replace("  - round: 1", " - round: 1"), encoding="utf-8")
    err = assert_user_error(run("play", "--resume", CODE, "--plain"))
    assert err.startswith(f"{archived} is not a readable game record: line ") and "does not read as YAML" in err
    assert "cannot be read" not in err and "mapping values" not in err
    assert archived.exists()  # nothing touched


@pytest.mark.parametrize("edit", [("format: ", "format "), ("format: ", "  format: ")],
                         ids=["no-colon", "indented"])
def test_a_record_whose_format_line_is_damaged_is_told_as_a_record(tmp_path, edit):
    """issue 33 §4: a record whose `format:` line was broken by hand was read as a move log
    ("'format' is not a card, a round marker..."): it begins as hearts begins every record,
    and is told as a record, in words, with the line."""
    path = tmp_path / "game.yaml"
    save_record(path, Game(Rules.from_spec("quick"), CODE))
    path.write_text(path.read_text(encoding="utf-8").replace(*edit, 1), encoding="utf-8")
    for args in (["replay", str(path)], ["explain", "QS", "--record", str(path)]):
        err = assert_user_error(run(*args), f"{path} is not a readable game record: line ")
        assert "is not a card" not in err and "does not read as YAML" in err


def test_sizes_are_said_in_kib_and_mib(isolated):
    """issue 33 §4: "larger than 1048576 bytes" is said "larger than 1 MiB"."""
    from hearts_cli.text.catalog import CATALOG, size_words, t

    assert [size_words(n) for n in (1, 100, 1024, 1536, 64 * 1024, 1024 * 1024)] == \
        ["1 byte", "100 bytes", "1 KiB", "1.5 KiB", "64 KiB", "1 MiB"]
    assert t("input_too_big", "en", limit=1024 * 1024) == "it is larger than 1 MiB"
    said = t("record_too_big", "es", path="x", limit=1024 * 1024)
    assert said == "x ocupa más de 1 MiB; eso no es un registro de partida."
    for lang in ("en", "es"):
        assert not [k for k, v in CATALOG[lang].items() if "{limit} bytes" in v]
    path = isolated / "big.log"
    path.write_text("# padding\n" * 110_000)
    assert_user_error(run("replay", str(path)), str(path), "larger than 1 MiB")


@pytest.mark.parametrize("lang, said", [("en", "Game over after 1 round."), ("es", "Fin de la partida tras 1 ronda.")])
def test_a_game_of_one_round_says_one_round(isolated, lang, said):
    """issue 26 §3: a game that a target of 1 ends after its first round said "after 1 rounds"."""
    result = run("new", "--code", CODE, "--set", "target=1", "--plain", "--lang", lang, input="auto\n")
    assert result.exit_code == 0, result.stderr
    assert said in result.stdout.splitlines(), result.stdout


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_game_s_rules_say_the_players_the_game_has(isolated, lang):
    """issue 26 §3: `rules` in a 3-player game of quick began with the preset's "4 players"."""
    result = run("new", "--code", CODE, "--players", "3", "--plain", "--lang", lang, input="rules\nquit\n")
    assert result.exit_code == 0, result.stderr
    start = "Rules: quick." if lang == "en" else "Reglas: rápida."
    told = result.stdout[result.stdout.index(start):]
    told = told[:told.index("\n", told.index("players=3"))]  # the title and the changes
    assert not re.search(r"\b(4|four|cuatro)\b", told), told


# ---------------------------------------------------------------- help in Spanish, at any width

HELP_PAGES = [[], ["play"], ["new"], ["rules"], ["explain"], ["engine"], ["sim"], ["stats"], ["replay"], ["host"],
              ["join"]]


def _help(command: list[str], lang: str, columns: int) -> str:
    result = run(*command, "--help", "--lang", lang, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def _words(text: str) -> set[str]:
    """The words of a help page: a word broken after a hyphen is one word; the group's list of
    commands cuts each summary short ("..."), so a cut word does not count."""
    import re

    return {w for w in re.sub(r"(?<=\w)-\n\s+", "-", text).split() if not w.endswith("...")}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("command", HELP_PAGES, ids=lambda c: " ".join(c) or "hearts")
def test_every_help_fits_40_columns_without_splitting_a_word(command, lang):
    """issue 18 §4: help is laid out for the terminal's width, down to 40 columns."""
    narrow = _help(command, lang, 40)
    wide = _help(command, lang, 200)
    assert max(len(line) for line in narrow.splitlines()) <= 40, narrow
    assert _words(narrow) <= _words(wide), sorted(_words(narrow) - _words(wide))  # no word cut in two


@pytest.mark.parametrize("command", HELP_PAGES, ids=lambda c: " ".join(c) or "hearts")
def test_every_help_is_in_spanish_with_typers_own_words(command):
    """issue 18 §5: --lang es turns the whole help Spanish, Click's words too."""
    es = _help(command, "es", 100)
    assert es.startswith("Uso: hearts") and "\nOpciones:\n" in es and "Muestra esta ayuda y termina." in es
    for english in ("Usage", "Options", "Show this message", "Examples", "default:", "Language of every"):
        assert english not in es, english
    assert "Ejemplo" in es


MADE_UP = "github.com/hearts-cli"  # issue 34 §10: an address no repository answers at


def test_no_document_help_or_schema_names_a_made_up_address():
    """issue 34 §10: https://github.com/hearts-cli/hearts was in pyproject's Project-URLs, the
    README, `hearts --help`, docs/cli.md and the schema's $id; no such repository exists. Until
    the project has a public home nothing names one, and the schema's $id is no URL."""
    import importlib.metadata
    import json
    import tomllib

    root = Path(__file__).resolve().parent.parent
    declared = tomllib.loads((root / "pyproject.toml").read_text())
    assert "urls" not in declared["project"]
    assert declared["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]["docs"] == "hearts_cli/docs"
    assert not importlib.metadata.metadata("hearts-cli").get_all("Project-URL")  # make reinstalls
    texts = [root / "README.md", root / "pyproject.toml", *sorted((root / "docs").glob("*.md")),
             *sorted((root / "hearts_cli").rglob("*.py"))]
    assert not [str(f) for f in texts if MADE_UP in f.read_text(encoding="utf-8")]
    schema_id = json.loads((root / "docs" / "schema" / "hearts.schema.json").read_text())["$id"]
    assert not schema_id.startswith(("http:", "https:")), schema_id


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_points_where_a_pip_user_can_read(lang):
    """issue 26 §18, issue 34 §10: the help sent a pip user to docs/cli.md and seeds/README.md,
    which only a checkout has, then to an address that does not exist; it points to `hearts help
    TOPIC`, and `hearts help` names the folder the docs were installed in (or the checkout's)."""
    from hearts_cli.base.version import docs_dir

    for columns in (40, 80):
        main = _help([], lang, columns)
        assert "hearts help" in " ".join(main.split()) and MADE_UP not in main, main
    for command in HELP_PAGES:
        page = _help(command, lang, 80)
        assert "seeds/README.md" not in page and "docs/cli.md" not in page, command
        assert MADE_UP not in page and "https://" not in page, command
        if command in (["sim"], ["engine"]):  # "See docs/sim.md", "The protocol: docs/engine-protocol.md"
            assert "hearts help" in " ".join(page.split()), command
    topics = run("help", "--lang", lang, env={"COLUMNS": "200"})
    assert topics.exit_code == 0 and docs_dir() in topics.stdout, topics.stdout
    assert (Path(docs_dir()) / "library.md").is_file()


def test_the_docs_say_what_language_help_is_in():
    """issue 26 §18: docs/cli.md said --help stays in English; `hearts --lang es --help` is Spanish."""
    said = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "stay in English" not in said and "`hearts --lang es --help`" in said
    assert run("--lang", "es", "--help").stdout.startswith("Uso: hearts")


def test_help_is_in_the_language_of_the_environment(monkeypatch):
    monkeypatch.setenv("HEARTS_LANG", "es")
    assert run("new", "--help").stdout.startswith("Uso: hearts new [OPCIONES]")
    monkeypatch.delenv("HEARTS_LANG")
    monkeypatch.delenv("LC_ALL")
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert "Reparte este código de partida" in run("host", "--help").stdout


@pytest.mark.parametrize("args, said", [
    (["new", "--bogus"], "Error: No existe la opción --bogus"),
    (["explain"], "Error: Falta el argumento 'CARD'."),
    (["host", "--port", "x"], "Error: Valor no válido para '--port': «x» no es un número entero."),
    (["nwe"], "Error: No existe la orden 'nwe'. ¿Querías decir 'new'?"),
    (["new", "--preset"], "Error: La opción '--preset' necesita un valor."),
    (["new", "a", "b"], "Error: Sobran argumentos: a b"),
])
def test_usage_errors_are_said_in_spanish(args, said):
    result = run("--lang", "es", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert said in result.stderr.splitlines(), result.stderr
    assert "Usage" not in result.stderr and "Try " not in result.stderr and "Traceback" not in result.stderr


def test_usage_errors_in_english_are_clicks_own():
    result = run("new", "--bogus-option")
    assert result.stderr == ("Usage: hearts new [OPTIONS]\nTry 'hearts new -h' for help.\n\n"
                             "Error: No such option: --bogus-option\n")
    result = run("nwe")
    assert result.stderr.endswith("Error: No such command 'nwe'. Did you mean 'new'?\n")
