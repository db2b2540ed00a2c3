"""Every sentence ``hearts replay`` says: the story's events and the table at a position.

:class:`StoryTeller` words each kind of event of :mod:`hearts_cli.records.story`
(one method a kind, through the shared dispatch :class:`~hearts_cli.play.events.Teller`,
which the table's log of ``hearts play`` uses too); :func:`describe` is one event's
lines and :func:`describe_table` the lines of :func:`~hearts_cli.records.positions.table_at`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..base.wrapping import scored
from ..model.cards import Card, Suit
from ..model.rules import Moon
from ..play.events import Event, Teller
from ..play.round import Round
from ..text.catalog import cancel_pairs, preset_name, t, trick_plays, trick_result
from .record import GameRecord
from .record_parts import MoveAddress, display_name

if TYPE_CHECKING:  # payloads.py is the type checker's and the tests' only
    from ..play.payloads import (
        DirectionName,
        Glyph,
        MessageParams,
        MoonChoiceName,
        PhaseName,
        SeatEntry,
        Standing,
        TieOutcome,
        TrickPlay,
    )
    from .positions import TableData

__all__ = ["StoryTeller", "describe", "describe_table", "seat_name"]


def seat_name(record: GameRecord, seat: int | None, lang: str | None) -> str:
    """A seat as the story names it: its recorded name (a place said in ``lang``) and number."""
    if seat is None:
        return "-"
    name = display_name(record.seats[seat].name, lang) if 0 <= seat < len(record.seats) else str(seat)
    return t("rp_seat", lang, name=name, seat=seat)


def describe(event: Event, record: GameRecord, lang: str | None, ascii: bool = False) -> list[str]:
    """The lines (usually one) that tell ``event`` in ``lang``."""
    return StoryTeller(record, lang, ascii).tell(event)


def cancel_sentence(say: Callable[..., str], name: Callable[[int], str], plays: Sequence[TrickPlay],
                    cancelled: Sequence[Card], by: Card | None, winner: int | None, set_aside_last: str,
                    lang: str | None, ascii: bool) -> str | None:
    """Two decks: "The two A♥ cancel: K♥ wins." (or who the last trick falls to, or set aside);
    the replay story and the game loop say it alike. Only the pairs of the suit led are told:
    a card of another suit never wins, so its twins cancelling changes nothing (both still count
    their points for whoever takes the trick); None when no pair is of the suit led."""
    led = plays[0]["card"].suit
    told = [c for c in cancelled if c.suit == led]
    if not told:
        return None
    pairs = cancel_pairs(told, lang, ascii)
    if by is not None:
        then = say("rp_cancel_wins", card=by)
    elif winner is not None:  # the last trick: the fallback gave it to somebody
        then = say(f"rp_cancel_last_{set_aside_last}", seat=name(winner))
    else:
        then = say("rp_cancel_aside")
    said = say("rp_cancel", pairs=pairs, then=then)
    return said[:1].upper() + said[1:]


class StoryTeller(Teller[str]):
    """The story's events as lines of text, each seat named as the record names it."""

    def __init__(self, record: GameRecord, lang: str | None, ascii: bool = False):
        self.record = record
        self.rules = record.rules
        self.lang = lang
        self.ascii = ascii

    def name(self, seat: int | None) -> str:
        return seat_name(self.record, seat, self.lang)

    def say(self, message_id: str, **params: object) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    def plays(self, plays: list[TrickPlay]) -> str:
        return trick_plays([(self.name(p["seat"]), p["card"]) for p in plays], self.lang, self.ascii, led=False)

    def led(self, leader: int, cards: list[Card]) -> str:
        """Who played each card of a trick, the leader first, in the live table's words
        ("West led 8♣, North Q♣"), so that a replay's last trick says who led it."""
        n = self.record.rules.players
        return trick_plays([(self.name((leader + k) % n), c) for k, c in enumerate(cards)], self.lang, self.ascii)

    def ev_start(self, code: str | None, rules: dict[str, object], target: int, players: int,
                 seats: list[SeatEntry], you: int | None) -> list[str]:
        spec = " ".join([preset_name(str(rules["preset"]), self.lang)]
                        + [f"{a}={b}" for a, b in rules.items() if a != "preset"])
        lines = [self.say("rp_start", code=code, rules=spec, target=target, players=players),
                 ", ".join(self.name(s["seat"]) for s in seats)]
        if you is not None:
            lines.append(self.say("rp_view", seat=self.name(you)))
        return lines

    def ev_deal(self, round: int, direction: DirectionName, dealer: int, hands: dict[int, list[Card]]) -> list[str]:
        lines = ["", self.say("rp_round", round=round, direction=self.say(f"dir_{direction}"),
                              dealer=self.name(dealer))]
        for s, cards in hands.items():
            lines.append("  " + self.say("rp_hand", seat=self.name(s), cards=list(cards)))
        return lines

    def ev_pass(self, seat: int, cards: list[Card] | None, to: int) -> list[str]:
        if cards is None:  # another seat's pass, unseen from this one
            return []
        return [self.say("rp_pass", seat=self.name(seat), cards=list(cards), to=self.name(to))]

    def ev_receive(self, seat: int, cards: list[Card], source: int | None, hand: list[Card]) -> list[str]:
        return [self.say("rp_received", seat=self.name(seat), cards=list(cards), frm=self.name(source)),
                "  " + self.say("rp_hand", seat=self.name(seat), cards=list(hand))]

    def ev_lead(self, seat: int) -> list[str]:
        return [self.say("rp_lead", seat=self.name(seat))]

    def ev_trick(self, trick: int, leader: int, plays: list[TrickPlay], winner: int | None, points: int,
                 kitty: list[Card], cancelled: list[Card] | None = None, by: Card | None = None,
                 carried: list[Card] | None = None) -> list[str]:
        result = trick_result(trick, points, None if winner is None else self.name(winner), lang=self.lang,
                              ascii=self.ascii)
        text = self.say("rp_trick", trick=trick, plays=self.plays(plays), result=result)
        if kitty:
            text += " " + self.say("trick_kitty", cards=list(kitty))
        out = [text]
        said = self.cancelled(plays, cancelled, by, winner) if cancelled else None
        if said:
            out.append("  " + said)
        if carried:
            out.append("  " + self.carried(trick, winner, carried))
        return out

    def cancelled(self, plays: Sequence[TrickPlay], cancelled: Sequence[Card], by: Card | None,
                  winner: int | None) -> str | None:
        return cancel_sentence(self.say, self.name, plays, cancelled, by, winner, self.rules.set_aside_last,
                               self.lang, self.ascii)

    def carried(self, trick: int, winner: int | None, carried: Sequence[Card]) -> str:
        """Two decks: the set-aside cards the trick's winner takes with it, and from which tricks."""
        pts = sum(self.rules.points[c] for c in carried)
        # the set-aside tricks are the ones just before this one: a kitty (set aside with the
        # first trick) is always smaller than a trick, so the count of tricks is exact
        aside = len(carried) // self.rules.players
        if not aside:
            return self.say("rp_carried", seat=self.name(winner), count=len(carried), cards=list(carried))
        nums = [str(x) for x in range(trick - aside, trick)]
        numbers = nums[0] if len(nums) == 1 else self.say("names_and", first=", ".join(nums[:-1]),
                                                          last=nums[-1])
        return self.say("rp_carried_from", seat=self.name(winner), tricks=len(nums), numbers=numbers,
                        count=len(carried), points=pts, cards=list(carried))

    def ev_hearts_broken(self, seat: int, card: Card) -> list[str]:
        return ["  " + self.say("rp_hearts_broken", seat=self.name(seat), card=card)]

    def ev_void(self, seat: int, suit: Suit) -> list[str]:
        return ["  " + self.say("rp_void", seat=self.name(seat), suit=suit)]

    def ev_queen(self, seat: int, by: int | None) -> list[str]:
        if by == seat:
            return ["  " + self.say("rp_queen_self", seat=self.name(seat))]
        return ["  " + self.say("rp_queen", seat=self.name(seat), by=self.name(by))]

    def ev_jack(self, seat: int, points: int) -> list[str]:
        return ["  " + self.say("rp_jack", seat=self.name(seat), points=points)]

    def ev_moon_attempt(self, seat: int, cards: int) -> list[str]:
        return ["  " + self.say("rp_moon_attempt", seat=self.name(seat), cards=cards)]

    def ev_moon_stopped(self, seat: int, by: int) -> list[str]:
        return ["  " + self.say("rp_moon_stopped", seat=self.name(seat), by=self.name(by))]

    def ev_moon(self, seat: int, mode: MoonChoiceName, chosen: bool | None = None,
                points: int | None = None) -> list[str]:
        out = [self.say("rp_moon", seat=self.name(seat))]
        if chosen:
            mid = "rp_moon_chose_others" if Moon(mode) is Moon.OTHERS else "rp_moon_chose_minus"
            out.append(self.say(mid, seat=self.name(seat), points=points))
        return out

    def ev_round_end(self, round: int, scores: list[int], totals: list[int], shooter: int | None = None,
                     sun: bool | None = None, no_trick: list[int] | None = None) -> list[str]:
        parts = ", ".join(f"{said} ({tot})" for said, tot in zip(
            scored([(self.name(s), sc) for s, sc in enumerate(scores)]), totals, strict=True))
        lines = [self.say("rp_round_end", round=round, scores=parts)]
        bonus = no_trick or []
        if bonus:  # the seats that took no trick score the bonus
            names = [self.name(s) for s in bonus]
            joined = names[0] if len(names) == 1 else self.say("names_and", first=", ".join(names[:-1]),
                                                               last=names[-1])
            lines.insert(0, self.say("no_trick_other", names=joined, n=len(names),
                                     points=f"{self.rules.no_trick_bonus:+d}"))
        if sun and shooter is not None:  # a sun: every trick taken (rules.sun)
            value = self.rules.sun
            mid = "sun_other_minus" if value < 0 else "sun_other_others"
            lines.insert(0, self.say(mid, name=self.name(shooter), points=abs(value)))
        return lines

    def ev_game_end(self, winners: list[int], standings: list[Standing]) -> list[str]:
        lines = [self.say("rp_game_end")]
        for row in standings:
            lines.append("  " + self.say("rp_standing", place=row["place"], seat=self.name(row["seat"]),
                                         total=row["total"]))
        names = ", ".join(self.name(s) for s in winners)
        lines.append(self.say("rp_winners" if len(winners) > 1 else "rp_winner", seats=names))
        return lines

    def ev_tie(self, seats: list[int], total: int, outcome: TieOutcome) -> list[str]:
        names = [self.name(s) for s in seats]
        joined = self.say("names_and", first=", ".join(names[:-1]), last=names[-1])
        return [self.say(f"tie_{outcome}", names=joined, total=total)]

    def ev_stop(self, moves: int, round: int, phase: PhaseName, turn: int | None) -> list[str]:
        out = [self.say("rp_stop", moves=moves, round=round)]
        if phase == "moon":
            out.append(self.say("rp_moon_waiting", seat=self.name(turn)))
        return out

    def ev_decision(self, position: str, seat: int, played: list[Card], best: list[Card], expected: float,
                    best_expected: float, loss: float, glyph: Glyph, trick: int | None = None,
                    reason: str | None = None, reason_params: MessageParams | None = None) -> list[str]:
        head = self.say("rp_decision", position=position, seat=self.name(seat),
                        played=_cards_text(played, self.ascii) + glyph, expected=f"{expected:.1f}")
        if loss >= 0.05:
            head += " " + self.say("rp_decision_best", best=_cards_text(best, self.ascii),
                                   best_expected=f"{best_expected:.1f}")
        if reason:  # "... expects 2.6 pts; the only good card: ..."
            lines = ["  " + head + "; " + self.say(reason, **(reason_params or {}))]
        else:
            lines = ["  " + head + "."]
        if glyph and trick is not None and len(played) == 1:  # what the seat knew of the card it played
            said = self._verdict(position, seat, played[0])
            if said:
                lines.append("    " + said)
        return lines

    def _verdict(self, position: str, seat: int, card: Card) -> str:
        """The verdict on ``card`` from ``seat``'s view just before it was played (the sentence of
        the confirmation, ``why`` and ``hearts explain``)."""

        try:
            game, _ = self.record.at(MoveAddress.parse(position))
        except (LookupError, ValueError):
            return ""
        rnd = game.round
        if rnd.turn != seat:
            return ""
        return Round.seen_by(rnd.view(seat)).why(card).message(self.lang, self.ascii)

    def ev_summary(self, seat: int, decisions: int, mistakes: int, blunders: int, lost: float) -> list[str]:
        return [self.say("rp_summary_row", seat=self.name(seat), decisions=decisions, mistakes=mistakes,
                         blunders=blunders, lost=lost)]


