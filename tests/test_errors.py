"""One error family: every error a person can cause is a HeartsError with a message id and a sentence."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from conftest import run

import hearts_cli
from hearts_cli.model.errors import ECHO_LIMIT, HeartsError, shown
from hearts_cli.text.catalog import CATALOG


def _all_subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _all_subclasses(sub)
    return out


def test_every_kind_of_person_error_is_in_the_family():
    for info in pkgutil.walk_packages(hearts_cli.__path__, "hearts_cli."):
        if info.name.endswith(("session", "__main__")):  # prompt-toolkit; the console entry
            continue
        importlib.import_module(info.name)
    names = {f"{c.__module__}.{c.__qualname__}" for c in _all_subclasses(HeartsError)}
    assert {
        "hearts_cli.model.cards.CardParseError", "hearts_cli.model.codes.CodeError",
        "hearts_cli.model.rules.RulesError", "hearts_cli.play.dealt.IllegalMove",
        "hearts_cli.play.dealt.PassError", "hearts_cli.records.record_parts.PlaceError",
        "hearts_cli.records.record_parts.RecordError", "hearts_cli.records.movelog.MoveLogError",
        "hearts_cli.records.explain.ExplainError", "hearts_cli.records.positions.NoPositionError",
        "hearts_cli.play.requests.RequestError", "hearts_cli.bots.levels.LevelError",
    } <= names


def _samples() -> list[HeartsError]:
    from hearts_cli.bots import check_level
    from hearts_cli.model.cards import parse_card
    from hearts_cli.model.codes import normalize_code
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.round import Round
    from hearts_cli.records.movelog import replay_log
    from hearts_cli.records.record_reader import read_record

    out = []
    for attempt in (
        lambda: parse_card("QX"),
        lambda: normalize_code("K7Q2MXA8"),
        lambda: Rules.from_spec({"preset": "quick", "moon": "sometimes"}),
        lambda: check_level("expert"),
        lambda: Round.deal(Rules(), "K7Q2MXA7", 0).pass_cards([], 0),
        lambda: Round.deal(Rules(), "K7Q2MXA7", 3).play(parse_card("QS")),
        lambda: replay_log("R1 2C 2C", "K7Q2MXA7"),
        lambda: read_record("format: hearts-record/1\ncode: nope\n"),
    ):
        with pytest.raises(HeartsError) as e:
            attempt()
        out.append(e.value)
    return out


def test_each_error_says_one_sentence_in_each_language():
    for error in _samples():
        assert error.message_id in CATALOG["en"], error.message_id
        en, es = error.message("en"), error.message("es")
        assert en and es and en != es, (type(error).__name__, en)
        assert "\n" not in en and "\n" not in es
        assert str(error) == error.message()  # the sentence as said, cards as symbols (Q♠, not QS)


def test_shown_escapes_and_shortens():
    assert shown("QS") == "QS"
    assert shown("a\x1b[31mb\nc\td") == "a\\x1b[31mb\\nc\\td"
    assert shown("\u202eevil") == "\\u202eevil"  # no bidirectional override reaches the terminal
    # nor a format character that shows nothing: the word would look like another
    assert shown("\ufeffcode") == "\\ufeffcode"  # a byte-order mark
    assert shown("Q\u200bS\u00ad\u2060") == "Q\\u200bS\\xad\\u2060"  # zero-width space, soft hyphen, word joiner
    assert shown("QS\U000e0041") == "QS\\U000e0041"  # a tag character
    assert shown("\U000e0041" * 40).endswith("\\U000e0041…")  # cut before an escape, not inside it
    long = shown("x" * 500)
    assert len(long) == ECHO_LIMIT and long.endswith("…")


def test_printable_text_holds_nothing_that_is_escaped():
    """``shown``, ``escaped`` and ``json_safe`` let printable text through without a regex:
    that is only right while every character they escape is one ``str.isprintable`` refuses."""
    import sys

    from hearts_cli.base import untrusted

    printable = "".join(ch for ch in map(chr, range(sys.maxunicode + 1)) if ch.isprintable())
    for name in ("unsafe", "unsafe_but_lines", "c1"):
        assert untrusted._pattern(name).search(printable) is None, name
    assert untrusted.escaped("a\u2066b\nc") == "a\\u2066b\nc"
    assert untrusted.json_safe('{"name": "a\x9bb"}') == '{"name": "a\\u009bb"}'


@pytest.mark.parametrize("args", [
    ["explain", "\x1b]0;pwned\x07" + "Z" * 300, "--code", "K7Q2MXA7"],
    ["new", "--no-play", "--code", "\x1b[2J" + "A" * 300],
    ["rules", "--preset", "\x1b[31m" + "p" * 300],
    ["new", "--no-play", "--level", "\x1b[31m" + "l" * 300],
])
def test_the_command_line_says_a_person_error_in_one_short_safe_line(isolated, args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    err = result.stderr
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "\x1b" not in err and "\x07" not in err
    # the echo is shortened, not the 300 characters given (the list of presets may be long)
    assert len(err) < 400 and not any(ch * 60 in err for ch in "ZApl")


def test_the_command_line_speaks_the_language_asked(isolated):
    result = run("rules", "--preset", "nope", "--lang", "es")
    assert result.exit_code == 2
    assert result.stderr.startswith("No existe la variante «nope»; las variantes son: rápida, ")


@pytest.mark.parametrize("lang, start", [("en", "'QX' is not a card; did you mean "),
                                         ("es", "«QX» no es una carta; ¿quizá ")])
def test_a_card_error_reads_as_before(isolated, lang, start):
    result = run("explain", "QX", "--code", "K7Q2MXA7", "--lang", lang)
    assert result.exit_code == 2
    assert result.stderr.startswith(start) and "Q♠" in result.stderr


def test_every_command_says_person_errors_in_the_one_place():
    """Each command's class catches HeartsError (command.Command.invoke): no command can bypass it."""
    import typer.main

    from hearts_cli.cli.app import COMMANDS, app
    from hearts_cli.cli.command import Command

    group = typer.main.get_command(app)
    from pathlib import Path

    import hearts_cli.cli.commands as modules

    assert list(group.commands) == list(COMMANDS)
    assert {p.stem for p in Path(modules.__file__).parent.glob("*.py")} - {"__init__"} == set(COMMANDS)
    for name, command in group.commands.items():
        assert isinstance(command, Command), name


@pytest.mark.parametrize("args, words", [
    (["rules", "--lang", "\x1b[1mfr"], ["is not a language", "en or es"]),
    (["sim", "--seats", "hard,normal", "--deals", "1"], ["2 seats"]),
    (["explain", "QS", "--moves", "2C"], ["--moves needs --code"]),
    (["replay"], []),
])
def test_option_problems_go_through_the_same_place(isolated, args, words):
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "\x1b" not in result.stderr
    for w in words:
        assert w in result.stderr


def test_a_file_name_is_escaped_but_kept_whole(isolated):
    name = "no-such-dir/\x1b[2J" + "d" * 60 + ".yaml"
    result = run("replay", name)
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr and "\\x1b[2J" + "d" * 60 + ".yaml" in result.stderr
