"""The game loop of `hearts play` / `hearts new`: batch mode, JSON events, the table, the completer,
the prompt-toolkit session (through a pipe), and determinism across a save and a resume."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import pytest
from conftest import JsonPlayer, archived, driven_session, typed_session, whole_game

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.events import Event
from hearts_cli.play.game import Game
from hearts_cli.records.record_reader import read_record
from hearts_cli.repl.hints import hint_text, pass_reason
from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.render import Renderer, plain
from hearts_cli.repl.start import resume, start_new
from hearts_cli.repl.table import Table, make_seats

CODE = "JYR35SWD"  # South holds the 2♣ after the first pass (see the tests that rely on it)


pytestmark = pytest.mark.usefixtures("home")  # every test in its own save directory


class Player(JsonPlayer):
    """Plays the person's seat through JSON batch mode (:class:`conftest.JsonPlayer`); stops
    (end of input) after ``stop_after`` moves."""

    def __init__(self, stop_after: int | None = None):
        super().__init__()
        self.stop_after = stop_after
        self.lines: list[str] = []

    def readline(self, size: int = -1) -> str:
        if self.stop_after is not None and len(self.lines) >= self.stop_after:
            return ""
        line = self.next_move()
        if line is None:
            return ""
        self.lines.append(line)
        return line + "\n"


# ---------------------------------------------------------------- whole games


@pytest.mark.slow
def test_resumed_game_makes_the_same_moves_as_an_uninterrupted_one(home, tmp_path, monkeypatch):
    whole = whole_game(CODE)  # conftest: the same moves, played through to the end once
    assert whole.events[-1]["event"] == "game_end"
    uninterrupted = whole.record

    # the same person's moves, but the program stops mid-round and is started again
    part1 = Player(stop_after=9)  # the pass and eight cards: in the middle of round 1
    assert start_new(NewGame.of(code=CODE), json_events=True, stdin=part1, stdout=part1) == 0
    assert part1.events[-1]["event"] == "saved"
    saved = read_record(home / "current.yaml").replay()
    assert not saved.over and len(saved.rounds) == 1 and saved.round.tricks
    part2 = Player()
    assert resume(json_events=True, stdin=part2, stdout=part2) == 0
    assert part2.events[1]["event"] == "resume"
    assert part1.lines + part2.lines == whole.lines
    [second] = archived(home)
    assert second.read_text() == uninterrupted
    assert not (home / "current.yaml").exists()


@pytest.mark.slow
def test_scripted_game_is_byte_identical_on_two_runs_and_json_has_every_event(home, tmp_path):
    player = whole_game(CODE)  # conftest: the game through --json, played once per process
    # --json: one object per event, every kind of event a game has
    kinds = {ev["event"] for ev in player.events}
    assert {"start", "deal", "pass", "receive", "play", "trick", "hearts_broken", "round_end",
            "game_end", "view"} <= kinds
    # the CPUs' passes stay hidden; the person's is shown with its cards
    passes = [ev for ev in player.events if ev["event"] == "pass"]
    assert all(ev["cards"] is None for ev in passes if ev["seat"] != 0)
    assert all(len(ev["cards"]) == 3 for ev in passes if ev["seat"] == 0)
    end = player.events[-1]
    assert end["event"] == "game_end" and max(end["totals"]) >= 50 and end["winners"]

    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(player.lines) + "\n")
    outputs = []
    for run, hashseed in enumerate(("0", "12345")):
        env = dict(os.environ, HEARTS_HOME=str(tmp_path / f"run{run}"), PYTHONHASHSEED=hashseed,
                   LANG="C.UTF-8")
        env.pop("NO_COLOR", None)
        with open(moves, "rb") as fh:
            proc = subprocess.run([sys.executable, "-m", "hearts_cli", "new", "--code", CODE],
                                  stdin=fh, capture_output=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stderr == b""
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    text = outputs[0].decode()
    assert "Game over after" in text
    assert "\x1b[" not in text  # no colour, no cursor movement: plain output
    assert "Cards to pass>" not in text and "Your card>" not in text  # no prompt decoration


def test_json_mode_reports_an_error_event_and_exits_2(home, capsys):
    out = io.StringIO()
    status = start_new(NewGame.of(code=CODE), json_events=True, stdin=io.StringIO("pass 2C 7C XZ\n"), stdout=out)
    assert status == 2
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert events[-1]["event"] == "error"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "XZ" in err and "Traceback" not in err


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, words", [
    ({"code": "K7Q2MXA8"}, "last character"),
    ({"code": "ABC"}, "8 characters"),
    ({"preset": "nope"}, "Unknown preset"),
    ({"level": "godlike"}, "godlike"),
    ({"players": 12}, "3 to 6"),
    ({"players": 9}, "--preset cancellation"),
    ({"seat": 4}, "seat 4"),
])
def test_bad_options_are_one_hearts_error_before_anything_is_touched(home, kwargs, words):
    """Checked once (NewGame.of), raised for the command line's one catch to say."""
    from hearts_cli.model.errors import HeartsError

    with pytest.raises(HeartsError) as e:
        start_new(NewGame.of(**kwargs), stdin=io.StringIO(""), stdout=io.StringIO())
    assert words in e.value.message("en")
    assert not (home / "current.yaml").exists()


