"""The table: one person against the CPU seats, as a sequence of events.

:class:`Table` holds a :class:`~hearts_cli.play.engine.Game`, plays the CPU seats,
reads the person's commands and reports everything that happens as
:class:`Event` values. It does no I/O of its own: a front end (the
prompt-toolkit session, or the line-by-line batch mode) shows the events and
the table, and feeds it lines. Every CPU move is computed from the seat's view
and a seed derived from the game code only, so a resumed game makes exactly the
moves an uninterrupted one would.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..base.untrusted import MAX_LINE_CHARS
from ..bots import DEFAULT_LEVELS
from ..model.cards import Card, CardParseError, fold, parse_card, parse_card_list
from ..model.codes import new_code
from ..model.rules import Direction, Moon
from ..model.seating import PLACES, place_name, record_name, seat_place, shown_name
from ..play.engine import Game, PassError, Phase
from ..play.events import Event
from ..table.game import GameTable, Refused, SeatClient
from ..text.catalog import t

# Where each seat sits, counted clockwise (in play order) from the person, who is South:
# the one table of places and their names is hearts_cli/model/seating.py.
POSITIONS = PLACES

# commands and their aliases (Spanish too); matched after folding case and accents
COMMANDS = {
    "why": "why", "por-que": "why", "porque": "why", "por": "why",
    "hint": "hint", "pista": "hint",
    "score": "score", "scores": "score", "puntos": "score",
    "tricks": "tricks", "bazas": "tricks",
    "rules": "rules", "reglas": "rules",
    "code": "code", "codigo": "code",
    "auto": "auto",
    "finish": "finish", "terminar": "finish",
    "new": "new", "nueva": "new", "another": "new", "otra": "new",
    "replay-deal": "replay", "replay": "replay", "repetir": "replay", "repetir-reparto": "replay",
    "help": "help", "ayuda": "help", "?": "help",
    "quit": "quit", "exit": "quit", "salir": "quit",
    "pass": "pass", "pasar": "pass", "paso": "pass",
    "table": "table", "mesa": "table",
    "log": "log", "jugadas": "log",
    "undo": "undo", "deshacer": "undo",
}
# each command as the display language names it: what help, completion and "did you mean" offer
# (every alias in COMMANDS works in either language)
COMMAND_NAMES: dict[str, dict[str, str]] = {
    "en": {"why": "why", "hint": "hint", "score": "score", "tricks": "tricks", "rules": "rules",
           "code": "code", "auto": "auto", "finish": "finish", "new": "new", "replay": "replay-deal",
           "pass": "pass", "table": "table", "log": "log", "undo": "undo", "help": "help", "quit": "quit"},
    "es": {"why": "por-que", "hint": "pista", "score": "puntos", "tricks": "bazas", "rules": "reglas",
           "code": "codigo", "auto": "auto", "finish": "terminar", "new": "nueva", "replay": "repetir",
           "pass": "pasar", "table": "mesa", "log": "jugadas", "undo": "deshacer", "help": "ayuda",
           "quit": "salir"},
}
# what completion offers: the display language's names first, then the other language's
COMMAND_WORDS = tuple(dict.fromkeys(name for lang in ("en", "es") for name in COMMAND_NAMES[lang].values()))


def moon_word(text: str, value: int) -> str | None:
    """The shooter's choice a typed word names, in either language: ``minus``, ``menos``,
    ``-26`` (the shooter subtracts the moon) or ``others``, ``demas``, ``+26``; else None."""
    word = fold(text).replace(" ", "")
    if word in ("minus", "menos", "-", f"-{value}", f"\u2212{value}", "shooter_minus", "m"):
        return "shooter_minus"
    if word in ("others", "other", "otros", "demas", "losdemas", "+", f"+{value}", "o", "d"):
        return "others"
    return None


def command_words(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The command names of ``lang``, and those of the other language."""
    own = tuple(COMMAND_NAMES.get(lang, COMMAND_NAMES["en"]).values())
    return own, tuple(w for w in COMMAND_WORDS if w not in own)


