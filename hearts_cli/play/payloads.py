"""The JSON shapes inside the events, the error object, and what ``why`` says of a card.

The events and the seat view are declared in :mod:`hearts_cli.play.events`, once,
as classes; the shapes their fields hold (a seat of ``start``, a play of a trick...),
the one error object (:class:`ErrorBody`) and the two shapes a verdict writes
(:meth:`~hearts_cli.play.verdicts.Verdict.to_json`) are declared here, once, as
TypedDicts, read by the type checker and by the JSON Schema's maker
(``tests/make_schema.py``); so are the requests the engine and the table server read
(one TypedDict a command, :data:`REQUESTS`). Nothing imports this module at run time but the tests:
building TypedDicts costs every command start-up (``bench/startup.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ..base.jsonvalue import JsonValue
from ..model.cards import Card
from ..model.rules import Direction, Ties

# A card as text in JSON ("QS", "TD"): a ``str`` to the type checker, the schema's card
CardText = str
# A message's parameters (``reason_params`` of a ``decision``): values as the catalog takes
# them, cards as cards; JSON has ``"QS"``, and the schema an object
MessageParams = dict[str, object]

# ---------------------------------------------------------------- the closed sets of words
# A field that holds one of a few words is a ``str`` to the type checker and an ``enum`` in the
# schema: ``Annotated[str, WORDS]``, WORDS an enumeration of the model or a tuple of the words
# (tests/test_schema.py holds each tuple equal to what the code says).

PhaseName = Annotated[str, ("pass", "play", "moon", "over")]  # play.dealt.Phase
DirectionName = Annotated[str, Direction]
# who made a move: you, another person (player), the CPU (cpu), the CPU for you (auto, timer, away)
MoverName = Annotated[str, ("you", "player", "cpu", "auto", "timer", "away")]
MoonChoiceName = Annotated[str, ("others", "shooter_minus")]  # how a moon scores (play.dealt.MOON_CHOICES)
TiePolicy = Annotated[str, Ties]
TieOutcome = Annotated[str, ("one_more_round", "until_single", "until_single_again", "shared", "still_tied")]
MoveName = Annotated[str, ("pass", "play")]  # a decision, or a move taken back
SeatStatusName = Annotated[str, ("joined", "left", "back", "awaited")]
TakeoverReason = Annotated[str, ("timer", "away", "program")]
SeatKind = Annotated[str, ("human", "cpu")]  # records.record_parts.SEAT_KINDS
Glyph = Annotated[str, ("", "?", "??", "!")]  # records.analysis: none, a mistake, a blunder, the only good card
StreakKind = Annotated[str, ("win", "loss")]
SuitLetter = Annotated[str, ("C", "D", "H", "S")]  # a suit in a view's voids (events.SUIT_LETTERS)

# ---------------------------------------------------------------- the shapes inside events


class ErrorBody(TypedDict):
    """The one error object: a stable ``code``, a sentence, and where the problem is. The
    ``error`` of an error reply, a refused card's ``reason``, the ``error`` event."""

    code: str
    message: str
    field: NotRequired[str]
    index: NotRequired[int]
    key: NotRequired[str | None]
    card: NotRequired[CardText]
    cards: NotRequired[list[CardText]]  # the cards the rule names (``hearts explain --json``)
    suggestions: NotRequired[list[str]]
    commands: NotRequired[list[str]]


class SeatEntry(TypedDict):
    seat: int
    name: str
    kind: SeatKind
    level: str | None


class TrickPlay(TypedDict):
    seat: int
    card: Card


class SeatPlay(TypedDict):
    """A card in a trick as JSON, and who played it."""

    seat: int
    card: CardText


class Standing(TypedDict):
    place: int
    seat: int
    total: int


class Streak(TypedDict):
    kind: StreakKind
    length: int


class RecordChange(TypedDict):
    """How a game changes a person's record (``game_end`` at a person's own table)."""

    id: str
    text: str
    streak: Streak
    won: int
    played: int


class ShownTrick(TypedDict):
    """A trick as ``tricks`` and ``last`` show it: who played each card (the trick on the
    table has no winner yet)."""

    leader: int
    cards: list[Card]
    seats: list[int]
    winner: NotRequired[int | None]
    points: NotRequired[int]


class TrickJson(TypedDict):
    """A completed trick in the form of a ``trick`` event (without ``event``): a view's ``last_trick``."""

    round: int
    trick: int
    leader: int
    plays: list[SeatPlay]
    winner: int | None
    points: int
    kitty: list[CardText]
    cancelled: NotRequired[list[CardText]]
    by: NotRequired[CardText | None]
    carried: NotRequired[list[CardText]]