def test_an_illegal_card_in_a_script_stops_with_status_2_and_the_reason(home, capsys):
    out = io.StringIO()
    # South leads the first trick and must lead the 2♣
    status = start_new(NewGame.of(code=CODE), stdin=io.StringIO("pass TS JS KS\nAH\n"), stdout=out)
    assert status == 2
    err = capsys.readouterr().err
    assert err == "The first trick must be led with 2♣.\n"
    # the game is saved as it stood: `hearts play` picks it up
    game = read_record(home / "current.yaml").replay()
    assert game.round.phase is Phase.PLAY and not game.round.tricks


def test_end_of_input_saves_and_exits_0(home):
    out = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO("pass TS JS KS\n"), stdout=out) == 0
    assert out.getvalue().rstrip().endswith("Game saved: `hearts play` continues it where you left it.")
    game = read_record(home / "current.yaml").replay()
    assert game.round.passes[0] == (Card("TS"), Card("JS"), Card("KS"))


# ---------------------------------------------------------------- what a person reads


def _table(players: int = 4, lang: str = "en", code: str = CODE, **kw) -> Table:
    rules = Rules.from_spec({"preset": "reference", "players": players}) if players != 4 else Rules.from_spec(None)
    return Table(Game(rules, code), make_seats(players, 0, None), lang=lang, **kw)


def test_plain_batch_output_shows_the_table(home):
    out = io.StringIO()
    script = "pass TS JS KS\nscore\nwhy AH\n2C\n"
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO(script), stdout=out) == 0
    text = out.getvalue()
    assert "← passing left, to West · choose 3 more" in text
    assert "Your hand: ♣ 2 7   ♦ 3 4 Q   ♥ 7 8 A   ♠ 2 8 10 J K" in text
    assert "You pass 10♠, J♠, K♠ to West." in text
    assert "You received A♣, K♦, Q♥ from East." in text
    # the playable cards marked with a star: only the 2♣ may lead the first trick
    assert "Your hand: ♣ 2* 7 A   ♦ 3 4 Q" in text
    assert "The first trick must be led with 2♣." in text  # the answer to `why AH`
    assert "You play 2♣." in text
    assert "Totals: You 0 · West 0 · North 0 · East 0." in text
    for line in text.splitlines():
        assert len(line) <= 80, line


def _marked_hand(lines: list[str], lang: str, cols: int) -> tuple[set[Card], set[Card]]:
    """The cards of a plain hand (the last lines of the table, maybe several) and those marked playable."""
    title = "Tu mano:" if lang == "es" else "Your hand:"
    at = next(k for k, line in enumerate(lines) if line.startswith(title))
    assert all(len(line) <= cols for line in lines[at:]), lines[at:]
    text = " ".join(lines[at:])
    assert "(" not in text and ")" not in text, text
    words = text.removeprefix(title).split()
    cards, marked, suit = set(), set(), ""
    for word in words:
        if word in "♣♦♥♠":
            suit = "CDHS"["♣♦♥♠".index(word)]
            continue
        rank = word.removesuffix("*")
        card = Card(("T" if rank == "10" else rank) + suit)
        cards.add(card)
        if word.endswith("*"):
            marked.add(card)
    return cards, marked


@pytest.mark.parametrize("lang", ["en", "es"])
def test_without_colour_the_hand_marks_exactly_the_playable_cards(lang):
    """NO_COLOR (plain mode): a star on each legal card, no parentheses, none marked when all may be played."""
    tb = _table(lang=lang)
    _to_first_turn(tb)
    seen_some, seen_all = False, False
    while not tb.over and tb.round_number == 1:
        if tb.waiting_for_person() and tb.view().phase is Phase.PLAY:
            legal = set(tb.legal())
            for cols in (40, 80):
                lines = [plain(x) for x in Renderer(tb, plain=True, width=cols).table()]
                cards, marked = _marked_hand(lines, lang, cols)
                assert cards == set(tb.view().hand)
                if legal == cards:
                    seen_all = True
                    assert marked == set(), lines
                else:
                    seen_some = True
                    assert marked == legal, lines
            tb.handle(str(tb.legal()[-1]))
        elif not tb.cpu_step():
            break
    assert seen_some and seen_all


@pytest.mark.parametrize("lang", ["en", "es"])
def test_without_colour_a_long_suit_of_marked_cards_still_fits_40_columns(lang):
    """Twelve spades, eleven playable on the clubs led: the marked suit goes on over two lines."""
    hands = [[r + "S" for r in "3456789TJQKA"] + ["AH"], [r + "C" for r in "23456789TJQKA"],
             [r + "D" for r in "23456789TJQKA"], ["2S"] + [r + "H" for r in "23456789TJQK"]]
    tb = Table(Game.at_round(Rules.from_spec(None), None, 3, hands=hands), make_seats(4, 0, None), lang=lang)
    while tb.cpu_step():
        pass
    assert tb.waiting_for_person() and len(tb.legal()) == 11  # no Q♠, no A♥ on the first trick
    for cols in (40, 80):
        lines = [plain(x) for x in Renderer(tb, plain=True, width=cols).table()]
        cards, marked = _marked_hand(lines, lang, cols)
        assert cards == set(tb.view().hand) and marked == set(tb.legal())


def test_spanish_output_and_card_names_in_either_language(home):
    out = io.StringIO()
    script = "pass diez de picas, jota de picas, king of spades\ndos de tréboles\n"
    assert start_new(NewGame.of(code=CODE), lang="es", stdin=io.StringIO(script), stdout=out) == 0
    text = out.getvalue()
    assert "← pasas a la izquierda, a Oeste" in text
    assert "Tu mano: ♣ 2 7" in text
    assert "Pasas 10♠, J♠, K♠ a Oeste." in text
    assert "Juegas 2♣." in text
    assert "Juegas contra Oeste (Fácil), Norte (Normal), Este (Difícil)." in text


