"""Issue 10 §2, "the table tells the truth out loud": what the table says, at any width,
in either language (the shooter's choice, ties at the target, the log, narrow terminals,
scrolling, naming, help, Ctrl-C, completion)."""

from __future__ import annotations

import pytest

from hearts_cli.engine import Game
from hearts_cli.movelog import replay_log
from hearts_cli.record import moves_of
from hearts_cli.repl.render import Renderer, plain, wrap
from hearts_cli.repl.table import Table, make_seats
from hearts_cli.rules import Rules

CODE = "JYR35SWD"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEARTS_LANG", raising=False)
    monkeypatch.delenv("HEARTS_ASCII", raising=False)
    return tmp_path / "home"


def _table(spec=None, lang: str = "en", code: str = CODE, **kw) -> Table:
    rules = Rules.from_spec(spec)
    return Table(Game(rules, code), make_seats(rules.players, 0, None), lang=lang, **kw)


def shown(renderer: Renderer, lines, width: int) -> list[str]:
    """What the session prints at ``width`` columns: each line wrapped as ``show`` does."""
    return [plain(part) for line in lines for part in wrap(line, width)]


# ---------------------------------------------------------------- `log` at any width


def _into_second_round(spec) -> Table:
    tb = _table(spec)
    tb.cmd_auto("")
    while len(tb.game.rounds) < 2:
        assert tb.cpu_step()
    tb.cmd_auto("")  # and the first pass of round 2: its round stays hidden
    while tb.game.round.passes[0] is None:
        assert tb.cpu_step()
    return tb


@pytest.mark.parametrize("spec", [None, {"preset": "reference", "players": 6, "moon": "shooter_minus"}])
@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_every_line_log_prints_replays_at_any_width(spec, width):
    tb = _into_second_round(spec)
    for lang in ("en", "es"):
        tb.lang = lang
        tb.handle("log")
        ev = tb.events[-1]
        assert ev.kind == "info" and ev.data["topic"] == "log"
        r = Renderer(tb, plain=True, width=width)
        lines = shown(r, r.event(ev), width)
        assert all(len(line) <= width for line in lines), lines
        logged = replay_log("\n".join(lines))  # copied from the screen, as it is
        assert logged.game.rules == tb.game.rules
        assert moves_of(logged.game) == [m for m in moves_of(tb.game) if m.round == 1]
        assert any(line.startswith("# ") and "2" in line for line in lines)  # round 2 is said to be hidden


# ---------------------------------------------------------------- Ctrl-C at an empty prompt


def _session(tb: Table, keys: str, **kw) -> int:
    import threading

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.session import run_interactive

    with create_pipe_input() as inp:
        inp.send_text(keys)
        watchdog = threading.Timer(60, inp.close)  # keys that never arrive fail, never hang
        watchdog.start()
        try:
            with create_app_session(input=inp, output=DummyOutput()):
                return run_interactive(tb, plain=True, delay=kw.get("delay", 0), turn_timer=None,
                                       resumed=False, notes=[])
        finally:
            watchdog.cancel()


@pytest.mark.parametrize("lang, words", [("en", ("Ctrl-D saves and leaves", "`quit` quits")),
                                         ("es", ("Ctrl-D guarda y sale", "`salir` sale"))])
def test_ctrl_c_at_an_empty_prompt_says_once_how_to_leave(lang, words):
    tb = _table(lang=lang, confirm=True)
    assert _session(tb, "\x03" + "\x03" + "TS\r" + "\x03" + "\x03" + "\x04") == 0
    told = [ev for ev in tb.events if ev.kind == "info" and ev.data["topic"] == "leave"]
    assert len(told) == 1  # once, not at every Ctrl-C
    assert all(w in told[0].data["text"] for w in words)
    assert [ev.kind for ev in tb.events].count("cancel") == 1  # the chosen T♠ was still cancelled


# ---------------------------------------------------------------- ties at the target


