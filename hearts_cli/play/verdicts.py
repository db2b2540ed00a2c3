"""The verdicts: what the engine says about a card in a position.

Whether a card may be played and, when it may not, the rule that stops it
(:class:`Reason`, read from :data:`core.RESTRICTIONS` in their order); when it
may, what it would certainly do (:class:`Effect`: whether it wins the trick,
the points, hearts broken, and with two decks the cancellations and what the
cards still to come could change). :meth:`Round.why <hearts_cli.play.round.Round.why>`
asks here once it has checked the phase and the turn; a verdict only reads the
round (:class:`RoundState`), never changes it, so it is the same for the real
round and for the round a seat rebuilds from its view (``Round.seen_by``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import countOf
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..model.cards import CARDS, Card, Suit, cards_of, mask_of
from ..model.rules import FirstTrick, Rules, SetAside
from ..model.seating import place_name, seat_place
from ..text.catalog import cancel_pairs, t
from . import core
from .knowledge import Knowledge, SeatView, knowledge
from .sampling import Constraints, Sampler, constraints, match_cards

if TYPE_CHECKING:  # payloads.py is the type checker's and the tests' only
    from .payloads import EffectJson, ErrorBody, VerdictJson

__all__ = [
    "REASON_ORDER",
    "THIRD_PERSON",
    "Effect",
    "Reason",
    "RoundState",
    "Verdict",
    "judge",
]


# When several rules forbid a card, the first of these is the reason given.
REASON_ORDER = (
    "not_in_hand", "wrong_phase", "must_lead_two_clubs", "must_lead_lowest_club",
    "must_follow_suit", "no_points_on_first_trick", "hearts_not_broken",
)


# Reason and pass messages said to the seat, and their variants said about it.
THIRD_PERSON = {mid: mid + "_seat" for mid in (
    "not_in_hand", "not_your_turn_card", "must_follow_suit", "no_points_on_first_trick",
    "no_queen_on_first_trick", "hearts_not_broken", "pass_count",
)}


class Reason(NamedTuple):
    """Why a card cannot be played: a stable ``code`` plus what a sentence needs."""

    code: str
    card: Card
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    detail: str = ""  # which message of the code, when one code has several

    def message(self, lang: str | None = None, ascii: bool = False, third_person: bool = False) -> str:
        """The sentence, said to the seat ("you hold...") or, with ``third_person``,
        about it ("that hand holds..."), as errors about recorded moves need."""
        mid = self.detail or self.code
        if third_person:
            mid = THIRD_PERSON.get(mid, mid)
        return t(mid, lang, ascii=ascii, card=self.card, cards=list(self.cards),
                 suit=self.suit if self.suit is not None else "")

    def to_json(self, message: str) -> ErrorBody:
        """The one error object: the code and ``message``, the sentence as the surface words it."""
        return {"code": self.code, "message": message}


class Cover(NamedTuple):
    """The fact of the seat's knowledge that decides (or sways) whether a card is covered:

    ``top`` no higher card of the suit led is still out; ``void`` the ``seats`` still to play
    that have shown a void in it (and may discard on the card); ``passed`` a seat still to play
    holds ``card``, higher, which the seat passed it; ``played`` the higher cards still out are
    the seat's own pass, with ``seats``, who have played to the trick; ``follow`` every card of
    the suit still out is higher and a seat still to play must follow with one."""

    kind: str
    seats: tuple[int, ...] = ()
    card: Card | None = None


class Effect(NamedTuple):
    """What a legal card would do, as far as the player can be certain.

    ``wins`` is True, False, or None when it depends on cards not yet played;
    ``points`` are the points in the trick with this card (when it wins),
    ``exact`` when nothing can still change them.
    """

    card: Card
    wins: bool | None
    points: int | None
    exact: bool
    breaks_hearts: bool
    # two decks: the cards cancelled in the trick with this card, and the card that
    # would then win (None: every card of the led suit cancelled, the trick set aside)
    cancelled: tuple[Card, ...] = ()
    by: Card | None = None
    # two decks, before the trick's last card (``pending``): whether it would win the trick
    # so far, whether a copy still unseen could cancel it (``twin_out``), whether a higher
    # card of the suit led may still come (``higher_out``), and the uncancelled cards ahead
    # of it (``ahead``: the ones that beat it now; on the last trick with ``set_aside_last:
    # second``, for a card that cancels its twin and may still take the trick by the fallback,
    # the ones twins still out must cancel)
    pending: bool = False
    so_far: bool | None = None
    twin_out: bool = False
    higher_out: bool = False
    ahead: tuple[Card, ...] = ()
    # two decks, the last trick: every card of the suit led cancelled so far, so nothing
    # is set aside and ``by`` takes the trick by the fallback (set_aside_last)
    fallback: bool = False
    # one deck, a card that cannot win: the seat that takes the trick so far (``exact``: takes
    # it, this card being the last), ``points`` then the points it takes with this card; a card
    # that may win: ``higher`` the cards of the suit led still out that would beat it. Seats
    # are named from the seat to move (``mover``, of ``players``)
    taker: int | None = None
    higher: int = 0
    mover: int = 0
    players: int = 0
    # one deck, a card certain to win: it takes the round's last trick after every other one
    # (``rules.sun``: it shoots the sun), or the seat's first (it loses ``no_trick_bonus``)
    sun: bool = False
    loses_bonus: int = 0
    # two decks, before the trick's last card: the highest card ahead of it that no copy
    # still out can cancel, which is why it cannot win (``wins`` False); ``ahead[0]``, the
    # card winning so far, may be another, higher one whose twin is still out
    stuck: Card | None = None
    # one deck, from what the seat knows (play.knowledge): the chance that a seat still to play
    # (``still``) holds a higher card of the suit led (exactly 0 or 1 where the knowledge decides
    # it; an estimate strictly between them otherwise), the points at stake (the trick's and its
    # own), and the fact that decides it (:class:`Cover`)
    covered: float | None = None
    still: tuple[int, ...] = ()
    stake: int = 0
    cover: Cover | None = None

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        text = self._message(lang, ascii)
        if self.cancelled:
            pairs = cancel_pairs(self.cancelled, lang, ascii)
            if self.fallback:
                mid = "effect_cancel_last_you_so_far" if self.by == self.card else "effect_cancel_last_so_far"
                then = t(mid, lang, ascii=ascii, card=self.by)
            elif self.pending:
                then = (t("effect_cancel_wins_so_far", lang, ascii=ascii, card=self.by) if self.by is not None
                        else t("effect_cancel_aside_so_far", lang))
            else:
                then = (t("effect_cancel_wins", lang, ascii=ascii, card=self.by) if self.by is not None
                        else t("effect_cancel_aside", lang))
            said = t("effect_cancel", lang, ascii=ascii, pairs=pairs, then=then)
            text = said[:1].upper() + said[1:] + " " + text
        return text

    def brief(self, lang: str | None = None, ascii: bool = False) -> str:
        """What the card would do in one sentence (a confirmation): with two decks and cards still
        to come, the reasons :meth:`message` gives at length (``why``) in a few words."""
        if not self.pending or self.so_far is None or self.cancelled:
            return self.message(lang, ascii)
        if not self.so_far:  # behind the card winning the trick: that card, certain to lose or not yet
            text = t("brief2_loses" if self.wins is False else "brief2_behind", lang, ascii=ascii,
                     card=self.card, ahead=self.ahead[0])
        else:
            caveat = ("both" if self.twin_out and self.higher_out else "twin" if self.twin_out
                      else "higher" if self.higher_out else None)
            text = t(f"brief2_so_far_{caveat}" if caveat else "effect2_so_far", lang, ascii=ascii, card=self.card)
        if self.breaks_hearts:
            text += " " + t("effect_breaks_hearts", lang)
        return text

    def _pending_message(self, lang: str | None, ascii: bool) -> str:
        """Two decks, cards still to come: what is known so far, and what could change it."""
        def say(mid: str, **p: object) -> str:
            return t(mid, lang, ascii=ascii, card=self.card, **p)

        if self.wins is False:  # a card ahead that nothing can cancel now
            if self.stuck is None or self.stuck == self.ahead[0]:
                return say("effect2_loses_ahead", ahead=self.ahead[0])
            return say("effect2_loses_behind", ahead=self.ahead[0], stuck=self.stuck)
        if self.so_far:
            parts = [say("effect2_so_far")]
            parts.append(say("effect2_twin_out") if self.twin_out else say("effect2_twin_safe"))
        else:
            parts = [say("effect2_behind", ahead=self.ahead[0]),
                     say("effect2_behind_hope", cards=list(self.ahead), count=len(self.ahead))]
            if self.twin_out:
                parts.append(say("effect2_twin_out_too"))
        if self.higher_out:
            parts.append(say("effect2_higher_out"))
        return " ".join(parts)

    def _message(self, lang: str | None, ascii: bool) -> str:
        if self.covered is not None and (self.cover is not None or self.wins is None):
            return self._then(self._cover_message(lang, ascii), lang)
        if self.pending and self.so_far is not None and not self.cancelled:
            text = self._pending_message(lang, ascii)
            if self.breaks_hearts:
                text += " " + t("effect_breaks_hearts", lang)
            return text
        if self.wins is None and self.cancelled and self.ahead:  # the last trick, the fallback's hope
            text = t("effect_cancel_last_hope", lang, ascii=ascii, card=self.card, cards=list(self.ahead),
                     count=len(self.ahead))
            if self.breaks_hearts:
                text += " " + t("effect_breaks_hearts", lang)
            return text
        if self.wins is False and self.taker is not None:
            taker = place_name(seat_place(self.taker, self.mover, self.players), lang)
            if self.exact:
                mid = "effect_loses_to" if self.points else "effect_loses_to_clean"
            else:
                mid = "effect_loses_to_so_far" if self.points else "effect_loses_to_so_far_clean"
            text = t(mid, lang, ascii=ascii, card=self.card, taker=taker, points=self.points)
            return text + (" " + t("effect_breaks_hearts", lang) if self.breaks_hearts else "")
        if self.wins is None:
            mid = "effect_unknown"
        elif not self.wins:
            mid = "effect_loses"
        elif self.exact:
            mid = "effect_wins_points" if self.points else "effect_wins_no_points"
        else:
            mid = "effect_wins_so_far" if self.points else "effect_wins"
        return self._then(t(mid, lang, ascii=ascii, card=self.card, points=self.points), lang)

    def _then(self, text: str, lang: str | None) -> str:
        """``text``, then what else the card does: the sun, the lost bonus, hearts broken."""
        if self.sun:
            text += " " + t("effect_shoots_sun", lang)
        if self.loses_bonus:
            text += " " + t("effect_loses_bonus", lang, points=self.loses_bonus)
        if self.breaks_hearts:
            text += " " + t("effect_breaks_hearts", lang)
        return text

    def _names(self, seats: Sequence[int], lang: str | None) -> str:
        """The seats as the sentence names them, from the seat to move ("West, North and East")."""

        said = [place_name(seat_place(s, self.mover, self.players), lang) for s in seats]
        if len(said) < 2:
            return "".join(said)
        return t("names_and", lang, first=", ".join(said[:-1]), last=said[-1])

    def _cover_message(self, lang: str | None, ascii: bool) -> str:
        """One deck, not the trick's last card: what the seat's knowledge makes of the card."""
        def say(mid: str, **p: object) -> str:
            return t(mid, lang, ascii=ascii, card=self.card, **p)

        cover, suit = self.cover, Suit(self.card.suit)
        if self.wins:  # certain to win: no card can cover it
            head = (say("cover_wins_at_least", points=self.points) if self.points else say("cover_wins"))
            assert cover is not None
            if cover.kind == "void":
                why = say("cover_why_void", who=self._names(cover.seats, lang), n=len(cover.seats), suit=suit)
            elif cover.kind == "played":
                why = say("cover_why_played", who=self._names(cover.seats, lang), n=len(cover.seats),
                          kind=self._kind(suit, 2, lang))
            else:
                why = say("cover_why_top", kind=self._kind(suit, 1, lang))
            return say("cover_because", head=head, why=why)
        if self.wins is False:  # cover "follow": every card of the suit still out beats it
            who = (self._names((cover.seats[0],), lang) if cover is not None and cover.kind == "passed"
                   and cover.seats else "")
            mid = "cover_cannot_passed" if who else "cover_cannot"
            if who:
                return say(mid, who=who, passed=cover.card if cover is not None else None,
                           kind=self._kind(suit, 1, lang))
            return say(mid, kind=self._kind(suit, 1, lang))
        chance = self.covered if self.covered is not None else 0.5
        bucket = ("sure" if chance >= 1 else "4" if chance >= 0.9 else "3" if chance >= 0.6
                  else "2" if chance > 0.4 else "1" if chance > 0.1 else "0")
        head = say(f"cover_{bucket}")
        if self.stake:
            head = say("cover_stake", head=head, points=self.stake)
        if cover is not None and cover.kind == "passed":
            why = say("cover_why_passed", who=self._names(cover.seats, lang), passed=cover.card)
        else:
            coverers = [s for s in self.still if cover is None or cover.kind != "void" or s not in cover.seats]
            many = "one" if self.higher == 1 else "many"
            why = say("cover_why_out", count=self.higher, who=self._names(coverers, lang),
                      higher=t(f"higher_{many}_{int(suit)}", lang, count=self.higher))
            if cover is not None and cover.kind == "void":
                why += say("cover_also_void", who=self._names(cover.seats, lang), n=len(cover.seats), suit=suit)
        return say("cover_because", head=head, why=why)

    @staticmethod
    def _kind(suit: Suit, count: int, lang: str | None) -> str:
        """The suit as a noun for ``count`` cards of it ("club", "spades")."""
        many = "one" if count == 1 else "many"
        return t(f"suit_kind_{many}_{int(suit)}", lang)

    def to_json(self) -> EffectJson:
        out: EffectJson = {"wins": self.wins, "points": self.points, "exact": self.exact,
                           "breaks_hearts": self.breaks_hearts}
        if self.covered is not None:
            out["covered"] = self.covered
        if self.stake and self.wins is None:
            out["stake"] = self.stake
        if self.cancelled:
            out["cancelled"] = [str(c) for c in self.cancelled]
            out["by"] = str(self.by) if self.by is not None else None
            if self.fallback:
                out["fallback"] = True
        if self.taker is not None:
            out["taker"] = self.taker
        if self.higher:
            out["higher"] = self.higher
        if self.sun:
            out["sun"] = True
        if self.loses_bonus:
            out["loses_bonus"] = self.loses_bonus
        if self.pending:  # two decks, cards still to come
            out["so_far"] = self.so_far
            out["twin_out"] = self.twin_out
            out["higher_out"] = self.higher_out
            out["ahead"] = [str(c) for c in self.ahead]
            if self.stuck is not None:
                out["stuck"] = str(self.stuck)
        return out


class Verdict(NamedTuple):
    card: Card
    legal: bool
    reason: Reason | None = None
    effect: Effect | None = None

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        part = self.reason if self.reason is not None else self.effect
        return part.message(lang, ascii) if part is not None else ""

    def to_json(self, message: str) -> VerdictJson:
        """The answer to ``why`` on every surface: the card, whether it may be played, and the
        rule that stops it (``reason``, the one error object) or what it would do (``effect``);
        ``message`` the sentence of either, as the surface words it."""
        if self.reason is not None:
            return {"card": str(self.card), "legal": False, "reason": self.reason.to_json(message)}
        effect = self.effect.to_json() if self.effect is not None else None
        if effect is not None:
            effect["message"] = message
        return {"card": str(self.card), "legal": True, "effect": effect}


# ---------------------------------------------------------------- the position a verdict reads


class _Played(Protocol):
    @property
    def cards(self) -> tuple[Card, ...]: ...


class RoundState(Protocol):
    """What a verdict reads of a round (:class:`~hearts_cli.play.round.Round`), in its play
    phase with the seat to move known; nothing here changes it."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def twice(self) -> Sequence[int]: ...
    @property
    def kitty_mask(self) -> int: ...
    @property
    def kitty_twice(self) -> int: ...
    @property
    def kitty_taken(self) -> bool: ...
    @property
    def set_aside(self) -> Sequence[Card]: ...
    @property
    def trick(self) -> list[Card]: ...
    @property
    def tricks(self) -> Sequence[_Played]: ...
    @property
    def hearts_broken(self) -> bool: ...
    @property
    def mover(self) -> int: ...
    @property
    def taken(self) -> Sequence[int]: ...
    @property
    def two(self) -> bool: ...

    def legal_mask(self) -> int: ...
    def count(self, seat: int, card: int) -> int: ...
    def view(self, seat: int) -> SeatView: ...


