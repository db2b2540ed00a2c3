"""The position notation: a whole position, or one seat's view of it, as one line of ASCII.

Chess has FEN; this is Hearts'. Nine fields separated by spaces, none with a
space inside (docs/position.md holds the grammar and an example of each)::

    hearts standard 2 4,16,5,1 K7Q2MXA7 4SJSQS/2S6S8S/KH7SAS/9STSKS 1:2CKCAC7C/QS 0 -
    hearts@1 standard 2 4,16,5,1 TCJC4D7D8DQDKD7HQHKH7SAS 2S6S8S:KH7SAS 1:2CKCAC7C/QS 0 -

kind (``hearts``, or ``hearts@SEAT`` for one seat's view), rules (a preset and
``+KEY=VALUE`` settings, as ``--set`` writes them), round (1-based;
``ROUND:DEALER`` for a deal given by its hands whose dealer is not the usual
one), scores before the round, the deal (a game code, or every hand as
dealt; a seat's view: its hand now), the passes (a seat's view: its own pass
and what it received), the plays (the first trick's leader, then every trick
played, the one in progress last), the seat to move, and the moon.

This module only reads and writes the text, as a :class:`PositionText`; it
does not import the engine (which imports it: ``Game.position``,
``Game.from_position``, ``SeatView.position``, ``SeatView.from_position``).
What it reads is untrusted: its size is checked first (``LIMITS["position"]``),
every field by what it must be, and a bad text is one
:class:`PositionTextError` whose sentence names the bad field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from ..base.untrusted import LIMITS
from ..model.cards import CARDS, Card
from ..model.codes import normalize_code
from ..model.errors import HeartsError
from ..model.overrides import format_set, parse_set
from ..model.rules import Direction, Moon, Rules
from ..text.catalog import t
from . import core

__all__ = ["FIELDS", "Plays", "PositionText", "PositionTextError", "SeatRead", "TricksRead", "parse",
           "read_seat", "read_tricks", "write"]

# the fields in order, as the errors and docs/position.md name them
FIELDS = ("kind", "rules", "round", "scores", "deal", "passes", "plays", "turn", "moon")
KIND = "hearts"
MOON_WORDS = ("pending", "others", "shooter_minus")

_CARD = {str(c): c for c in CARDS}
_INT = re.compile(r"-?[0-9]{1,7}\Z")
_SEAT = re.compile(r"(?:0|[1-9][0-9]?)\Z")
_ROUND = re.compile(r"([1-9][0-9]{0,3})(?::([0-9]{1,2}))?\Z")


class _Said(Protocol):
    """An error or a reason that says itself (a nested sentence)."""

    def message(self, lang: str | None = None, ascii: bool = False) -> str: ...


class PositionTextError(HeartsError):
    """A position text that cannot be read: one sentence naming the bad field (``field``;
    empty when the text as a whole is wrong). A ``problem`` parameter may be another error
    (a bad setting, a refused move), said in its words."""

    def __init__(self, message_id: str, /, **params: object):
        self.field = str(params.get("field", ""))
        super().__init__(message_id, **params)

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        params = self.shown_params()
        for name, value in self.params.items():
            if not hasattr(value, "message"):
                continue
            said: _Said = value
            try:  # a move refused: said of its seat, not "you"
                params[name] = said.message(lang, ascii=ascii, third_person=True)  # type: ignore[call-arg]
            except TypeError:
                params[name] = said.message(lang, ascii=ascii)
        return t(self.message_id, lang, ascii=ascii, **params)


def _bad(field: str, text: str) -> PositionTextError:
    return PositionTextError("position_bad_field", field=field, text=text,
                             expected=_Expected(field))


class _Expected:
    """What a field must be, in the sentence's language (said when the sentence is made)."""

    def __init__(self, field: str):
        self.field = field

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return t(f"position_expect_{self.field}", lang, ascii=ascii)


class Plays(NamedTuple):
    """The plays field: the first trick's leader, every trick played in order (the one in
    progress last, when it has a card), and, in a seat's view, the kitty the first trick turned up."""

    leader: int
    tricks: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...] = ()

    def cards(self) -> list[Card]:
        return [c for trick in self.tricks for c in trick]


