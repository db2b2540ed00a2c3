"""Why the hint is what it is: one line, from what the engine knows first."""

from __future__ import annotations

from ..model.cards import Card
from .client import TableClient


def pass_reason(tb: TableClient, cards: list[Card]) -> str:
    """Why pass ``cards``: the Q♠, the high spades, a suit emptied, or high cards."""
    rd = tb.game.round
    hand = rd.hand(tb.me)
    if 49 in cards:
        return tb.say("hint_why_pass_queen")
    spades = [c for c in cards if c in (50, 51)]  # only the ones passed, so only ones held
    if spades:
        return tb.say("hint_why_pass_spade" if len(spades) == 1 else "hint_why_pass_spades", cards=spades)
    for suit in range(4):
        held = [c for c in hand if c // 13 == suit]
        if held and all(c in cards for c in held):
            return tb.say("hint_why_pass_void", suit=suit)
    return tb.say("hint_why_pass_high")


def play_reason(tb: TableClient, card: Card) -> str:
    """One line on why ``card``: what the engine knows it does first, rank guesses only
    when the outcome is uncertain, so the reason never contradicts `why`."""
    rd = tb.game.round
    legal = rd.legal_cards()
    if len(legal) == 1:
        return tb.say("hint_why_only")
    eff = rd.why(card, tb.me).effect
    assert eff is not None  # the Hard player suggests legal cards only
    led = rd.trick[0] // 13 if rd.trick else None
    if led is not None and card // 13 != led:  # a discard never wins
        pts = tb.game.rules.points[card]
        return tb.say("hint_why_dump" if pts > 0 or card.rank >= 12 else "hint_why_discard")
    if eff.wins is False:
        return tb.say("hint_why_duck")
    if eff.wins:
        others = [rd.why(c, tb.me).effect for c in legal if c != card]
        if all(o is not None and o.wins for o in others):
            return tb.say("hint_why_forced")
        if eff.exact:
            if eff.points:
                return tb.say("hint_why_take_points", points=eff.points)
            return tb.say("hint_why_safe_win")
        return tb.say("hint_why_sure_win")
    # uncertain: the engine cannot tell, so a rough guess from the rank
    if led is None:
        return tb.say("hint_why_low_lead" if card.rank <= 7 else "hint_why_lead")
    return tb.say("hint_why_chance")
