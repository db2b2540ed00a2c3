"""The JSON shapes of the answers that are not events: what ``why`` says of a card.

The events, the seat view and the error object are declared in
:mod:`hearts_cli.play.events`, once; this module holds the two shapes a verdict
writes (:meth:`~hearts_cli.play.verdicts.Verdict.to_json`), read by the type checker
and by the JSON Schema's maker (``tests/make_schema.py``); nothing imports it at
run time (building TypedDicts costs start-up: ``bench/startup.py``).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .events import CardText, ErrorBody

# ---------------------------------------------------------------- a verdict's effect (verdicts.Effect.to_json)


class EffectJson(TypedDict):
    """:meth:`Effect.to_json`: the first four keys always, the others when they apply; ``message``
    the sentence, where a verdict gives it (:meth:`Verdict.to_json`)."""

    wins: bool | None
    points: int | None
    exact: bool
    breaks_hearts: bool
    cancelled: NotRequired[list[CardText]]  # two decks: the cards cancelled, and the card that then wins
    by: NotRequired[CardText | None]
    fallback: NotRequired[bool]  # two decks, the last trick: every card of the suit led cancelled so far
    so_far: NotRequired[bool | None]  # two decks, cards still to come
    twin_out: NotRequired[bool]
    higher_out: NotRequired[bool]
    ahead: NotRequired[list[CardText]]
    stuck: NotRequired[CardText]  # two decks: a card ahead that no copy still out can cancel (it cannot win)
    message: NotRequired[str]


class VerdictJson(TypedDict):
    """The answer to ``why`` (beside ``ok``): ``reason`` when the card may not be played, else ``effect``."""

    card: CardText
    legal: bool
    reason: NotRequired[ErrorBody]
    effect: NotRequired[EffectJson | None]