def close_commands(word: str, lang: str) -> list[str]:
    """The commands ``word`` most likely meant to be (a typo), named in ``lang``."""
    import difflib  # only on a typo: keeps start-up light

    names = COMMAND_NAMES.get(lang, COMMAND_NAMES["en"])
    found: list[str] = []
    for alias in difflib.get_close_matches(fold(word), [a for a in COMMANDS if len(a) > 2], n=6, cutoff=0.7):
        name = names[COMMANDS[alias]]
        if name not in found:
            found.append(name)
    return found[:2]


def make_seats(players: int, me: int, level: str | None):
    """The record's seats: the person's and the CPUs', Easy/Normal/Hard by default."""
    from ..records.record import Seat

    seats = []
    for seat in range(players):
        place = (seat - me) % players  # 1: on your left, and on clockwise
        name = record_name(seat_place(seat, me, players))
        if seat == me:
            seats.append(Seat(name, "human", None))
        else:  # by place: Easy on your left, then Normal, then Hard (across and right at four)
            seats.append(Seat(name, "cpu", level or DEFAULT_LEVELS[(place - 1) % 3]))
    return tuple(seats)


class FrontEnd:
    """What shows a table to its one person: the prompt-toolkit session, the line-by-line batch
    mode, a test. It is told every event of the table, in order, through :meth:`event`; the
    table never prints. (``hearts join`` is the front end of a seat at a shared table.)"""

    def event(self, ev: Event) -> None:
        """One event of the table (the same vocabulary as every other program: docs/events.md)."""


class _Calls(FrontEnd):
    """A front end made of a function (tests, and callers that pass ``emit=``)."""

    def __init__(self, fn: Callable[[Event], None]):
        self.fn = fn

    def event(self, ev: Event) -> None:
        self.fn(ev)