def _cards_text(cards: Sequence[Card], ascii: bool) -> str:
    return " ".join(c.face(ascii) for c in cards)


def describe_table(table: TableData, record: GameRecord, lang: str | None,
                   ascii: bool = False) -> list[str]:
    """The table at a position (:func:`~hearts_cli.records.positions.table_at`), as lines."""
    teller = StoryTeller(record, lang, ascii)
    say, name = teller.say, teller.name
    lines = []
    if table["over"]:
        lines.append(say("rp_at_over", code=table["code"], moves=table["moves"]))
    elif table["phase"] == "pass":
        lines.append(say("rp_at_pass", code=table["code"], round=table["round"], moves=table["moves"],
                         direction=say(f"dir_{table['direction']}"), seat=name(table["turn"])))
    else:
        lines.append(say("rp_at_play", code=table["code"], round=table["round"], trick=table["trick"],
                         card=table["card"], moves=table["moves"], seat=name(table["turn"])))
    if table.get("last_trick") and not table["trick_cards"]:
        lt = table["last_trick"]
        taker = name(lt["winner"]) if lt["winner"] is not None else None
        result = trick_result(lt["number"], lt["points"], taker, lang=lang, ascii=ascii)
        lines.append(say("rp_at_last", plays=teller.led(lt["leader"], list(lt["cards"])), result=result))
    if table["trick_cards"]:
        lines.append(say("rp_at_trick", plays=teller.plays(table["trick_cards"])))
    for s, cards in table["hands"].items():
        lines.append(say("rp_hand", seat=name(s), cards=list(cards)))
    for s, cards in table.get("passed", {}).items():
        lines.append(say("rp_at_passed", seat=name(s), cards=list(cards)))
    if table["legal"]:
        lines.append(say("rp_at_legal", cards=list(table["legal"])))
    lines.append(say("rp_at_hearts_broken" if table["hearts_broken"] else "rp_at_hearts_unbroken"))
    for s, suits in table["voids"].items():
        lines.append(say("rp_at_void", seat=name(s), suits=", ".join(say(f"suit_{x}") for x in suits)))
    pts = ", ".join(scored([(name(s), p) for s, p in enumerate(table["points"])]))
    tot = ", ".join(scored([(name(s), p) for s, p in enumerate(table["totals"])]))
    lines.append(say("rp_at_points", points=pts))
    lines.append(say("rp_at_totals", totals=tot))
    return lines