def judge(rnd: RoundState, c: Card) -> Verdict:
    """The verdict on ``c``, held by the seat to move: what it would do, or the rule that stops it."""
    if rnd.legal_mask() >> c & 1:
        return Verdict(c, True, effect=_effect_two(rnd, c) if rnd.two else _effect(rnd, c))
    return Verdict(c, False, _reason(rnd, c, rnd.hands[rnd.mover]))


def _reason(rnd: RoundState, c: Card, hand: int) -> Reason:
    """The rule (of :data:`core.RESTRICTIONS`) that takes ``c`` away, in words."""
    led = rnd.trick[0] // 13 if rnd.trick else -1
    found = core.reason(rnd.rules, c, hand, led, not rnd.tricks, rnd.hearts_broken, rnd.hands)
    assert found is not None, "a legal card has no reason to be refused"
    code, allowed = found
    if code == "must_lead_lowest_club":
        lead = CARDS[core.lead_card(rnd.hands)]
        # no club in play: the lowest card in play leads, and the sentence says so
        detail = "must_lead_lowest_card" if lead.suit else ""
        return Reason("must_lead_two_clubs" if lead == 0 else code, c, (lead,), detail=detail)
    if code == "must_follow_suit":
        return Reason(code, c, cards_of(allowed), Suit(led))
    detail = ""
    if code == "no_points_on_first_trick" and rnd.rules.first_trick is FirstTrick.NO_HEARTS:
        detail = "no_queen_on_first_trick"
    return Reason(code, c, cards_of(allowed), detail=detail)


