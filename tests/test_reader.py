"""The screen-reader mode (issue 26): text that only appends, cards in words, the table in
sentences, and `again` (`r`) that reads the last events once more.

Most tests give the game its lines through a pipe (in-process, Easy CPUs); one plays a whole
game in a pseudo-terminal and checks that nothing is ever redrawn, moved or erased.
"""

from __future__ import annotations

import io
import json
import re
import time

import pytest
from conftest import check_schema, run

from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.reader import spoken
from hearts_cli.repl.start import start_new

CODE = "JYR35SWD"  # South passes T♠ J♠ K♠ to West, receives A♣ T♥ Q♥ and leads the 2♣
PASS = "pass ten of spades, JS, K♠\n"  # every notation is read, as in any mode
# what a terminal draws with, and a screen reader cannot read: any escape sequence (colour,
# cursor movement, erasing, the toolbar's), a carriage return or backspace that writes over a line
REDRAWS = re.compile(r"\x1b|\r(?!\n)|\x08")


def said(lines: str, lang: str = "en", **options: object) -> str:
    """What the screen-reader mode says for the game of CODE when ``lines`` are typed."""
    out = io.StringIO()
    status = start_new(NewGame.of(code=CODE, level="easy"), lang=lang, screen_reader=True,
                       stdin=io.StringIO(lines), stdout=out, **options)  # type: ignore[arg-type]
    assert status == 0
    return out.getvalue()


def test_cards_are_said_in_words_in_both_languages():
    assert spoken("You play Q♠.", "en") == "You play queen of spades."
    assert spoken("Juegas Q♠.", "es") == "Juegas reina de picas."
    assert spoken("You received A♣, 10♥, 2♦ from East.", "en") == \
        "You received ace of clubs, ten of hearts, two of diamonds from East."
    assert spoken("West ♣ ♦ · North ♠", "en") == "West clubs diamonds, North spades"
    assert spoken("▶ North (Hard)", "en") == "North (Hard)"
    assert spoken("Q♠ wins the trick.", "es") == "Reina de picas wins the trick."  # a sentence's first word
    assert spoken("Game K7Q2MXA7, 10 points", "en") == "Game K7Q2MXA7, 10 points"  # no card there


def test_the_table_is_told_in_sentences_and_cards_in_words(home):
    text = said(PASS + "2c\nquit\n")
    assert not REDRAWS.search(text)
    assert not set("♣♦♥♠▶←→↑█") & set(text), text  # no glyph a screen reader would spell out
    assert "Round the table from your left: West (Easy), North (Easy), East (Easy)." in text
    assert "Your hand: clubs: two, seven; diamonds: three, four, queen; hearts: seven, eight, ace; " \
           "spades: two, eight, ten, jack, king." in text
    assert "You pass ten of spades, jack of spades, king of spades to West." in text
    assert "You received ace of clubs, king of diamonds, queen of hearts from East." in text
    assert "You can play: two of clubs." in text  # said, where the drawn table marks the cards
    assert "You play two of clubs." in text
    assert "On the table: West led two of diamonds, North ace of diamonds, East ten of diamonds." in text
    assert "You can play: three of diamonds, four of diamonds, queen of diamonds, king of diamonds." in text
    # the whole table once a round (its seats and scores), then only what each decision needs
    assert text.count("Round the table from your left") == 1
    assert text.count("Your hand:") == 3


def test_table_says_the_whole_table_again(home):
    text = said(PASS + "table\nquit\n", turn_timer=30)  # (a pipe is no clock to wait on: no timer)
    assert "s left" not in text
    assert text.count("Round the table from your left") == 2
    assert text.count("Scores: You 0, West 0, North 0, East 0.") == 2


def test_spanish_says_cards_in_spanish_words(home):
    text = said("pasar diez de picas, JS, KS\n2c\nreleer\nquit\n", lang="es")
    assert "Pasas diez de picas, jota de picas, rey de picas a Oeste." in text
    assert "Has recibido as de tréboles, rey de diamantes, reina de corazones de Este." in text
    assert "Tu mano: tréboles: dos, siete, as;" in text
    after = text.split("Otra vez, desde tu última jugada:")[1]
    assert after.lstrip().startswith("Juegas dos de tréboles.")


