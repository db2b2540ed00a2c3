"""The rules engine: a pure state machine for a round and for a game.

No I/O and no printing: the engine answers questions (which cards are legal,
why a card is not, what a card would do) and changes state only through
:meth:`Round.pass_cards` and :meth:`Round.play`, which either succeed or raise
without touching anything.

Seats are numbered clockwise in play order, ``0`` to ``players - 1``; passing
left gives to the next seat in play order. Internally a set of cards is a
52-bit mask (see :mod:`hearts_cli.model.cards`), which keeps the rules fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, NamedTuple, Self

from ..base.values import Frozen
from ..model.cards import CARDS, Card, Suit, cards_of, mask_of, parse_card
from ..model.codes import canonical_code
from ..model.codes import deal as deal_cards
from ..model.errors import HeartsError
from ..model.rules import Direction, Moon, Rules, Ties
from ..text.catalog import t
from . import core

if TYPE_CHECKING:  # the verdicts on a card are imported by Round.why, the one path that needs them
    from .position import PositionText
    from .verdicts import Reason, Verdict

__all__ = [
    "MOON_CHOICES",
    "DealError",
    "DealtRound",
    "Game",
    "IllegalMove",
    "LegalMoves",
    "MoonChoiceError",
    "NoMoveError",
    "Outcome",
    "PassError",
    "Phase",
    "PhaseError",
    "Round",
    "RoundResult",
    "SeatError",
    "SeatView",
    "Step",
    "Takings",
    "Trick",
    "TwoDeckRound",
    "card_of",
    "moon_scores",
]


class Phase(str, Enum):
    PASS = "pass"
    PLAY = "play"
    MOON = "moon"  # the shooter's choice is pending (``moon: shooter_choice``)
    OVER = "over"


# The two ways a moon can score, as the shooter's choice names them.
MOON_CHOICES = (Moon.OTHERS, Moon.SHOOTER_MINUS)


# Small immutable values are NamedTuples: as readable as dataclasses, and much
# cheaper to define, which keeps the scripted commands' start-up short.


class Trick(NamedTuple):
    """A completed trick: ``cards[i]`` was played by seat ``(leader + i) % players``."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None  # None: set aside (two decks, see below)
    points: int
    kitty: tuple[Card, ...] = ()
    # two decks: ``winner`` is None when every card of the led suit was cancelled (the
    # trick is set aside); ``carried`` are the set-aside cards this trick's winner took too
    carried: tuple[Card, ...] = ()

    @property
    def set_aside(self) -> bool:
        return self.winner is None

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % len(self.cards)

    def plays(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` in play order."""
        return [(self.seat_of(i), c) for i, c in enumerate(self.cards)]

    @property
    def led_suit(self) -> Suit:
        return self.cards[0].suit


class IllegalMove(HeartsError):
    """A card that cannot be played now; the state is unchanged. The sentence is the reason's,
    the one :meth:`Game.why` gives (``str(e)`` too, suits as symbols), and ``code`` its
    stable reason code (``"must_follow_suit"``)."""

    def __init__(self, reason: Reason):
        self.reason = reason
        super().__init__(reason.detail or reason.code, card=reason.card)

    @property
    def code(self) -> str:
        return self.reason.code

    @property
    def card(self) -> Card:
        return self.reason.card

    def message(self, lang: str | None = None, ascii: bool = False, third_person: bool = False) -> str:
        return self.reason.message(lang, ascii, third_person)


class PassError(HeartsError):
    """A pass that cannot be made; the state is unchanged."""

    def __init__(self, seat: int, message_id: str, /, **params: object):
        self.seat = seat
        self.code = message_id
        super().__init__(message_id, **params)

    def message(self, lang: str | None = None, ascii: bool = False, third_person: bool = False) -> str:
        from .verdicts import THIRD_PERSON

        mid = THIRD_PERSON.get(self.message_id, self.message_id) if third_person else self.message_id
        return t(mid, lang, ascii=ascii, **self.shown_params())


class MoonChoiceError(PassError):
    """A shooter's choice that cannot be made now (or is neither choice); the state is unchanged."""


class RoundResult(NamedTuple):
    """A finished round: what each seat took, and what it scores after moon and J♦."""

    taken: tuple[int, ...]
    scores: tuple[int, ...]
    shooter: int | None = None
    moon: Moon | None = None  # OTHERS or SHOOTER_MINUS when somebody shot the moon
    sun: bool = False  # the shooter took every trick, scored as a sun (rules.sun)
    no_trick: tuple[int, ...] = ()  # the seats that took no trick and scored rules.no_trick_bonus


_VIEW_FIELDS = ("seat", "rules", "round_index", "direction", "phase", "hand", "passed", "received",
                "leader", "turn", "trick", "tricks", "hearts_broken", "voids", "points", "scores",
                "kitty", "legal")


# the suits of a voids mask (bit s: suit s), made once: every seat view has one per seat
_VOID_SETS: tuple[frozenset[Suit], ...] = tuple(frozenset(Suit(s) for s in range(4) if v >> s & 1)
                                                for v in range(16))


class SeatView(Frozen):
    """Everything one seat may know, and nothing else: what bots receive.

    Immutable, compared field by field (a :class:`~hearts_cli.base.values.Frozen`
    rather than a frozen dataclass: every command that imports the engine
    pays for the class's definition at start-up).
    """

    __match_args__ = _VIEW_FIELDS
    __slots__ = _VIEW_FIELDS

    seat: int
    rules: Rules
    round_index: int
    direction: Direction
    phase: Phase
    hand: tuple[Card, ...]
    passed: tuple[Card, ...] | None  # what this seat passed, once it has
    received: tuple[Card, ...] | None  # what it received, once the exchange is done
    leader: int | None
    turn: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    hearts_broken: bool
    voids: tuple[frozenset[Suit], ...]  # suits each seat has shown it lacks
    points: tuple[int, ...]  # taken so far this round, completed tricks only
    scores: tuple[int, ...]  # game totals before this round
    kitty: tuple[Card, ...]  # once it has been taken and turned up
    legal: tuple[Card, ...]  # this seat's legal cards when it is to move

    def __init__(self, seat: int, rules: Rules, round_index: int, direction: Direction,
                 phase: Phase, hand: tuple[Card, ...], passed: tuple[Card, ...] | None,
                 received: tuple[Card, ...] | None, leader: int | None, turn: int | None,
                 trick: tuple[Card, ...], tricks: tuple[Trick, ...], hearts_broken: bool,
                 voids: tuple[frozenset[Suit], ...], points: tuple[int, ...],
                 scores: tuple[int, ...], kitty: tuple[Card, ...], legal: tuple[Card, ...]):
        put = object.__setattr__
        put(self, "seat", seat)
        put(self, "rules", rules)
        put(self, "round_index", round_index)
        put(self, "direction", direction)
        put(self, "phase", phase)
        put(self, "hand", hand)
        put(self, "passed", passed)
        put(self, "received", received)
        put(self, "leader", leader)
        put(self, "turn", turn)
        put(self, "trick", trick)
        put(self, "tricks", tricks)
        put(self, "hearts_broken", hearts_broken)
        put(self, "voids", voids)
        put(self, "points", points)
        put(self, "scores", scores)
        put(self, "kitty", kitty)
        put(self, "legal", legal)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def passed_to(self) -> int | None:
        if self.direction is Direction.NONE:
            return None
        return self.direction.receiver(self.seat, self.players)

    @property
    def received_from(self) -> int | None:
        if self.direction is Direction.NONE:
            return None
        return next(s for s in range(self.players)
                    if self.direction.receiver(s, self.players) == self.seat)

    def trick_plays(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` for each card of the trick in progress, as played (none outside it)."""
        return _seated(self.leader, self.trick, self.players)

    def played(self) -> tuple[Card, ...]:
        """Every card played this round, the trick in progress included (a card may
        show twice with two decks)."""
        out = list(self.trick)
        for tr in self.tricks:
            out.extend(tr.cards)
        return tuple(out)

    def played_mask(self) -> int:
        m = mask_of(self.trick)
        for tr in self.tricks:
            m |= mask_of(tr.cards)
        return m

    def unseen(self) -> tuple[Card, ...]:
        """Cards in play this seat cannot place: in other hands or the unseen kitty."""
        if self.rules.decks == 1:
            known = mask_of(self.hand) | self.played_mask() | mask_of(self.kitty)
            return cards_of(self.rules.in_play_mask & ~known)
        left = list(self.rules.copies)
        for c in self.hand + self.played() + self.kitty:
            left[c] -= 1
        return tuple(CARDS[c] for c in range(52) for _ in range(left[c]))

    def takings(self) -> Takings:
        """What the completed tricks gave each seat, public to all: the one reading of the
        tricks that a round rebuilt from the view (:meth:`Round.seen_by`) and a playout from
        it (``fast.Position.from_view``, ``fast.MultiPosition.from_view``) start from."""
        n = self.rules.players
        taken = [0] * n
        twice = [0] * n
        aside: list[Card] = []
        for tr in self.tricks:
            winner = tr.winner
            if winner is None:  # two decks: set aside, for the next trick's winner
                aside += tr.cards + tr.kitty
                continue
            got = taken[winner]
            for c in tr.cards + tr.kitty + tr.carried:
                bit = 1 << c
                if got & bit:
                    twice[winner] |= bit
                got |= bit
            taken[winner] = got
            aside = []
        return Takings(taken, twice, aside)

    def position(self) -> str:
        """This view as a position text (``hearts@SEAT ...``, docs/position.md): what the seat
        may know and nothing else; :meth:`from_position` reads it back to an equal view."""
        from .position import Plays, PositionText, write

        plays = None
        if self.phase is not Phase.PASS:
            first = self.tricks[0].leader if self.tricks else self.leader
            tricks = tuple(tr.cards for tr in self.tricks) + ((self.trick,) if self.trick else ())
            plays = Plays(first if first is not None else 0, tricks, self.tricks[0].kitty if self.tricks else ())
        return write(PositionText(self.seat, self.rules, self.round_index, None, self.scores, None,
                                  (self.hand,), (self.passed, self.received), plays, self.turn,
                                  "pending" if self.phase is Phase.MOON else None))

    @classmethod
    def from_position(cls, text: str) -> SeatView:
        """The seat's view a position text ``hearts@SEAT ...`` holds (a ``PositionTextError``
        naming the bad field when it holds none)."""
        from .position import PositionTextError, parse, read_seat

        p = parse(text)
        if p.seat is None:
            raise PositionTextError("position_not_seat", field="kind")
        said = read_seat(p)
        read = said.plays
        rules = p.rules
        view = cls(p.seat, rules, p.round_index, rules.pass_direction(p.round_index), Phase(said.phase),
                   tuple(sorted(p.hands[0])), p.passes[0], p.passes[1], said.leader, said.turn,
                   read.trick if read else (), tuple(Trick(*x) for x in read.tricks) if read else (),
                   read.broken if read else False,
                   tuple(_VOID_SETS[v] for v in (read.voids if read else [0] * rules.players)),
                   tuple(read.points) if read else (0,) * rules.players, p.scores,
                   read.tricks[0][4] if read and read.tricks else (), ())
        if view.phase is Phase.PLAY and view.turn == view.seat:  # its legal cards, as the engine says
            legal = Round.seen_by(view).legal_cards()
            view = cls(view.seat, rules, view.round_index, view.direction, view.phase, view.hand, view.passed,
                       view.received, view.leader, view.turn, view.trick, view.tricks, view.hearts_broken,
                       view.voids, view.points, view.scores, view.kitty, legal)
        return view


class Takings(NamedTuple):
    """What the completed tricks of a round gave: each seat's cards taken (``taken``: at least
    once; ``twice``: both copies, two decks) and the cards of set-aside tricks still waiting
    for the next trick's winner (``aside``, two decks)."""

    taken: list[int]
    twice: list[int]
    aside: list[Card]


