"""The round as dealt, and the values of a round: its phase, a trick, a round's result,
the errors a move in it can raise, and the steps of play every variant shares.

:class:`~hearts_cli.play.round.Round` plays a :class:`DealtRound` (one deck);
:mod:`hearts_cli.play.two_decks` holds the steps where two decks differ.
Seats are numbered clockwise in play order, ``0`` to ``players - 1``; passing left gives to
the next seat in play order. Internally a set of cards is a 52-bit mask (see
:mod:`hearts_cli.model.cards`), which keeps the rules fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, NamedTuple, Self

from ..model.cards import Card, Suit, cards_of, mask_of, parse_card
from ..model.codes import canonical_code
from ..model.codes import deal as deal_cards
from ..model.errors import HeartsError
from ..model.rules import Direction, Moon, Rules
from ..text.catalog import t
from . import core

if TYPE_CHECKING:
    from .verdicts import Reason

__all__ = [
    "MOON_CHOICES",
    "DealError",
    "DealtRound",
    "IllegalMove",
    "MoonChoiceError",
    "PassError",
    "Phase",
    "PhaseError",
    "RoundResult",
    "Takings",
    "Trick",
    "better_moon_choice",
    "cards_of_pair",
    "moon_scores",
    "moon_shooter",
    "pair_of",
    "score_round",
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


class PhaseError(HeartsError, RuntimeError):
    """A question the round or the game has no answer to in its phase (the seat to move once
    it is over, the result before, a move after the end of the game): a caller's mistake, so
    also a ``RuntimeError`` as it always was, and a :class:`HeartsError` with its sentence, as
    every error from the library's face is."""


class DealError(HeartsError):
    """Hands given for a round that are not a deal of its rule set (``Game.at_round``)."""


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

class DealtRound:
    """A round as dealt, before its first move: the hands, the kitty, and a blank state of
    play; the ways to build one (from a game code, from given hands); and the steps of play
    every variant shares (the play opened, a card laid on the trick, the round finished).
    :class:`~hearts_cli.play.round.Round` plays it, as python-chess's ``Board`` plays a
    ``BaseBoard``'s pieces; with two decks :class:`~hearts_cli.play.two_decks.TwoDecks`
    overrides the dealing steps and the steps of play that differ."""

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