def test_again_and_r_read_the_events_since_the_last_move_once_more(home):
    text = said(PASS + "2c\nagain\nr\nquit\n")
    first = text.split("You play two of clubs.\n", 1)[1].split("Your card> ")[0]
    told = ["You play two of clubs."] + [line for line in first.splitlines()
                                         if line.startswith(("West", "North", "East"))]
    assert len(told) == 8  # (the rest of trick 1, its taker, and trick 2 so far)
    parts = text.split("Again, since your last move:\n")
    assert len(parts) == 3  # `again`, then `r`
    for part in parts[1:]:
        assert part.split("Your card> ")[0].splitlines() == told


def test_again_after_undo_reads_what_is_on_the_table_now(home):
    """Issue 33 §4: `again` after `undo` read the cards taken back as if still played. It reads
    the events that led to the position the person is back at, then the undo."""
    text = said(PASS + "2c\n3d\nundo\nagain\nquit\n")
    again = text.split("Again, since your last move:\n")[1].split("Your card> ")[0].splitlines()
    assert again[0] == "You play two of clubs."  # the move before the one taken back
    assert again[-4:-1] == ["West plays two of diamonds.", "North plays ace of diamonds.",
                            "East plays ten of diamonds."]  # trick 2 as it stands again
    assert not any("three of diamonds" in line for line in again[:-1]), again  # the card taken back
    assert again[-1].startswith("Taken back: your three of diamonds")
    text = said(PASS + "2c\nundo\nagain\nquit\n")
    again = text.split("Again, since your last move:\n")[1].split("Your card> ")[0].splitlines()
    assert not any("two of clubs" in line for line in again[:-1]), again
    assert again[-1].startswith("Taken back: your two of clubs")


def test_again_before_the_first_move_reads_the_game_from_its_start(home):
    text = said("again\nquit\n")
    assert "since your last move" not in text  # (there is none yet)
    again = text.split("Again, since the game was opened:\n")[1].split("Cards to pass> ")[0]
    assert again.splitlines() == ["Game JYR35SWD (quick, to 50).", "You play against West (Easy), North (Easy), "
                                  "East (Easy).", "Round 1. Passing left, to West."]


def test_again_in_the_line_by_line_mode_and_as_json(home):
    out = io.StringIO()
    start_new(NewGame.of(code=CODE, level="easy"), lang="en", stdin=io.StringIO(PASS + "2c\nagain\nquit\n"), stdout=out)
    text = out.getvalue()
    assert text.count("West plays 9♣.") == 2
    assert "Again, since your last move:\nYou play 2♣.\nWest plays 9♣." in text

    out = io.StringIO()
    start_new(NewGame.of(code=CODE, level="easy"),
              lang="en", json_events=True, stdin=io.StringIO(PASS + "2c\nagain\nquit\n"), stdout=out)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    # the events are not sent twice (a program would count them twice): one info holds them
    assert sum(1 for ev in events if ev["event"] == "play" and ev["seat"] == 1) == 2  # tricks 1 and 2
    (again,) = [ev for ev in events if ev["event"] == "info" and ev["topic"] == "again"
                and "\n" in ev["text"]]
    assert again["text"].startswith("You play 2♣.\nWest plays 9♣.")
    check_schema(again, "event")