def _points_breaks(rnd: RoundState, c: Card) -> tuple[int, bool]:
    """The points in the trick with ``c``, and whether ``c`` would break hearts."""
    pts = rnd.rules.points
    points = sum(pts[x] for x in rnd.trick) + pts[c]
    return points, not rnd.hearts_broken and bool(rnd.rules.breaks_mask >> c & 1)


def _effect(rnd: RoundState, c: Card) -> Effect:
    """One deck: what legal ``c`` would certainly do, and what the seat's knowledge makes
    likely (see :class:`Effect`)."""
    trick = rnd.trick
    points, breaks = _points_breaks(rnd, c)
    led = trick[0] // 13 if trick else c // 13
    last = len(trick) == rnd.players - 1
    kitty_unknown = not rnd.tricks and bool(rnd.kitty_mask)
    ahead = core.trick_winner(trick + [c])
    n = rnd.players
    if ahead != len(trick):  # beaten already: who takes it so far, and the points with this card
        taker = (rnd.mover - len(trick) + ahead) % n
        return Effect(c, False, points, last and not kitty_unknown, breaks, taker=taker, mover=rnd.mover,
                      players=n, covered=1.0)
    if last:
        return _winning(rnd, Effect(c, True, points, not kitty_unknown, breaks, covered=0.0))
    # the higher cards of the suit led that the seat cannot place
    higher = sum(1 << x for x in range(52) if core.beats(x, c, led))
    played = mask_of(trick)
    for tr in rnd.tricks:
        played |= mask_of(tr.cards)
    out_there = higher & rnd.rules.in_play_mask & ~rnd.hands[rnd.mover] & ~played
    if rnd.kitty_taken:
        out_there &= ~rnd.kitty_mask
    seen = Effect(c, None, None, False, breaks, higher=out_there.bit_count(), mover=rnd.mover, players=n,
                  stake=points)
    if not out_there:
        return _winning(rnd, seen._replace(wins=True, points=points, higher=0, covered=0.0, cover=Cover("top")))
    return _covered(rnd, seen, rnd.view(rnd.mover), out_there)


