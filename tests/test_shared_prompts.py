"""What the table asks and says around a decision (issue 18 §3 and §6): the moon's question
waits for its answer however the moon was reached, a refused command does not end a script's
game, nothing is archived without saying so, the only legal card needs no confirmation, and
what Tab offers first is what Enter reads."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.events import Event
from hearts_cli.play.game import Game
from hearts_cli.records.record_reader import read_record
from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.render import Renderer, plain
from hearts_cli.repl.start import start_new
from hearts_cli.repl.table import Table, make_seats

pytestmark = pytest.mark.usefixtures("home")  # every test in its own save directory

# X5SJA007 with random CPUs (tests/golden/cases.py): rounds 1-6 played by `auto`; in round 7
# these cards take all 26, and after the 6♥ no points are left in the round (the golden case
# also asks for a hint at round 7's pass: it changes nothing, and weighing a pass is most of
# the CPU such a script takes)
MOON = {"code": "X5SJA007", "preset": "shooter-choice", "level": "random", "target": 100}
MOON_START = ["auto"] * 6 + ["pass 5C 8C QC", "KC", "KS", "JS", "9S", "6S", "AD", "4S",
                             "AH", "QH", "why JH", "JH", "7H", "score", "6H"]


def _script(lines: list[str], *, json_events: bool = False, lang: str = "en", play: bool = True,
            **game: object) -> tuple[int, str]:
    out = io.StringIO()
    status = start_new(NewGame.of(**game), stdin=io.StringIO("".join(x + "\n" for x in lines)),  # type: ignore[arg-type]
                       stdout=out, json_events=json_events, lang=lang, play=play)
    return status, out.getvalue()


def _events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# ---------------------------------------------------------------- the moon's question


@pytest.mark.parametrize("last", ["finish", "9D"])
def test_your_moon_waits_for_your_answer_however_the_last_card_was_played(home: Path, last: str):
    """`finish` plays the last card for you; the question it leads to is still yours to answer
    (it once took the default at once, without reading a line)."""
    status, text = _script([*MOON_START, last, "score"], json_events=True, **MOON)
    assert status == 0
    events = _events(text)
    kinds = [ev["event"] for ev in events]
    asked = max(i for i, k in enumerate(kinds) if k == "moon_choice")
    assert "round_end" not in kinds[asked:]  # the round waits for the choice...
    assert "score" in kinds[asked:]  # ...while `score` still works
    saved = read_record(home / "current.yaml").replay()
    assert saved.round.phase is Phase.MOON and saved.round.turn == 0  # and the save keeps it waiting


def test_the_moon_question_shows_no_empty_hand_line(home: Path):
    status, text = _script([*MOON_START, "9D", "table"], **MOON)
    assert status == 0
    asked = text.index("You shot the moon!")
    after = text[asked:].splitlines()
    assert any(line.startswith("Scores:") for line in after)  # the table was drawn at the question
    assert not any(line.strip() in ("Your hand:", "Tu mano:") for line in text.splitlines())


@pytest.mark.parametrize("lang, chose, scores", [
    ("en", "You shot the moon and chose -26 for you.", "End of round 7:"),
    ("es", "Has tirado a la luna y has elegido -26 para ti.", "Fin de la ronda 7:"),
])
def test_the_shooters_choice_is_told_before_the_rounds_scores(home: Path, lang: str, chose: str,
                                                               scores: str):
    status, text = _script([*MOON_START, "9D", "minus", "quit"], lang=lang, **MOON)
    assert status == 0
    assert chose in text and scores in text
    assert text.index(chose) < text.index(scores)


def test_a_moon_without_choice_is_told_before_the_scores_too():
    tb = Table(Game(Rules.from_spec(None), "JYR35SWD"), make_seats(4, 0, None), lang="en")
    lines = [plain(x) for x in Renderer(tb, plain=True).event(Event("round_end", {
        "round": 3, "taken": [0, 0, 0, 26], "scores": [26, 26, 26, 0], "totals": [30, 40, 26, 5],
        "shooter": 3, "moon": "others"}))]
    assert lines == ["East shot the moon: everybody else +26.",
                     "End of round 3: You 26 · West 26 · North 26 · East 0.",
                     "Totals: You 30 · West 40 · North 26 · East 5."]


# ---------------------------------------------------------------- scripts


@pytest.mark.parametrize("lang, word", [("en", "finish"), ("es", "terminar")])
def test_a_refused_command_in_a_script_does_not_end_the_game(home: Path, capsys: pytest.CaptureFixture[str],
                                                             lang: str, word: str):
    """`finish` while points are left is refused with its sentence; the lines after it are
    still read (the game goes on), and the script's exit status says a line was refused."""
    status, text = _script([word, "pass 2D 3D 10H", "score"], lang=lang, code="K7Q2MXA7")
    assert status == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1  # one sentence
    saved = read_record(home / "current.yaml").replay()
    assert saved.round.passes[0] is not None  # the pass after it was made
    assert ("Totals:" if lang == "en" else "Totales:") in text  # and `score` answered