def test_the_flag_turns_it_on_and_accessible_only_at_a_terminal(isolated):
    """``--screen-reader`` wherever the lines come from; ``ACCESSIBLE=1`` at a terminal (the
    pseudo-terminal game below), not for a script, whose bytes stay the batch mode's."""
    on = run("new", "--code", CODE, "--level", "easy", "--screen-reader", input="quit\n")
    assert on.exit_code == 0, on.stderr
    assert "Screen-reader mode" in on.stdout and "Your hand: clubs: two, seven;" in on.stdout
    script = run("new", "--code", CODE, "--level", "easy", input="quit\n", env={"ACCESSIBLE": "1"})
    assert "Screen-reader mode" not in script.stdout and "♣" in script.stdout
    resumed = run("play", "--screen-reader", input="quit\n")
    assert resumed.exit_code == 0, resumed.stderr
    assert "Welcome back" in resumed.stdout and "Your hand: clubs: two, seven;" in resumed.stdout
    dealt = run("new", "--code", CODE, "--no-play", "--screen-reader")
    assert "Your hand: clubs: two, seven;" in dealt.stdout and "Screen-reader mode" not in dealt.stdout
    # --json is for programs: it stays JSON
    as_json = run("new", "--code", CODE, "--json", input="quit\n", env={"ACCESSIBLE": "1"})
    assert all(line.startswith("{") for line in as_json.stdout.splitlines())


# ---------------------------------------------------------------- a whole game in a pseudo-terminal


@pytest.mark.slow  # a whole game in a pseudo-terminal
def test_a_whole_game_in_a_pseudo_terminal_only_appends(terms, home, monkeypatch):
    from test_pty import spawn

    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("auto_play: 0.2\n")  # the only card plays by itself, said first
    monkeypatch.setenv("ACCESSIBLE", "1")  # (the terminal's environment: the flag is tested above)
    term = spawn(terms, ["new", "--code", CODE, "--target", "1", "--level", "easy", "--no-confirm"], home,
                 rows=24, cols=80)
    raw = lambda: "".join(term.raw)  # noqa: E731

    def prompt(after: int, timeout: float = 60) -> str:
        """Wait for a prompt opened after ``after`` characters of output; its name."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            term.pump()
            m = re.search(r"(Cards to pass|Your card|new / replay-deal / quit)> $", raw()[after:])
            if m:
                return m.group(1)
            if term.eof:
                break
        raise AssertionError("no prompt" + term.dump())

    def typed(line: str) -> int:
        at = len(raw())
        term.send(line + "\r")
        return at

    assert prompt(0) == "Cards to pass"
    at = typed("pass ten of spades, jack of spades, king of spades")
    assert prompt(at) == "Your card"
    # the 2♣ leads: nothing typed, it plays by itself after the pause, as if entered
    assert "Two of clubs is the only card you can play: it plays by itself" in raw()[at:]
    term.wait_for(lambda _: "You play two of clubs." in raw()[at:])
    assert "Your card> two of clubs\r\nYou play two of clubs." in raw()[at:]
    assert prompt(raw().index("You play two of clubs.", at)) == "Your card"
    # the card to play, in words, from what the table says is playable
    playable = re.findall(r"You can play: (.*?)[,.]", raw()[at:])
    at = typed(playable[-1])  # a card in words (any notation is read)
    assert prompt(at) == "Your card"
    at = typed("r")
    assert prompt(at) == "Your card"
    assert "Again, since your last move:" in raw()[at:]
    at = typed("auto")  # the CPU plays the rest of the round: the game's end at a target of 1
    assert prompt(at) == "new / replay-deal / quit"
    text = raw()
    assert "Game over after 1 round." in text and "Round 1: You " in text
    assert "You play two of clubs." in text and "You pass ten of spades, jack of spades, king of spades" in text
    # nothing drawn again, moved or erased: no escape sequence at all, no toolbar, no glyphs
    assert not REDRAWS.search(text), repr(REDRAWS.search(text))
    assert "Ctrl-Z" not in text and "Tab: cards" not in text
    assert not set("♣♦♥♠▶█") & set(text)
    term.send("quit\r")
    term.child.expect(pexpect_eof())


def pexpect_eof():  # (pexpect is imported by test_pty, skipped where it is missing)
    import pexpect

    return pexpect.EOF


class _Seat:
    """stdin of `hearts join`, a person who is no terminal: passes, plays two cards, reads `again`,
    leaves. The lines are made from the shared table's own position."""

    def __init__(self, shared) -> None:
        self.shared, self.plays, self.again = shared, 2, True

    def isatty(self) -> bool:
        return False

    def readline(self, limit: int = -1) -> str:
        from hearts_cli.play.dealt import Phase

        rd = self.shared.game.round
        if rd.phase is Phase.PASS and rd.passes[0] is None:
            return "pass " + " ".join(str(c) for c in rd.hand(0)[-3:]) + "\n"
        if self.plays and rd.phase is Phase.PLAY and rd.turn == 0:
            self.plays -= 1
            return str(rd.legal_cards()[0]) + "\n"
        if self.again:
            self.again = False
            return "again\n"
        return ""  # the end of the input: the seat is left to the CPU


