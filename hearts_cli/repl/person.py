"""The person's side of a table: the moves they type, chosen and confirmed.

While passing, cards typed are chosen (again to drop one) until the pass is
made; a card to play is said first ("Q♠ wins the trick and takes 13 points")
and played when entered again; the shooter's choice is a word, or Enter for
the better one. Every refusal is one error event, worded from the engine's
verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.cards import Card, CardParseError, fold, parse_card, parse_card_list
from ..model.rules import Direction
from ..play.dealt import PassError, Phase
from ..play.events import Cancel, Confirm, Selection
from ..table.game import Refused
from .client import TableClient


def moon_word(text: str, value: int) -> str | None:
    """The shooter's choice a typed word names, in either language: ``minus``, ``menos``,
    ``-26`` (the shooter subtracts the moon) or ``others``, ``demas``, ``+26``; else None."""
    word = fold(text).replace(" ", "")
    if word in ("minus", "menos", "-", f"-{value}", f"\u2212{value}", "shooter_minus", "m"):
        return "shooter_minus"
    if word in ("others", "other", "otros", "demas", "losdemas", "+", f"+{value}", "o", "d"):
        return "others"
    return None


class Person:
    """The moves of the person at ``tb``: passing, playing (with confirmation), the moon."""

    def __init__(self, tb: TableClient):
        self.tb = tb

    # ------------------------------------------------------------ reading cards

    def parse(self, text: str) -> Card | None:
        """One card, or None (the error said)."""
        try:
            return parse_card(text)
        except CardParseError as e:
            self.bad_card(e)
            return None

    def bad_card(self, e: CardParseError) -> None:
        if e.suggestions:
            self.tb.error("bad_card_hint", text=e.text, cards=list(e.suggestions))
        else:
            self.tb.error("bad_card", text=e.text)

    def parse_many(self, text: str, quiet: bool = False) -> list[Card] | None:
        """One card (``dama de picas``) or several (``QS AS KS``, ``QS, AS``).

        ``quiet``: None for text that is no cards, without reporting an error."""
        try:
            return parse_card_list(text)
        except CardParseError as e:
            if not quiet:
                self.bad_card(e)  # names the whole phrase when it is written in words
            return None

    def cards_in_hand(self, text: str) -> list[Card] | None:
        """Cards typed to pass: all of them in the person's hand, or None (the error reported)."""
        cards = self.parse_many(text)
        if cards is None:
            return None
        hand = self.tb.view().hand
        for c in cards:
            if c not in hand:
                self.tb.error("not_in_hand", card=c)
                return None
        return cards

    # ------------------------------------------------------------ a card typed on its own

    def enter(self, text: str) -> None:
        """A card (or, while passing, cards) typed on its own."""
        tb = self.tb
        if tb.over:
            tb.error("game_over_cards")
        elif tb.view().phase is Phase.PASS:
            self.choose(text)
        else:
            card = self.parse(text)
            if card is not None:
                self.try_card(card)

    def choose(self, text: str) -> None:
        """Cards chosen to pass (or dropped, when chosen already)."""
        tb = self.tb
        cards = self.cards_in_hand(text)
        if cards is None:
            return
        for c in cards:
            if c in tb.selection:
                tb.selection.remove(c)
            else:
                tb.selection.append(c)
        # what changed is said (the selection event); the table is not drawn again for it
        tb.emit(Selection(cards=sorted(tb.selection), count=len(tb.selection), need=tb.rules.pass_count))

    def try_card(self, card: Card) -> None:
        """A card to play: refused with its rule, said first (to confirm), or played.

        The card is judged once, when it is entered: the confirmation, ``why`` and the play
        of a card entered again use that verdict (``tb.verdict``)."""
        tb = self.tb
        if tb.pending == card and tb.verdict is not None:  # entered again: confirmed, judged already
            self.play(card)
            return
        verdict = tb.why(card)
        if not verdict.legal:
            assert verdict.reason is not None
            tb.pending, tb.verdict = None, None
            tb.error(verdict.reason.detail or verdict.reason.code, verdict.message(tb.lang, tb.ascii))
            return
        if tb.confirm and len(tb.legal()) > 1:
            # (the only legal card has nothing to confirm: it plays at its first entry)
            tb.pending, tb.verdict = card, verdict
            effect = verdict.effect.brief(tb.lang, tb.ascii) if verdict.effect else ""  # (`why` says all)
            tb.emit(Confirm(card=card, text=tb.say("confirm_card", effect=effect)))
            return
        self.play(card)

    def cancel(self) -> bool:
        """Drop the chosen cards and the card waiting for confirmation; False: there were none."""
        tb = self.tb
        if not tb.selection and tb.pending is None:
            return False
        tb.selection = []
        tb.pending, tb.verdict = None, None
        tb.emit(Cancel(text=tb.say("cancelled")))
        return True

    # ------------------------------------------------------------ the pass

    def pass_cards(self, rest: str) -> None:
        """``pass`` (the cards chosen) or ``pass QS AS KS`` (these, or these added to them)."""
        tb = self.tb
        if tb.over:
            tb.error("game_over_cards")
            return
        view = tb.view()
        if view.phase is not Phase.PASS:
            tb.error("no_pass_round" if view.direction is Direction.NONE else "wrong_phase_play")
            return
        need = tb.rules.pass_count
        cards = self.cards_to_pass(rest, need) if rest else list(tb.selection)
        if cards is None:
            return
        if len(cards) != need:
            tb.error("pass_count", count=need, given=len(cards))
            return
        try:
            self.send_pass(cards)
        except PassError as e:
            tb.error(e.message_id, e.message(tb.lang, tb.ascii))

    def cards_to_pass(self, rest: str, need: int) -> list[Card] | None:
        """The cards ``pass CARDS`` passes; None when it passes nothing yet (said why)."""
        tb = self.tb
        cards = self.cards_in_hand(rest)
        if cards is None or len(cards) >= need:
            return cards
        # fewer than a whole pass: added to the cards already chosen, and passed
        # once that makes the number needed (`TS`, `JS`, then `pass KS`)
        chosen = tb.selection + [c for c in dict.fromkeys(cards) if c not in tb.selection]
        if len(chosen) > need:
            tb.error("pass_count", count=need, given=len(chosen))
            return None
        tb.selection = chosen
        if len(chosen) < need:
            tb.emit(Selection(cards=sorted(chosen), count=len(chosen), need=need))
            return None
        return list(chosen)

    # ------------------------------------------------------------ to the table

    def send_pass(self, cards: Sequence[Card]) -> None:
        try:
            self.tb.core.pass_cards(self.tb.me, cards, "person")
        except Refused as e:  # a shared table said no
            self.tb.error(e.code, e.message)

    def play(self, card: Card) -> None:
        tb = self.tb
        tb.pending, tb.verdict = None, None
        try:
            tb.core.play(tb.me, card, "person")
        except Refused as e:
            tb.error(e.code, e.message)

    def choose_moon(self, choice: str) -> None:
        tb = self.tb
        tb.selection = []
        tb.pending, tb.verdict = None, None
        try:
            tb.core.choose_moon(tb.me, choice, "person")
        except Refused as e:
            tb.error(e.code, e.message)