def test_a_refused_move_in_a_script_still_stops_it(home: Path):
    status, _ = _script(["pass 2D 3D 10H", "3C", "score"], code="K7Q2MXA7")
    assert status == 2
    saved = read_record(home / "current.yaml").replay()
    assert saved.round.phase is Phase.PLAY and not saved.round.trick and not saved.round.tricks


# ---------------------------------------------------------------- nothing archived silently


@pytest.mark.parametrize("lang, said", [("en", "The unfinished game K7Q2MXA7 was archived"),
                                        ("es", "La partida sin terminar K7Q2MXA7 se ha archivado")])
@pytest.mark.parametrize("json_events", [False, True])
def test_new_says_where_the_unfinished_game_went(home: Path, lang: str, said: str, json_events: bool):
    assert _script([], code="K7Q2MXA7", play=False)[0] == 0
    status, text = _script([], code="1234567M", play=False, lang=lang, json_events=json_events)
    assert status == 0
    [left] = sorted((home / "archive").glob("*.yaml"))
    assert said in text and str(left) in text
    if json_events:
        info = [ev for ev in _events(text) if ev["event"] == "info" and ev["topic"] == "archived"]
        assert len(info) == 1 and str(left) in info[0]["text"]


def test_new_says_nothing_of_an_archive_when_there_was_no_game(home: Path):
    status, text = _script([], code="1234567M", play=False)
    assert status == 0 and "archived" not in text


# ---------------------------------------------------------------- cards


def _first_turn(code: str = "JYR35SWD", confirm: bool = True) -> Table:
    tb = Table(Game(Rules.from_spec(None), code), make_seats(4, 0, None), lang="en", confirm=confirm)
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(0)[-3:]))
    while tb.cpu_step():
        pass
    return tb


def test_the_only_legal_card_plays_on_its_first_entry():
    """JYR35SWD: South holds the 2♣ after the pass and must lead it; there is nothing to confirm."""
    tb = _first_turn()
    rd = tb.game.round
    assert rd.turn == 0 and list(rd.legal_cards()) == [Card("2C")]
    tb.handle("2c")
    assert not [ev for ev in tb.events if ev.kind == "confirm"]
    assert Card("2C") not in tb.game.round.hand(0)  # played


def test_a_card_among_several_legal_ones_still_asks_first():
    tb = _first_turn()
    tb.handle("2c")
    while tb.cpu_step():
        pass
    rd = tb.game.round
    while rd.turn != 0 or len(rd.legal_cards()) < 2:  # to a turn with a real choice
        if rd.turn == 0:
            tb.core.play(0, rd.legal_cards()[0], "person")
        while tb.cpu_step():
            pass
        rd = tb.game.round
    card = rd.legal_cards()[-1]
    tb.handle(str(card))
    assert [ev.data["card"] for ev in tb.events if ev.kind == "confirm"] == [card]
    assert card in tb.game.round.hand(0)


