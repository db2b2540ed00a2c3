"""The vocabulary every program that reads a game shares: typed events and the seat view.

One class per kind of event, declared once here: its fields are the class's
annotations, which the type checker reads (each class takes its fields by
keyword, typed: ``Play(round=1, trick=3, seat=2, card=c, by="cpu")``), which
:meth:`Event.to_json` writes, and from which the JSON Schema of
``docs/schema/hearts.schema.json`` is made (``tests/make_schema.py``).
``hearts play --json``, ``hearts replay --json``, ``hearts engine`` and the
table server (``hearts host``) all speak it, so a script reads ``trick``,
``direction`` or a ``round_end`` the same way whichever program it talks to.
Its version is :data:`SCHEMA`; ``docs/events.md`` says what each field means.

An event may also be built by kind (``Event("play", {...})`` gives a
:class:`Play`), as :meth:`Event.from_json` does with what a program reads; every
producer builds it by its class, so the type checker checks its fields. Either
way a missing or unknown field is a ``ValueError`` when it is made. A field with a
default (``= None``) is optional: absent from the event, and from its JSON,
unless given. Cards stay :class:`~hearts_cli.model.cards.Card` and suits
:class:`~hearts_cli.model.cards.Suit` inside an event; JSON has ``"QS"`` and ``"S"``.

The classes are plain (no dataclass: they are made at every start of every
command that tells a game; ``bench/startup.py``), and an event is frozen: its
fields are set when it is made (:meth:`Event.replace` makes another). This module sits just above
the engine: it imports only the card values, never a front end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import FunctionType
from typing import TYPE_CHECKING, ClassVar, Generic, Self, TypeVar, dataclass_transform

from ..base.jsonvalue import JsonObject, JsonValue
from ..base.values import FrozenInstanceError, Plain
from ..model.cards import NAMES, Card, Suit
from . import core
from .dealt import RoundResult, Trick
from .round import SeatView

if TYPE_CHECKING:  # payloads.py is the type checker's and the tests' only
    from .payloads import (
        CardText,
        DirectionName,
        ErrorBody,
        Glyph,
        MessageParams,
        MoonChoiceName,
        MoveName,
        MoverName,
        PhaseName,
        RecordChange,
        RoundResultJson,
        SeatEntry,
        SeatPlay,
        SeatStatusName,
        ShownTrick,
        Standing,
        SuitLetter,
        TakeoverReason,
        TieOutcome,
        TiePolicy,
        TrickJson,
        TrickPlay,
    )
    from .round import SeatView

__all__ = ["KINDS", "SCHEMA", "VIEW_FIELDS", "Event", "Teller", "jsonable", "trick_json",
           "view_event", "view_json"]

# The version of this vocabulary (events, the seat view, requests, replies and errors).
# 1 was the engine protocol alone; 2 the first shared by every program; 3 has one error
# object everywhere and suits as letters in every field; 4 types the replies as the events
# are (play/replies.py) and closes the schema (docs/events.md, "Versions").
# A later version may add events and fields; a reader ignores what it does not know.
SCHEMA = 4

SUIT_LETTERS = "CDHS"

KINDS: dict[str, type[Event]] = {}


# ---------------------------------------------------------------- the base of every event


@dataclass_transform(kw_only_default=True)  # the type checker makes each kind's __init__ from its fields
class Event(Plain):
    """Something that happened at a table: a kind and its fields (JSON-ready but for cards and suits).

    A subclass sets ``kind`` and declares its fields as annotations; a field with a
    default is optional. ``Event(kind, data)`` makes the subclass of that kind.
    """

    __match_args__ = ("kind", "data")
    kind: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()  # the fields every event of the kind has
    OPTIONAL: ClassVar[tuple[str, ...]] = ()  # and the ones it may have
    _ORDER: ClassVar[tuple[str, ...]] = ()  # the fields' names in JSON, in order
    _ATTRS: ClassVar[tuple[str, ...]] = ()  # and as attributes (the same but where JSON_NAMES renames)
    JSON_NAMES: ClassVar[dict[str, str]] = {}  # an attribute named otherwise in JSON (a field ``kind``)
    _ATTR_OF: ClassVar[dict[str, str]] = {}
    _REQUIRED: ClassVar[tuple[str, ...]] = ()

    def __new__(cls, kind: str | None = None, data: Mapping[str, object] | None = None, **fields: object) -> Event:
        if cls is Event:
            made = KINDS.get(kind) if kind is not None else None
            if made is None:
                raise ValueError(f"unknown event kind {kind!r}")
            cls = made
        return object.__new__(cls)

    def __init__(self, kind: str | None = None, data: Mapping[str, object] | None = None, **fields: object) -> None:
        if kind is not None and not isinstance(kind, str):  # Play({...}) by mistake
            raise TypeError("the first argument of an event is its kind")
        given = fields if data is None else (dict(data) | fields if fields else data)
        if self.JSON_NAMES:
            given = {self._ATTR_OF.get(k, k): v for k, v in given.items()}
        if kind is not None and kind != self.kind:
            raise ValueError(f"a {type(self).__name__} event is {self.kind!r}, not {kind!r}")
        attrs = self._ATTRS
        missing = [f for f in self._REQUIRED if f not in given]
        if missing:
            raise ValueError(f"{self.kind} event without {', '.join(missing)}")
        extra = [f for f in given if f not in attrs]
        if extra:
            raise ValueError(f"{self.kind} event with unknown {', '.join(map(str, extra))}")
        self.__dict__.update(given)

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        if not cls.kind:
            return
        own = vars(cls)  # (made once: some forty kinds are defined at every start)
        names = [n for n, t in own.get("__annotations__", {}).items() if not t.startswith("ClassVar")]
        renamed = cls.JSON_NAMES
        cls._ATTRS = tuple(names)  # in their order, which is the JSON's
        cls._ORDER = tuple([renamed.get(n, n) for n in names]) if renamed else cls._ATTRS
        cls._ATTR_OF = {v: k for k, v in renamed.items()}
        cls._REQUIRED = tuple([n for n in names if n not in own])
        cls.FIELDS = tuple([renamed.get(n, n) for n in cls._REQUIRED]) if renamed else cls._REQUIRED
        cls.OPTIONAL = tuple([renamed.get(n, n) for n in names if n in own])
        KINDS[cls.kind] = cls

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"an event is frozen: {self.kind} event's {name!r} (make it with replace())")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"an event is frozen: {self.kind} event's {name!r}")

    def replace(self, **fields: object) -> Self:
        """A new event of the kind, these fields changed or added (the event itself is frozen)."""
        kept: dict[str, object] = self.__dict__
        made: Self = type(self)(None, {a: v for a, v in kept.items() if not a.startswith("_")} | fields)
        return made

    @property
    def data(self) -> dict[str, object]:
        """The fields the event has, by name, in their order (optional ones when given)."""
        d: dict[str, object] = self.__dict__
        return {k: d[a] for k, a in zip(self._ORDER, self._ATTRS) if a in d}

    def to_json(self) -> JsonObject:
        """The event as JSON: ``{"event": kind, field: value...}``, cards as ``"QS"``, suits as ``"S"``."""
        out: JsonObject = {"event": self.kind}
        d = self.__dict__
        for k, a in zip(self._ORDER, self._ATTRS):  # the table server makes one per move: no call for plain values
            if a in d:
                v = d[a]
                out[k] = v if type(v) in _PLAIN else jsonable(v)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> Event:
        """The event of a JSON object (cards stay strings): checks the kind and its fields."""
        rest = dict(obj)
        kind = rest.pop("event", None)
        return Event(kind if isinstance(kind, str) else None, rest)


_PLAIN = frozenset({int, str, bool, type(None)})


def jsonable(value: object) -> JsonValue:
    """A value of an event as JSON: cards as ``"QS"``, suits as ``"S"``, tuples as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return SUIT_LETTERS[int(value)]
    if value is None or isinstance(value, (int, str, bool)):
        return value
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Iterable):  # lists, tuples, sets (sorted by their producer)
        return [jsonable(v) for v in value]
    raise TypeError(f"{type(value).__name__} is not a value of an event")