def _covered(rnd: RoundState, seen: Effect, view: SeatView, higher: int) -> Effect:
    """A card of the suit led, winning so far, with ``higher`` cards of that suit still out: how
    likely a seat still to play holds one, over the deals consistent with what the seat knows."""
    known = knowledge(view)
    c = seen.card
    suit = c // 13
    still = known.still_to_play
    seen = seen._replace(still=still)
    for s in still:  # a card the seat passed, still held by a seat yet to play
        mine = known.placed_mask(s) & higher
        if mine:
            return _sure_cover(seen, known, Cover("passed", (s,), CARDS[mine.bit_length() - 1]))
    voids = tuple(s for s in still if known.void(s, suit))
    passed = 0
    for s in range(known.players):
        passed |= known.placed_mask(s)
    free = higher & ~passed
    if not free or len(voids) == len(still):  # no seat still to play can hold one
        if voids:
            decided = Cover("void", voids)
        else:
            holders = tuple(s for s in range(known.players) if known.placed_mask(s) & higher)
            decided = Cover("played", holders, CARDS[higher.bit_length() - 1])
        return _winning(rnd, seen._replace(wins=True, points=seen.stake, higher=0, covered=0.0, cover=decided))
    cover = Cover("void", voids) if voids else None
    con = constraints(known)
    coverers = [i for i, h in enumerate(con.holders) if h in still and h not in voids]
    dodge = tuple(a & ~higher if i in coverers else a for i, a in enumerate(con.allowed))
    try:  # a deal where no seat still to play holds a higher card
        match_cards([x for x in range(52) if con.free >> x & 1],
                    [con.need[i] - con.fixed[i].bit_count() for i in range(len(con.holders))],
                    lambda x: [i for i in range(len(con.holders)) if dodge[i] >> x & 1], random.Random(0))
    except ValueError:  # none: one of them holds a higher card for certain
        return _sure_cover(seen, known, cover or Cover("out"))
    hits = 0
    wanted = sum(1 << i for i in coverers)
    deals = _deals(view, con)
    for deal in deals:
        if any(deal[i] & free for i in range(len(deal)) if wanted >> i & 1):
            hits += 1
    # an estimate never says 0 or 1: those are for what the knowledge decides
    chance = min(max(hits / len(deals), 0.01), 0.99)
    return seen._replace(covered=round(chance, 2), cover=cover)