class PositionText(NamedTuple):
    """A position text read into its fields (what :func:`write` writes back).

    ``seat`` None: the whole table (``hands`` as dealt, or a ``code``; ``passes`` one per
    seat). A seat: ``hands`` is that seat's hand now, alone; ``passes`` its own pass and what
    it received."""

    seat: int | None
    rules: Rules
    round_index: int  # 0-based; the text says round_index + 1
    dealer: int | None  # written only for a deal given by its hands, when not the usual one
    scores: tuple[int, ...]
    code: str | None
    hands: tuple[tuple[Card, ...], ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    plays: Plays | None
    turn: int | None
    moon: str | None  # None, "pending", or the shooter's choice once made (whole table)


# ---------------------------------------------------------------- writing


def _cards(cards: Sequence[int]) -> str:
    return "".join(str(CARDS[c]) for c in cards) or "-"


def write(p: PositionText) -> str:
    """The one line of ``p``, canonical: the same position always writes the same text."""
    n = p.rules.players
    kind = KIND if p.seat is None else f"{KIND}@{p.seat}"
    rules = "+".join([str(p.rules.spec()["preset"]), *format_set(p.rules)])
    number = str(p.round_index + 1) + (f":{p.dealer}" if p.dealer is not None else "")
    scores = ",".join(map(str, p.scores))
    if p.seat is not None:
        deal = _cards(p.hands[0])
        passed, received = p.passes
        passes = "-" if passed is None else _cards(passed) + ("" if received is None else ":" + _cards(received))
    else:
        deal = p.code if p.code is not None else "/".join(_cards(h) for h in p.hands)
        passes = "-" if all(x is None for x in p.passes) else "/".join(
            "-" if x is None else _cards(x) for x in p.passes)
    plays = "-"
    if p.plays is not None:
        groups = ["".join(map(str, trick)) for trick in p.plays.tricks]
        if p.plays.kitty and groups and len(p.plays.tricks[0]) == n:
            groups[0] += "+" + "".join(map(str, p.plays.kitty))
        plays = f"{p.plays.leader}:" + "/".join(groups)
    turn = "-" if p.turn is None else str(p.turn)
    return " ".join((kind, rules, number, scores, deal, passes, plays, turn, p.moon or "-"))


# ---------------------------------------------------------------- reading


def parse(text: object) -> PositionText:
    """The fields of a position text, each checked by what it must be (not yet whether the
    moves can be made: the engine says that when it makes them)."""
    limit = LIMITS["position"]
    if not isinstance(text, str):
        raise PositionTextError("position_not_text")
    if len(text) > limit:
        raise PositionTextError("position_too_long", limit=limit)
    fields = text.split()
    if not text.isascii() or len(fields) != len(FIELDS):
        raise PositionTextError("position_fields", count=len(FIELDS), given=len(fields))
    kind, rules_text, number, scores_text, deal, passes, plays, turn, moon = fields
    seat = _kind(kind)
    rules = _rules(rules_text)
    n = rules.players
    if seat is not None and seat >= n:
        raise _bad("kind", kind)
    found = _ROUND.match(number)
    if found is None or (found.group(2) is not None and (seat is not None or int(found.group(2)) >= n)):
        raise _bad("round", number)
    dealer = None if found.group(2) is None else int(found.group(2))
    scores = tuple(_int(x, "scores", scores_text) for x in scores_text.split(","))
    if len(scores) != n:
        raise _bad("scores", scores_text)
    code: str | None = None
    if seat is not None:
        hands: tuple[tuple[Card, ...], ...] = (_card_run(deal, "deal", empty=True),)
        pass_fields = _seat_pass(passes)
    else:
        code, hands = _deal(deal, n)
        if code is not None and dealer is not None:
            raise _bad("round", number)
        pass_fields = _passes(passes, n)
    return PositionText(seat, rules, int(found.group(1)) - 1, dealer, scores, code, hands, pass_fields,
                        _plays(plays, n, seat is not None), _turn(turn, n), _moon(moon, seat is not None))


def _kind(kind: str) -> int | None:
    if kind == KIND:
        return None
    head, at, seat = kind.partition("@")
    if head != KIND or not at or not _SEAT.match(seat):
        raise _bad("kind", kind)
    return int(seat)


def _rules(text: str) -> Rules:
    name, *items = text.split("+")
    try:
        return Rules.from_spec({"preset": name, **parse_set(items)})
    except HeartsError as e:
        raise PositionTextError("position_field_problem", field="rules", problem=e) from None


def _int(word: str, field: str, text: str) -> int:
    if not _INT.match(word):
        raise _bad(field, text)
    return int(word)


def _card_run(text: str, field: str, empty: bool = False, whole: str | None = None) -> tuple[Card, ...]:
    """Cards written one after another, two characters each (``2C5HTD``); ``-`` for none
    where ``empty`` allows it."""
    if text == "-" and empty:
        return ()
    if not text or len(text) % 2:
        raise _bad(field, whole or text)
    try:
        return tuple(_CARD[text[i:i + 2]] for i in range(0, len(text), 2))
    except KeyError:
        raise _bad(field, whole or text) from None


def _deal(text: str, n: int) -> tuple[str | None, tuple[tuple[Card, ...], ...]]:
    if "/" not in text:
        try:
            return normalize_code(text), ()
        except HeartsError as e:
            raise PositionTextError("position_field_problem", field="deal", problem=e) from None
    parts = text.split("/")
    if len(parts) != n:
        raise _bad("deal", text)
    return None, tuple(tuple(sorted(_card_run(h, "deal", whole=text))) for h in parts)


def _passes(text: str, n: int) -> tuple[tuple[Card, ...] | None, ...]:
    if text == "-":
        return (None,) * n
    parts = text.split("/")
    if len(parts) != n:
        raise _bad("passes", text)
    return tuple(None if x == "-" else _card_run(x, "passes", whole=text) for x in parts)


def _seat_pass(text: str) -> tuple[tuple[Card, ...] | None, ...]:
    if text == "-":
        return (None, None)
    passed, colon, received = text.partition(":")
    return (_card_run(passed, "passes", whole=text),
            _card_run(received, "passes", whole=text) if colon else None)


def _plays(text: str, n: int, seat: bool) -> Plays | None:
    if text == "-":
        return None
    leader, colon, rest = text.partition(":")
    if not colon or not _SEAT.match(leader) or int(leader) >= n:
        raise _bad("plays", text)
    groups = rest.split("/") if rest else []
    kitty: tuple[Card, ...] = ()
    if groups and "+" in groups[0]:
        groups[0], _, kitty_text = groups[0].partition("+")
        if not seat:  # the whole table knows the kitty from the deal
            raise _bad("plays", text)
        kitty = tuple(sorted(_card_run(kitty_text, "plays", whole=text)))
    tricks = tuple(_card_run(g, "plays", whole=text) for g in groups)
    if any(len(g) != n for g in tricks[:-1]) or (tricks and len(tricks[-1]) > n) or (
            kitty and len(tricks[0]) != n):
        raise _bad("plays", text)
    return Plays(int(leader), tricks, kitty)


def _turn(text: str, n: int) -> int | None:
    if text == "-":
        return None
    if not _SEAT.match(text) or int(text) >= n:
        raise _bad("turn", text)
    return int(text)


def _moon(text: str, seat: bool) -> str | None:
    if text == "-":
        return None
    if text not in MOON_WORDS or (seat and text != "pending"):  # a seat's view never holds the choice
        raise _bad("moon", text)
    return text


# ---------------------------------------------------------------- the plays read as the table sees them


class TricksRead(NamedTuple):
    """What the plays field says to anybody at the table: each trick as the engine's
    ``Trick`` fields ``(leader, cards, winner, points, kitty, carried)``, the trick in
    progress and its leader, what each seat took (at least once, twice), its points, the
    suits it showed it lacks (bit s: suit s) and whether hearts are broken."""

    tricks: list[tuple[int, tuple[Card, ...], int | None, int, tuple[Card, ...], tuple[Card, ...]]]
    trick: tuple[Card, ...]
    leader: int
    taken: list[int]
    twice: list[int]
    points: list[int]
    voids: list[int]
    broken: bool


def read_tricks(rules: Rules, plays: Plays) -> TricksRead:
    """Each trick's winner and points as the rules of play (``core.winner``) decide them,
    one deck or two (a trick whose led suit all cancels is set aside for the next winner)."""
    n = rules.players
    pts = rules.points
    leader = plays.leader
    out = TricksRead([], (), leader, [0] * n, [0] * n, [0] * n, [0] * n, False)
    aside: list[Card] = []
    broken = False
    for i, cards in enumerate(plays.tricks):
        for j, c in enumerate(cards):
            if j and c // 13 != cards[0] // 13:
                out.voids[(leader + j) % n] |= 1 << (cards[0] // 13)
            broken = broken or bool(rules.breaks_mask >> c & 1)
        if len(cards) < n:
            out = out._replace(trick=cards)
            break
        kitty = plays.kitty if i == 0 else ()
        best = core.winner(rules, cards, i == rules.hand_size - 1)
        points = sum(pts[x] for x in cards + kitty)
        if best is None:
            aside += cards + kitty
            out.tricks.append((leader, cards, None, points, kitty, ()))
            continue
        winner = (leader + best) % n
        carried = tuple(aside)
        aside = []
        points += sum(pts[x] for x in carried)
        out.tricks.append((leader, cards, winner, points, kitty, carried))
        out.points[winner] += points
        for x in cards + kitty + carried:
            if out.taken[winner] >> x & 1:
                out.twice[winner] |= 1 << x
            out.taken[winner] |= 1 << x
        leader = winner
    return out._replace(leader=leader, broken=broken)


class SeatRead(NamedTuple):
    """A seat's view read from its text: the phase (its value), who leads the trick on the
    table and who is to move, and the plays as the table sees them (None before the play)."""

    phase: str
    leader: int | None
    turn: int | None
    plays: TricksRead | None


def _unfit(field: str) -> PositionTextError:
    return PositionTextError("position_not_fitting", field=field)


def _passing(p: PositionText, seat: int) -> SeatRead:
    """A seat's view while passing: no play yet, a whole hand, and the first seat yet to
    pass to move (another than this one once it has passed)."""
    if p.plays is not None:
        raise _unfit("plays")
    if p.moon is not None:
        raise _unfit("moon")
    if len(p.hands[0]) != p.rules.hand_size:
        raise _unfit("deal")
    if p.turn is None or (p.turn == seat if p.passes[0] is not None else p.turn > seat):
        raise _unfit("turn")
    return SeatRead("pass", None, p.turn, None)


def read_seat(p: PositionText) -> SeatRead:
    """What a seat's text says beyond its fields, every field checked against the others:
    a pass of the right size where the round has one, a hand of the size the plays leave,
    no card more often than it is in play, the turn the plays give."""
    rules = p.rules
    n = rules.players
    seat = p.seat if p.seat is not None else 0
    hand = p.hands[0]
    passed, received = p.passes
    if rules.pass_direction(p.round_index) is Direction.NONE:
        if passed is not None:
            raise _unfit("passes")
    elif any(x is not None and len(x) != rules.pass_count for x in (passed, received)):
        raise _unfit("passes")
    if passed is not None and received is None and any(passed.count(c) > hand.count(c) for c in passed):
        raise _unfit("passes")  # a pass not yet exchanged is still in the hand
    if rules.pass_direction(p.round_index) is not Direction.NONE and received is None:
        return _passing(p, seat)
    if p.plays is None:
        raise _unfit("plays")
    read = read_tricks(rules, p.plays)
    done = len(read.tricks)
    if done > rules.hand_size or (done == rules.hand_size and read.trick):
        raise _unfit("plays")
    if bool(p.plays.kitty) != bool(done and rules.kitty_size) or (
            p.plays.kitty and len(p.plays.kitty) != rules.kitty_size):
        raise _unfit("plays")
    left = list(rules.copies)
    for c in hand + tuple(p.plays.cards()) + p.plays.kitty:
        left[c] -= 1
    if min(left) < 0:
        raise _unfit("plays")
    if len(hand) != rules.hand_size - done - ((seat - read.leader) % n < len(read.trick)):
        raise _unfit("deal")
    if done < rules.hand_size:
        if p.moon is not None:
            raise _unfit("moon")
        phase, leader, turn = "play", read.leader, (read.leader + len(read.trick)) % n
    elif p.moon is None:
        phase, leader, turn = "over", None, None
    else:
        shooter = core.shooter(rules, read.taken, read.twice)
        if rules.moon is not Moon.SHOOTER_CHOICE or shooter is None:
            raise _unfit("moon")
        phase, leader, turn = "moon", None, shooter
    if turn != p.turn:
        raise PositionTextError("position_turn", field="turn", turn="-" if turn is None else turn)
    return SeatRead(phase, leader, turn, read)