R = TypeVar("R")


class Teller(Generic[R]):
    """The one dispatch over event kinds, for whatever tells events to a person: the
    story of ``hearts replay`` (:mod:`hearts_cli.records.sentences`) and the table's
    log of ``hearts play`` (:mod:`hearts_cli.repl.event_lines`).

    A subclass tells a kind with a method ``ev_<kind>`` whose parameters are the
    fields it reads, by name (an event carries more than most tellers say); a kind
    without a method tells nothing. The methods are checked when the class is made:
    each names a kind of this module and only fields of that kind, so a teller
    cannot drift from the vocabulary unnoticed.
    """

    _wanted: ClassVar[dict[str, frozenset[str]]] = {}

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        wanted: dict[str, frozenset[str]] = {}
        for klass in reversed(cls.__mro__):
            for name, fn in vars(klass).items():
                if name.startswith("ev_") and callable(fn):
                    wanted[name[3:]] = _parameters(cls, name[3:], fn)
        cls._wanted = wanted

    def tell(self, event: Event) -> list[R]:
        """What ``event`` says, as this teller words it (nothing for a kind it does not tell)."""
        names = self._wanted.get(event.kind)
        if names is None:
            return []
        fn: Callable[..., list[R]] = getattr(self, "ev_" + event.kind)
        d: dict[str, object] = event.__dict__
        return fn(**{k: d[a] for k, a in zip(event._ORDER, event._ATTRS) if k in names and a in d})