@pytest.mark.slow  # a two-deck round against Hard: two seconds
@pytest.mark.parametrize("lang", ["en", "es"])
def test_two_deck_confirmations_take_two_lines_at_most_and_why_tells_the_rest(lang: str):
    """Cancellation Hearts: what a card would do is said in one or two lines when it is entered
    once, as with one deck; `why` still gives every reason (the twin still out, a higher card).
    WDDA9XXC's round 1 has every kind: winning so far, cancelling, and behind the card winning
    the trick (certain to lose, or not yet), which stays within two lines even at 40 columns."""
    from hearts_cli.repl.layout import wrap

    tb = Table(Game(Rules.from_spec({"preset": "cancellation", "players": 6}), "WDDA9XXC"),
               make_seats(6, 0, None), lang=lang, confirm=True)
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(0)[-3:]))
    r = Renderer(tb, plain=True)
    r.width = 79
    confirmed = 0
    behind = {True: 0, False: 0}  # behind the card winning so far: it may still win, it cannot
    while not tb.game.over and len(tb.game.results) < 1:
        while tb.cpu_step():
            pass
        rd = tb.game.round
        if rd.phase is not Phase.PLAY or rd.turn != 0:
            break
        for card in rd.legal_cards() if len(rd.legal_cards()) > 1 else ():
            tb.handle(str(card))
            ev = tb.events[-1]
            assert ev.kind == "confirm"
            lines = [line for x in r.event(ev) for line in wrap(x, 79)]
            assert len(lines) <= 2, [plain(x) for x in lines]
            confirmed += 1
            effect = rd.why(card, 0).effect
            assert effect is not None
            if effect.pending and effect.so_far is False and not effect.cancelled:
                narrow = [line for x in r.event(ev) for line in wrap(x, 40)]
                assert len(narrow) <= 2, [plain(x) for x in narrow]
                assert effect.ahead[0].symbol in ev.data["text"]  # the card winning the trick
                behind[effect.wins is None] += 1
            tb.handle(f"why {card}")
            why = tb.events[-1].data["text"]
            assert why == rd.why(card, 0).message(lang)  # the whole explanation
            tb.person.cancel()
        tb.core.play(0, rd.legal_cards()[0], "person")
    assert confirmed > 20 and all(behind.values()), behind


# ---------------------------------------------------------------- Tab and Enter agree


def _completions(tb: Table, text: str) -> list[tuple[str, str]]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.completer import CardCompleter

    found = CardCompleter(tb, ascii=False).get_completions(Document(text), CompleteEvent())
    return [(c.text, c.display_meta_text) for c in found]


@pytest.mark.parametrize("typed", ["as", "AS", "pass as", "why as", "ah", "as de corazones", "pass qs as"])
def test_what_tab_offers_first_is_the_card_enter_would_read(typed: str):
    """HEARTS0N: South holds the A♠ and the A♥; `as` is the A♠ (ace of spades) to Enter, and
    it is also how `as de corazones` (the A♥ in Spanish) starts."""
    from hearts_cli.model.cards import parse_card

    tb = Table(Game(Rules.from_spec(None), "HEARTS0N"), make_seats(4, 0, None), lang="en")
    assert {Card("AS"), Card("AH")} <= set(tb.game.round.hand(0))
    offered = _completions(tb, typed)
    card = parse_card(typed.split(" ")[-1] if typed.startswith(("pass ", "why ")) else typed)
    assert offered and offered[0][0] == card.face()  # (written as the hand shows it)


