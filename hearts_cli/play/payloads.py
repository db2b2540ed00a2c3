"""The typed payloads of the events: what a type checker (and a test) knows of each kind's fields.

:mod:`hearts_cli.play.events` names each kind's fields as plain words, and a
teller's methods (:class:`~hearts_cli.play.events.Teller`), ``view_json`` and
a verdict's ``Effect.to_json`` are typed by these TypedDicts. Nothing imports
this module at run time but the tests: building some forty TypedDicts costs every command that tells a game
about 4 ms of start-up (each annotation is compiled; see ``bench/startup.py``).
``tests/test_events.py`` checks that each payload's keys are its kind's
``FIELDS`` and ``OPTIONAL``, in order, so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Any, TypedDict

from ..model.cards import Card


class SeatEntry(TypedDict):
    seat: int
    name: str
    kind: str  # human or cpu
    level: str | None


class TrickPlay(TypedDict):
    seat: int
    card: Card


class Standing(TypedDict):
    place: int
    seat: int
    total: int


class StartData(TypedDict):
    schema: int
    code: str | None
    preset: str
    rules: dict[str, Any]
    players: int
    target: int
    seats: list[SeatEntry]
    you: int | None


class ResumeData(TypedDict):
    round: int
    trick: int
    phase: str


class DealData(TypedDict):
    round: int
    direction: str
    dealer: int
    to: int | None
    hands: dict[int, list[Card]]


class PassData(TypedDict):
    round: int
    seat: int
    cards: list[Card] | None
    to: int
    by: str | None


class ReceiveData(TypedDict):
    round: int
    seat: int
    cards: list[Card]
    source: int | None
    hand: list[Card]


class LeadData(TypedDict):
    round: int
    seat: int


class PlayData(TypedDict):
    round: int
    trick: int
    seat: int
    card: Card
    by: str | None


class HeartsBrokenData(TypedDict):
    round: int
    trick: int
    seat: int
    card: Card


class _TrickData(TypedDict):
    round: int
    trick: int
    leader: int
    plays: list[TrickPlay]
    winner: int | None
    points: int
    kitty: list[Card]


class TrickData(_TrickData, total=False):
    cancelled: list[Card]  # two decks only
    by: Card | None
    carried: list[Card]


class VoidData(TypedDict):
    round: int
    trick: int
    seat: int
    suit: int
    card: Card


class QueenData(TypedDict):
    round: int
    trick: int
    seat: int
    by: int | None


class JackData(TypedDict):
    round: int
    trick: int
    seat: int
    by: int | None
    points: int


class MoonAttemptData(TypedDict):
    round: int
    trick: int
    seat: int
    cards: int


class MoonStoppedData(TypedDict):
    round: int
    trick: int
    seat: int
    by: int


class _MoonData(TypedDict):
    round: int
    seat: int
    mode: str


class MoonData(_MoonData, total=False):
    chosen: bool  # the shooter's choice only
    points: int


class MoonChoiceData(TypedDict):
    round: int
    seat: int
    choices: dict[str, list[int]]
    default: str


class RoundEndData(TypedDict):
    round: int
    taken: list[int]
    scores: list[int]
    totals: list[int]
    shooter: int | None
    moon: str


class _GameEndData(TypedDict):
    code: str | None
    winners: list[int]
    totals: list[int]
    standings: list[Standing]
    rounds: list[list[int]]


class GameEndData(_GameEndData, total=False):
    record: dict[str, Any]  # at a person's own table


class TieData(TypedDict):
    seats: list[int]
    total: int
    policy: str
    outcome: str


class NoPointsLeftData(TypedDict):
    round: int
    auto: bool


class StopData(TypedDict):
    moves: int
    round: int
    phase: str
    trick: int | None
    card: int | None
    turn: int | None


class _DecisionData(TypedDict):
    position: str
    round: int
    seat: int
    kind: str
    played: list[Card]
    best: list[Card]
    expected: float
    best_expected: float
    loss: float
    glyph: str
    values: dict[str, float]


class DecisionData(_DecisionData, total=False):
    trick: int  # a card's
    card: int
    reason: str  # a message id, with its parameters
    reason_params: dict[str, Any]


class SummaryData(TypedDict):
    seat: int
    decisions: int
    mistakes: int
    blunders: int
    good: int
    lost: float


# ---------------------------------------------------------------- the seat view (view_json)


class SeatPlay(TypedDict):
    """A card in the trick on the table, and who played it."""

    seat: int
    card: str


class RoundResultJson(TypedDict):
    """What the round scored, once it is over (public then)."""

    taken: list[int]
    scores: list[int]
    shooter: int | None
    moon: str | None


class ViewJson(TypedDict):
    """The JSON form of a seat view (docs/events.md, "The seat view"): what one seat may see."""

    seat: int
    round: int
    phase: str
    direction: str
    pass_to: int | None
    turn: int | None
    leader: int | None
    trick_number: int
    trick: list[SeatPlay]
    tricks_played: int
    last_trick: dict[str, Any] | None
    hand: list[str]
    legal: list[str]
    passed: list[str] | None
    received: list[str] | None
    received_from: int | None
    hearts_broken: bool
    voids: dict[str, list[str]]
    points: list[int]
    totals: list[int]
    kitty: list[str]
    result: RoundResultJson | None


# ---------------------------------------------------------------- a verdict's effect (verdicts.Effect.to_json)


class EffectJson(TypedDict, total=False):
    """:meth:`Effect.to_json`: the first four keys always, the others when they apply."""

    wins: bool | None
    points: int | None
    exact: bool
    breaks_hearts: bool
    cancelled: list[str]  # two decks: the cards cancelled, and the card that then wins
    by: str | None
    fallback: bool  # two decks, the last trick: every card of the suit led cancelled so far
    so_far: bool | None  # two decks, cards still to come
    twin_out: bool
    higher_out: bool
    ahead: list[str]
    stuck: str  # two decks: a card ahead that no copy still out can cancel (it cannot win)


# The payload of each story event (docs/events.md): its required keys are the kind's
# FIELDS, the others its OPTIONAL ones (a view event's FIELDS are ViewJson's keys).
PAYLOADS: dict[str, Any] = {
    "start": StartData, "resume": ResumeData, "deal": DealData, "pass": PassData,
    "receive": ReceiveData, "lead": LeadData, "play": PlayData, "hearts_broken": HeartsBrokenData,
    "trick": TrickData, "void": VoidData, "queen": QueenData, "jack": JackData,
    "moon_attempt": MoonAttemptData, "moon_stopped": MoonStoppedData, "moon": MoonData,
    "moon_choice": MoonChoiceData, "round_end": RoundEndData, "game_end": GameEndData, "tie": TieData,
    "no_points_left": NoPointsLeftData, "stop": StopData, "decision": DecisionData, "summary": SummaryData,
}