# Enum members cost an attribute lookup through the enum class; the hot paths use these.
_PASS, _PLAY, _OVER = Phase.PASS, Phase.PLAY, Phase.OVER
_BIT_OF: dict[int | str, int] = {c: 1 << c for c in range(52)}


def pair_of(cards: Iterable[int | str]) -> tuple[int, int]:
    """A hand that may hold a card twice (two decks) as two masks: the cards held at
    least once, and those held twice. Legality reads only the first."""
    once = twice = 0
    for c in cards:
        bit = 1 << (parse_card(c) if isinstance(c, str) else c)
        if once & bit:
            twice |= bit
        once |= bit
    return once, twice


def cards_of_pair(once: int, twice: int) -> tuple[Card, ...]:
    """The cards of a hand pair, sorted, a card held twice written twice."""
    if not twice:
        return cards_of(once)
    return tuple(sorted(cards_of(once) + cards_of(twice)))


def _hand_mask(cards: Iterable[int | str]) -> int:
    """The mask of ``cards`` (ints or card names); a repeated card shows as a smaller
    hand than the list, which ``Round._check_hands`` refuses."""
    try:
        return reduce(or_, map(_BIT_OF.__getitem__, cards), 0)  # ints 0-51: no Python loop
    except (KeyError, TypeError):
        return mask_of(parse_card(c) if isinstance(c, str) else c for c in cards)


def _listed(cards: Iterable[int | str]) -> Sequence[int | str]:
    """``cards`` as a sequence, read once (a hand may come as any iterable)."""
    return cards if isinstance(cards, (list, tuple, bytes)) else list(cards)


def _seated(leader: int | None, trick: Sequence[Card], players: int) -> list[tuple[int, Card]]:
    """The trick in progress as ``(seat, card)`` pairs (see :meth:`Trick.plays`): a trick
    on the table has a leader."""
    if not trick or leader is None:
        return []
    return [((leader + i) % players, c) for i, c in enumerate(trick)]


class PhaseError(HeartsError, RuntimeError):
    """A question the round or the game has no answer to in its phase (the seat to move once
    it is over, the result before, a move after the end of the game): a caller's mistake, so
    also a ``RuntimeError`` as it always was, and a :class:`HeartsError` with its sentence, as
    every error from the library's face is."""


class SeatError(HeartsError, IndexError):
    """A seat that is not at the table (``view(9)``, ``view(-1)``): a :class:`HeartsError`,
    and an ``IndexError`` as a list's index out of range is."""

    def __init__(self, seat: object, players: int):
        self.seat = seat
        super().__init__("library_no_seat", seat=str(seat), last=players - 1)


class NoMoveError(HeartsError, IndexError):
    """:meth:`Game.pop` or :meth:`Game.peek` before any move: a :class:`HeartsError`, and an
    ``IndexError`` as an empty list's ``pop`` is (python-chess's ``pop`` too)."""

    def __init__(self) -> None:
        super().__init__("library_no_move")


