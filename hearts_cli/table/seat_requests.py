"""A person's requests at a shared table (``hearts host``): one handler per command.

Each request is read through :mod:`hearts_cli.play.requests` (the checks the engine
protocol makes too) and becomes one of the table's moves or questions; whatever
cannot be done is a :class:`~hearts_cli.play.requests.RequestError`, whose reply
is the one error shape (docs/tables.md). Each reply is a class of
:mod:`hearts_cli.play.replies`, the engine's own: the state reply, the verdict, the
suggestion (``hint``, as the engine's ``go``). The moves are told as events by the
table; the reply says only that the move was made (``OK``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..base.jsonvalue import JsonValue
from ..play import requests
from ..play.dealt import MOON_CHOICES, IllegalMove, PassError, Phase
from ..play.replies import OK, Ok, Reply, StateReply, Suggestion, VerdictReply
from ..play.requests import RequestError
from .game import GameTable

# what a seat may ask, in the order an unknown command's reply lists them
COMMANDS = ("pass", "play", "why", "hint", "moon", "state", "ping", "quit")
PASS_MAX = 13  # cards in a pass, at most (a bound on what is read, not the rule: the engine says how many)

Request = Mapping[str, JsonValue]  # a request as read (strict JSON)
Handler = Callable[["SeatRequests", int, Request, str], Reply]


class SeatRequests:
    """The requests of the people at one shared table, turned into the table's moves
    (``hints``: whether a person may ask the CPU for a suggestion)."""

    def __init__(self, table: GameTable, hints: bool):
        self.table = table
        self.hints = hints

    def act(self, seat: int, request: Request, lang: str) -> Reply:
        """The reply to one request of the person at ``seat``."""
        try:
            cmd = requests.command(request, COMMANDS)
            if cmd in _ANY_TIME:
                return _ANY_TIME[cmd](self, seat, request, lang)
            if self.table.game.over:
                raise RequestError("wrong_phase", "wrong_phase_over")
            return _IN_GAME[cmd](self, seat, request, lang)
        except RequestError as e:
            return e.answer(lang)

    def ping(self, seat: int, request: Request, lang: str) -> Reply:
        return OK

    def state(self, seat: int, request: Request, lang: str) -> Reply:
        return StateReply(view=self.table.seat_view(seat, history=True))

    def quit(self, seat: int, request: Request, lang: str) -> Reply:
        return Ok(bye=True)

    def hint(self, seat: int, request: Request, lang: str) -> Reply:
        """The Normal CPU's choice, from this seat's own view only (a hint can tell nothing more)."""
        table = self.table
        rd = table.game.round
        if not self.hints:
            raise RequestError("no_hints", "net_no_hints")
        if seat not in table.due() or (rd.phase is Phase.PASS and rd.passes[seat] is not None):
            raise RequestError("wrong_phase", "hint_not_now")
        if rd.phase is Phase.MOON:  # the shooter's choice: the better one (the same at every level)
            return Suggestion(seat=seat, moon=str(table.suggest_moon(seat)), level="normal")
        if rd.phase is Phase.PASS:  # the level it comes from, for the hint to name
            return Suggestion(seat=seat, cards=sorted(table.suggest_pass(seat, "normal")), level="normal")
        return Suggestion(seat=seat, card=table.suggest_play(seat, "normal"), level="normal")

    def moon(self, seat: int, request: Request, lang: str) -> Reply:
        """``{"cmd": "moon", "choice": "others" | "shooter_minus"}``: the shooter's choice."""
        rd = self.table.game.round
        if rd.phase is not Phase.MOON or rd.turn != seat:
            raise RequestError("wrong_phase", "moon_choice_not_now")
        self.table.choose_moon(seat, requests.choice(request.get("choice"), "choice", MOON_CHOICES), "person")
        return OK

    def pass_(self, seat: int, request: Request, lang: str) -> Reply:
        cards = requests.cards(request.get("cards"), "cards", limit=PASS_MAX)
        rd = self.table.game.round
        if rd.phase is not Phase.PASS:
            raise RequestError("wrong_phase", "no_pass_round" if rd.direction.value == "none" else "wrong_phase_play")
        if rd.passes[seat] is not None:
            raise RequestError("pass_twice", "pass_twice", {"seat": seat})
        try:
            self.table.pass_cards(seat, cards, "person")
        except PassError as e:
            raise requests.refused_pass(e) from None
        return OK

    def play(self, seat: int, request: Request, lang: str) -> Reply:
        card = requests.card(requests.required(request, "card"), "card")
        rd = self.table.game.round
        if rd.phase is Phase.PLAY and rd.turn == seat and rd.is_legal(card):
            self.table.play(seat, card, "person")  # the common case, without working out what the card does
            return OK
        verdict = rd.why(card, seat)
        if not verdict.legal:
            assert verdict.reason is not None
            raise RequestError(verdict.reason.code, text=verdict.message(lang, ascii=True), card=str(card))
        try:
            self.table.play(seat, card, "person")
        except IllegalMove as e:  # the check above said yes; never a half-made move
            raise RequestError(e.reason.code, text=e.reason.message(lang, ascii=True), card=str(card)) from None
        return OK

    def why(self, seat: int, request: Request, lang: str) -> Reply:
        card = requests.card(requests.required(request, "card"), "card")
        verdict = self.table.game.round.why(card, seat)
        return VerdictReply(verdict=verdict.to_json(verdict.message(lang, ascii=True)))


_ANY_TIME: dict[str, Handler] = {"ping": SeatRequests.ping, "state": SeatRequests.state, "quit": SeatRequests.quit}
_IN_GAME: dict[str, Handler] = {"pass": SeatRequests.pass_, "play": SeatRequests.play, "why": SeatRequests.why,
                                "hint": SeatRequests.hint, "moon": SeatRequests.moon}