def _sure_cover(seen: Effect, known: Knowledge, cover: Cover) -> Effect:
    """A seat still to play holds a higher card of the suit led for certain: the card cannot
    win when no lower card of the suit is out (that seat must follow with a higher one)."""
    c = seen.card
    below = sum(1 << x for x in range(c - c % 13, c)) & known.unseen
    if not below:
        return seen._replace(wins=False, covered=1.0, cover=cover if cover.kind == "passed" else Cover("follow"))
    return seen._replace(covered=1.0, cover=cover)


# the deals a verdict weighs, for the last few positions (every legal card of one position
# is judged on the same deals): the position's text -> the deals
_DEALS: dict[str, list[list[int]]] = {}
DEALS = 400  # deals drawn to estimate a chance: within about ±0.05


def _deals(view: SeatView, con: Constraints) -> list[list[int]]:
    """The deals consistent with ``con``, drawn with the bots' sampler from a stream seeded by
    the seat's position, so the same position always gives the same words."""
    key = view.position()
    found = _DEALS.get(key)
    if found is None:
        sampler = Sampler(con)
        rng = random.Random("hearts-verdict/" + key)
        found = [sampler.sample(rng) for _ in range(DEALS)]
        if len(_DEALS) >= 4:
            _DEALS.pop(next(iter(_DEALS)))
        _DEALS[key] = found
    return found