class DealError(HeartsError):
    """Hands given for a round that are not a deal of its rule set (``Game.at_round``)."""


class DealtRound:
    """A round as dealt, before its first move: the hands, the kitty, and a blank state of
    play; and the ways to build one (from a game code, from given hands, from a seat's
    view). :class:`Round` plays it, as python-chess's ``Board`` plays a ``BaseBoard``'s
    pieces; with two decks :class:`TwoDeckRound` overrides the dealing steps."""

    two = False  # a hand may hold a card twice (TwoDeckRound)

    rules: Rules
    players: int
    round_index: int
    dealer: int
    hands: list[int]  # the cards each seat holds at least once: what legality reads
    twice: list[int]  # two decks: the cards each seat holds twice
    dealt: tuple[int, ...]
    dealt_twice: tuple[int, ...]
    kitty_mask: int
    kitty_twice: int
    kitty_taken: bool
    set_aside: list[Card]  # two decks: cancelled tricks waiting for a winner
    direction: Direction
    scores_before: tuple[int, ...]
    passes: list[tuple[Card, ...] | None]
    received: list[tuple[Card, ...] | None]
    trick: list[Card]
    tricks: list[Trick]
    leader: int | None  # who led the trick in play: None outside the play phase
    turn: int | None  # who passes, plays or chooses the moon next: None once over
    phase: Phase
    hearts_broken: bool
    taken: list[int]
    taken_twice: list[int]  # two decks: cards a seat took both copies of
    points: list[int]
    voids: list[int]  # bit s set: the seat showed it lacks suit s
    result: RoundResult | None  # once over
    _legal: int | None  # legal_mask()'s cache
    _pts: tuple[int, ...]
    _breaks: int

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Iterable[int | str]],
        *,
        kitty: Iterable[int | str] | None = None,
        direction: Direction | str | None = None,
        round_index: int = 0,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.players = n
        self.round_index = round_index
        self.dealer = round_index % n if dealer is None else dealer
        listed = [_listed(h) for h in hands]
        self._deal_hands(listed)
        self.dealt = tuple(self.hands)
        self.dealt_twice = tuple(self.twice)
        self._deal_kitty(listed, kitty)
        self._blank(direction, scores)
        if self.direction is Direction.NONE:
            self.phase = Phase.PLAY
            self._start_play()
        else:
            self.phase = Phase.PASS
            self.turn = 0

    def _deal_hands(self, hands: list[Sequence[int | str]]) -> None:
        """Set the hands (refused if they are not a deal of the cards in play)."""
        masks = [_hand_mask(h) for h in hands]
        self._check_hands(masks, hands)
        self.hands = masks
        self.twice = [0] * self.players

    def _deal_kitty(self, hands: list[Sequence[int | str]], kitty: Iterable[int | str] | None) -> None:
        """Set the kitty: ``kitty``, or what the hands leave of the cards in play."""
        if kitty is None:
            used = 0
            for m in self.hands:
                used |= m
            self.kitty_mask = self.rules.in_play_mask & ~used
        else:
            self.kitty_mask = _hand_mask(kitty)
        self.kitty_twice = 0

    def _blank(self, direction: Direction | str | None, scores: Sequence[int] | None) -> None:
        """Everything but the cards, as before the first pass or card (no phase yet)."""
        rules = self.rules
        n = self.players
        self.kitty_taken = False
        self.set_aside = []
        if direction is None:
            direction = rules.pass_direction(self.round_index)
        elif direction.__class__ is not Direction:
            direction = Direction(direction)
        self.direction = direction
        self.scores_before = tuple(scores) if scores is not None else (0,) * n
        self.passes = [None] * n
        self.received = [None] * n
        self.trick = []
        self.tricks = []
        self.leader = None
        self.turn = None
        self.hearts_broken = False
        self.taken = [0] * n
        self.taken_twice = [0] * n
        self.points = [0] * n
        self.voids = [0] * n
        self.result = None
        self._legal = None
        # rule facts, looked up once
        self._pts = rules.points
        self._breaks = rules.breaks_mask

    @classmethod
    def seen_by(cls, view: SeatView) -> Round:
        """The round as ``view``'s seat knows it: the other hands (and a kitty not yet turned
        up) unknown, so empty. For that seat it answers what the engine answers of the real
        round, from nothing more than its view: its legal cards, why another card is not,
        what a card would certainly do (``hearts join`` draws and checks a seat with it; a
        test holds it equal to the real round's). Not for playing on: the other hands are gone."""
        rules = view.rules
        n = rules.players
        seat = view.seat
        new: Round = object.__new__(TwoDeckRound if rules.decks > 1 else Round)
        new.rules = rules
        new.players = n
        new.round_index = view.round_index
        new.dealer = view.round_index % n
        new._blank(view.direction, view.scores)
        new.hands = [0] * n
        new.twice = [0] * n
        new.hands[seat], new.twice[seat] = new._pair(view.hand)
        new.dealt, new.dealt_twice = tuple(new.hands), tuple(new.twice)
        new.kitty_taken = bool(view.kitty)
        if new.kitty_taken:
            new.kitty_mask, new.kitty_twice = new._pair(view.kitty)
        else:  # there may be one, unseen
            new.kitty_mask, new.kitty_twice = (1 if rules.kitty_size else 0), 0
        new.taken, new.taken_twice, new.set_aside = view.takings()
        new.passes[seat] = view.passed
        new.received[seat] = view.received
        new.trick = list(view.trick)
        new.tricks = list(view.tricks)
        new.leader = view.leader
        new.turn = view.turn
        new.hearts_broken = view.hearts_broken
        new.points = list(view.points)
        new.voids = [sum(1 << int(s) for s in v) for v in view.voids]
        new.phase = view.phase
        return new

    def _pair(self, cards: Iterable[int]) -> tuple[int, int]:
        """``cards`` as (held at least once, held twice): one deck, a mask and nothing twice."""
        return mask_of(cards), 0

    def _check_hands(self, masks: list[int], hands: list[Sequence[int | str]]) -> None:
        r = self.rules
        if len(masks) != r.players:
            raise ValueError(f"expected {r.players} hands, got {len(masks)}")
        seen = 0
        for seat, (m, h) in enumerate(zip(masks, hands)):
            size = m.bit_count()
            if size != r.hand_size or size != len(h):
                raise ValueError(f"seat {seat}'s hand must be {r.hand_size} different cards")
            if m & seen or m & ~r.in_play_mask:
                raise ValueError(f"seat {seat}'s hand repeats a card or holds one out of play")
            seen |= m

    def count(self, seat: int, card: int) -> int:
        """How many copies of ``card`` the seat holds (0, 1, or 2 with two decks)."""
        return (self.hands[seat] >> card & 1) + (self.twice[seat] >> card & 1)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of_pair(self.hands[seat], self.twice[seat])

    @classmethod
    def deal(cls, rules: Rules, code: str, round_index: int = 0,
             scores: Sequence[int] | None = None,
             direction: Direction | str | None = None) -> Self:
        """Round ``round_index`` (0-based) of the game with code ``code``.

        ``direction`` overrides the pass cycle (for study positions); the cards
        dealt never depend on it.
        """
        code = canonical_code(code)
        in_play = [c for c in range(52) for _ in range(rules.copies[c])]
        hands, kitty, dealer = deal_cards(code, in_play, rules.players, rules.hand_size, round_index)
        return cls(rules, hands, kitty=kitty, direction=direction, round_index=round_index,
                   dealer=dealer, scores=scores)

    def _start_play(self) -> None:
        """Open the play: the first leader leads (after the deal, or after the pass)."""
        self.leader = core.first_leader(self.rules, self.hands, self.dealer)
        self.turn = self.leader
        self._legal = None