class Table(SeatClient):
    """A game seen from the person's seat, as the in-process client of its
    :class:`~hearts_cli.table.game.GameTable`: feed it lines; it asks the table for the
    person's moves and requests, and its front end shows the events."""

    def __init__(self, game: Game, seats: Sequence[Any], *, lang: str, ascii: bool = False,
                 confirm: bool = True, store: Any = None,
                 emit: Callable[[Event], None] | None = None, undo: bool = True, undos: int = 0,
                 front: FrontEnd | None = None, core: Any = None):
        # the table: a local game's own (in-process), or a seat's at a shared table (``core``:
        # join.RemoteTable, which sends the person's moves to the host)
        self.core = core if core is not None else GameTable(game, seats, store=store, local=True, undos=undos)
        self.local = self.core.local
        self.me = self.core.me if not self.local else next(
            (i for i, s in enumerate(self.core.seats) if s.human), 0)
        self.lang = lang
        self.ascii = ascii
        self.confirm = confirm
        self.front: FrontEnd = front or (_Calls(emit) if emit is not None else FrontEnd())
        self.selection: list[Card] = []  # cards chosen to pass, in the order chosen
        self.pending: Card | None = None  # a card entered once, waiting for confirmation
        self.dirty = True  # the table changed since it was last shown
        self.failed = False  # the last line was refused (batch mode stops on it)
        self.events: deque[Event] = deque(maxlen=500)  # the latest events, newest last
        self.undo_allowed = undo  # `undo: false` in settings.yaml turns it off
        self.told_how_to_leave = False  # Ctrl-C with nothing to cancel says it once
        self.core.attach(self.me, self)

    # ------------------------------------------------------------ the table's state, read in-process

    @property
    def game(self) -> Game:
        return self.core.game

    @game.setter
    def game(self, game: Game) -> None:
        self.core.game = game

    @property
    def seats(self) -> tuple:
        return self.core.record_seats()

    @property
    def store(self) -> Any:
        return self.core.store

    @property
    def undos(self) -> int:
        return self.core.undos

    @property
    def archived(self) -> Any:
        return self.core.archived

    @archived.setter
    def archived(self, value: Any) -> None:
        self.core.archived = value

    @property
    def archived_unfinished(self) -> str | None:
        return self.core.archived_unfinished

    @archived_unfinished.setter
    def archived_unfinished(self, value: str | None) -> None:
        self.core.archived_unfinished = value

    @property
    def auto_round(self) -> int | None:
        """The round the CPU plays for the person (``auto``, ``finish``), or None."""
        return self.core.seats[self.me].auto_round

    @auto_round.setter
    def auto_round(self, value: int | None) -> None:
        self.core.seats[self.me].auto_round = value

    @property
    def finish_offered(self) -> set[int]:
        return self.core.finish_offered

    # ------------------------------------------------------------ naming

    @property
    def players(self) -> int:
        return self.game.rules.players

    def position(self, seat: int) -> str:
        return seat_place(seat, self.me, self.players)

    def round_the_table(self) -> list[int]:
        """The seats from the person's, clockwise (left, across, right...): the order lists use."""
        n = self.players
        return [(self.me + i) % n for i in range(n)]

    def name(self, seat: int) -> str:
        if not getattr(self, "local", True):  # a shared table: a person's own name, else the seat's place
            return shown_name(self.core.seats[seat].name, seat, self.me, self.players, self.lang)
        return place_name(self.position(seat), self.lang)

    def level(self, seat: int) -> str | None:
        s = self.seats[seat]
        return None if s.kind == "human" else (s.level or "normal")

    def label(self, seat: int) -> str:
        lvl = self.level(seat)
        if lvl is None:
            return self.name(seat)
        return f"{self.name(seat)} ({t(f'level_{lvl}', self.lang)})"

    def say(self, message_id: str, **params: Any) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    # ------------------------------------------------------------ events

    def event(self, ev: Event) -> None:
        """An event of the table, for the person's seat: kept, and shown by the front end."""
        kind = ev.kind
        if kind in ("pass", "play", "round_end", "undo"):
            # (at a shared table the table is drawn when the seat's view comes: RemoteTable)
            self.dirty = self.dirty or self.local
            if kind == "play" or kind == "round_end" or kind == "undo":
                self.pending = None
            if kind == "round_end" or kind == "undo" or (kind == "pass" and ev.data["seat"] == self.me):
                self.selection = []
        if kind == "game_end" and "record" in ev.data:
            ev = Event("game_end", ev.data | {"record": self._record_json(ev.data["record"])})
        self._send(ev)

    def emit(self, kind: str, **data: Any) -> None:
        self._send(Event(kind, data))

    def attach(self, front: FrontEnd) -> None:
        """The front end that shows this table from now on (the only one: a local game has one person)."""
        self.front = front

    def _send(self, ev: Event) -> None:
        self.events.append(ev)
        self.front.event(ev)

    def info(self, topic: str, text: str) -> None:
        self.emit("info", topic=topic, text=text)

    def error(self, message_id: str, message: str | None = None, **params: Any) -> None:
        self.failed = True
        self.emit("error", id=message_id,
                  message=message if message is not None else self.say(message_id, **params))

    def save(self) -> None:
        self.core.save()

    def leave(self) -> None:
        """The person leaves before the end: a local game is saved (and says so); a seat at a
        shared table is left to the CPU until the person joins again."""
        if self.local:
            self.save()  # a move interrupted (Ctrl-C) between the engine and its save is kept too
            self.emit("saved")
        else:
            self.core.leave()
            self.info("leave", self.say("net_left"))

    def announce_start(self, resumed: bool = False) -> None:
        self.core.announce(self.me, resumed)

    def _record_json(self, change: dict[str, Any] | None) -> dict[str, Any] | None:
        """How the game just archived changes the person's record ("3rd win in a row"), for game_end."""
        if change is None:
            return None
        from ..store.stats import change_text

        return {"id": change["id"], "text": change_text(change, self.lang),
                "streak": {"kind": change["kind"], "length": change["length"]},
                "won": change["won"], "played": change["played"]}

    # ------------------------------------------------------------ the CPU players (the table's)

    def suggest(self, seat: int, level: str) -> Any:
        return self.core.suggest(seat, level)

    def _auto(self) -> bool:
        return self.core.auto(self.me)

    def waiting_for_person(self) -> bool:
        """Whether the next move is the person's (and not the CPU's on their behalf)."""
        g = self.game
        if g.over:
            return True
        rd = g.round
        if self._auto():
            return False
        if rd.phase is Phase.PASS:
            return rd.passes[self.me] is None
        return rd.turn == self.me

    def cpu_step(self) -> bool:
        """Make one CPU move if one is due (a CPU seat's, or the person's under ``auto``)."""
        return self.core.cpu_step()

    def play_for_person(self) -> bool:
        """The turn timer ran out: the Normal CPU makes the person's move."""
        if self.game.over or not self.waiting_for_person():
            return False
        self.selection = []
        self.pending = None
        self.core.take_over(self.me, "timer")
        return True

    # ------------------------------------------------------------ moves

    def _pass(self, seat: int, cards: Sequence[Card], by: str) -> None:
        try:
            self.core.pass_cards(seat, cards, "person" if by == "you" else by)
        except Refused as e:  # a shared table said no
            self.error(e.code, e.message)

    def _play(self, card: Card, by: str) -> None:
        self.pending = None
        try:
            self.core.play(self.game.round.turn, card, "person" if by == "you" else by)
        except Refused as e:
            self.error(e.code, e.message)

    def _choose_moon(self, choice: str, by: str) -> None:
        rd = self.game.round
        self.selection = []
        self.pending = None
        try:
            self.core.choose_moon(rd.turn, choice, "person" if by == "you" else by)
        except Refused as e:
            self.error(e.code, e.message)

    def _own_game_only(self, command: str) -> bool:
        """At a shared table, a request for a game of one's own is refused (said so): True."""
        if self.local:
            return False
        if command == "undo":
            self.error("net_undo")
        else:
            self.error("net_own_game", command=COMMAND_NAMES[self.lang][command])
        return True

    # ------------------------------------------------------------ the shooter's choice

    def moon_default(self) -> str:
        """The better choice for the shooter's match standing (what a CPU would choose)."""
        return self.core.moon_default()

    def moon_word(self, text: str) -> str | None:
        """The choice a typed word names: ``minus``/``menos``/``-26`` or ``others``/``demas``/``+26``."""
        return moon_word(text, self.game.rules.penalty_total)

    def points_left(self) -> bool:
        """Whether any card that scores is still to be played this round."""
        return self.core.points_left()

    # ------------------------------------------------------------ reading a line

    def handle(self, line: str) -> str | None:
        """Act on one line; returns ``"quit"``, ``"new"``, ``"replay"`` or None."""
        self.failed = False
        if len(line) > MAX_LINE_CHARS:  # a paste of a whole file is no card or command
            self.error("line_too_long", limit=MAX_LINE_CHARS)
            return None
        text = line.strip()
        g = self.game
        moon = not g.over and g.round.phase is Phase.MOON and g.round.turn == self.me
        if moon and (not text or self.moon_word(text)):
            # your moon: -26 for you or +26 for everyone else; Enter alone takes the better one
            self._choose_moon(self.moon_word(text) if text else self.moon_default(), by="you")
            return None
        if not text:
            return None
        head, _, rest = text.partition(" ")
        cmd = COMMANDS.get(fold(head))
        if cmd == "why" and fold(head) == "por":  # "por qué QS"
            rest = rest.partition(" ")[2] if fold(rest.partition(" ")[0]) in ("que",) else rest
        if cmd is not None:
            return getattr(self, f"cmd_{cmd}")(rest.strip())
        if moon:
            self.error("moon_choice_expected", **self.moon_words())
            return None
        if self._mistyped_command(head, text):
            return None
        return self.enter(text)

    def moon_words(self) -> dict[str, Any]:
        """What the moon's question says: the two words to type and the default, in words."""
        default = self.moon_default()
        points = self.game.rules.penalty_total
        return {"minus": self.say("moon_word_minus"), "others": self.say("moon_word_others"),
                "points": points,
                "default": self.say("moon_opt_minus" if Moon(default) is Moon.SHOOTER_MINUS else "moon_opt_others",
                                    points=points)}

    def _mistyped_command(self, head: str, text: str) -> bool:
        """A word that is neither a card nor a command: say so, with the closest commands.

        Only for a word of letters (``hnit``, ``scroe``, ``pas``) when the whole
        line is no card (``rey de picas`` is one); card-like typos keep the card
        suggestions."""
        word = fold(head)
        if len(word) < 3 or not word.replace("-", "").isalpha():
            return False
        try:
            parse_card(text)
            return False
        except CardParseError as e:
            suggestions = e.suggestions
        if " " in text and self.game.round.phase is Phase.PASS and not self.game.over \
                and self._parse_many(text, quiet=True) is not None:
            return False
        # several words that look like a card ("quen of spades") are a mistyped card
        close = close_commands(head, self.lang) if not (suggestions and " " in text) else []
        if close:
            names = close[0] if len(close) == 1 else self.say("either_or", first=close[0], second=close[1])
            self.error("bad_command_hint", text=head, commands=names)
        elif not suggestions:
            self.error("bad_command", text=head, help=COMMAND_NAMES[self.lang]["help"])
        else:
            return False
        return True

    def _parse(self, text: str) -> Card | None:
        try:
            return parse_card(text)
        except CardParseError as e:
            self._bad_card(e)
            return None

    def _bad_card(self, e: CardParseError) -> None:
        if e.suggestions:
            self.error("bad_card_hint", text=e.text, cards=list(e.suggestions))
        else:
            self.error("bad_card", text=e.text)

    def _cards_in_hand(self, text: str) -> list[Card] | None:
        """Cards typed to pass: all of them in the person's hand, or None (the error reported)."""
        cards = self._parse_many(text)
        if cards is None:
            return None
        hand = self.game.round.hands[self.me]
        for c in cards:
            if not hand >> c & 1:
                self.error("not_in_hand", card=c)
                return None
        return cards

    def _parse_many(self, text: str, quiet: bool = False) -> list[Card] | None:
        """One card (``dama de picas``) or several (``QS AS KS``, ``QS, AS``).

        ``quiet``: None for text that is no cards, without reporting an error."""
        try:
            return parse_card_list(text)
        except CardParseError as e:
            if not quiet:
                self._bad_card(e)  # names the whole phrase when it is written in words
            return None

    def enter(self, text: str) -> str | None:
        """A card (or, while passing, cards) typed on its own."""
        g = self.game
        if g.over:
            self.error("game_over_cards")
            return None
        rd = g.round
        if rd.phase is Phase.PASS:
            cards = self._cards_in_hand(text)
            if cards is None:
                return None
            for c in cards:
                if c in self.selection:
                    self.selection.remove(c)
                else:
                    self.selection.append(c)
            # what changed is said (the selection event); the table is not drawn again for it
            self.emit("selection", cards=sorted(self.selection), count=len(self.selection),
                      need=g.rules.pass_count)
            return None
        card = self._parse(text)
        if card is None:
            return None
        verdict = rd.why(card, self.me)
        if not verdict.legal:
            assert verdict.reason is not None
            self.pending = None
            self.error(verdict.reason.detail or verdict.reason.code, verdict.message(self.lang, self.ascii))
            return None
        if self.confirm and self.pending != card:
            self.pending = card
            effect = verdict.message(self.lang, self.ascii)
            self.emit("confirm", card=card, text=self.say("confirm_card", effect=effect))
            return None
        self._play(card, by="you")
        return None

    def cancel(self) -> None:
        """Ctrl-C: drop the chosen cards and the card waiting for confirmation; with
        nothing to drop, say (once) how to leave, since Ctrl-C does not."""
        if self.selection or self.pending is not None:
            self.selection = []
            self.pending = None
            self.emit("cancel", text=self.say("cancelled"))
        elif not self.told_how_to_leave:
            self.told_how_to_leave = True
            self.info("leave", self.say("how_to_leave", quit=COMMAND_NAMES[self.lang]["quit"]))

    # ------------------------------------------------------------ commands

    def cmd_pass(self, rest: str) -> None:
        g = self.game
        rd = g.round
        if g.over:
            self.error("game_over_cards")
            return None
        if rd.phase is not Phase.PASS:
            self.error("no_pass_round" if rd.direction is Direction.NONE else "wrong_phase_play")
            return None
        need = g.rules.pass_count
        if rest:
            cards = self._cards_in_hand(rest)
            if cards is None:
                return None
            if len(cards) < need:
                # fewer than a whole pass: added to the cards already chosen, and passed
                # once that makes the number needed (`TS`, `JS`, then `pass KS`)
                chosen = self.selection + [c for c in dict.fromkeys(cards) if c not in self.selection]
                if len(chosen) > need:
                    self.error("pass_count", count=need, given=len(chosen))
                    return None
                self.selection = chosen
                if len(chosen) < need:
                    self.emit("selection", cards=sorted(chosen), count=len(chosen), need=need)
                    return None
                cards = list(chosen)
        else:
            cards = list(self.selection)
        if len(cards) != need:
            self.error("pass_count", count=need, given=len(cards))
            return None
        try:
            self._pass(self.me, cards, by="you")
        except PassError as e:
            self.error(e.message_id, e.message(self.lang, self.ascii))
        return None

    def cmd_why(self, rest: str) -> None:
        if not rest:
            if self.pending is None:
                self.error("why_usage")
                return None
            card = self.pending
        else:
            card = self._parse(rest)
            if card is None:
                return None
        rd = self.game.round
        verdict = rd.why(card, self.me)
        self.emit("why", card=card, legal=verdict.legal,
                  reason=verdict.reason.code if verdict.reason else None,
                  text=verdict.message(self.lang, self.ascii))
        return None

    def cmd_hint(self, rest: str) -> None:
        g = self.game
        if g.over or not self.waiting_for_person():
            self.error("hint_not_now")
            return None
        rd = g.round
        if rd.phase is Phase.MOON:
            words = self.moon_words()
            self.emit("hint", text=self.say("hint_moon", default=words["default"]))
            return None
        try:  # the Hard CPU at a game of one's own; at a shared table the host's, if it allows hints
            choice = self.suggest(self.me, "hard")
        except Refused as e:
            self.error(e.code, e.message)
            return None
        if rd.phase is Phase.PASS:
            cards = sorted(choice)
            text = self.say("hint_pass", cards=cards, reason=self._pass_reason(cards))
            self.emit("hint", cards=cards, text=text)
        else:
            text = self.say("hint_play", card=choice, reason=self._play_reason(choice))
            self.emit("hint", card=choice, text=text)
        return None

    def _pass_reason(self, cards: list[Card]) -> str:
        rd = self.game.round
        hand = rd.hand(self.me)
        if 49 in cards:
            return self.say("hint_why_pass_queen")
        spades = [c for c in cards if c in (50, 51)]  # only the ones passed, so only ones held
        if spades:
            return self.say("hint_why_pass_spade" if len(spades) == 1 else "hint_why_pass_spades",
                            cards=spades)
        for suit in range(4):
            held = [c for c in hand if c // 13 == suit]
            if held and all(c in cards for c in held):
                return self.say("hint_why_pass_void", suit=suit)
        return self.say("hint_why_pass_high")

    def _play_reason(self, card: Card) -> str:
        """One line on why ``card``: what the engine knows it does first, rank guesses only
        when the outcome is uncertain, so the reason never contradicts `why`."""
        rd = self.game.round
        legal = rd.legal_cards()
        if len(legal) == 1:
            return self.say("hint_why_only")
        eff = rd.why(card, self.me).effect
        assert eff is not None  # the Hard player suggests legal cards only
        led = rd.trick[0] // 13 if rd.trick else None
        if led is not None and card // 13 != led:  # a discard never wins
            pts = self.game.rules.points[card]
            return self.say("hint_why_dump" if pts > 0 or card.rank >= 12 else "hint_why_discard")
        if eff.wins is False:
            return self.say("hint_why_duck")
        if eff.wins:
            others = [rd.why(c, self.me).effect for c in legal if c != card]
            if all(o is not None and o.wins for o in others):
                return self.say("hint_why_forced")
            if eff.exact:
                if eff.points:
                    return self.say("hint_why_take_points", points=eff.points)
                return self.say("hint_why_safe_win")
            return self.say("hint_why_sure_win")
        # uncertain: the engine cannot tell, so a rough guess from the rank
        if led is None:
            return self.say("hint_why_low_lead" if card.rank <= 7 else "hint_why_lead")
        return self.say("hint_why_chance")

    def cmd_score(self, rest: str) -> None:
        self.emit("score", totals=list(self.game.totals),
                  rounds=[list(r.scores) for r in self.game.results],
                  points=list(self.game.round.points))
        return None

    def cmd_tricks(self, rest: str) -> None:
        rd = self.game.round
        self.emit("tricks", round=len(self.game.rounds),
                  tricks=[{"leader": tr.leader, "cards": list(tr.cards), "winner": tr.winner,
                           "points": tr.points} for tr in rd.tricks],
                  current={"leader": rd.leader, "cards": list(rd.trick)} if rd.trick else None)
        return None

    def cmd_rules(self, rest: str) -> None:
        self.emit("rules", preset=self.game.rules.preset, settings=self.game.rules.settings())
        return None

    def cmd_code(self, rest: str) -> None:
        if self.game.code is None:  # a shared table tells it at the end (it would reveal the deal)
            self.error("net_own_game", command=COMMAND_NAMES[self.lang]["code"])
            return None
        self.info("code", self.say("code_info", code=self.game.code))
        return None

    def cmd_auto(self, rest: str) -> None:
        if self._own_game_only("auto"):
            return None
        if self.game.over:  # nothing left to play: not a mistake (a script may say it once too often)
            self.info("auto", self.say("game_over_cards"))
            return None
        self.core.set_auto(self.me)
        self.selection = []
        self.pending = None
        self.info("auto", self.say("auto_on"))
        return None

    def cmd_finish(self, rest: str) -> None:
        if self._own_game_only("finish"):
            return None
        try:
            self.core.finish(self.me)
        except Refused as e:
            self.error(e.code)
            return None
        self.pending = None
        self.info("finish", self.say("finish_on"))
        return None

    def cmd_log(self, rest: str) -> None:
        """The move log of the game so far (docs/replay.md), to copy into `hearts replay`.

        A round under way with a pass is left out until it ends: its log would
        show the other seats' passes."""
        from ..records.movelog import format_log

        if self._own_game_only("log"):
            return None
        lines = format_log(self.game, hide_round_in_progress=True)
        if lines[-1].startswith("# R"):
            lines[-1] = "# " + self.say("log_round_hidden", round=len(self.game.rounds))
        self.info("log", "\n".join(lines))
        return None

    def cmd_undo(self, rest: str) -> None:
        """Take back the person's last pass or card, and the CPU cards played after it (the
        table's :meth:`~hearts_cli.table.game.GameTable.undo`: saved before it is shown)."""
        if self._own_game_only("undo"):
            return None
        if not self.undo_allowed:
            self.error("undo_off")
            return None
        self.selection = []
        self.pending = None
        try:
            self.core.undo(self.me)
        except Refused as e:
            self.error(e.code)
        return None

    def cmd_table(self, rest: str) -> None:
        self.dirty = True
        return None

    def cmd_help(self, rest: str) -> None:
        self.info("help", self.say("help_text" if self.local else "net_help"))
        return None

    def cmd_quit(self, rest: str) -> str:
        return "quit"

    def cmd_new(self, rest: str) -> str | None:
        return None if self._own_game_only("new") else "new"

    def cmd_replay(self, rest: str) -> str | None:
        return None if self._own_game_only("replay") else "replay"

    # ------------------------------------------------------------ a new game at the same table

    def archive_unfinished(self) -> None:
        """Put the game in the archive if it is unfinished (once): another is about to replace it."""
        self.core.archive_unfinished()

    def restart(self, same_deal: bool) -> None:
        """"Another game" (a new code) or "replay this deal" (the same code), same rules and seats."""
        self.core.restart(self.game.code if same_deal else new_code())
        self.selection = []
        self.pending = None
        self.dirty = True
        self.announce_start()