def _winning(rnd: RoundState, effect: Effect) -> Effect:
    """A card certain to win, and what the rules' sun and no-trick bonus make of that."""
    rules, seat = rnd.rules, rnd.mover
    others = any(t for s, t in enumerate(rnd.taken) if s != seat)
    sun = bool(rules.sun) and not others and rnd.hands[seat] == 1 << effect.card  # its last card
    lost = rules.no_trick_bonus if rules.no_trick_bonus and not rnd.taken[seat] else 0
    return effect._replace(sun=sun, loses_bonus=lost) if sun or lost else effect


# ---------------------------------------------------------------- two decks


def _effect_two(rnd: RoundState, c: Card) -> Effect:
    """Two decks: as the trick's last card, what happens; before it, what is known so far
    (whether it would win the trick now, which card wins if it cancels one) and what the
    cards still to come could change (its twin still out, a higher card still out)."""
    points, breaks = _points_breaks(rnd, c)
    trick = [*rnd.trick, c]
    seat = rnd.mover
    if len(trick) == rnd.players:  # the last card
        cancel = tuple(CARDS[x] for x in core.cancelled(trick))
        best = core.winner(rnd.rules, trick, rnd.hands[seat] == 1 << c and not rnd.twice[seat])
        by = CARDS[trick[best]] if best is not None else None
        if best == len(trick) - 1:
            return Effect(c, True, points + _aside_points(rnd), not (
                not rnd.tricks and rnd.kitty_mask), breaks, cancel, by)
        return Effect(c, False, None, False, breaks, cancel, by)
    if c // 13 != trick[0] // 13:  # a discard never wins
        return Effect(c, False, None, False, breaks)
    best = core.cancelling_winner(trick)
    if c in rnd.trick:  # it cancels a card already played: what wins so far instead
        cancel = tuple(CARDS[x] for x in core.cancelled(trick))
        last = rnd.hands[seat] == 1 << c and not rnd.twice[seat]
        if best is None and last:
            # the last trick is never set aside: the fallback gives it to a card so far,
            # perhaps this one (the second copy of the highest card); a card of the
            # suit led still to come can change that
            fb = core.winner(rnd.rules, trick, True)
            assert fb is not None
            return Effect(c, None if fb == len(trick) - 1 else False, None, False, breaks,
                          cancel, CARDS[trick[fb]], pending=True, fallback=True)
        by = CARDS[trick[best]] if best is not None else None
        if last and rnd.rules.set_aside_last is SetAside.SECOND:
            hope = _second_hope(rnd, trick, c)
            if hope:
                return Effect(c, None, None, False, breaks, cancel, by, pending=True, ahead=hope)
        return Effect(c, False, None, False, breaks, cancel, by, pending=True)
    return _effect_pending(rnd, c, points, breaks, best == len(trick) - 1)