def _parameters(cls: type, kind: str, fn: object) -> frozenset[str]:
    """The fields a teller's method for ``kind`` reads; a TypeError when they are not the kind's."""
    if not isinstance(fn, FunctionType):
        raise TypeError(f"{cls.__name__}.ev_{kind}: not a function of the class body")
    code = fn.__code__
    names = frozenset(code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount])
    known = KINDS.get(kind)
    if known is None:
        raise TypeError(f"{cls.__name__}.ev_{kind}: no event is {kind!r}")
    unknown = names - set(known._ORDER)
    if unknown:
        raise TypeError(f"{cls.__name__}.ev_{kind}: a {kind} event has no {', '.join(sorted(unknown))}")
    return names


# ---------------------------------------------------------------- the story of a game
# (every program: the REPL, replay, the table server; engine-driven programs build them too).


class Start(Event):
    """A game starts (or is shown again): the seats; ``you`` the seat the stream is for
    (null from above); ``code`` null while it would reveal the deal."""

    kind = "start"
    schema: int
    code: str | None
    preset: str
    rules: dict[str, object]
    target: int
    players: int
    you: int | None
    seats: list[SeatEntry]


class Resume(Event):
    """A saved game carries on here."""

    kind = "resume"
    round: int
    trick: int
    phase: PhaseName


class Deal(Event):
    """A round is dealt: ``hands`` the hands this stream may see, by seat; ``to`` where
    ``you`` pass (null from above or with no pass)."""

    kind = "deal"
    round: int
    direction: DirectionName
    dealer: int
    to: int | None
    hands: dict[int, list[Card]]


class Pass(Event):
    """A seat has chosen its pass: ``cards`` null unless the stream may see them."""

    kind = "pass"
    round: int
    seat: int
    cards: list[Card] | None
    to: int
    by: MoverName | None


class Receive(Event):
    """The exchange is made: what ``seat`` received and from whom, and its hand now."""

    kind = "receive"
    round: int
    seat: int
    cards: list[Card]
    source: int | None
    hand: list[Card]


class Lead(Event):
    """Who leads the first trick of the round."""

    kind = "lead"
    round: int
    seat: int


class Play(Event):
    """A card is played; ``by`` you, player, cpu, auto, timer or away (null when unknown)."""

    kind = "play"
    round: int
    trick: int
    seat: int
    card: Card
    by: MoverName | None


class HeartsBroken(Event):
    kind = "hearts_broken"
    round: int
    trick: int
    seat: int
    card: Card


class TrickDone(Event):
    """A trick is complete: ``plays`` in play order; ``kitty`` the cards it took from the
    kitty ([] without). Two decks: ``cancelled`` the cards played twice, ``by`` the card
    that won (null: set aside, ``winner`` null too), ``carried`` the set-aside cards the
    winner took with it."""

    kind = "trick"
    round: int
    trick: int
    leader: int
    plays: list[TrickPlay]
    winner: int | None
    points: int
    kitty: list[Card]
    cancelled: list[Card] | None = None
    by: Card | None = None
    carried: list[Card] | None = None


class Void(Event):
    """A seat shows it lacks a suit."""

    kind = "void"
    round: int
    trick: int
    seat: int
    suit: Suit
    card: Card


class Queen(Event):
    kind = "queen"
    round: int
    trick: int
    seat: int
    by: int | None


