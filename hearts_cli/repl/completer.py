"""Tab completion at the prompt: a pure completer, read from the table's position only.

Cards in hand come first when playable, the others with the rule that stops
them (``display_meta``); commands complete in the display language, or the
other one when none fits. A failure inside never reaches the session.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..model.cards import Card, CardParseError, card_phrases, fold, parse_card
from ..play.dealt import Phase
from .client import TableClient
from .commands import CARD_COMMANDS, COMMANDS, command_words

COMMAND_WORDS_FOLDED = frozenset(COMMANDS)


class CardCompleter(Completer):
    """Cards in hand (playable first; the others with the rule that stops them) and commands."""

    def __init__(self, table: TableClient, ascii: bool):
        self.table = table
        self.ascii = ascii

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        try:
            yield from self._completions(document)
        except Exception:
            return

    def _completions(self, document: Document) -> Iterable[Completion]:
        tb = self.table
        text = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        before = text[: len(text) - len(word)].strip()
        words = text.split()
        first = fold(words[0]) if words else ""
        command = bool(words) and (len(words) > 1 or text.endswith(" ")) and first in CARD_COMMANDS
        if before and not command and first in COMMAND_WORDS_FOLDED:
            return  # a command that takes no card
        if not tb.over and tb.view().phase is Phase.MOON:
            if not before:  # the shooter's choice: its two words
                yield from self._moon_words(word)
            return
        if not tb.over:
            tail = words[1:] if command else words
            if text.endswith(" ") and tail:
                tail = tail + [""]
            yield from self._cards(tail)
        if not before and fold(word):
            yield from self._commands(word)

    def _moon_words(self, word: str) -> Iterable[Completion]:
        for name in (self.table.say("moon_word_minus"), self.table.say("moon_word_others")):
            if name.startswith(fold(word)):
                yield Completion(name, start_position=-len(word))

    def _cards(self, tail: list[str]) -> Iterable[Completion]:
        """The card being written: the last one, two or three words (`queen of`, `as de`), in
        either language; the longest ending that starts some card's name."""
        cards = self.card_choices()
        phrase, found = "", []
        for size in (3, 2, 1):
            if size > len(tail):
                continue
            phrase = " ".join(tail[-size:])
            key = fold(phrase) + (" " if phrase.endswith(" ") and fold(phrase) else "")
            found = [(c, m) for c, m in cards if any(f.startswith(key) for f in card_phrases(c))]
            if found:
                break
        if not tail:
            phrase, found = "", cards
        else:
            found = self._read_first(phrase, cards, found)
        for card, meta in found:
            # on the line as the hand shows it ("10♣", not "TC"): it reads back as the same card
            yield Completion(card.face(self.ascii), start_position=-len(phrase), display=card.face(self.ascii),
                             display_meta=meta)

    def _read_first(self, typed: str, cards: list[tuple[Card, str]],
                    found: list[tuple[Card, str]]) -> list[tuple[Card, str]]:
        """What Enter would read first: ``as`` is the A♠ before it is ``as de corazones`` (even
        when the A♠ is not in hand: then with the sentence Enter would answer)."""
        try:
            card = parse_card(typed.strip())
        except CardParseError:
            return found
        held = [(c, m) for c, m in cards if c == card] or [(card, self.table.say("not_in_hand", card=card))]
        return held + [(c, m) for c, m in found if c != card]

    def _commands(self, word: str) -> Iterable[Completion]:
        """The display language's commands; the other language's when none of those fits."""
        key = fold(word)
        own, other = command_words(self.table.lang)
        found = [cmd for cmd in own if cmd.startswith(key)] or [cmd for cmd in other if cmd.startswith(key)]
        for cmd in found:
            yield Completion(cmd, start_position=-len(word))

    def card_choices(self) -> list[tuple[Card, str]]:
        """The cards in hand, each with what the menu says of it: playable first."""
        tb = self.table
        view = tb.view()
        hand = view.hand
        if view.phase is Phase.PASS:
            return [(c, tb.say("meta_chosen") if c in tb.selection else tb.say("meta_in_hand"))
                    for c in hand]
        legal = set(tb.legal())
        good = [(c, tb.say("meta_playable")) for c in hand if c in legal]
        bad = [(c, tb.why(c).message(tb.lang, tb.ascii)) for c in hand if c not in legal]
        return good + bad