def test_pass_one_card_at_a_time_toggles_and_needs_exactly_three(home, capsys):
    out = io.StringIO()
    status = start_new(NewGame.of(code=CODE), stdin=io.StringIO("TS\nJS\nTS\npass\n"), stdout=out)
    assert status == 2
    assert "chosen: J♠ · choose 2 more" in out.getvalue()
    assert capsys.readouterr().err == "Pass exactly 3 cards (you chose 1).\n"
    out = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO("TS\nJS\nKS\npass\n"), stdout=out) == 0
    assert "chosen: 10♠, J♠, K♠ · type `pass` to pass them" in out.getvalue()
    assert "You pass 10♠, J♠, K♠ to West." in out.getvalue()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_table_fits_80_columns_and_names_every_seat(players):
    tb = _table(players)
    r = Renderer(tb, plain=True)
    lines = [plain(line) for line in r.table()]
    assert all(len(line) <= 80 for line in lines), lines
    text = "\n".join(lines)
    for seat in range(1, players):
        assert tb.label(seat) in text
    names = [tb.name(s) for s in range(players)]
    assert names[0] == "You" and names[1] == "West" and names[-1] == "East"
    assert len(set(names)) == players


def test_seat_names_follow_the_person_seat():
    rules = Rules.from_spec(None)
    tb = Table(Game(rules, CODE), make_seats(4, 2, None), lang="es")
    assert tb.me == 2
    assert [tb.name(s) for s in range(4)] == ["Norte", "Este", "Tú", "Oeste"]
    # left is the next seat in play order: seat 2 passes left to seat 3
    assert tb.name(rules.pass_direction(0).receiver(2, 4)) == "Oeste"


def test_round_end_announces_a_moon_plainly():
    tb = _table()
    r = Renderer(tb, plain=True)
    lines = [plain(x) for x in r.event(Event("round_end", {
        "round": 3, "taken": [0, 0, 0, 26], "scores": [26, 26, 26, 0], "totals": [30, 40, 26, 5],
        "shooter": 3, "moon": "others"}))]
    assert lines == ["East shot the moon: everybody else +26.",
                     "End of round 3: You 26 · West 26 · North 26 · East 0.",
                     "Totals: You 30 · West 40 · North 26 · East 5."]


def test_game_end_shares_first_place_and_draws_the_table_and_chart():
    tb = _table()
    r = Renderer(tb, plain=True)
    lines = [plain(x) for x in r.event(Event("game_end", {
        "code": CODE, "winners": [1, 2], "totals": [52, 20, 20, 40],
        "standings": [{"place": 1, "seat": 1, "total": 20}, {"place": 1, "seat": 2, "total": 20},
                      {"place": 3, "seat": 3, "total": 40}, {"place": 4, "seat": 0, "total": 52}],
        "rounds": [[26, 0, 13, 13], [26, 20, 7, 27]]}))]
    text = "\n".join(lines)
    assert "West, North share first place." in text
    assert "  1. West    20  (shared)" in text and "  1. North   20  (shared)" in text
    assert "Round   You  West  North  East" in text
    assert "Total    52    20     20    40" in text
    assert "North █" in text  # the chart
    assert "`replay-deal`" in text


def test_no_pass_round_says_so():
    tb = _table()
    r = Renderer(tb, plain=True)
    assert [plain(x) for x in r.event(Event("deal", {"round": 4, "direction": "none", "to": None,
                                                     "dealer": 3, "hands": {}}))] == [
        "Round 4 · There is no passing this round."]


def test_ascii_fallback_for_the_suits(home, monkeypatch):
    monkeypatch.setenv("HEARTS_ASCII", "1")
    out = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO("pass TS JS KS\n"), stdout=out) == 0
    text = out.getvalue()
    assert "<- passing left, to West" in text
    # the ten is 10 as on any other screen (T is still read: the pass above typed TS)
    assert "Your hand: C 2 7   D 3 4 Q   H 7 8 A   S 2 8 10 J K" in text
    assert "You pass 10S, JS, KS to West." in text
    assert not any(ch in text for ch in "♣♦♥♠←↑→▶█")


# ---------------------------------------------------------------- the table's answers


def _to_first_turn(tb: Table) -> None:
    tb.handle("pass TS JS KS")
    while tb.cpu_step():
        pass
    assert tb.waiting_for_person()


def test_confirmation_says_what_the_card_would_do_and_the_second_entry_plays():
    tb = _table(confirm=True)
    _to_first_turn(tb)
    rd = tb.game.round
    assert rd.turn == 0 and not rd.trick
    tb.handle("2c")  # the only legal card: nothing to confirm, it plays at its first entry
    assert any(ev.kind == "play" and ev.data == {"round": 1, "trick": 1, "seat": 0, "card": Card("2C"), "by": "you"}
               for ev in tb.events)
    while tb.cpu_step():
        pass
    tb.handle("3d")
    assert tb.events[-1].kind == "confirm"
    assert tb.events[-1].data["text"] == ("3♦ does not win the trick: North takes it, with no points. "
                                          "Press Enter to play it.")
    assert len(rd.hand(0)) == 12  # not played yet
    tb.handle("AH")  # an illegal card drops the selection and says why
    assert tb.events[-1].kind == "error" and tb.pending is None
    tb.handle("")  # nothing waits: Enter alone plays nothing
    assert len(rd.hand(0)) == 12
    tb.handle("three of diamonds")
    tb.handle("3D")  # entered again: played
    assert any(ev.kind == "play" and ev.data == {"round": 1, "trick": 2, "seat": 0, "card": Card("3D"), "by": "you"}
               for ev in tb.events)


