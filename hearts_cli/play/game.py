"""A game: rounds until somebody reaches the target, its move stack (:class:`Move`, taken
back exactly by :meth:`Game.pop`), the legal moves as a view (:class:`LegalMoves`), the
game's :class:`Outcome`, and the position as one line of text (docs/position.md).

No I/O and no printing, as the round's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..base.values import Frozen, Plain
from ..model.cards import Card, cards_of, parse_card, parse_card_list
from ..model.codes import canonical_code
from ..model.errors import HeartsError
from ..model.rules import Moon, Rules, RulesError, Ties
from .dealt import _PASS, _PLAY, MOON_CHOICES, DealError, Phase, PhaseError, RoundResult, Trick, cards_of_pair
from .round import Round, SeatView

if TYPE_CHECKING:
    from .position import PositionText
    from .verdicts import Verdict

__all__ = ["Game", "LegalMoves", "Move", "NoMoveError", "Outcome", "RoundMoves", "SeatError", "Step", "card_of"]


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



class Move(Frozen):
    """One move of a game, as :attr:`Game.move_stack` keeps it and a record, a move log or
    PBN writes it: a seat's pass, one card played, or the shooter's choice of how the moon
    scores (``moon``). Where it was made: its ``round`` (counted from 1), and for a card its
    ``trick`` and its ``index`` in the trick (from 1; both 0 for a pass or a choice).
    :meth:`Game.push` makes it again on a game. (A :class:`Frozen`, not a NamedTuple: the
    command line pays for each class it defines at start-up.)"""

    round: int  # 1-based
    seat: int
    cards: tuple[Card, ...]  # the pass's cards, or the one card played (none for the moon)
    trick: int = 0  # 1-based, 0 for a pass or the shooter's choice
    index: int = 0  # 1-based place in the trick, 0 for a pass or the shooter's choice
    moon: Moon | None = None  # the shooter's choice, else None

    @property
    def kind(self) -> str:
        """``pass``, ``play`` or ``moon``."""
        if self.moon is not None:
            return "moon"
        return "play" if self.trick else "pass"

    @property
    def card(self) -> Card:
        """The card played (a play's only card)."""
        return self.cards[0]

    def make(self, rnd: Round) -> None:
        """Make this move again on ``rnd`` (a round as it was before it: :meth:`Game.pop`)."""
        if self.moon is not None:
            rnd.choose_moon(self.moon, self.seat)
        elif self.trick:
            rnd.play(self.cards[0])
        else:
            rnd.pass_cards(self.cards, self.seat)


Step = Move  # the name a move had before it was one type with the records' (hearts_cli.Step)


class RoundMoves(Plain):
    """The moves of one round as records, move logs, PBN and position texts write them
    (:meth:`Game.round_moves`): each seat's pass by seat, as a reader makes them again (None:
    not made), and the cards played a trick at a time, in play order (the last may be under
    way). The shooter's choice is not here: a round's result says how its moon scored."""

    __match_args__ = __slots__ = ("passes", "tricks")
    passes: tuple[tuple[Card, ...] | None, ...]
    tricks: tuple[tuple[Move, ...], ...]

    def __init__(self, passes: tuple[tuple[Card, ...] | None, ...], tricks: tuple[tuple[Move, ...], ...]):
        self.passes = passes
        self.tricks = tricks

    @property
    def passed(self) -> bool:
        """Whether any seat has passed."""
        return any(p is not None for p in self.passes)

    @property
    def cards(self) -> tuple[tuple[Card, ...], ...]:
        """Each trick's cards, as played."""
        return tuple(tuple(m.card for m in trick) for trick in self.tricks)


class Outcome(Frozen):
    """A finished game: the seats that share first place, every seat's total, how many rounds."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int


class _Undo:
    """What :meth:`Game.pop` needs to take a move back exactly: the game as it was before it.
    The round is copied once, before its first move (``start``, shared by its moves): a pop
    makes the round's other moves again on a copy of it, so a move costs no copy."""

    __slots__ = ("extra_round", "move", "results", "rounds", "start", "target_reached", "totals")

    def __init__(self, move: Move, start: Round, rounds: int, totals: tuple[int, ...], results: int,
                 target_reached: bool, extra_round: bool):
        self.move = move
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

    Every move, made through :meth:`push` / :meth:`push_pass` / :meth:`push_moon`, goes on
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

    def _made(self, move: Move, start: Round) -> None:
        """Put a move just made in the round on the stack, with the game as it still is (the
        end of a round is counted after this)."""
        self._undo.append(_Undo(move, start, len(self.rounds), self.totals, len(self.results),
                                self.target_reached, self.extra_round))

    def push(self, move: Move | Card | int | str) -> Trick | None:
        """Play a card (any notation) for the seat to move, or make ``move`` (a :class:`Move`,
        as a :attr:`move_stack` holds it: a pass, a card or the shooter's choice); the trick
        if a card completed one. A card that may not be played raises :class:`IllegalMove`,
        with :meth:`why`'s sentence; a pass or a choice that cannot be made, its error."""
        if isinstance(move, Move):
            if move.moon is not None:
                self._moon(move.moon, move.seat)
                return None
            if not move.trick:
                self._pass(move.cards, move.seat)
                return None
            move = move.cards[0]
        return self._play(card_of(move))

    def push_pass(self, cards: Iterable[Card | int | str] | str, seat: int | None = None) -> None:
        """Pass ``cards`` (a list, or one text such as ``"QS AS KS"``) for ``seat``: by default
        :attr:`turn`, the first seat that has not passed yet. :class:`PassError` if it cannot.
        The cards go to the engine in the order given, so the error names the first it refuses."""
        if isinstance(cards, str):
            chosen = parse_card_list(cards)
        else:
            chosen = [card_of(c) for c in cards]
        if seat is None:  # outside the pass, the round refuses it whatever the seat
            seat = self.round.turn if self.round.phase is _PASS and self.round.turn is not None else -1
        else:
            self._seat(seat)
        self._pass(chosen, seat)

    def push_moon(self, choice: Moon | str, seat: int | None = None) -> RoundResult:
        """The shooter's choice while :attr:`Round.moon_pending`: ``Moon.OTHERS`` or
        ``Moon.SHOOTER_MINUS`` (``seat``, when given, must be the shooter); the round then
        ends. :class:`MoonChoiceError` otherwise."""
        return self._moon(choice, seat)

    def _pass(self, cards: Iterable[int | str], seat: int) -> None:
        self._not_over()
        rnd, start = self.round, self._start()
        rnd.pass_cards(cards, seat)  # raises before anything changes
        self._made(Move(len(self.rounds), seat, rnd.passes[seat] or ()), start)

    def _play(self, card: Card) -> Trick | None:
        self._not_over()
        rnd, start = self.round, self._start()
        mover = rnd.mover
        move = Move(len(self.rounds), mover, (card,), len(rnd.tricks) + 1, len(rnd.trick) + 1)
        done = rnd.play(card)  # raises before anything changes
        self._made(move, start)
        if rnd.over:
            self._round_over()
        return done

    def _moon(self, choice: Moon | str, seat: int | None) -> RoundResult:
        self._not_over()
        rnd, start = self.round, self._start()
        mover = rnd.mover
        result = rnd.choose_moon(choice, seat)
        self._made(Move(len(self.rounds), mover, (), moon=Moon(choice)), start)
        self._round_over()
        return result

    def pop(self) -> Move:
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
            kept.move.make(before)
        live = self.rounds[-1]
        live.__dict__.clear()  # in place: whoever holds the round sees it as it was
        live.__dict__.update(before.__dict__)
        return undo.move

    def _first_of_round(self) -> int:
        """Where the moves of the round on top of the stack begin."""
        i = len(self._undo)
        while i and self._undo[i - 1].rounds == len(self.rounds):
            i -= 1
        return i

    def peek(self) -> Move:
        """The last move made (what :meth:`pop` would take back); :class:`NoMoveError` (an
        ``IndexError``) before any."""
        if not self._undo:
            raise NoMoveError
        return self._undo[-1].move

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """Every move made, first to last (what :meth:`pop` takes back, from the end): the game's
        one history, which records, move logs and PBN list and a table's undo pops."""
        return tuple(u.move for u in self._undo)

    def round_moves(self, r: int) -> RoundMoves:
        """The moves of round ``r`` (counted from 1) on :attr:`move_stack`, as the writers list
        them (see :class:`RoundMoves`)."""
        passes: list[tuple[Card, ...] | None] = [None] * self.rules.players
        tricks: list[list[Move]] = []
        stack = self._undo
        lo, hi = 0, len(stack)
        while lo < hi:  # the round's first move: the stack holds the rounds in order (a writer
            mid = (lo + hi) // 2  # asks for each round, and a save is written at every move)
            if stack[mid].move.round < r:
                lo = mid + 1
            else:
                hi = mid
        for undo in stack[lo:]:
            move = undo.move
            if move.round != r:
                break
            if move.trick:
                if not tricks or tricks[-1][0].trick != move.trick:
                    tricks.append([])
                tricks[-1].append(move)
            elif move.moon is None:
                passes[move.seat] = move.cards
        return RoundMoves(tuple(passes), tuple(tuple(t) for t in tricks))

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
        (its view: no other seat's card); :meth:`from_position` reads it back. The passes and
        plays are the stack's; the round gives the deal, the phase and the seat to move."""
        if seat is not None:
            return self.view(seat).position()  # (a seat not at the table: SeatError)
        from .position import Plays, PositionText, write

        rd = self.round
        moves = self.round_moves(len(self.rounds))
        study = not self.code  # dealt from hands given, not from a code
        plays = None
        if rd.phase is not Phase.PASS:
            first = moves.tricks[0][0].seat if moves.tricks else rd.leader  # no card yet: who leads
            plays = Plays(first if first is not None else 0, moves.cards)
        moon = "pending" if rd.phase is Phase.MOON else None
        if rd.result is not None and rd.result.moon is not None and self.rules.moon is Moon.SHOOTER_CHOICE:
            moon = str(rd.result.moon)
        hands = tuple(cards_of_pair(h, t) for h, t in zip(rd.dealt, rd.dealt_twice)) if study else ()
        dealer = rd.dealer if study and rd.dealer != rd.round_index % rd.players else None
        return write(PositionText(None, self.rules, rd.round_index, dealer, rd.scores_before,
                                  None if study else self.code, hands, moves.passes, plays, rd.turn, moon))

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game a whole table's position text holds: its round dealt (from the code, or
        from the hands), then its passes, plays and moon choice made through :meth:`push_pass`,
        :meth:`push` and :meth:`push_moon`. A ``PositionTextError`` names the bad field."""
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
                game._position_move("passes", game.push_pass, cards, seat)
        if (p.plays is None) != (rd.phase is Phase.PASS):
            raise Bad("position_not_fitting", field="plays")
        if p.plays is not None:
            if rd.leader != p.plays.leader:
                raise Bad("position_leader", field="plays", leader=rd.leader)
            for card in p.plays.cards():
                if game.round is not rd:
                    raise Bad("position_round_over", field="plays")
                game._position_move("plays", game.push, card)
        if p.moon in MOON_CHOICES and rd.phase is Phase.MOON:
            game._position_move("moon", game.push_moon, p.moon)
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