class Round(DealtRound):
    """One deal played: the pass, every trick, and the score (:class:`DealtRound` deals it).

    Make one with :meth:`Round.deal` (from a game code) or directly from
    hands (any position, for study or the engine protocol). With two decks
    ``Round(...)`` makes a :class:`TwoDeckRound`, which overrides the steps
    where a hand may hold a card twice and a trick may be cancelled.
    """

    def __new__(cls, rules: Rules | None = None, *args: object, **kwargs: object) -> Round:
        """``Round(rules, ...)`` with two decks is a :class:`TwoDeckRound`."""
        two = cls is Round and rules is not None and rules.decks > 1
        return object.__new__(TwoDeckRound if two else cls)

    @property
    def mover(self) -> int:
        """The seat to move (to pass, to play, or the shooter to choose); a
        :class:`PhaseError` once the round is over."""
        seat = self.turn
        if seat is None:
            raise PhaseError("phase_round_over")
        return seat

    @property
    def outcome(self) -> RoundResult:
        """The finished round's :attr:`result`; a :class:`PhaseError` while it is being played."""
        result = self.result
        if result is None:
            raise PhaseError("phase_no_result")
        return result

    def trick_plays(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` for each card of the trick in progress, as played (none outside it)."""
        return _seated(self.leader, self.trick, self.players)

    # ------------------------------------------------------------ passing

    def pass_cards(self, seat: int, cards: Iterable[int | str]) -> None:
        """Choose ``seat``'s pass; the exchange happens once every seat has passed."""
        if self.phase is not _PASS:
            raise PassError(seat, "no_pass_round" if self.direction is Direction.NONE else "wrong_phase_play")
        if not 0 <= seat < self.players:
            raise PassError(seat, "bad_seat", seat=seat, players=self.players)
        if self.passes[seat] is not None:
            raise PassError(seat, "pass_twice", seat=seat)
        chosen = [parse_card(c) if isinstance(c, str) else CARDS[c] for c in cards]
        dup = next((c for c in chosen if chosen.count(c) > max(1, self.count(seat, c))), None)
        if dup is not None:
            raise PassError(seat, "pass_duplicate", card=dup)
        if len(chosen) != self.rules.pass_count:
            raise PassError(seat, "pass_count", count=self.rules.pass_count, given=len(chosen))
        for c in chosen:
            if not self.hands[seat] >> c & 1:
                raise PassError(seat, "not_in_hand", card=c)
        self.passes[seat] = tuple(sorted(chosen))
        passed = [p for p in self.passes if p is not None]
        if len(passed) == self.players:
            self._exchange(passed)
        else:
            self.turn = self.passes.index(None)

    def _exchange(self, passes: list[tuple[Card, ...]]) -> None:
        n = self.players
        offset = self.direction.receiver(0, n)
        for seat, cards in enumerate(passes):
            self._take_out(seat, cards)
        for seat, cards in enumerate(passes):
            to = (seat + offset) % n
            self._put_in(to, cards)
            self.received[to] = cards
        self.phase = Phase.PLAY
        self._start_play()

    def _take_out(self, seat: int, cards: tuple[Card, ...]) -> None:
        self.hands[seat] &= ~mask_of(cards)

    def _put_in(self, seat: int, cards: tuple[Card, ...]) -> None:
        self.hands[seat] |= mask_of(cards)

    # ------------------------------------------------------------ legality

    def legal_mask(self) -> int:
        """The legal cards of the seat to move, as a mask (0 outside the play phase)."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.turn
        if self.phase is not _PLAY or seat is None:
            return 0
        trick = self.trick
        legal = self._legal = core.legal(self.rules, self.hands[seat],
                                         trick[0] // 13 if trick else -1, not self.tricks,
                                         self.hearts_broken, self.hands)
        return legal

    def legal_cards(self) -> tuple[Card, ...]:
        return cards_of(self.legal_mask())

    def is_legal(self, card: int | str) -> bool:
        c = parse_card(card) if isinstance(card, str) else card
        return bool(self.legal_mask() >> c & 1)

    def why(self, card: int | str, seat: int | None = None) -> Verdict:
        """Whether ``card`` may be played now by ``seat`` (default: the seat to move), and why:
        a card out of turn or out of hand here, the rest by :func:`.verdicts.judge`."""
        from .verdicts import Reason, Verdict, judge  # what a card would do: asked of a few paths only

        c = parse_card(card) if isinstance(card, str) else CARDS[card]
        if seat is None:
            seat = self.turn
        hand = self.hands[seat] if seat is not None else 0
        if not hand >> c & 1:
            return Verdict(c, False, Reason("not_in_hand", c))
        if self.phase is not Phase.PLAY or seat != self.turn:
            detail = "wrong_phase_pass" if self.phase is Phase.PASS else (
                "wrong_phase_over" if self.phase in (Phase.OVER, Phase.MOON) else "not_your_turn_card")
            return Verdict(c, False, Reason("wrong_phase", c, detail=detail))
        return judge(self, c)

    # ------------------------------------------------------------ playing

    def play(self, card: int | str) -> Trick | None:
        """Play ``card`` for the seat to move; returns the trick if this card completed one."""
        c = parse_card(card) if isinstance(card, str) else card
        legal = self._legal  # legal_mask()'s cache, usually filled by legal_cards()
        if legal is None:
            legal = self.legal_mask()
        if self.phase is not _PLAY or not legal >> c & 1:
            verdict = self.why(c)
            assert verdict.reason is not None
            raise IllegalMove(verdict.reason)
        return self.play_unchecked(CARDS[c])

    def play_unchecked(self, c: Card) -> Trick | None:
        """Play a card known to be legal, without checking: the fast path for bots and playouts.

        Like python-chess's ``push`` beside ``push_san``: an illegal card here
        corrupts the round, so only pass cards from :meth:`legal_mask`.
        """
        seat, leader = self.turn, self.leader
        if seat is None or leader is None:
            raise PhaseError("phase_no_card")
        n = self.players
        self.hands[seat] &= ~(1 << c)
        if not self._lay(seat, c):
            return None
        trick = self.trick
        # the trick is complete
        best = core.trick_winner(trick)
        won = 0  # the trick's cards as a mask
        for x in trick:
            won |= 1 << x
        winner = (leader + best) % n
        pts = self._pts
        points = 0
        for x in trick:
            points += pts[x]
        kitty: tuple[Card, ...] = ()
        if not self.tricks and self.kitty_mask:
            kitty = cards_of(self.kitty_mask)
            points += sum(pts[x] for x in kitty)
            self.taken[winner] |= self.kitty_mask
            self.kitty_taken = True
        done = Trick(leader, tuple(trick), winner, points, kitty)
        self.tricks.append(done)
        self.taken[winner] |= won
        self.points[winner] += points
        self.trick = []
        self.leader = winner
        self.turn = winner
        if not self.hands[winner]:
            self._finish()
        return done

    def _lay(self, seat: int, c: Card) -> bool:
        """Lay ``c`` from ``seat`` on the trick (a void shown, hearts broken); True once the
        trick is complete, else the turn passes on. One deck or two, the same."""
        trick = self.trick
        if trick and c // 13 != trick[0] // 13:
            self.voids[seat] |= 1 << (trick[0] // 13)
        if not self.hearts_broken and self._breaks >> c & 1:
            self.hearts_broken = True
        trick.append(c)
        self._legal = None
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
            return False
        return True

    def _finish(self) -> None:
        self.leader = None
        shooter = moon_shooter(self.rules, self.taken, self.taken_twice)
        sun = core.sun_taker(self.rules, self.taken, self.taken_twice)
        if shooter is not None and self.rules.moon is Moon.SHOOTER_CHOICE and sun is None:
            # the shooter decides how the moon scores: a move of its own (choose_moon)
            self.phase = Phase.MOON
            self.turn = shooter
            return
        self.phase = Phase.OVER
        self.turn = None
        self.result = score_round(self.rules, self.taken, self.points, self.scores_before,
                                  twice=self.taken_twice)

    # ------------------------------------------------------------ the shooter's choice

    @property
    def moon_pending(self) -> bool:
        """Whether the round waits for its shooter to choose how the moon scores."""
        return self.phase is Phase.MOON

    def choose_moon(self, choice: Moon | str, seat: int | None = None) -> RoundResult:
        """The shooter's choice: ``"others"`` (everybody else +26) or ``"shooter_minus"``
        (the shooter -26). ``seat``, when given, must be the shooter."""
        if self.phase is not Phase.MOON:
            raise MoonChoiceError(-1 if seat is None else seat, "moon_choice_not_now")
        shooter = self.mover
        if seat is not None and seat != shooter:
            raise MoonChoiceError(seat, "moon_choice_not_shooter", shooter=shooter)
        if choice not in MOON_CHOICES:
            raise MoonChoiceError(shooter, "moon_choice_bad", text=str(choice)[:30])
        self.phase = Phase.OVER
        self.turn = None
        self.result = score_round(self.rules, self.taken, self.points, self.scores_before, Moon(choice),
                                  twice=self.taken_twice)
        return self.result

    def moon_outcomes(self) -> dict[Moon, tuple[int, ...]]:
        """While the choice is pending: the round's scores under each choice."""
        return {c: moon_scores(self.rules, self.mover, self.taken, c, self.taken_twice) for c in MOON_CHOICES}

    # ------------------------------------------------------------ questions

    @property
    def first_trick(self) -> bool:
        return not self.tricks

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own hand and pass, and everything public."""
        exchanged = self.phase is not Phase.PASS
        return SeatView(
            seat=seat,
            rules=self.rules,
            round_index=self.round_index,
            direction=self.direction,
            phase=self.phase,
            hand=cards_of_pair(self.hands[seat], self.twice[seat]),
            passed=self.passes[seat],
            received=self.received[seat] if exchanged else None,
            leader=self.leader,
            turn=self.turn,
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            hearts_broken=self.hearts_broken,
            voids=tuple(map(_VOID_SETS.__getitem__, self.voids)),
            points=tuple(self.points),
            scores=self.scores_before,
            kitty=cards_of_pair(self.kitty_mask, self.kitty_twice) if self.kitty_taken else (),
            legal=self.legal_cards() if seat == self.turn and self.phase is Phase.PLAY else (),
        )

    def copy(self) -> Round:
        """An independent copy (for search: play it out without touching this one)."""
        new: Round = object.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new.hands = list(self.hands)
        new.twice = list(self.twice)
        new.taken_twice = list(self.taken_twice)
        new.set_aside = list(self.set_aside)
        new.passes = list(self.passes)
        new.received = list(self.received)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.taken = list(self.taken)
        new.points = list(self.points)
        new.voids = list(self.voids)
        return new


class TwoDeckRound(Round):
    """Cancellation Hearts (two decks): the steps of :class:`Round` that differ. A hand is
    two masks (held at least once, held twice), identical cards in a trick cancel, and a
    trick whose led suit all cancels is set aside for the next trick's winner."""

    two = True

    def _deal_hands(self, hands: list[Sequence[int | str]]) -> None:
        pairs = [pair_of(h) for h in hands]
        self.twice = [p[1] for p in pairs]
        self._check_two(hands)
        self.hands = [p[0] for p in pairs]

    def _deal_kitty(self, hands: list[Sequence[int | str]], kitty: Iterable[int | str] | None) -> None:
        if kitty is None:
            left = list(self.rules.copies)
            for h in hands:
                for c in h:
                    left[parse_card(c) if isinstance(c, str) else c] -= 1
            kitty = [c for c in range(52) for _ in range(left[c])]
        self.kitty_mask, self.kitty_twice = pair_of(kitty)

    def _pair(self, cards: Iterable[int]) -> tuple[int, int]:
        return pair_of(cards)

    def _check_two(self, hands: list[Sequence[int | str]]) -> None:
        r = self.rules
        if len(hands) != r.players:
            raise ValueError(f"expected {r.players} hands, got {len(hands)}")
        left = list(r.copies)
        for seat, h in enumerate(hands):
            if len(h) != r.hand_size:
                raise ValueError(f"seat {seat}'s hand must be {r.hand_size} cards")
            for x in h:
                c = parse_card(x) if isinstance(x, str) else x
                left[c] -= 1
                if left[c] < 0:
                    raise ValueError(f"seat {seat}'s hand holds a card more often than it is in play")

    def _add(self, seat: int, c: int) -> None:
        bit = 1 << c
        if self.hands[seat] & bit:
            self.twice[seat] |= bit
        self.hands[seat] |= bit

    def _remove(self, seat: int, c: int) -> None:
        bit = 1 << c
        if self.twice[seat] & bit:
            self.twice[seat] &= ~bit
        else:
            self.hands[seat] &= ~bit

    def _take_out(self, seat: int, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self._remove(seat, c)

    def _put_in(self, seat: int, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self._add(seat, c)

    def play_unchecked(self, c: Card) -> Trick | None:
        """A hand pair, and cancellation (core.winner): a trick whose led suit all cancels
        is set aside, and its leader leads again."""
        seat, leader = self.turn, self.leader
        if seat is None or leader is None:
            raise PhaseError("phase_no_card")
        self._remove(seat, c)
        if not self._lay(seat, c):
            return None
        trick = self.trick
        last = not self.hands[leader]
        best = core.winner(self.rules, trick, last)
        kitty: tuple[Card, ...] = ()
        if not self.tricks and self.kitty_mask:
            kitty = cards_of_pair(self.kitty_mask, self.kitty_twice)
            self.kitty_taken = True
        self.trick = []
        self.turn = leader
        if best is None:  # every card of the led suit cancelled: set aside, same leader
            self.set_aside.extend(trick)
            self.set_aside.extend(kitty)
            done = Trick(leader, tuple(trick), None, self._sum_points(trick, kitty), kitty)
            self.tricks.append(done)
            return done
        return self._take_trick(leader, (leader + best) % self.players, trick, kitty, last)

    def _sum_points(self, *groups: Sequence[int]) -> int:
        pts = self._pts
        return sum(pts[x] for cards in groups for x in cards)

    def _take_trick(self, leader: int, winner: int, trick: list[Card], kitty: tuple[Card, ...],
                    last: bool) -> Trick:
        """``winner`` takes the trick, the kitty and the cards set aside before it."""
        carried = tuple(self.set_aside)
        self.set_aside = []
        points = self._sum_points(trick, kitty, carried)
        done = Trick(leader, tuple(trick), winner, points, kitty, carried)
        self.tricks.append(done)
        for x in trick + list(kitty) + list(carried):
            bit = 1 << x
            if self.taken[winner] & bit:
                self.taken_twice[winner] |= bit
            self.taken[winner] |= bit
        self.points[winner] += points
        self.leader = winner
        self.turn = winner
        if last:
            self._finish()
        return done


def score_round(rules: Rules, taken: Sequence[int], points: Sequence[int],
                scores_before: Sequence[int], choice: Moon | str | None = None,
                twice: Sequence[int] = ()) -> RoundResult:
    """Apply the moon and the J♦ to what each seat took (:func:`core.score_round`);
    ``choice`` is the shooter's, under ``moon: shooter_choice``; ``twice`` the cards
    each seat took twice (two decks)."""
    res = core.score_round(rules, taken, points, scores_before, choice, twice)
    return RoundResult(tuple(points), res.scores, res.shooter, res.moon, res.sun, res.no_trick)


# the shooter's choice, as the rules of scoring (core) say it
moon_shooter = core.shooter
moon_scores = core.moon_scores
better_moon_choice = core.better_moon_choice


class Step(Frozen):
    """One move made in a game (:attr:`Game.move_stack`): a pass, a card played, or the
    shooter's choice of how the moon scores. (A :class:`Frozen`, not a NamedTuple: the
    command line pays for each class it defines at start-up.)"""

    __match_args__ = __slots__ = ("kind", "seat", "cards", "moon")
    kind: str  # "pass", "play" or "moon"
    seat: int
    cards: tuple[Card, ...]  # the pass's cards, or the one card played
    moon: Moon | None  # the shooter's choice

    def __init__(self, kind: str, seat: int, cards: tuple[Card, ...] = (), moon: Moon | None = None):
        for name, value in zip(self.__slots__, (kind, seat, cards, moon)):
            object.__setattr__(self, name, value)

    def make(self, rnd: Round) -> None:
        """Make this move again on ``rnd`` (a round as it was before it: :meth:`Game.pop`)."""
        if self.kind == "pass":
            rnd.pass_cards(self.seat, self.cards)
        elif self.kind == "play":
            rnd.play(self.cards[0])
        elif self.moon is not None:
            rnd.choose_moon(self.moon, self.seat)


class Outcome(Frozen):
    """A finished game: the seats that share first place, every seat's total, how many rounds."""

    __match_args__ = __slots__ = ("winners", "totals", "rounds")
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int

    def __init__(self, winners: tuple[int, ...], totals: tuple[int, ...], rounds: int):
        for name, value in zip(self.__slots__, (winners, totals, rounds)):
            object.__setattr__(self, name, value)


class _Undo:
    """What :meth:`Game.pop` needs to take a move back exactly: the game as it was before it.
    The round is copied once, before its first move (``start``, shared by its moves): a pop
    makes the round's other moves again on a copy of it, so a move costs no copy."""

    __slots__ = ("extra_round", "results", "rounds", "start", "step", "target_reached", "totals")

    def __init__(self, step: Step, start: Round, rounds: int, totals: tuple[int, ...], results: int,
                 target_reached: bool, extra_round: bool):
        self.step = step
        self.start = start  # the round moved in, as it was before its first move on the stack
        self.rounds = rounds
        self.totals = totals
        self.results = results
        self.target_reached = target_reached
        self.extra_round = extra_round


def card_of(card: Card | int | str) -> Card:
    """A card in any notation people type (``QS``, ``10h``, ``Q♠``, ``dama de picas``), or a
    :class:`Card` or index as it is; :class:`~hearts_cli.model.cards.CardParseError` otherwise."""
    return parse_card(card) if isinstance(card, str) else Card(card)


class LegalMoves:
    """The cards the seat to move may pass or play now, read when asked (a view of the game,
    as python-chess's ``board.legal_moves``): ``"QS" in game.legal_moves`` (any notation),
    ``len``, iteration in canonical order, ``bool``. No card during the shooter's choice
    (its moves are not cards) and once the game is over."""

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        self._game = game

    def mask(self) -> int:
        rnd = self._game.round
        if rnd.phase is _PLAY:
            return rnd.legal_mask()
        if rnd.phase is _PASS and rnd.turn is not None:
            return rnd.hands[rnd.turn]  # any card held may be passed
        return 0

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, (int, str)):
            return False
        try:
            c = card_of(card)
        except ValueError:  # not a card at all (a HeartsError is a ValueError too)
            return False
        return bool(self.mask() >> c & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask()))

    def __len__(self) -> int:
        return self.mask().bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


class Game:
    """Rounds until somebody reaches the target, with the rule set's tie policy.

    Every move, made through :meth:`push` / :meth:`push_pass` / :meth:`push_moon` or
    through :meth:`play` / :meth:`pass_cards` / :meth:`choose_moon`, goes on
    :attr:`move_stack`, and :meth:`pop` takes the last one back exactly (across a trick,
    the exchange of a pass, the end of a round or of the game). A round object keeps its
    identity through :meth:`pop`: it is put back as it was, in place.
    """

    def __init__(self, rules: Rules | str, code: str):
        """``rules`` is a :class:`Rules`, a preset's name (``"quick"``, ``"omnibus"``) or a
        rules text as positions and records write it (``"quick+target=30"``)."""
        rules = _rules_of(rules)
        self.rules = rules
        self.code: str = canonical_code(code)
        n = rules.players
        self.totals: tuple[int, ...] = (0,) * n  # each a new tuple: what a script holds never changes
        self.results: tuple[RoundResult, ...] = ()
        self.rounds: list[Round] = []
        self.target_reached = False
        self.extra_round = False
        self.winners: tuple[int, ...] = ()
        self.over = False
        self._undo: list[_Undo] = []
        self._deal_next()

    @property
    def round(self) -> Round:
        """The round being played (the last one, once the game is over)."""
        return self.rounds[-1]

    def _deal_next(self) -> None:
        self.rounds.append(Round.deal(self.rules, self.code, len(self.rounds), self.totals))

    def _seat(self, seat: int) -> int:
        """``seat`` if it is at the table; :class:`SeatError` otherwise (``-1`` is no seat)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise SeatError(seat, self.rules.players)
        return seat

    def _not_over(self) -> None:
        if self.over:
            raise PhaseError("phase_game_over")

    # ------------------------------------------------------------ moves (each one undoable)

    def _start(self) -> Round:
        """The round being played as it was before its first move on the stack (copied now,
        before that move, when there is none yet)."""
        last = self._undo[-1] if self._undo else None
        if last is not None and last.rounds == len(self.rounds):
            return last.start
        return self.round.copy()

    def _made(self, step: Step, start: Round) -> None:
        """Put a move just made in the round on the stack, with the game as it still is (the
        end of a round is counted after this)."""
        self._undo.append(_Undo(step, start, len(self.rounds), self.totals, len(self.results),
                                self.target_reached, self.extra_round))

    def pass_cards(self, seat: int, cards: Iterable[int | str]) -> None:
        self._not_over()
        rnd, start = self.round, self._start()
        rnd.pass_cards(seat, cards)  # raises before anything changes
        self._made(Step("pass", seat, rnd.passes[seat] or ()), start)

    def play(self, card: int | str) -> Trick | None:
        self._not_over()
        rnd, start = self.round, self._start()
        mover = rnd.mover
        done = rnd.play(card)  # raises before anything changes
        self._made(Step("play", mover, (card_of(card),)), start)
        if rnd.over:
            self._round_over()
        return done

    def choose_moon(self, choice: Moon | str, seat: int | None = None) -> RoundResult:
        """The shooter's choice (see :meth:`Round.choose_moon`); the round then ends."""
        self._not_over()
        rnd, start = self.round, self._start()
        mover = rnd.mover
        result = rnd.choose_moon(choice, seat)
        self._made(Step("moon", mover, (), Moon(choice)), start)
        self._round_over()
        return result

    def push(self, card: Card | int | str) -> Trick | None:
        """Play ``card`` (any notation) for the seat to move; the trick if it completed one.
        A card that may not be played raises :class:`IllegalMove`, with :meth:`why`'s sentence."""
        return self.play(card_of(card))

    def push_pass(self, cards: Iterable[Card | int | str] | str, seat: int | None = None) -> None:
        """Pass ``cards`` (a list, or one text such as ``"QS AS KS"``) for ``seat``: by default
        :attr:`turn`, the first seat that has not passed yet. :class:`PassError` if it cannot."""
        if isinstance(cards, str):
            from ..model.cards import parse_card_list

            chosen = parse_card_list(cards)
        else:
            chosen = [card_of(c) for c in cards]
        if seat is None:  # outside the pass, the round refuses it whatever the seat
            seat = self.round.turn if self.round.phase is _PASS and self.round.turn is not None else -1
        else:
            self._seat(seat)
        self.pass_cards(seat, chosen)

    def push_moon(self, choice: Moon | str) -> RoundResult:
        """The shooter's choice while :attr:`Round.moon_pending`: ``Moon.OTHERS`` or
        ``Moon.SHOOTER_MINUS``; :class:`MoonChoiceError` otherwise."""
        return self.choose_moon(choice)

    def pop(self) -> Step:
        """Take back the last move, exactly; :class:`NoMoveError` (an ``IndexError``) when no
        move was made."""
        if not self._undo:
            raise NoMoveError
        undo = self._undo.pop()
        del self.rounds[undo.rounds:]
        self.results = self.results[:undo.results]
        self.totals = undo.totals
        self.target_reached = undo.target_reached
        self.extra_round = undo.extra_round
        self.winners = ()
        self.over = False
        before = undo.start.copy()  # the round's earlier moves made again on its start
        for kept in self._undo[self._first_of_round():]:
            kept.step.make(before)
        live = self.rounds[-1]
        live.__dict__.clear()  # in place: whoever holds the round sees it as it was
        live.__dict__.update(before.__dict__)
        return undo.step

    def _first_of_round(self) -> int:
        """Where the moves of the round on top of the stack begin."""
        i = len(self._undo)
        while i and self._undo[i - 1].rounds == len(self.rounds):
            i -= 1
        return i

    def peek(self) -> Step:
        """The last move made (what :meth:`pop` would take back); :class:`NoMoveError` (an
        ``IndexError``) before any."""
        if not self._undo:
            raise NoMoveError
        return self._undo[-1].step

    @property
    def move_stack(self) -> tuple[Step, ...]:
        """Every move made, first to last (what :meth:`pop` takes back, from the end)."""
        return tuple(u.step for u in self._undo)

    # ------------------------------------------------------------ questions

    @property
    def phase(self) -> Phase:
        """The phase of the round being played (``Phase.OVER`` once the game is over)."""
        return self.round.phase

    @property
    def turn(self) -> int | None:
        """The seat to move: to pass (the first that has not passed yet), to play, or the
        shooter to choose; None once the game is over."""
        return None if self.over else self.round.turn

    @property
    def mover(self) -> int:
        """:attr:`turn` narrowed: the seat to move, an ``int``; :class:`PhaseError` once the game
        is over (as :attr:`Round.mover` is the round's)."""
        if self.over:
            raise PhaseError("phase_game_over")
        return self.round.mover

    @property
    def outcome(self) -> Outcome | None:
        """None while the game is played; once it is over, who won and the totals."""
        if not self.over:
            return None
        return Outcome(self.winners, self.totals, len(self.rounds))

    @property
    def legal_moves(self) -> LegalMoves:
        """The cards that may be passed or played now (see :class:`LegalMoves`)."""
        return LegalMoves(self)

    def why(self, card: Card | int | str) -> Verdict:
        """Whether the seat to move may move ``card`` now (any notation), and why: in the play
        phase what :meth:`Round.why` says; in the pass phase a card it holds may be passed
        (legal, nothing to say of it) and one it does not hold may not."""
        c = card_of(card)
        rnd = self.round
        if rnd.phase is _PASS and rnd.turn is not None and rnd.hands[rnd.turn] >> c & 1:
            from .verdicts import Verdict

            return Verdict(c, True)
        return rnd.why(c)

    def _round_over(self) -> None:
        result = self.round.outcome
        self.results = (*self.results, result)
        self.totals = tuple(v + x for v, x in zip(self.totals, result.scores))
        if self._game_over():
            self.over = True
            lowest = min(self.totals)
            self.winners = tuple(s for s, v in enumerate(self.totals) if v == lowest)
        else:
            self._deal_next()

    def _game_over(self) -> bool:
        if max(self.totals) >= self.rules.target:
            self.target_reached = True
        if not self.target_reached:
            return False
        lowest = min(self.totals)
        single = self.totals.count(lowest) == 1
        policy = self.rules.ties
        if policy is Ties.SHARE or single:
            return True
        if policy is Ties.ONE_MORE_ROUND:
            if self.extra_round:
                return True  # still tied after the extra round: shared
            self.extra_round = True
            return False
        return False  # until_single: keep dealing

    def tie(self) -> tuple[tuple[int, ...], int, str] | None:
        """After a round that reaches the target with a tie for lowest: the tied seats,
        their total, and what the tie policy does now, ``shared`` (first place shared),
        ``still_tied`` (shared after the extra round), ``one_more_round``,
        ``until_single`` or ``until_single_again`` (another round while still tied)."""
        if not self.target_reached or not self.results:
            return None
        lowest = min(self.totals)
        tied = tuple(s for s, v in enumerate(self.totals) if v == lowest)
        if len(tied) < 2:
            return None
        policy = self.rules.ties
        if self.over:
            return tied, lowest, "still_tied" if policy is Ties.ONE_MORE_ROUND else "shared"
        if policy is Ties.ONE_MORE_ROUND:
            return tied, lowest, "one_more_round"
        before = [v - x for v, x in zip(self.totals, self.results[-1].scores)]
        return tied, lowest, "until_single_again" if max(before) >= self.rules.target else "until_single"

    def standings(self) -> list[tuple[int, int, int]]:
        """``(place, seat, total)``, lowest total first; tied seats share a place."""
        order = sorted(range(len(self.totals)), key=lambda s: (self.totals[s], s))
        out: list[tuple[int, int, int]] = []
        for i, s in enumerate(order):
            place = i + 1
            if i and self.totals[s] == self.totals[order[i - 1]]:
                place = out[-1][0]
            out.append((place, s, self.totals[s]))
        return out

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of the round being played; :class:`SeatError` for a seat
        that is not at the table."""
        return self.round.view(self._seat(seat))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, in canonical order (a card held twice, twice)."""
        return self.round.hand(self._seat(seat))

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick on the table, as played (none between tricks);
        :meth:`trick_plays` says who played each."""
        return tuple(self.round.trick)

    def trick_plays(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` for each card of the trick on the table, as played."""
        return self.round.trick_plays()

    # ------------------------------------------------------------ the position as text (docs/position.md)

    def position(self, seat: int | None = None) -> str:
        """The position as one line of text: the whole table, or what ``seat`` may know
        (its view: no other seat's card); :meth:`from_position` reads it back."""
        if seat is not None:
            return self.view(seat).position()  # (a seat not at the table: SeatError)
        from .position import Plays, PositionText, write

        rd = self.round
        study = not self.code  # dealt from hands given, not from a code
        plays = None
        if rd.phase is not Phase.PASS:
            first = rd.tricks[0].leader if rd.tricks else rd.leader
            tricks = tuple(tr.cards for tr in rd.tricks) + ((tuple(rd.trick),) if rd.trick else ())
            plays = Plays(first if first is not None else 0, tricks)
        moon = "pending" if rd.phase is Phase.MOON else None
        if rd.result is not None and rd.result.moon is not None and self.rules.moon is Moon.SHOOTER_CHOICE:
            moon = str(rd.result.moon)
        hands = tuple(cards_of_pair(h, t) for h, t in zip(rd.dealt, rd.dealt_twice)) if study else ()
        dealer = rd.dealer if study and rd.dealer != rd.round_index % rd.players else None
        return write(PositionText(None, self.rules, rd.round_index, dealer, rd.scores_before,
                                  None if study else self.code, hands, tuple(rd.passes), plays, rd.turn, moon))

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game a whole table's position text holds: its round dealt (from the code, or
        from the hands), then its passes, plays and moon choice made through :meth:`pass_cards`,
        :meth:`play` and :meth:`choose_moon`. A ``PositionTextError`` names the bad field."""
        from .position import PositionTextError, parse

        p = parse(text)
        if p.seat is None:
            return cls._replayed(p)
        raise PositionTextError("position_not_table", field="kind")

    @classmethod
    def at_round(cls, rules: Rules | str, code: str | None, round_index: int = 0,
                 totals: Sequence[int] | None = None, hands: Sequence[Iterable[int | str]] = (),
                 dealer: int | None = None) -> Game:
        """A game about to play round ``round_index`` (0-based) with ``totals`` before it, the
        round dealt from ``code`` or, when it is None, from ``hands`` (``dealer``: the round's
        usual one by default). Earlier rounds are not known: ``rounds`` holds this one in their
        places, so that ``len(rounds)`` still counts them. A game from hands has no code
        (``code`` is ``""``): it ends with this round, as no code deals the next."""
        rules = _rules_of(rules)
        scores = tuple(totals) if totals is not None else (0,) * rules.players
        if len(scores) != rules.players or not all(isinstance(v, int) for v in scores):
            raise DealError("library_bad_totals", players=rules.players)
        if code is not None:
            game = cls(rules, code)
            rd = game.rounds[0] if round_index == 0 and not any(scores) else Round.deal(
                rules, game.code, round_index, scores)
        else:
            try:
                rd = Round(rules, list(hands), round_index=round_index, dealer=dealer, scores=scores)
            except HeartsError:
                raise
            except (ValueError, TypeError, IndexError):  # hands that are not a deal of the cards in play
                raise DealError("proto_bad_hands", players=rules.players, size=rules.hand_size) from None
            game = _Study(rules, _STUDY_CODE)
            game.code = ""
        game.rounds = [rd] * (round_index + 1)
        game.totals = scores
        game.target_reached = max(scores) >= rules.target
        game.extra_round = game.target_reached and rules.ties is Ties.ONE_MORE_ROUND
        return game

    @classmethod
    def _replayed(cls, p: PositionText) -> Game:
        """The game of a whole table's text: dealt, then every move of it made in order."""
        from .position import PositionTextError as Bad

        rules = p.rules
        try:
            game = cls.at_round(rules, p.code, p.round_index, p.scores, p.hands, p.dealer)
        except DealError:  # hands that are not a deal of the cards in play
            raise Bad("position_not_fitting", field="deal") from None
        if game.target_reached and (rules.ties is Ties.SHARE or p.scores.count(min(p.scores)) == 1):
            raise Bad("position_not_fitting", field="scores")  # the game ended before this round
        rd = game.round
        for seat, cards in enumerate(p.passes):
            if cards is not None:
                game._position_move("passes", game.pass_cards, seat, cards)
        if (p.plays is None) != (rd.phase is Phase.PASS):
            raise Bad("position_not_fitting", field="plays")
        if p.plays is not None:
            if rd.leader != p.plays.leader:
                raise Bad("position_leader", field="plays", leader=rd.leader)
            for card in p.plays.cards():
                if game.round is not rd:
                    raise Bad("position_round_over", field="plays")
                game._position_move("plays", game.play, card)
        if p.moon in MOON_CHOICES and rd.phase is Phase.MOON:
            game._position_move("moon", game.choose_moon, p.moon)
        if game.round is not rd:
            raise Bad("position_round_over", field="plays" if p.moon is None else "moon")
        if (p.moon == "pending") != (rd.phase is Phase.MOON) or (p.moon in MOON_CHOICES) != (
                rd.result is not None and rd.result.moon is not None and rules.moon is Moon.SHOOTER_CHOICE):
            raise Bad("position_not_fitting", field="moon")
        if rd.turn != p.turn:
            raise Bad("position_turn", field="turn", turn="-" if rd.turn is None else rd.turn)
        return game

    def _position_move(self, field: str, move: Callable[..., object], *args: object) -> None:
        """One move of a position text made, or the text's error naming its field."""
        from .position import PositionTextError

        try:
            move(*args)
        except HeartsError as e:
            raise PositionTextError("position_field_problem", field=field, problem=e) from None

    def _state(self) -> tuple[object, ...]:
        rd = self.round
        return (self.rules, self.code, rd.round_index, rd.dealer, self.totals, self.over, rd.dealt,
                rd.dealt_twice, rd.kitty_mask, rd.kitty_twice, tuple(rd.passes), tuple(rd.tricks),
                tuple(rd.trick), rd.phase, rd.turn, rd.result)

    def __eq__(self, other: object) -> bool:
        """The same position: rules, code, round, totals, and the round's deal, passes,
        plays, phase and moon (not how it was reached, nor the rounds before)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # a game changes: compared by its state, never hashed


def _rules_of(rules: object) -> Rules:
    """A :class:`Rules`, or the rule set a text names (a preset, or a rules text as positions
    and records write it); anything else is refused as a rule set is."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.from_spec(rules)
    from ..model.rules import RulesError

    raise RulesError("rules", "rules_bad_type", key="rules", expected="type_spec")


_STUDY_CODE = "00000000"  # deals the round a game from hands replaces: never seen


class _Study(Game):
    """A game from a position given by its hands: no code deals the next round, so the game
    ends with this one (the lowest total wins)."""

    def _deal_next(self) -> None:
        if not self.rounds:
            super()._deal_next()
            return
        self.over = True
        lowest = min(self.totals)
        self.winners = tuple(s for s, v in enumerate(self.totals) if v == lowest)