def _all_auto(code: str, ties: str, lang: str = "en") -> Table:
    """A game to 1 point played by the CPUs (Normal for the person): it ends after round 1
    unless the tie policy deals on."""
    tb = _table({"preset": "quick", "target": 1, "ties": ties}, lang=lang, code=code)
    while not tb.game.over:
        tb.auto_round = len(tb.game.rounds) - 1
        assert tb.cpu_step()
    return tb


def _tie_lines(tb: Table) -> list[str]:
    r = Renderer(tb, plain=True)
    return [plain(line) for ev in tb.events if ev.kind == "tie" for line in r.event(ev)]


# WCZSF120: after round 1, West and North are tied on 0; VKGR023N: North and East, on 2 after
# round 1 and again after round 2
@pytest.mark.parametrize("ties, code, expected", [
    ("share", "WCZSF120", ["The target is reached and West and North are tied for the lowest total (0): "
                           "they share first place."]),
    ("one_more_round", "WCZSF120", ["The target is reached, but West and North are tied for the lowest "
                                    "total (0): one more round decides it."]),
    ("one_more_round", "VKGR023N", ["The target is reached, but North and East are tied for the lowest "
                                    "total (2): one more round decides it.",
                                    "Still tied after the extra round: North and East share first place "
                                    "with 2."]),
    ("until_single", "VKGR023N", ["The target is reached, but North and East are tied for the lowest "
                                  "total (2): play goes on, a round at a time, until one player alone "
                                  "has the lowest total.",
                                  "Still tied: North and East have the lowest total (2), so another "
                                  "round is dealt."]),
])
def test_a_tie_at_the_target_says_who_tied_and_what_happens_next(ties, code, expected):
    tb = _all_auto(code, ties)
    assert _tie_lines(tb) == expected
    kinds = [ev.kind for ev in tb.events]
    first_tie = kinds.index("tie")
    assert kinds[first_tie - 1] == "round_end"  # said right after the round's scores
    if not tb.game.over or kinds[first_tie + 1] != "game_end":
        assert kinds[first_tie + 1] == "deal"  # ... and before the extra round is dealt
    es = _tie_lines(_all_auto(code, ties, "es"))
    assert len(es) == len(expected)
    assert all(any(pair in line for pair in ("Oeste y Norte", "Norte y Este")) for line in es), es


def test_no_tie_is_announced_below_the_target_or_with_one_lowest():
    tb = _all_auto("GX4V1CXP", "one_more_round")
    assert not _tie_lines(tb) and tb.game.over and len(tb.game.results) == 1


# ---------------------------------------------------------------- completion of phrases


def _complete(tb: Table, text: str) -> list[tuple[str, int]]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.session import CardCompleter

    return [(c.text, c.start_position)
            for c in CardCompleter(tb, ascii=False).get_completions(Document(text), CompleteEvent())]


@pytest.mark.parametrize("typed, cards", [
    ("queen", ["QD"]), ("queen of", ["QD"]), ("queen of d", ["QD"]), ("dama de", ["QD"]),
    ("reina de diamantes", ["QD"]), ("as de", ["AH"]), ("as de c", ["AH"]), ("ace of h", ["AH"]),
    ("why as de", ["AH"]), ("pass 2c queen of", ["QD"]), ("por-que dama", ["QD"]),
    ("king of spades", ["KS"]), ("rey de picas", ["KS"]), ("rey de espadas", ["KS"]),
    ("ten of", ["TS"]), ("diez", ["TS"]), ("10", ["TS"]), ("10♠", ["TS"]),
])
def test_phrases_in_either_language_complete_to_cards(typed, cards):
    tb = _table()  # South holds 2♣ 7♣ 3♦ 4♦ Q♦ 7♥ 8♥ A♥ 2♠ 8♠ T♠ J♠ K♠, passing
    got = _complete(tb, typed)
    assert [text for text, _ in got] == cards
    words = typed.split()
    replaced = -len(typed) if words[0] not in ("why", "pass", "por-que") else -len(typed.split(" ", 1)[1])
    if typed.startswith("pass 2c"):
        replaced = -len("queen of")
    assert all(start == replaced for _, start in got)  # the whole phrase becomes the card