class Jack(Event):
    kind = "jack"
    round: int
    trick: int
    seat: int
    by: int | None
    points: int


class MoonAttempt(Event):
    kind = "moon_attempt"
    round: int
    trick: int
    seat: int
    cards: int


class MoonStopped(Event):
    kind = "moon_stopped"
    round: int
    trick: int
    seat: int
    by: int


class MoonShot(Event):
    """A moon: ``mode`` how it scores; under the shooter's choice ``chosen`` (true) and
    ``points``, the moon's value."""

    kind = "moon"
    round: int
    seat: int
    mode: MoonChoiceName
    chosen: bool | None = None
    points: int | None = None


class MoonChoice(Event):
    """A moon under the shooter's choice: ``seat`` chooses; ``choices`` the round's scores
    under ``others`` and ``shooter_minus``; ``default`` the better one for the match (what a
    CPU chooses)."""

    kind = "moon_choice"
    round: int
    seat: int
    choices: dict[MoonChoiceName, list[int]]
    default: MoonChoiceName


class RoundEnd(Event):
    kind = "round_end"
    round: int
    taken: list[int]
    scores: list[int]
    totals: list[int]
    shooter: int | None
    moon: MoonChoiceName | None
    sun: bool | None = None  # true: the shooter took every trick, scored as a sun (rules.sun)
    no_trick: list[int] | None = None  # the seats that took no trick and scored rules.no_trick_bonus


class GameEnd(Event):
    """The game is over; ``record`` (at a person's table) how it changes their record."""

    kind = "game_end"
    code: str | None
    winners: list[int]
    totals: list[int]
    standings: list[Standing]
    rounds: list[list[int]]
    record: RecordChange | None = None


class Tie(Event):
    """The target is reached with ``seats`` tied for the lowest ``total``: ``outcome`` says what
    the tie policy does, ``one_more_round``, ``until_single`` (``until_single_again`` when
    still tied), ``shared`` or ``still_tied`` (shared after the extra round)."""

    kind = "tie"
    seats: list[int]
    total: int
    policy: TiePolicy
    outcome: TieOutcome


class NoPointsLeft(Event):
    kind = "no_points_left"
    round: int
    auto: bool


class Claim(Event):
    """A seat claims the rest of the round: it leads and holds every winning card, so it takes
    the ``tricks`` left and the ``points`` in them; the round is then played out at once."""

    kind = "claim"
    round: int
    seat: int
    tricks: int
    points: int


class Stop(Event):
    """A replayed log ends before the game does."""

    kind = "stop"
    moves: int
    round: int
    phase: PhaseName
    trick: int | None
    card: int | None
    turn: int | None


class View(Event):
    """What one seat sees now (:func:`view_event`), nothing else; field by field in
    ``docs/events.md``. ``passes_made`` (the engine), ``hands`` (a replay from above),
    ``code`` and ``moves`` (a replay), ``tricks`` (a seat taken mid-round) when they apply."""

    kind = "view"
    seat: int | None  # null: the engine's state once the round is over (nobody is to move)
    round: int
    phase: PhaseName
    direction: DirectionName
    pass_to: int | None
    turn: int | None
    leader: int | None
    trick_number: int
    trick: list[SeatPlay]
    tricks_played: int
    last_trick: TrickJson | None
    hand: list[CardText]
    legal: list[CardText]
    passed: list[CardText] | None
    received: list[CardText] | None
    received_from: int | None
    hearts_broken: bool
    voids: dict[str, list[SuitLetter]]
    points: list[int]
    totals: list[int]
    kitty: list[CardText]
    result: RoundResultJson | None
    passes_made: list[bool] | None = None
    hands: dict[str, list[CardText]] | None = None
    code: str | None = None
    moves: int | None = None
    tricks: list[TrickJson] | None = None
    moon_choices: dict[MoonChoiceName, list[int]] | None = None
    seq: int | None = None  # an outside program's: the view's number, which its answer may echo


# ---------------------------------------------------------------- a person at a table


class Selection(Event):
    kind = "selection"
    cards: list[Card]
    count: int
    need: int


class Undo(Event):
    """The person took back their last ``move`` (``play`` or ``pass``) and the ``after``
    cards played after it; ``round`` and ``trick`` where they are again."""

    kind = "undo"
    move: MoveName
    cards: list[Card]
    after: int
    round: int
    trick: int
    undos: int