def test_tab_offers_the_card_enter_would_read_even_when_it_is_not_in_hand():
    """QSPADE7B: West (the person's seat here) holds the A♥ but not the A♠: Tab on `as` says
    what Enter would say of the A♠ before it offers `as de corazones`."""
    tb = Table(Game(Rules.from_spec(None), "QSPADE7B"), make_seats(4, 1, None), lang="en")
    hand = tb.game.round.hand(1)
    assert Card("AH") in hand and Card("AS") not in hand
    offered = _completions(tb, "as")
    assert offered[0] == ("A♠", "You do not hold A♠.")
    assert ("A♥", "in hand") in offered or any(text == "A♥" for text, _ in offered)


# ---------------------------------------------------------------- the turn timer


def test_the_turn_timer_runs_from_the_start_of_the_decision_not_from_the_last_line(home: Path):
    """Typing `score` (or a card to confirm, or a typo) does not give the person a fresh timer:
    the deadline is the decision's, and only a move made starts another. (The clock is
    stood in for: nothing here waits.)"""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.session import Loop

    now = [1000.0]
    tb = Table(Game(Rules.from_spec(None), "JYR35SWD"), make_seats(4, 0, None), lang="en", confirm=True)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        loop = Loop(tb, plain=True, delay=0, turn_timer=30, key_within=None)
    loop.clock = lambda: now[0]
    first = loop.deadline(30)
    assert first == 1030.0
    for line in ("score", "hnit", "2H"):  # lines that make no move
        tb.handle(line)
        now[0] += 10
        assert loop.deadline(30) == first
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(0)[-3:]))
    while tb.cpu_step():
        pass
    assert loop.deadline(30) == now[0] + 30  # the next decision: its own 30 seconds


# ---------------------------------------------------------------- a shared table's prompt


def _shared(lang: str = "en") -> Table:
    """A seat as ``hearts join`` has it: its view is the one of its last decision, and what
    happened since is known from the events only (here the view is simply never updated)."""
    tb = Table(Game(Rules.from_spec(None), "JYR35SWD"), make_seats(4, 0, None), lang=lang)
    tb.local = False  # (as a RemoteTable's client: the view kept, the events told)
    return tb


@pytest.mark.parametrize("lang, wait, passes", [("en", "Waiting for", "Waiting for the passes"),
                                                ("es", "Esperando a", "Esperando los pases")])
def test_between_decisions_a_shared_table_prompt_names_whom_it_waits_for(lang: str, wait: str,
                                                                        passes: str):
    from hearts_cli.repl.prompt import prompt_message

    tb = _shared(lang)
    me = tb.me
    tb.event(Event("deal", {"round": 1, "direction": "left", "dealer": 3, "to": 1,
                            "hands": {me: list(tb.game.round.hand(me))}}))
    # the timer passed for you: the view still asks for the pass, the events say it is made
    tb.event(Event("pass", {"round": 1, "seat": me, "cards": list(tb.game.round.hand(me)[:3]), "to": 1,
                            "by": "timer"}))
    assert prompt_message(tb) == passes
    tb.event(Event("lead", {"round": 1, "seat": 2}))
    assert prompt_message(tb) == f"{wait} {tb.name(2)}"
    tb.event(Event("play", {"round": 1, "trick": 1, "seat": 2, "card": Card("2C"), "by": "player"}))
    assert prompt_message(tb) == f"{wait} {tb.name(3)}"
    for seat, card in ((3, "3C"), (0, "4C"), (1, "AC")):
        tb.event(Event("play", {"round": 1, "trick": 1, "seat": seat, "card": Card(card), "by": "cpu"}))
    tb.event(Event("trick", {"round": 1, "trick": 1, "leader": 2, "winner": 1, "points": 0, "kitty": [],
                             "plays": [{"seat": s, "card": Card(c)} for s, c in
                                       ((2, "2C"), (3, "3C"), (0, "4C"), (1, "AC"))]}))
    assert prompt_message(tb) == f"{wait} {tb.name(1)}"  # the trick's winner leads
    tb.event(Event("moon_choice", {"round": 1, "seat": 3, "choices": {}, "default": "others"}))
    assert prompt_message(tb) == f"{wait} {tb.name(3)}"