def test_commands_still_complete_and_other_commands_take_no_cards():
    tb = _table()
    assert ("hint", -2) in _complete(tb, "hi")
    assert _complete(tb, "score ") == [] and _complete(tb, "tricks q") == []
    assert len(_complete(tb, "pass ")) == 13


# ---------------------------------------------------------------- the ten is 10 on screen


def test_the_ten_shows_as_10_and_t_is_still_read(home):
    import io

    from hearts_cli.cards import Card, parse_card
    from hearts_cli.repl import start_new

    assert Card("TS").symbol == "10♠" and str(Card("TS")) == "TS"  # records keep TS
    assert parse_card("Ts") == parse_card("10s") == parse_card("10♠") == Card("TS")
    out = io.StringIO()
    assert start_new(code=CODE, stdin=io.StringIO("pass TS JS KS\n"), stdout=out) == 0
    text = out.getvalue()
    assert "♠ 2 8 10 J K" in text and "You pass 10♠, J♠, K♠ to West." in text
    assert "T♠" not in text and " T " not in text
    from hearts_cli.record import read_record

    saved = (home / "current.yaml").read_text(encoding="utf-8")
    assert "[TS, JS, KS]" in saved and "10" not in saved.split("passes:")[1].split("\n")[1]
    assert read_record(home / "current.yaml").replay().round.passes[0] == (Card("TS"), Card("JS"), Card("KS"))


# ---------------------------------------------------------------- help lists the presets


@pytest.mark.parametrize("command", ["new", "rules"])
def test_help_lists_every_preset_with_a_line_in_either_language(command, monkeypatch):
    from typer.testing import CliRunner

    from hearts_cli.cli import app
    from hearts_cli.messages import preset_line, preset_name
    from hearts_cli.rules import preset_names

    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    for lang, heading in (("en", "Presets"), ("es", "Variantes")):
        monkeypatch.setenv("HEARTS_LANG", lang)
        result = CliRunner().invoke(app, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0
        listed = result.stdout.split(heading, 1)[1]
        for pid in preset_names():
            row = next(line for line in listed.splitlines() if line.split()[:1] == [preset_name(pid, lang)])
            assert preset_line(pid, lang) in row and preset_line(pid, lang)
        if lang == "es":
            assert "rápida" in listed and "la J♦ vale -10" in listed


def test_presets_complete_with_their_description(monkeypatch):
    from hearts_cli.cli import _complete_preset

    monkeypatch.delenv("HEARTS_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    got = dict(_complete_preset("shoot"))
    assert set(got) == {"shooter-choice", "shooter-minus"}
    assert got["shooter-minus"] == "a moon subtracts 26 from the shooter"
    monkeypatch.setenv("HEARTS_LANG", "es")
    got = dict(_complete_preset("r"))
    assert "rápida" in got and "referencia" in got and "reference" in got


# ---------------------------------------------------------------- naming in Spanish


def test_spanish_names_the_presets_in_spanish_and_reads_them(home):
    import io

    from hearts_cli.repl import start_new
    from typer.testing import CliRunner

    from hearts_cli.cli import app
    from hearts_cli.messages import CATALOG

    out = io.StringIO()
    assert start_new(preset="quick", code=CODE, lang="es", play=False, stdout=out) == 0
    assert "Partida JYR35SWD (rápida, a 50)." in out.getvalue()
    assert "(quick" not in out.getvalue()
    result = CliRunner().invoke(app, ["rules", "--preset", "a-degüello", "--lang", "es"])
    assert result.exit_code == 0 and "«a-degüello»" in result.stdout
    for mid, text in CATALOG["es"].items():  # the word stays only in option names
        assert "preset" not in text.replace("--preset", "").replace("{preset}", ""), mid