def test_enter_alone_plays_the_card_waiting_for_confirmation():
    """Issue 26 §11: confirming meant typing the card again; Enter on an empty prompt did nothing."""
    tb = _table(confirm=True)
    _to_first_turn(tb)
    rd = tb.game.round
    tb.handle("2c")
    while tb.cpu_step():
        pass
    tb.handle("3d")
    assert tb.events[-1].kind == "confirm" and len(rd.hand(0)) == 12
    tb.handle("   ")  # Enter (spaces are nothing typed)
    assert any(ev.kind == "play" and ev.data == {"round": 1, "trick": 2, "seat": 0, "card": Card("3D"), "by": "you"}
               for ev in tb.events)
    assert tb.pending is None and len(rd.hand(0)) == 11


@pytest.mark.slow  # hints weighed at full budget: two seconds
def test_hint_is_the_analysis_best_choice_says_how_sure_and_is_stable():
    from hearts_cli.records.hint import hint_for

    tb = _table()
    view = tb.game.round.view(0)
    tb.handle("hint")
    ev = tb.events[-1]
    assert ev.kind == "hint" and len(ev.data["cards"]) == 3
    # the analysis's best pass for this seat, at the analysis's seed
    h = hint_for(view, CODE)
    assert ev.data["cards"] == sorted(h.best) and set(ev.data["cards"]) <= set(view.hand)
    names = ", ".join(c.symbol for c in ev.data["cards"])
    text = ev.data["text"]
    assert text.count("\n") == 0 and "safest" not in text
    if h.close:
        assert text.startswith(f"Hint: close: pass {names} or ")
    else:
        assert text.startswith(f"Hint: pass {names} (about {h.margin:.1f} points better than passing ")
    tb.handle("hint")  # asked again: the same answer
    assert tb.events[-1].data == ev.data
    assert tb.game.round.passes[0] is None  # a hint only advises
    _to_first_turn(tb)
    tb.handle("hint")
    assert tb.events[-1].data["text"] == "Hint: play 2♣; it is your only legal card."


def test_replay_analyze_by_default_and_the_hint_agree_on_a_close_call():
    """Issue 18 §2: a hint and `hearts replay --analyze` never disagree. AQAHZ40D, cutthroat (no
    pass): East leads the 2♣ and South holds 4♣ and 7♣. Weighed with 40 playouts (the analysis's
    old default) the 4♣ looked best; the hint says 7♣, by 0.9. By default the analysis weighs
    with the hint's own budget: the same best card, by the same margin."""
    from conftest import run

    from hearts_cli.play.round import Round
    from hearts_cli.records.hint import hint_for

    result = run("replay", "--code", "AQAHZ40D", "--preset", "cutthroat", "--moves", "2C 4C", "--analyze",
                 "--seat", "0", "--json")
    assert result.exit_code == 0, result.stderr
    [decision] = [e for e in map(json.loads, result.stdout.splitlines()) if e["event"] == "decision"]
    rd = Round.deal(Rules.from_spec("cutthroat"), "AQAHZ40D", 0)
    rd.play("2C")
    h = hint_for(rd.view(0), "AQAHZ40D")
    assert decision["best"] == [str(c) for c in h.best] == ["7C"]
    assert decision["loss"] == round(h.margin, 2) and not h.close


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_issues_hint_names_the_king_and_its_margin_over_the_queen(lang):
    # issue 18: WDDA9XXC, round 4, trick 2: North leads 10♠, East plays 9♠, South holds
    # Q♠ K♠; the hint said "play Q♠; by the Hard player's count it is the safest choice"
    from hearts_cli.play.round import Round
    from hearts_cli.records.hint import hint_for

    rd = Round.deal(Rules.from_spec(None), "WDDA9XXC", 3)
    for c in ["2C", "3C", "4C", "AC", "TS", "9S"]:
        rd.play(c)
    h = hint_for(rd.view(0), "WDDA9XXC")
    assert h.best == (Card("KS"),) and h.runner_up == (Card("QS"),) and not h.close
    assert h == hint_for(rd.view(0), "WDDA9XXC")  # stable
    tb = _table(lang=lang)
    text = hint_text(tb, h, Card("KS"), None)
    assert text == {"en": f"Hint: play K♠ (about {h.margin:.1f} points better than Q♠).",
                    "es": f"Pista: juega K♠ (unos {h.margin:.1f} puntos mejor que Q♠)."}[lang]
    close = h._replace(margin=0.2)
    assert hint_text(tb, close, Card("KS"), None) == {"en": "Hint: close: K♠ or Q♠.",
                                                      "es": "Pista: está reñido: K♠ o Q♠."}[lang]
    shared = h._replace(runner_up=None, margin=None, level="normal")
    assert hint_text(tb, shared, Card("KS"), None) == {
        "en": "Hint from the Normal player: play K♠.", "es": "Pista del jugador Normal: juega K♠."}[lang]