class RoundResultJson(TypedDict):
    """What the round scored, once it is over (public then)."""

    taken: list[int]
    scores: list[int]
    shooter: int | None
    moon: MoonChoiceName | None


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
    ahead: NotRequired[list[CardText]]  # the uncancelled cards that beat it now (see Effect.ahead)
    stuck: NotRequired[CardText]  # two decks: a card ahead that no copy still out can cancel (it cannot win)
    taker: NotRequired[int]  # one deck, a card that cannot win: the seat that takes the trick (so far)
    higher: NotRequired[int]  # one deck, a card that may win: the higher cards of the suit led still out
    sun: NotRequired[bool]  # it takes the last trick after every other: it shoots the sun (rules.sun)
    loses_bonus: NotRequired[int]  # it takes the seat's first trick: the no-trick bonus it loses
    # one deck: the chance a seat still to play holds a higher card of the suit led (0 or 1 exactly
    # where the seat's knowledge decides it), and, for a card that may win, the points at stake
    covered: NotRequired[float]
    stake: NotRequired[int]
    message: NotRequired[str]


class VerdictJson(TypedDict):
    """The answer to ``why`` (beside ``ok``): ``reason`` when the card may not be played, else ``effect``."""

    card: CardText
    legal: bool
    reason: NotRequired[ErrorBody]
    effect: NotRequired[EffectJson | None]


class ExplainPosition(TypedDict):
    """Where ``hearts explain`` was asked: the round, the trick on the table, the seat's hand."""

    code: str | None
    round: int
    phase: PhaseName
    trick: int | None
    seat: int | None
    turn: int | None
    trick_cards: list[CardText]
    hearts_broken: bool
    hand: list[CardText]
    legal: list[CardText]


class ExplainJson(VerdictJson):
    """``hearts explain --json``: the verdict as ``why`` gives it, its headline, and the position."""

    headline: str
    position: ExplainPosition


# ---------------------------------------------------------------- the requests (play/requests.py reads them)
# One TypedDict a command, closed: a field not named here is not part of any request. A card
# is any text a person types ("ten of diamonds"), a word in any case ("Left"): the schema
# says ``string`` for them.


class RequestHead(TypedDict):
    """What any request may carry: ``id``, echoed in the reply; ``lang``, the language of the
    engine's reply (``en`` or ``es``)."""

    id: NotRequired[JsonValue]
    lang: NotRequired[str | None]


class HelloRequest(RequestHead):
    """``hello``: who is serving (the engine); the first line at a shared table, with the
    invitation's ``token`` and the person's ``name``."""

    cmd: Literal["hello"]
    token: NotRequired[str]
    name: NotRequired[str | None]


PositionRequest = TypedDict("PositionRequest", {  # (a class could not name its field "pass")
    "id": "NotRequired[JsonValue]",
    "lang": "NotRequired[str | None]",
    "cmd": "Literal['position']",
    "rules": "NotRequired[str | dict[str, JsonValue] | None]",
    "round": "NotRequired[int | None]",
    "direction": "NotRequired[str | None]",
    "pass": "NotRequired[str | None]",  # direction's name in protocol version 1
    "totals": "NotRequired[list[int] | None]",
    "hands": "NotRequired[list[list[str]] | None]",
    "code": "NotRequired[str | None]",
    "passes": "NotRequired[list[list[str]] | None]",
    "plays": "NotRequired[list[str] | None]",
    "moon": "NotRequired[str | None]",
    "text": "NotRequired[str | None]",
    "reveal": "NotRequired[bool | None]",
})
PositionRequest.__doc__ = """``position``: a new round (the engine): rules, round, pass direction, totals, the
hands or a code, the passes, plays and moon choice so far; or the position's ``text``."""


class StateRequest(RequestHead):
    """``state``: the seat view (``reveal``: every hand, the engine)."""

    cmd: Literal["state"]
    reveal: NotRequired[bool | None]


class CardRequest(RequestHead):
    """``play`` and ``why``: one card (``seat``: whose view asks, where a request may name it)."""

    cmd: Literal["play", "why"]
    card: str
    seat: NotRequired[int | None]
    seq: NotRequired[int | None]  # an outside program's answer: the view it answers (docs/programs.md)


class PassRequest(RequestHead):
    """``pass``: the cards passed (``seat``: the engine protocol names the seat passing)."""

    cmd: Literal["pass"]
    cards: list[str]
    seat: NotRequired[int | None]
    seq: NotRequired[int | None]  # an outside program's answer: the view it answers (docs/programs.md)


class MoonRequest(RequestHead):
    """``moon``: the shooter's choice, ``others`` or ``shooter_minus``."""

    cmd: Literal["moon"]
    choice: str
    seat: NotRequired[int | None]
    seq: NotRequired[int | None]  # an outside program's answer: the view it answers (docs/programs.md)


class GoRequest(RequestHead):
    """``go``: a CPU's choice for the seat to move (the engine): its level, seed and budget."""

    cmd: Literal["go"]
    level: NotRequired[str | None]
    seed: NotRequired[int | None]
    simulations: NotRequired[int | None]


class PlainRequest(RequestHead):
    """A request with nothing but its command: ``quit``; at a shared table ``ping`` and ``hint``."""

    cmd: Literal["quit", "ping", "hint"]


REQUESTS = ("HelloRequest", "PositionRequest", "StateRequest", "CardRequest", "PassRequest", "MoonRequest",
            "GoRequest", "PlainRequest")
