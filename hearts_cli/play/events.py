"""The vocabulary every program that reads a game shares: typed events and the seat view.

One class per kind of event, each with a fixed set of fields, and one JSON
form of what a seat may see (:func:`view_json`). ``hearts play --json``,
``hearts replay --json``, ``hearts engine`` and the table server
(``hearts host``) all speak it, so a script reads ``trick``, ``direction`` or a
``round_end`` the same way whichever program it talks to. The schema, with
its version :data:`SCHEMA`, is written down once in ``docs/events.md``.

An :class:`Event` is built either by its class (``Play(round=1, trick=3,
seat=2, card=c, by="cpu")``) or by kind (``Event("play", {...})`` gives a
:class:`Play`); either way a missing or unknown field is a ``ValueError``, so
two producers cannot drift apart without a test failing. Cards stay
:class:`~hearts_cli.model.cards.Card` inside an event and become ``"QS"`` in JSON.

The fields are named here as words; their types, the payloads a type checker
reads (``TrickData``...), are in :mod:`.payloads`, which nothing imports at run time.
This module sits just above the engine: it imports only the card values and
the engine's small enums, never a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from ..base.values import Plain
from ..model.cards import NAMES, Card, Suit

if TYPE_CHECKING:
    from .payloads import SeatPlay, ViewJson

__all__ = ["KINDS", "SCHEMA", "VIEW_FIELDS", "Event", "Teller", "jsonable", "trick_json", "view_json"]

# The version of this vocabulary (events and the seat view). Version 1 was the engine
# protocol alone; 2 is the first shared by every program. A later version may add
# events and fields; a reader ignores what it does not know.
SCHEMA = 2

SUIT_LETTERS = "CDHS"

KINDS: dict[str, type[Event]] = {}


class Event(Plain):
    """Something that happened at a table: ``kind`` plus ``data`` (JSON-ready but for cards).

    Subclasses declare ``KIND``, the ``FIELDS`` every event of the kind has, and
    the ``OPTIONAL`` ones it may have. ``Event(kind, data)`` makes the subclass
    of that kind.
    """

    __match_args__ = ("kind", "data")
    KIND: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def __new__(cls, kind: str | None = None, data: dict[str, Any] | None = None, **fields: Any) -> Event:
        if cls is Event:
            try:
                cls = KINDS[kind]  # type: ignore[index]
            except KeyError:
                raise ValueError(f"unknown event kind {kind!r}") from None
        return object.__new__(cls)

    def __init__(self, kind: str | None = None, data: dict[str, Any] | None = None, **fields: Any) -> None:
        if kind is not None and not isinstance(kind, str):  # Play({...}) by mistake
            raise TypeError("the first argument of an event is its kind")
        if data is None:
            data = fields
        elif fields:
            data = data | fields
        if kind is not None and kind != self.KIND:
            raise ValueError(f"a {type(self).__name__} event is {self.KIND!r}, not {kind!r}")
        missing = [f for f in self.FIELDS if f not in data]
        if missing:
            raise ValueError(f"{self.KIND} event without {', '.join(missing)}")
        extra = [f for f in data if f not in self.FIELDS and f not in self.OPTIONAL]
        if extra:
            raise ValueError(f"{self.KIND} event with unknown {', '.join(map(str, extra))}")
        self.kind = self.KIND
        self.data: dict[str, Any] = data

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.KIND:
            KINDS[cls.KIND] = cls

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(name)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for k, v in self.data.items():  # the table server makes one per move: no call for plain values
            out[k] = v if type(v) in _PLAIN else jsonable(v)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        """The event of a JSON object (cards stay strings): checks the kind and its fields."""
        obj = dict(obj)
        kind = obj.pop("event", None)
        return Event(kind, obj)


_PLAIN = frozenset({int, str, bool, type(None)})


def jsonable(value: Any) -> Any:
    """A value of an event as JSON: cards as ``"QS"``, suits as ``"S"``, tuples as lists."""
    kind = type(value)
    if kind is int or kind is str or kind is bool or value is None:  # most values: as they are
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return SUIT_LETTERS[int(value)]
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, float):
        return round(value, 2)
    return value


R = TypeVar("R")


class Teller(Generic[R]):
    """The one dispatch over event kinds, for whatever tells events to a person: the
    story of ``hearts replay`` (:mod:`hearts_cli.records.sentences`) and the table's
    log of ``hearts play`` (:mod:`hearts_cli.repl.render`).

    A subclass tells a kind with a method ``ev_<kind>`` whose parameters are the
    fields it reads, by name (an event carries more than most tellers say); a kind
    without a method tells nothing. The methods are checked when the class is made:
    each names a kind of this module and only fields of that kind, so a teller
    cannot drift from the vocabulary unnoticed.
    """

    _wanted: ClassVar[dict[str, frozenset[str]]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
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
        return fn(**{k: v for k, v in event.data.items() if k in names})


def _parameters(cls: type, kind: str, fn: Callable[..., Any]) -> frozenset[str]:
    """The fields a teller's method for ``kind`` reads; a TypeError when they are not the kind's."""
    code = fn.__code__
    names = frozenset(code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount])
    known = KINDS.get(kind)
    if known is None:
        raise TypeError(f"{cls.__name__}.ev_{kind}: no event is {kind!r}")
    unknown = names - set(known.FIELDS) - set(known.OPTIONAL)
    if unknown:
        raise TypeError(f"{cls.__name__}.ev_{kind}: a {kind} event has no {', '.join(sorted(unknown))}")
    return names


def _kind(name: str, kind: str, fields: str, optional: str = "", doc: str = "") -> type[Event]:
    """The class of an event kind: ``fields`` names the fields it always has, ``optional`` the
    ones it may have (a story event's are its payload's keys: :mod:`.payloads`, checked by a test)."""
    return type(name, (Event,), {"KIND": kind, "FIELDS": tuple(fields.split()), "OPTIONAL": tuple(optional.split()),
                                 "__doc__": doc, "__module__": __name__, "__slots__": ()})


# ---------------------------------------------------------------- the story of a game
# (every program: the REPL, replay, the table server; engine-driven programs build them too).
# Their fields are typed in .payloads (StartData, TrickData...), where a teller's methods
# find the types of what they read.

Start = _kind("Start", "start", "schema code preset rules players target seats you",
              doc="A game starts (or is shown again): the seats; ``you`` the seat the stream is for "
                  "(null from above); ``code`` null while it would reveal the deal.")
Resume = _kind("Resume", "resume", "round trick phase", doc="A saved game carries on here.")
Deal = _kind("Deal", "deal", "round direction dealer to hands",
             doc="A round is dealt: ``hands`` the hands this stream may see, by seat; ``to`` where "
                 "``you`` pass (null from above or with no pass).")
Pass = _kind("Pass", "pass", "round seat cards to by",
             doc="A seat has chosen its pass: ``cards`` null unless the stream may see them.")
Receive = _kind("Receive", "receive", "round seat cards source hand",
                doc="The exchange is made: what ``seat`` received and from whom, and its hand now.")
Lead = _kind("Lead", "lead", "round seat", doc="Who leads the first trick of the round.")
Play = _kind("Play", "play", "round trick seat card by",
             doc="A card is played; ``by`` you, player, cpu, auto, timer or away (null when unknown).")
HeartsBroken = _kind("HeartsBroken", "hearts_broken", "round trick seat card")
TrickDone = _kind("TrickDone", "trick", "round trick leader plays winner points kitty", "cancelled by carried",
                  doc="A trick is complete: ``plays`` [{seat, card}] in play order; ``kitty`` the cards "
                      "it took from the kitty ([] without). Two decks: ``cancelled`` the cards played "
                      "twice, ``by`` the card that won (null: set aside, ``winner`` null too), "
                      "``carried`` the set-aside cards the winner took with it.")
Void = _kind("Void", "void", "round trick seat suit card", doc="A seat shows it lacks a suit.")
Queen = _kind("Queen", "queen", "round trick seat by")
Jack = _kind("Jack", "jack", "round trick seat by points")
MoonAttempt = _kind("MoonAttempt", "moon_attempt", "round trick seat cards")
MoonStopped = _kind("MoonStopped", "moon_stopped", "round trick seat by")
Moon = _kind("Moon", "moon", "round seat mode", "chosen points",
             doc="A moon: ``mode`` how it scores; under the shooter's choice ``chosen`` (true) and "
                 "``points``, the moon's value.")
MoonChoice = _kind("MoonChoice", "moon_choice", "round seat choices default",
                   doc="A moon under the shooter's choice: ``seat`` chooses; ``choices`` the round's "
                       "scores under ``others`` and ``shooter_minus``; ``default`` the better one for "
                       "the match (what a CPU chooses).")
RoundEnd = _kind("RoundEnd", "round_end", "round taken scores totals shooter moon")
GameEnd = _kind("GameEnd", "game_end", "code winners totals standings rounds", "record",
                doc="The game is over; ``record`` (at a person's table) how it changes their record: "
                    "``id``, ``text``, ``streak`` {kind, length}, ``won``, ``played``.")
Tie = _kind("Tie", "tie", "seats total policy outcome",
            doc="The target is reached with ``seats`` tied for the lowest ``total``: ``outcome`` says what "
                "the tie policy does, ``one_more_round``, ``until_single`` (``until_single_again`` when "
                "still tied), ``shared`` or ``still_tied`` (shared after the extra round).")
NoPointsLeft = _kind("NoPointsLeft", "no_points_left", "round auto")
Stop = _kind("Stop", "stop", "moves round phase trick card turn", doc="A replayed log ends before the game does.")
View = _kind("View", "view", "", "", doc="What one seat sees now: the seat view (see view_json).")

# ---------------------------------------------------------------- a person at a table

Selection = _kind("Selection", "selection", "cards count need")
Undo = _kind("Undo", "undo", "move cards after round trick undos",
             doc="The person took back their last ``move`` (``play`` or ``pass``) and the ``after`` "
                 "cards played after it; ``round`` and ``trick`` where they are again.")
Confirm = _kind("Confirm", "confirm", "card text")
Cancel = _kind("Cancel", "cancel", "text")
Why = _kind("Why", "why", "card legal reason text")
Hint = _kind("Hint", "hint", "text", "card cards")
Info = _kind("Info", "info", "topic text")
Error = _kind("Error", "error", "id message")
Saved = _kind("Saved", "saved", "")
Score = _kind("Score", "score", "totals rounds points")
Tricks = _kind("Tricks", "tricks", "round tricks current")
LastTrick = _kind("LastTrick", "last", "round number trick",
                  doc="The last completed trick of the round (null before the first): who played what.")
Counted = _kind("Counted", "count", "out voids placed",
                doc="From the seat's view only: the cards still out by suit, each seat's shown voids,"
                    " and per seat the cards of the seat's own pass it still holds.")
Exchange = _kind("Exchange", "exchange", "round direction passed to received source",
                 doc="What the seat passed and received this round (null: not yet, or no pass).")
RulesShown = _kind("RulesShown", "rules", "preset settings")

# ---------------------------------------------------------------- analysis (hearts replay --analyze)

Decision = _kind("Decision", "decision",
                 "position round seat kind played best expected best_expected loss glyph values",
                 "trick card reason reason_params")
Summary = _kind("Summary", "summary", "seat decisions mistakes blunders good lost")

# ---------------------------------------------------------------- a shared table (hearts host)

SeatStatus = _kind("SeatStatus", "seat", "seat name status",
                   doc="A seat's player: ``joined``, ``left`` (the CPU plays for it), ``back``.")
Takeover = _kind("Takeover", "takeover", "seat reason",
                 doc="The CPU makes a move for a person's seat: ``timer`` or ``away``.")
Waiting = _kind("Waiting", "waiting", "seats deadline",
                doc="The table waits for these seats; ``deadline`` seconds left on the turn timer (or null).")


# ---------------------------------------------------------------- the seat view

VIEW_FIELDS = ("seat", "round", "phase", "direction", "pass_to", "turn", "leader", "trick_number",
               "trick", "tricks_played", "last_trick", "hand", "legal", "passed", "received",
               "received_from", "hearts_broken", "voids", "points", "totals", "kitty", "result")
View.FIELDS = VIEW_FIELDS
View.OPTIONAL = ("passes_made", "hands", "code", "moves")


def trick_json(view_or_round: Any, trick: Any, number: int) -> dict[str, Any]:
    """A completed trick in the form of a ``trick`` event (without ``event``)."""
    leader, cards = trick.leader, trick.cards
    n = len(cards)
    out = {"round": view_or_round.round_index + 1, "trick": number, "leader": leader,
           "plays": [{"seat": (leader + i) % n, "card": NAMES[c]} for i, c in enumerate(cards)],
           "winner": trick.winner, "points": trick.points,
           "kitty": [NAMES[c] for c in sorted(trick.kitty)] if trick.kitty else []}
    if trick.carried or len(set(cards)) < n:  # two decks: a card played twice, or set-aside cards
        out |= _cancel_json(trick)
    return out


def cancel_fields(trick: Any) -> dict[str, Any]:
    """Two decks: the cards that cancelled in ``trick``, the card that won, and the
    set-aside cards the winner carried off (nothing for a one-deck trick)."""
    from . import core

    cancelled = core.cancelled(trick.cards)
    if not cancelled and not trick.carried:
        return {}
    won = core.cancelling_winner(trick.cards)
    return {"cancelled": list(cancelled), "by": trick.cards[won] if won is not None else None,
            "carried": sorted(trick.carried)}


def _cancel_json(trick: Any) -> dict[str, Any]:
    """:func:`cancel_fields` with the cards written as text."""
    fields = cancel_fields(trick)
    if fields:
        fields = {"cancelled": [str(c) for c in fields["cancelled"]],
                  "by": None if fields["by"] is None else str(fields["by"]),
                  "carried": [str(c) for c in fields["carried"]]}
    return fields


def view_json(view: Any, result: Any = None) -> ViewJson:
    """The JSON form of a :class:`~hearts_cli.play.engine.SeatView`: what that seat may see, nothing else.

    ``result``: the round's :class:`~hearts_cli.play.engine.RoundResult` once it is over
    (public then). Field by field in ``docs/events.md``. (Cards are named by table
    lookups: the table server builds one for every move.)
    """
    names = NAMES
    phase = view.phase.value
    over = phase == "over"
    leader = view.leader
    trick: list[SeatPlay] = [{"seat": s, "card": names[c]} for s, c in view.trick_plays()]
    hand = [names[c] for c in view.hand]
    if phase == "pass":
        legal = hand[:] if view.passed is None else []
    else:
        legal = [names[c] for c in view.legal]
    tricks = view.tricks
    passed, received = view.passed, view.received
    out: ViewJson = {
        "seat": view.seat,
        "round": view.round_index + 1,
        "phase": phase,
        "direction": view.direction.value,
        "pass_to": view.passed_to,
        "turn": None if over else view.turn,
        "leader": None if over else leader,
        "trick_number": len(tricks) + (1 if phase in ("pass", "play") else 0),  # no trick to come once all are played
        "trick": trick,
        "tricks_played": len(tricks),
        "last_trick": trick_json(view, tricks[-1], len(tricks)) if tricks else None,
        "hand": hand,
        "legal": legal,
        "passed": None if passed is None else [names[c] for c in sorted(passed)],
        "received": None if received is None else [names[c] for c in sorted(received)],
        "received_from": view.received_from if received is not None else None,
        "hearts_broken": view.hearts_broken,
        "voids": {str(s): [SUIT_LETTERS[x] for x in sorted(v)] for s, v in enumerate(view.voids) if v},
        "points": list(view.points),
        "totals": list(view.scores),
        "kitty": [names[c] for c in view.kitty],
        "result": None,
    }
    if result is not None:
        out["result"] = {"taken": list(result.taken), "scores": list(result.scores),
                         "shooter": result.shooter, "moon": result.moon}
    return out