def test_finish_is_refused_while_points_are_left_and_tricks_lists_them():
    tb = _table()
    _to_first_turn(tb)
    tb.handle("finish")
    assert tb.events[-1].kind == "error" and "points" in tb.events[-1].data["message"]
    tb.confirm = False
    tb.handle("2C")
    while tb.cpu_step():
        pass
    tb.handle("tricks")
    ev = tb.events[-1]
    assert ev.kind == "tricks" and len(ev.data["tricks"]) == 1
    text = "\n".join(plain(x) for x in Renderer(tb, plain=True).event(ev))
    assert text.startswith(" 1. You led 2♣, West ")


def test_auto_plays_the_rest_of_the_round_for_the_person():
    tb = _table()
    tb.handle("auto")
    while tb.cpu_step():
        pass
    assert len(tb.game.results) == 1
    assert tb.game.round.phase is Phase.PASS  # the next round waits for the person again
    assert any(ev.kind == "play" and ev.data["by"] == "auto" for ev in tb.events)


# ---------------------------------------------------------------- tab completion


def test_completion_offers_playable_cards_first_and_the_reason_for_the_others():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.completer import CardCompleter

    tb = _table()
    _to_first_turn(tb)
    comp = CardCompleter(tb, ascii=False)
    got = [(c.text, c.display_meta_text) for c in comp.get_completions(Document(""), CompleteEvent())]
    assert got[0] == ("2♣", "playable")  # on the line as the hand shows it (issue 33 §4.5)
    assert len(got) == 13
    assert all(meta == "The first trick must be led with 2♣." for _, meta in got[1:])
    # a prefix narrows the cards; commands complete too
    got = [c.text for c in comp.get_completions(Document("q"), CompleteEvent())]
    assert got == ["Q♦", "Q♥", "quit"]
    got = [c.text for c in comp.get_completions(Document("why K"), CompleteEvent())]
    assert got == ["K♦"]  # the one king in hand: East passed the K♦, the K♠ went to West
    got = [c.text for c in comp.get_completions(Document("hi"), CompleteEvent())]
    assert got == ["hint"]


def test_a_crash_in_the_completer_never_kills_the_session():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.completer import CardCompleter

    tb = _table()
    tb.own.game = None  # type: ignore[assignment]  # (every question to the table now fails)
    assert list(CardCompleter(tb, ascii=False).get_completions(Document(""), CompleteEvent())) == []


# ---------------------------------------------------------------- the prompt-toolkit session


def test_session_confirm_cancel_and_ctrl_d_saves(home):
    from hearts_cli.store.saves import Store

    store = Store()
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", confirm=True,
               store=store)
    keys = "pass TS JS KS\r" + "2c\r" + "3d\r" + "\x03" + "3d\r" + "3d\r" + "\x04"
    assert typed_session(tb, keys) == 0
    kinds = [ev.kind for ev in tb.events]
    assert "cancel" in kinds  # Ctrl-C dropped the first selection
    plays = [ev for ev in tb.events if ev.kind == "play" and ev.data["seat"] == 0]
    assert [ev.data["card"] for ev in plays] == [Card("2C"), Card("3D")]  # (the 2♣ had no choice)
    assert kinds[-1] == "saved"
    saved = read_record(home / "current.yaml").replay()
    assert saved.round.tricks or saved.round.trick  # the 2♣ is on the table
    assert Card("2C") not in saved.round.hand(0)


def test_session_turn_timer_lets_the_normal_cpu_play(home):
    tb = _table()

    def until_the_timer_plays(inp) -> None:  # then Ctrl-D (the watchdog bounds the wait)
        while not any(ev.kind == "pass" and ev.data.get("by") == "timer" for ev in tb.events):
            time.sleep(0.05)

    assert driven_session(tb, until_the_timer_plays, timeout=30, turn_timer=1) == 0
    ev = next(ev for ev in tb.events if ev.kind == "pass" and ev.data["seat"] == 0)
    assert ev.data["by"] == "timer"
    text = plain(Renderer(tb, plain=True).event(ev)[0])
    assert text.startswith("Time ran out: the Normal CPU passes ")