@pytest.mark.slow  # a shared table over a socket
def test_join_takes_the_seat_in_the_screen_reader_mode(monkeypatch, capsys, home):
    from conftest import HOST, serve_table

    from hearts_cli.cli import join
    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.table.invitations import invitation
    from hearts_cli.table.shared import SharedTable, make_seats

    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, "easy"), bot_threads=False,
                         delay=0)
    port = serve_table(shared)
    monkeypatch.setattr("sys.stdin", _Seat(shared))
    status = join.run_join(invitation(HOST, port, shared.seats[0].token), name="Ana", lang="en", plain=False,
                           as_json=False, screen_reader=True)
    text = capsys.readouterr().out
    assert status == 0
    assert "Screen-reader mode" in text and "You sit at seat 0 of 4" in text
    assert "Your hand: clubs: two, three, eight" in text and "You play two of clubs." in text
    assert "Again, since your last move:" in text
    assert not REDRAWS.search(text) and not set("♣♦♥♠") & set(text)


def test_again_at_the_prompt_toolkit_table_shows_the_events_without_the_cpus_pauses(monkeypatch):
    """`again` is a command of every mode: at the drawn table it shows the events once more, and
    never pauses as it did when they were played (the pauses are for following the play)."""
    from conftest import typed_session

    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.repl.session import Loop
    from hearts_cli.repl.table import Table, make_seats

    def played(keys: str) -> tuple[list[str], int]:
        shown: list[str] = []
        original = Loop.show
        monkeypatch.setattr(Loop, "show", lambda self, lines: (shown.extend(
            "".join(text for _, text in line) for line in lines), original(self, lines)))
        pauses = []
        tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, "easy"), lang="en", confirm=False)
        assert typed_session(tb, keys, delay=0.5, key_within=lambda s: pauses.append(s) or True) == 0
        return shown, len(pauses)

    shown, pauses = played("pass TS JS KS\r" + "2c\r" + "again\r" + "\x04")
    again = shown.index("Again, since your last move:")
    assert shown[again + 1:again + 3] == ["You play 2♣.", "West plays 9♣."]
    assert shown[again + 1:again + 9] == shown[shown.index("You play 2♣."):shown.index("You play 2♣.") + 8]
    assert pauses == played("pass TS JS KS\r" + "2c\r" + "\x04")[1]


def test_a_sentence_begins_with_a_capital_and_a_move_log_stays_as_written():
    from hearts_cli.repl.reader import capital, sentence

    assert sentence("← passing left, to West") == "← Passing left, to West."
    assert capital("chosen: 2♣") == "Chosen: 2♣"
    assert capital("# hearts move log") == "# hearts move log"  # a text to copy keeps its case
    assert capital("1. West 0") == "1. West 0"


