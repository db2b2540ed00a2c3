"""The REPL's command registry: each word a person may type calls one command, in either
language, and completion offers cards exactly after the commands a card follows."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from hearts_cli.model.cards import CardParseError, fold, parse_card
from hearts_cli.model.rules import Rules
from hearts_cli.play.game import Game
from hearts_cli.repl.commands import COMMAND_NAMES, COMMANDS, REGISTRY, WHOLE_LINE, find
from hearts_cli.repl.completer import CardCompleter
from hearts_cli.repl.table import Table, make_seats

CODE = "K7Q2MXA7"


def _table(lang: str) -> Table:
    return Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang=lang)


def test_no_word_calls_two_commands():
    """A name added for one command must not silently take another's."""
    seen: dict[str, str] = {}
    for cmd in REGISTRY:
        words = {fold(w) for w in (*cmd.names.values(), *cmd.aliases)}
        words |= {cmd.phrase[0]} if cmd.phrase else set()
        for word in words:
            assert seen.setdefault(word, cmd.key) == cmd.key, (word, seen[word], cmd.key)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_command_has_a_name_in_each_language_that_calls_it(lang):
    assert set(COMMAND_NAMES[lang]) == {cmd.key for cmd in REGISTRY}
    for cmd in REGISTRY:
        found = find(cmd.names[lang].upper(), "  x ")  # case and spaces do not matter
        assert found is not None and found[0] is cmd and found[1] == "x"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_q_alone_quits_and_every_card_it_starts_is_still_read(lang):
    """Many programs quit on `q` (issue 26 §14): it used to answer "did you mean Q♠, Q♥...".
    A rank alone is no card, so the line `q` is free; `q s`, `q de picas` stay the Q♠."""
    for word, key in WHOLE_LINE.items():
        assert word not in COMMANDS and key in COMMAND_NAMES[lang]  # it takes no other command's word
        with pytest.raises(CardParseError):
            parse_card(word)
    tb = _table(lang)
    for line in ("q", " Q "):
        assert tb.handle(line) == "quit"
    for line in ("q s", "Q ♠", "q de picas", "q of spades"):
        assert find(*line.partition(" ")[::2]) is None and str(parse_card(line)) == "QS"
        assert tb.handle(line) is None  # a card chosen or refused, the game goes on
    assert [c.text for c in CardCompleter(tb, ascii=False).get_completions(Document("q "), CompleteEvent())]


def test_por_que_is_one_command_of_two_words():
    assert find("por", "qué QS")[0].key == "why"
    assert find("por", "qué QS")[1] == "QS"
    assert find("por", "QS")[1] == "QS"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_completion_offers_cards_only_after_a_command_a_card_follows(lang):
    tb = _table(lang)
    hand = {c.face() for c in tb.game.round.hand(tb.me)}
    for cmd in REGISTRY:
        offered = {c.text for c in CardCompleter(tb, ascii=False).get_completions(
            Document(cmd.names[lang] + " "), CompleteEvent())}
        # `why QS` and `pass QS AS KS` take cards; no other command does
        assert offered == (hand if cmd.key in ("why", "pass") else set()), cmd.key


@pytest.mark.parametrize("lang", ["en", "es"])
def test_new_asks_before_it_leaves_an_unfinished_game(lang):
    """`new` (and `replay-deal`) used to leave the game at once (issue 26 §9): with confirmations
    on it asks; the command again, Enter or yes leaves; anything else plays on. A game over, or
    --no-confirm (scripts), leaves at once."""
    said: list[str] = []
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang=lang,
               emit=lambda ev: said.append(getattr(ev, "text", "")))
    new, replay = COMMAND_NAMES[lang]["new"], COMMAND_NAMES[lang]["replay"]
    assert tb.handle(new) is None
    assert f"hearts play --resume {CODE}" in said[-1]
    assert tb.handle("score") is None and tb.handle(new) is None  # another line: the question is gone
    assert tb.handle(new) == "new"
    assert tb.handle(replay) is None and tb.handle("") == "replay"
    assert tb.handle(new) is None and tb.handle("sí" if lang == "es" else "yes") == "new"
    assert tb.handle(new) is None and tb.handle(replay) is None  # the other command asks again
    scripted = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang=lang, confirm=False)
    assert scripted.handle(new) == "new"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_score_after_the_game_is_over_says_no_round_so_far(lang):
    """Issue 33 §2: once the game is over, `score` gives the totals and the rounds, not "this
    round so far" (the last round is over too)."""
    said: list = []
    tb = Table(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 0, "random"), lang=lang,
               confirm=False, emit=said.append)
    game = tb.own.game
    while not tb.over:
        if tb.cpu_step():
            continue
        if game.round.phase.value == "pass":
            tb.handle("pass " + " ".join(str(c) for c in tb.view().hand[:3]))
        else:
            tb.handle(str(game.round.legal_cards()[0]))
    said.clear()
    tb.handle("score")
    [score] = [ev for ev in said if ev.kind == "score"]
    assert not any(score.data["points"]) and score.data["rounds"]  # (the log says no round line then)