def test_a_word_that_is_no_card_says_so_with_suggestions(home, capsys):
    out = io.StringIO()
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO("pass TS JS KS\nxyz\n"), stdout=out) == 2
    assert capsys.readouterr().err == "'xyz' is not a card or a command; `help` lists the commands.\n"
    assert start_new(NewGame.of(code=CODE),
                     stdin=io.StringIO("pass TS JS KS\nqueen of spadez\n"), stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("'queen of spadez' is not a card; did you mean Q♠")


# ---------------------------------------------------------------- QA fixes


def _reasons(tb: Table, *ids: str) -> set[str]:
    return {tb.say(i, points=p) for i in ids for p in range(27)}


@pytest.mark.slow
def test_a_hint_reason_never_contradicts_what_the_engine_knows():
    # GC489SKH, following the hints: South leads 9♦ at trick 5 and 4♠ at trick 11, low cards
    # that certainly win (the reason used to say "a low lead is unlikely to win the trick")
    tb = Table(Game(Rules.from_spec(None), "GC489SKH"), make_seats(4, 0, None), lang="en", confirm=False)
    wins = _reasons(tb, "hint_why_forced", "hint_why_safe_win", "hint_why_take_points", "hint_why_sure_win")
    loses = _reasons(tb, "hint_why_dump", "hint_why_discard", "hint_why_duck")
    only = tb.say("hint_why_only")
    sure_leads = 0
    while not tb.game.results:
        while tb.cpu_step():
            pass
        tb.handle("hint")
        ev = tb.events[-1]
        if "cards" in ev.data:
            tb.handle("pass " + " ".join(map(str, ev.data["cards"])))
            continue
        rd = tb.game.round
        card = ev.data["card"]
        eff = rd.why(card, 0).effect
        text = ev.data["text"]
        reason = text.split("; ", 1)[1] if "; " in text else None
        # an uncertain card (and a lead below every card out) gets the verdict itself (issue 33)
        verdict = rd.why(card, 0).message("en")
        allowed = wins if eff.wins else (loses | {verdict}) if eff.wins is False else {verdict}
        assert reason in allowed | {only}, (card, eff, reason)
        if not rd.trick and eff.wins and reason != only:
            sure_leads += 1
        tb.handle(str(card))
    assert sure_leads >= 2  # the case QA found is exercised


def test_a_pass_hint_names_only_the_spades_in_the_pass():
    for lang, other in (("en", "A♠"), ("es", "el as")):
        tb = _table(lang=lang)
        reason = pass_reason(tb, [Card("KS"), Card("2D"), Card("3D")])
        assert "K♠" in reason and other not in reason, reason
        both = pass_reason(tb, [Card("KS"), Card("AS"), Card("3D")])
        assert "A♠" in both and "K♠" in both


@pytest.mark.parametrize("lang, ascii, queen", [("en", False, "Q♠"), ("es", False, "Q♠"), ("en", True, "QS")])
def test_a_pass_hint_names_the_queen_of_spades_as_the_table_shows_it(lang, ascii, queen):
    """Issue 33 §4: the pass hint said "the queen of spades" where the table and the hint's own
    cards say Q♠ (QS in plain text): a player matches the card by how it is drawn."""
    tb = _table(lang=lang)
    tb.ascii = ascii
    for cards in ([Card("QS"), Card("2D"), Card("3D")], [Card("KS"), Card("2D"), Card("3D")],
                  [Card("KS"), Card("AS"), Card("3D")]):
        reason = pass_reason(tb, cards)
        assert queen in reason and "queen" not in reason and "dama" not in reason, reason


def test_the_pass_arrow_points_where_the_receiver_is_drawn():
    from hearts_cli.model.rules import Direction

    tb = _table()
    r = Renderer(tb, plain=True)
    # West is drawn on the left, North at the top, East on the right
    assert [r.arrow(d) for d in (Direction.LEFT, Direction.ACROSS, Direction.RIGHT)] == ["←", "↑", "→"]
    assert plain(r.situation()).startswith("← passing left, to West")
    deal = Event("deal", {"round": 3, "direction": "across", "to": 2, "dealer": 2, "hands": {}})
    assert [plain(x) for x in r.event(deal)] == ["Round 3 · ↑ passing across, to North"]
    tb.ascii = True
    assert [r.arrow(d) for d in (Direction.LEFT, Direction.ACROSS, Direction.RIGHT)] == ["<-", "^", "->"]


@pytest.mark.parametrize("lang, typed, said", [
    ("en", "hnit", "'hnit' is not a card or a command; did you mean hint?"),
    ("en", "pas", "'pas' is not a card or a command; did you mean pass?"),
    ("en", "scroe", "'scroe' is not a card or a command; did you mean score?"),
    ("en", "tabel", "'tabel' is not a card or a command; did you mean table?"),
    ("en", "rplay", "'rplay' is not a card or a command; did you mean replay-deal?"),
    ("en", "xyz", "'xyz' is not a card or a command; `help` lists the commands."),
    ("es", "psita", "«psita» no es una carta ni una orden; ¿quizá pista?"),
    ("es", "hnit", "«hnit» no es una carta ni una orden; ¿quizá pista?"),
])
def test_a_mistyped_command_is_called_neither_card_nor_command(lang, typed, said):
    tb = _table(lang=lang)
    tb.handle(typed)
    assert tb.failed and tb.events[-1].data["message"] == said
    assert not tb.selection


def test_card_words_still_read_as_cards_and_card_typos_suggest_cards():
    tb = _table()
    tb.handle("rey de picas")  # "rey" looks like "replay", but the line is a card
    assert not tb.failed and tb.selection == [Card("KS")]
    tb = _table()
    _to_first_turn(tb)
    tb.handle("quen of spades")
    assert tb.events[-1].data["message"].startswith("'quen of spades' is not a card; did you mean Q♠")


def test_spanish_help_status_and_prompts_name_the_spanish_commands(home):
    tb = _table(lang="es")
    tb.handle("ayuda")
    text = tb.events[-1].data["text"]
    for word in ("por-que CARTA", "pista", "puntos", "bazas", "terminar", "nueva", "repetir", "mesa",
                 "salir", "`pasar`"):
        assert word in text, word
    assert "hint," not in text and "replay-deal" not in text
    tb.handle("TS")
    tb.handle("JS")
    tb.handle("KS")
    assert "escribe `pasar` para pasarlas" in plain(Renderer(tb, plain=True).situation())
    assert tb.say("prompt_over") == "nueva / repetir / salir"
    assert "`nueva`" in tb.say("after_game") and "`terminar`" in tb.say("no_points_offer")
    tb.handle("pass")  # the English command still works
    assert tb.game.round.passes[0] is not None
    assert "table" in _table().say("help_text")  # and English help lists `table`


def test_completion_offers_the_commands_of_the_display_language():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.completer import CardCompleter

    def words(tb: Table, text: str) -> list[str]:
        return [c.text for c in CardCompleter(tb, ascii=False).get_completions(Document(text), CompleteEvent())
                if not c.text[0].isdigit() and len(c.text) > 2]

    assert words(_table(lang="es"), "pa") == ["pasar"]
    assert words(_table(lang="en"), "pa") == ["pass"]
    assert words(_table(lang="es"), "hi") == ["hint"]  # none in Spanish: the English one


def test_long_lines_wrap_at_word_boundaries_and_paths_stay_whole():
    from hearts_cli.repl.render import shorten, wrap

    tb = _table(6)
    r = Renderer(tb, plain=False)
    start = r.event(Event("start", {"schema": 2, "code": CODE, "preset": "reference",
                                    "rules": {"preset": "reference"}, "target": 100, "players": 6,
                                    "you": 0, "seats": []}))
    for line in start:
        rows = [plain(x) for x in wrap(line, 79)]
        assert all(len(x) <= 79 for x in rows), rows
        assert " ".join(rows).split() == plain(line).split()  # no word cut in two
    assert any(len(wrap(line, 79)) > 1 for line in start)
    path = "/tmp/a folder with spaces/" + "x" * 90 + "/20240101-" + CODE + ".yaml"
    note = r.archived(tb.say("archived_at", code=CODE), path)
    shown = [plain(x) for line in note for x in wrap(line, 79)]
    assert "  hearts replay " + CODE in shown and "File: " + path in shown  # each on a line of its own, whole
    status = tb.say("hint_why_pass_void", suit=0) * 4
    short = shorten(status, 40, 2, "…")
    assert len(short.split("\n")) == 2 and short.endswith("…")
    assert all(len(x) <= 40 for x in short.split("\n"))
    assert short[:-1].split()[-1] in status.split()  # cut between words


def test_black_suits_use_the_terminals_own_colour():
    from prompt_toolkit.styles import default_ui_style, merge_styles

    from hearts_cli.repl.style import STYLE

    style = merge_styles([default_ui_style(), STYLE])  # what print_formatted_text uses
    tb = _table()
    _to_first_turn(tb)
    frags = [f for line in Renderer(tb, plain=False).hand() for f in line]
    clubs = next(s for s, text in frags if text == "♣")
    hearts = next(s for s, text in frags if text == "♥")
    assert style.get_attrs_for_style_str(clubs).color == ""  # default foreground, not #000000
    assert style.get_attrs_for_style_str(hearts).color == "ansired"
    dimmed = next(s for s, text in frags if text == "7" and s != clubs)
    assert style.get_attrs_for_style_str(dimmed).color == "ansibrightblack"


def test_resuming_during_the_pass_says_so():
    tb = _table()
    r = Renderer(tb, plain=True)
    tb.announce_start(resumed=True)
    assert plain(r.event(tb.events[-1])[0]) == "Welcome back: the pass of round 1; choose the cards to pass."


def test_pass_with_fewer_cards_adds_them_to_the_chosen_ones(home, capsys):
    tb = _table()
    tb.handle("TS")
    tb.handle("JS")
    tb.handle("pass KS")  # the third card: the pass is made
    assert tb.game.round.passes[0] is not None and not tb.failed
    assert sorted(tb.game.round.passes[0]) == [Card("TS"), Card("JS"), Card("KS")]
    tb = _table()
    tb.handle("pass TS")
    assert not tb.failed and tb.selection == [Card("TS")] and tb.game.round.passes[0] is None
    tb.handle("pass JS KS QD")  # a whole pass replaces the selection
    assert sorted(tb.game.round.passes[0]) == [Card("QD"), Card("JS"), Card("KS")]
    tb = _table()
    tb.handle("TS")
    tb.handle("JS")
    tb.handle("pass KS QD")  # four: refused, the selection kept
    assert tb.failed and tb.events[-1].data["message"] == "Pass exactly 3 cards (you chose 4)."
    assert tb.selection == [Card("TS"), Card("JS")]


@pytest.mark.parametrize("me", [0, 1, 2, 3])
def test_cpu_levels_and_score_lists_follow_the_places_not_the_seat_numbers(me):
    """Easy on your left, Normal across, Hard on your right, whatever seat you take;
    scores read from you round the table; the record names your seat South."""
    seats = make_seats(4, me, None)
    tb = Table(Game(Rules.from_spec(None), CODE), seats, lang="en")
    by_place = {tb.name(s): seats[s].level for s in range(4) if s != me}
    assert by_place == {"West": "easy", "North": "normal", "East": "hard"}
    assert seats[me].kind == "human" and seats[me].name == "South"
    line = Renderer(tb, plain=True).names([10 * s for s in range(4)])
    assert line.split(" · ")[0] == f"You {10 * me}"
    assert [part.split()[0] for part in line.split(" · ")] == ["You", "West", "North", "East"]


def test_a_game_left_for_another_is_archived_once_and_named_as_unfinished(home):
    from hearts_cli.store.saves import Store

    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang="en", store=Store())
    tb.handle("pass TS JS KS")
    tb.archive_unfinished()  # the game loop does this first, to say where the game went
    [left] = archived(home)
    assert tb.archived == left and tb.archived_unfinished == CODE
    assert left.name.endswith(f"{CODE}-unfinished.yaml")
    tb.restart(same_deal=False)  # and then starts the next one: no second copy
    assert archived(home) == [left] and tb.game.code != CODE
    assert read_record(left).replay().round.passes[0] is not None  # the pass was kept