class Confirm(Event):
    kind = "confirm"
    card: Card
    text: str


class Cancel(Event):
    kind = "cancel"
    text: str


class Why(Event):
    """What a card would do, or (``reason``, the one error object) why it may not be played."""

    kind = "why"
    card: Card
    legal: bool
    reason: ErrorBody | None
    text: str


class Hint(Event):
    kind = "hint"
    card: Card | None = None
    cards: list[Card] | None = None
    text: str


class Info(Event):
    kind = "info"
    topic: str
    text: str


class Error(Event):
    """Something the person asked cannot be done: the one error object's code and sentence."""

    kind = "error"
    code: str
    message: str


class Saved(Event):
    kind = "saved"


class Score(Event):
    kind = "score"
    totals: list[int]
    rounds: list[list[int]]
    points: list[int]


class Tricks(Event):
    kind = "tricks"
    round: int
    tricks: list[ShownTrick]
    current: ShownTrick | None


class LastTrick(Event):
    """The last completed trick of the round (null before the first): who played what."""

    kind = "last"
    round: int
    number: int
    trick: ShownTrick | None


class Counted(Event):
    """From the seat's view only: the cards still out by suit, each seat's shown voids,
    and per seat the cards of the seat's own pass it still holds."""

    kind = "count"
    out: list[list[Card]]
    voids: list[list[Suit]]
    placed: list[list[Card]]


class Exchange(Event):
    """What the seat passed and received this round (null: not yet, or no pass)."""

    kind = "exchange"
    round: int
    direction: DirectionName
    passed: list[Card] | None
    to: int | None
    received: list[Card] | None
    source: int | None


class RulesShown(Event):
    kind = "rules"
    preset: str
    settings: JsonObject


# ---------------------------------------------------------------- analysis (hearts replay --analyze)


class Decision(Event):
    kind = "decision"
    JSON_NAMES: ClassVar[dict[str, str]] = {"decided": "kind"}
    position: str
    round: int
    seat: int
    decided: MoveName  # "pass" or "play": ``kind`` in JSON
    played: list[Card]
    best: list[Card]
    expected: float
    best_expected: float
    loss: float
    glyph: Glyph
    values: dict[str, float]
    trick: int | None = None  # a card's
    card: int | None = None
    reason: str | None = None  # a message id, with its parameters
    reason_params: MessageParams | None = None


class Summary(Event):
    kind = "summary"
    seat: int
    decisions: int
    mistakes: int
    blunders: int
    good: int
    lost: float
    method: str | None = None  # two decks: how the decisions were weighed


# ---------------------------------------------------------------- a shared table (hearts host)


class Welcome(Event):
    """The first line a seat at a shared table receives: its seat, the table's players and
    names, the turn timer (seconds, or null) and whether hints are allowed."""

    kind = "welcome"
    schema: int
    seat: int
    players: int
    turn_timer: float | None
    hints: bool
    names: list[str]


class NewGame(Event):
    """An outside program that lives for a whole run (``hearts sim``) is to play another game
    (as UCI's ``ucinewgame``): its ``welcome`` follows. ``game``: this game's number among those
    the program's process has been told (2 for its second)."""

    kind = "new_game"
    game: int


class SeatStatus(Event):
    """A seat's player: ``joined``, ``left`` (the CPU plays for it), ``back``."""

    kind = "seat"
    seat: int
    name: str
    status: SeatStatusName


class Takeover(Event):
    """The CPU makes a move for a person's seat: ``timer`` or ``away``; or, from now on, for
    an outside program's that has stopped: ``program``, with its exit status when it has one."""

    kind = "takeover"
    seat: int
    reason: TakeoverReason | None
    status: int | None = None


class Waiting(Event):
    """The table waits for these seats; ``deadline`` seconds left on the turn timer (or null)."""

    kind = "waiting"
    seats: list[int]
    deadline: float | None


# ---------------------------------------------------------------- the seat view

VIEW_FIELDS = View.FIELDS


def _names(cards: Iterable[Card]) -> list[CardText]:
    names = NAMES
    return [names[c] for c in cards]