def _second_hope(rnd: RoundState, trick: list[Card], c: Card) -> tuple[Card, ...]:
    """The last trick, ``set_aside_last: second``, ``c`` cancelling its twin: the uncancelled
    cards of the suit led (the highest first) that twins still out could cancel, and then every
    card of that suit is cancelled and the second copy of the highest, ``c``, takes the trick;
    empty when that cannot happen (a card of the suit led higher than ``c``, or one uncancelled
    with no copy still out)."""
    led = c // 13
    suit = [x for x in trick if x // 13 == led]
    if max(suit) != c:
        return ()
    ahead = sorted((x for x in suit if trick.count(x) == 1), reverse=True)
    if not all(_unseen_copies(rnd, x) for x in ahead):
        return ()
    return tuple(CARDS[x] for x in ahead)


def _effect_pending(rnd: RoundState, c: Card, points: int, breaks: bool, so_far: bool) -> Effect:
    """A card of the suit led, not the last, cancelling nothing: what the cards still to
    come could change."""
    def out(card: int) -> int:
        return _unseen_copies(rnd, card)

    led = c // 13
    twin_out = out(c) > 0
    higher_out = any(out(x) > 0 and x not in rnd.trick for x in range(c + 1, led * 13 + 13))
    if so_far:  # the highest uncancelled card of the suit led, so far
        if not twin_out and not higher_out:  # nothing still to come can cancel or beat it
            return Effect(c, True, points + _aside_points(rnd), False, breaks)
        return Effect(c, None, None, False, breaks, pending=True, so_far=True, twin_out=twin_out,
                      higher_out=higher_out)
    # uncancelled cards ahead of it: it can win only if a twin still out cancels each
    trick = [*rnd.trick, c]
    ahead = [x for x in trick if x // 13 == led and x > c and trick.count(x) == 1]
    ahead.sort(reverse=True)
    stuck = next((CARDS[x] for x in ahead if not out(x)), None)
    return Effect(c, None if stuck is None else False, None, False, breaks, pending=True, so_far=False,
                  twin_out=twin_out, higher_out=higher_out, ahead=tuple(CARDS[x] for x in ahead), stuck=stuck)


def _unseen_copies(rnd: RoundState, card: int) -> int:
    """Copies of ``card`` the seat to move cannot place: in other hands or the unseen kitty."""
    left = rnd.rules.copies[card] - rnd.count(rnd.mover, card)
    left -= countOf(rnd.trick, card) + sum(tr.cards.count(card) for tr in rnd.tricks)
    if rnd.kitty_taken:
        left -= (rnd.kitty_mask >> card & 1) + (rnd.kitty_twice >> card & 1)
    return left


def _aside_points(rnd: RoundState) -> int:
    pts = rnd.rules.points
    return sum(pts[x] for x in rnd.set_aside)