@pytest.mark.parametrize("lang, words", [("en", ("Cards to pass", "Waiting for the passes", "Waiting for",
                                                 "Your card")),
                                         ("es", ("Cartas para pasar", "Esperando los pases", "Esperando a",
                                                 "Tu carta"))])
def test_the_prompt_asks_for_a_decision_only_when_the_seat_has_one(lang, words):
    """At a shared table the prompt stays up while the others play: between your decisions it
    names whom the table waits for instead of asking for a card."""
    from hearts_cli.repl.prompt import prompt_message

    ask_pass, wait_passes, wait, ask_card = words
    tb = _table(lang=lang)
    game = tb.game
    assert prompt_message(tb) == ask_pass
    game.push_pass(game.round.hand(0)[:3], 0)
    assert prompt_message(tb) == wait_passes
    for s in (1, 2, 3):
        game.push_pass(game.round.hand(s)[:3], s)
    rnd = game.round
    assert rnd.phase is Phase.PLAY
    while rnd.turn != 0:
        assert prompt_message(tb) == f"{wait} {tb.name(rnd.turn)}"
        game.push(rnd.legal_cards()[0])
    assert prompt_message(tb) == ask_card


def test_the_hand_is_shown_in_the_order_chosen_and_each_suit_in_its_own_colour():
    """Issue 26: `sort:` orders the hand (the four suit letters, or `alternate` colours; `high`
    first or `low`), in the drawn table and in the screen-reader mode alike; `deck_colors: four`
    gives clubs and diamonds their own colours, and every suit keeps its symbol (never told by
    colour alone)."""
    from hearts_cli.model.cards import HandOrder, hand_order
    from hearts_cli.repl.reader import SpokenRenderer
    from hearts_cli.repl.style import table_style

    assert hand_order("alternate high") == HandOrder((0, 2, 3, 1), True)
    assert hand_order("shdc") == HandOrder((3, 2, 1, 0), False)
    for bad in ("", "CDH", "CCDH", "alternate sideways", 3, "CDHS low high"):
        assert hand_order(bad) is None
    game = Game(Rules.from_spec(None), "K7Q2MXA7")  # South: ♣ 2 3 8 9 Q A, ♦ 2 3, ♥ 7 10, ♠ 8 9 10
    tb = Table(game, make_seats(4, 0, None), lang="en", hand_order=hand_order("SHDC high"))
    [line] = [plain(x) for x in Renderer(tb, plain=True).table() if plain(x).startswith("Your hand")]
    assert line == "Your hand: ♠ 10 9 8   ♥ 10 7   ♦ 3 2   ♣ A Q 9 8 3 2"
    said = " ".join(plain(x) for x in SpokenRenderer(tb).hand())
    assert said.index("spades") < said.index("hearts") < said.index("diamonds") < said.index("clubs")
    coloured = [frag for x in Renderer(tb, plain=False).table() if plain(x).startswith("Your hand") for frag in x]
    assert ("class:suit-clubs", "♣") in coloured and ("class:suit-diamonds", "♦") in coloured
    two, four = table_style("two"), table_style("four")
    colour = {name: (two.get_attrs_for_style_str(f"class:suit-{name}").color,
                     four.get_attrs_for_style_str(f"class:suit-{name}").color)
              for name in ("clubs", "diamonds", "hearts", "spades")}
    assert colour["hearts"] == ("ansired", "ansired") and colour["diamonds"] == ("ansired", "ansiblue")
    assert colour["clubs"][1] == "ansigreen" and colour["spades"][0] == colour["spades"][1]
    assert len({c for _, c in colour.values()}) == 4  # four colours, one a suit