def trick_json(view: SeatView, trick: Trick, number: int) -> TrickJson:
    """A completed trick in the form of a ``trick`` event (without ``event``)."""
    leader, cards = trick.leader, trick.cards
    n = len(cards)
    names = NAMES
    out: TrickJson = {"round": view.round_index + 1, "trick": number, "leader": leader,
                      "plays": [{"seat": (leader + i) % n, "card": names[c]} for i, c in enumerate(cards)],
                      "winner": trick.winner, "points": trick.points,
                      "kitty": _names(sorted(trick.kitty)) if trick.kitty else []}
    if trick.carried or len(set(cards)) < n:  # two decks: a card played twice, or set-aside cards
        cancelled, by, carried = cancel_fields(trick)
        if cancelled is not None:
            out["cancelled"] = _names(cancelled)
            out["by"] = None if by is None else names[by]
            out["carried"] = _names(carried or ())
    return out


def cancel_fields(trick: Trick) -> tuple[list[Card] | None, Card | None, list[Card] | None]:
    """Two decks: the cards that cancelled in ``trick``, the card that won, and the set-aside
    cards the winner carried off (a trick event's ``cancelled``, ``by`` and ``carried``;
    ``cancelled`` None for a one-deck trick: the three are absent from its event)."""

    cancelled = core.cancelled(trick.cards)
    if not cancelled and not trick.carried:
        return None, None, None
    won = core.cancelling_winner(trick.cards)
    return ([Card(c) for c in cancelled], trick.cards[won] if won is not None else None,
            sorted(trick.carried))


def trick_event(number: int, trick_no: int, done: Trick) -> TrickDone:
    """The ``trick`` event of a completed trick (the same whoever tells it)."""
    ev = TrickDone(round=number, trick=trick_no, leader=done.leader,
                   plays=[{"seat": s, "card": c} for s, c in done.plays()],
                   winner=done.winner, points=done.points, kitty=sorted(done.kitty))
    cancelled, by, carried = cancel_fields(done)
    if cancelled is not None:
        ev.__dict__.update(cancelled=cancelled, by=by, carried=carried)
    return ev


def view_event(view: SeatView, result: RoundResult | None = None, seq: int | None = None) -> View:
    """What a seat may see (a :class:`~hearts_cli.play.round.SeatView`) as the ``view`` event.

    ``result``: the round's :class:`~hearts_cli.play.dealt.RoundResult` once it is over
    (public then); ``seq``: the view's number, for an outside program (``table/program.py``).
    (Cards are named by table lookups: the table server builds one for every move.)
    """
    names = NAMES
    phase = view.phase.value
    over = phase == "over"
    leader = view.leader
    hand = [names[c] for c in view.hand]
    if phase == "pass":
        legal = hand[:] if view.passed is None else []
    else:
        legal = [names[c] for c in view.legal]
    tricks = view.tricks
    passed, received = view.passed, view.received
    ev = View(
        seat=view.seat,
        round=view.round_index + 1,
        phase=phase,
        direction=view.direction.value,
        pass_to=view.passed_to,
        turn=None if over else view.turn,
        leader=None if over else leader,
        trick_number=len(tricks) + (1 if phase in ("pass", "play") else 0),  # none to come once all are played
        trick=[{"seat": s, "card": names[c]} for s, c in view.trick_plays()],
        tricks_played=len(tricks),
        last_trick=trick_json(view, tricks[-1], len(tricks)) if tricks else None,
        hand=hand,
        legal=legal,
        passed=None if passed is None else [names[c] for c in sorted(passed)],
        received=None if received is None else [names[c] for c in sorted(received)],
        received_from=view.received_from if received is not None else None,
        hearts_broken=view.hearts_broken,
        voids={str(s): [SUIT_LETTERS[x] for x in sorted(v)] for s, v in enumerate(view.voids) if v},
        points=list(view.points),
        totals=list(view.scores),
        kitty=[names[c] for c in view.kitty],
        result=None if result is None else {
            "taken": list(result.taken), "scores": list(result.scores), "shooter": result.shooter,
            "moon": None if result.moon is None else result.moon.value},
    )
    if seq is not None:
        ev.__dict__["seq"] = seq  # (only a program's view has one)
    return ev


def view_json(view: SeatView, result: RoundResult | None = None) -> dict[str, object]:
    """The seat view as JSON without ``event`` (a reply's fields, to which a program adds
    its own): :func:`view_event`'s."""
    out: dict[str, object] = dict(view_event(view, result).to_json())
    del out["event"]
    return out
