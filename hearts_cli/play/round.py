"""A round played: :class:`Round`, the pass, every trick and the score, one deck or two
(:class:`TwoDeckRound`); and :class:`SeatView`, what one seat may know of it.

No I/O and no printing: the round answers questions (which cards are legal, why a card is
not, what a card would do) and changes state only through :meth:`Round.pass_cards`,
:meth:`Round.play` and :meth:`Round.choose_moon`, which either succeed or raise without
touching anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..base.values import Frozen
from ..model.cards import CARDS, Card, Suit, cards_of, mask_of, parse_card
from ..model.rules import Direction, Moon, Rules
from . import core
from .dealt import (
    _OVER,
    _PASS,
    _PLAY,
    MOON_CHOICES,
    DealtRound,
    IllegalMove,
    MoonChoiceError,
    PassError,
    Phase,
    PhaseError,
    RoundResult,
    Takings,
    Trick,
    cards_of_pair,
    moon_scores,
    score_round,
)
from .two_decks import TwoDecks

if TYPE_CHECKING:  # the verdicts on a card are imported by Round.why, the one path that needs them
    from .verdicts import Verdict

__all__ = ["Round", "SeatView", "TwoDeckRound"]


# the suits of a voids mask (bit s: suit s), made once: every seat view has one per seat
_VOID_SETS: tuple[frozenset[Suit], ...] = tuple(frozenset(Suit(s) for s in range(4) if v >> s & 1)
                                                for v in range(16))


class SeatView(Frozen):
    """Everything one seat may know, and nothing else: what bots receive.

    Immutable, compared field by field (a :class:`~hearts_cli.base.values.Frozen`
    rather than a frozen dataclass: every command that imports the engine
    pays for the class's definition at start-up).
    """

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


def _seated(leader: int | None, trick: Sequence[Card], players: int) -> list[tuple[int, Card]]:
    """The trick in progress as ``(seat, card)`` pairs (see :meth:`Trick.plays`): a trick
    on the table has a leader."""
    if not trick or leader is None:
        return []
    return [((leader + i) % players, c) for i, c in enumerate(trick)]

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

    def pass_cards(self, cards: Iterable[int | str], seat: int) -> None:
        """Choose ``seat``'s pass (the cards first, as :meth:`Game.push_pass` and
        :meth:`choose_moon` take their move); the exchange happens once every seat has passed."""
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



class TwoDeckRound(TwoDecks, Round):
    """Cancellation Hearts (two decks): a :class:`Round` with the steps of
    :class:`~hearts_cli.play.two_decks.TwoDecks` where a hand may hold a card twice and a trick
    may cancel. ``Round(rules, ...)`` makes one when the rules have two decks."""