@pytest.mark.parametrize("ascii", [False, True])
def test_cards_go_on_the_line_and_into_the_pass_as_the_hand_shows_them(ascii, home):
    """Issue 33 §4.5: Tab and Left/Right put "TC" on the line where the hand shows 10♣, and the
    cards chosen to pass were listed in the cards' own order, not the hand's (``sort:``)."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.model.cards import HandOrder, parse_card
    from hearts_cli.repl.completer import CardCompleter
    from hearts_cli.repl.key_bindings import picks

    order = HandOrder((3, 2, 1, 0), high=True)  # sort: SHDC high
    tb = _table(ascii=ascii, hand_order=order)
    hand = tb.game.round.hand(tb.me)
    shown = [c for _, cards in order.arrange(hand) for c in cards]
    faces = [c.face(ascii) for c in shown]
    assert picks(tb) == faces  # Left and Right: the hand's order, its way of writing a card
    offered = [c.text for c in CardCompleter(tb, ascii=ascii).get_completions(Document(""), CompleteEvent())]
    assert sorted(offered) == sorted(faces) and all(str(parse_card(x)) in map(str, hand) for x in offered)
    ten = next((c for c in hand if c.face().startswith("10")), None)
    if ten is not None:
        assert ten.face(ascii) in offered and str(ten) not in offered  # 10♣ (10C), never TC
    # the cards chosen to pass, lowest first, are said in the hand's order
    chosen = [shown[-1], shown[0], shown[len(shown) // 2]]
    for c in chosen:
        tb.handle(c.face(ascii))
    in_order = [c for c in shown if c in chosen]
    said = ", ".join(c.face(ascii) for c in in_order)
    r = Renderer(tb, plain=True)
    assert said in plain(r.event(tb.events[-1])[0])  # the selection
    assert said in plain(r.situation())  # the table's line
    tb.handle("pass")
    [mine] = [ev for ev in tb.events if ev.kind == "pass" and ev.data.get("cards")]
    assert said in plain(r.event(mine)[0])