@pytest.mark.slow  # a shared table, and `hearts join` in a pseudo-terminal
def test_join_at_a_terminal_says_the_news_as_it_comes_without_a_prompt_before_each_move(terms, home):
    """At a terminal the table's news comes while a line is awaited: it is said as it comes (the
    prompt's line ended first, never written over), and between the person's decisions no prompt
    is said before each seat's move."""
    from conftest import HOST, serve_table
    from test_pty import spawn

    from hearts_cli.model.rules import Rules
    from hearts_cli.play.game import Game
    from hearts_cli.table.invitations import invitation
    from hearts_cli.table.shared import SharedTable, make_seats

    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, "easy"), bot_threads=False,
                         delay=0.05)
    port = serve_table(shared)
    term = spawn(terms, ["join", invitation(HOST, port, shared.seats[0].token), "--screen-reader"], home)
    raw = lambda: "".join(term.raw)  # noqa: E731
    term.wait_for(lambda _: raw().endswith("Cards to pass> "))
    term.send("pass 8s 9s 10s\r")
    term.wait_for(lambda _: raw().endswith("Your card> "))
    term.send("2c\r")
    term.wait_for(lambda _: "Your turn (trick 2)" in raw() and raw().endswith("Your card> "))
    term.send("\x04")
    term.wait_for(lambda _: "You have left the table" in raw())
    text = raw()
    assert "You received jack of diamonds, queen of diamonds, king of spades from East." in text
    assert "You play two of clubs.\r\nWest plays king of clubs.\r\nNorth plays ten of clubs." in text
    assert "Waiting for" not in text and not REDRAWS.search(text)


def test_count_says_each_suits_cards_in_words(home):
    text = said(PASS + "2c\ncount\nquit\n")
    counted = text.split("Still out (neither in your hand nor played):\n")[1].splitlines()
    assert counted[:4] == ["Clubs (7): king, queen, jack, ten, five, four, three.",
                           "Diamonds (6): jack, nine, eight, seven, six, five.",
                           "Hearts (9): king, jack, ten, nine, six, five, four, three, two.",
                           "Spades (11): ace, king, queen, jack, ten, nine, seven, six, five, four, three."]
    es = said("pasar diez de picas, JS, KS\n2c\ncuenta\nquit\n", lang="es")
    assert "Tréboles (7): rey, reina, jota, diez, cinco, cuatro, tres.\n" in es


def test_a_trick_you_win_is_said_once(home):
    # South's ace of clubs takes trick 4; then South leads, and the trick is not told again
    text = said(PASS + "2c\nkd\n8s\nac\nquit\n")
    assert text.count("You take trick 4, with no points.") == 1
    assert "Last trick" not in text
    assert "You took it" not in text
    # asked for (`table`, `last`), it is said
    text = said(PASS + "2c\nkd\n8s\nac\ntable\nlast\nquit\n")
    assert text.count("Last trick: East led three of clubs, You ace of clubs") == 2


def test_no_back_quote_is_read_and_every_sentence_ends_with_a_full_stop(home):
    """A whole game (the CPU plays each round), with the help, the count and the scores: what a
    screen reader hears has no back-quotes, and each line is a sentence with its full stop (or
    a line that a list follows), but for the commands and the file named to copy."""
    text = said("help\ncount\nscore\n" + "auto\n" * 8 + "quit\n")
    assert "Game over" in text
    assert "`" not in text
    assert "Type new for another game, replay-deal to replay this deal, or quit." in text
    places = text.split("You win!\n")[1].splitlines()[:4]  # the places in sentences, not in columns
    assert [re.fullmatch(r"(\d)\. (You|West|North|East), \d+ points\.", line) is not None
            for line in places] == [True] * 4, places
    lines = [line.split("> ")[-1] for line in text.splitlines()]
    unended = [line for line in lines if line and not line.endswith((".", ":", "!", "?"))]
    assert unended == ["hearts replay " + CODE, unended[1]], unended
    assert unended[1].startswith("File: ")
    text = said("ts\njs\nks\nah\nquit\n")  # the cards chosen to pass: a sentence each
    assert "Cards to pass> Chosen: ten of spades, choose 2 more.\n" in text
    assert "Chosen: ten of spades, jack of spades, king of spades, type pass to pass them.\n" in text
    assert "too many: pass exactly 3.\n" in text
    es = said("ayuda\nquit\n", lang="es")
    assert "`" not in es
    assert "luego pasar, o pasar QS AS KS de una vez." in es
