"""Why the hint is what it is: one line, from what the engine knows first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.cards import Card
from .client import TableClient

if TYPE_CHECKING:  # the hint's weighing (the analysis) is imported when a hint is asked for
    from ..records.hint import Hint


def hint_text(tb: TableClient, hint: Hint, choice: Card | list[Card], reason: str | None) -> str:
    """The hint in words: the choice, how sure it is (its margin over the next choice,
    or "close"), or at a shared table the level it comes from; then what the engine
    knows of it, when it knows something."""
    kind = hint.kind
    if hint.level:
        head = tb.say(f"hint_{kind}_level", level=tb.say(f"level_{hint.level}"), card=choice, cards=choice)
    elif hint.margin is None or hint.runner_up is None:
        head = tb.say(f"hint_{kind}", card=choice, cards=choice)
    else:
        other: Card | tuple[Card, ...] = hint.runner_up if kind == "pass" else hint.runner_up[0]
        if hint.close:
            head = tb.say(f"hint_{kind}_close", card=choice, cards=choice, other=other)
        else:
            head = tb.say(f"hint_{kind}_margin", card=choice, cards=choice, other=other,
                          diff=f"{hint.margin:.1f}")
    return head + ("; " + reason if reason else ".")


def pass_reason(tb: TableClient, cards: list[Card]) -> str:
    """Why pass ``cards``: the Q♠, the high spades, a suit emptied, or high cards."""
    hand = tb.view().hand
    queen = Card(49)  # named as the table shows it (Q♠, or QS in plain text), not in words
    if queen in cards:
        return tb.say("hint_why_pass_queen", queen=queen)
    spades = [c for c in cards if c in (50, 51)]  # only the ones passed, so only ones held
    if spades:
        return tb.say("hint_why_pass_spade" if len(spades) == 1 else "hint_why_pass_spades", cards=spades,
                      queen=queen)
    for suit in range(4):
        held = [c for c in hand if c // 13 == suit]
        if held and all(c in cards for c in held):
            return tb.say("hint_why_pass_void", suit=suit)
    return tb.say("hint_why_pass_high")


def play_reason(tb: TableClient, card: Card) -> str | None:
    """One line on why ``card``: what the engine knows it does first, and when the outcome is
    uncertain the verdict itself (how likely it is to be covered), so it never contradicts `why`."""
    legal = tb.legal()
    if len(legal) == 1:
        return tb.say("hint_why_only")
    verdict = tb.why(card)
    eff = verdict.effect
    assert eff is not None  # the Hard player suggests legal cards only
    trick = tb.view().trick
    led = trick[0] // 13 if trick else None
    if led is not None and card // 13 != led:  # a discard never wins
        pts = tb.rules.points[card]
        return tb.say("hint_why_dump" if pts > 0 or card.rank >= 12 else "hint_why_discard")
    if eff.wins is False and eff.taker is None and eff.cover is not None:  # a lead below every card out
        return verdict.message(tb.lang, tb.ascii)
    if eff.wins is False:
        return tb.say("hint_why_duck")
    if eff.wins:
        others = [tb.why(c).effect for c in legal if c != card]
        if all(o is not None and o.wins for o in others):
            return tb.say("hint_why_forced")
        if eff.exact:
            if eff.points:
                return tb.say("hint_why_take_points", points=eff.points)
            return tb.say("hint_why_safe_win")
        return tb.say("hint_why_sure_win")
    if eff.covered is not None:  # uncertain: how likely it is to be covered, as the verdict says it
        return verdict.message(tb.lang, tb.ascii)
    return None  # (two decks: the margin says how sure the hint is)
