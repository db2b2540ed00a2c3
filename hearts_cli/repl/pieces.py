"""The small pieces every text of the table is made of: cards, suits, names, separators."""

from __future__ import annotations

from collections.abc import Sequence

from ..base.wrapping import scored
from ..model.cards import SUIT_SYMBOLS, Card
from ..model.rules import Direction
from ..text.catalog import t, trick_plays, trick_result
from .client import TableClient
from .layout import MIN_WIDTH, SUIT_CLASSES, WIDTH, Line

# the pass arrow, as the table is drawn (you at the bottom): left is West, across North, right East
ARROWS = {"left": {False: "←", True: "<-"}, "across": {False: "↑", True: "^"},
          "right": {False: "→", True: "->"}}


class Writer:
    """Words and fragments for one person's table: their language, ASCII or not, plain or styled."""

    def __init__(self, table: TableClient, *, plain: bool, width: int | None = None):
        self.tb = table
        self.plain = plain
        # the columns to fit (a terminal's, kept up to date by the session); None: no limit
        self.width = width

    @property
    def lang(self) -> str:
        return self.tb.lang

    @property
    def ascii(self) -> bool:
        return self.tb.ascii

    def say(self, message_id: str, **params: object) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    def card(self, c: Card) -> str:
        return c.face(self.ascii)

    def card_frag(self, c: Card, extra: str = "") -> tuple[str, str]:
        return (f"{SUIT_CLASSES[c // 13]} {extra}".strip(), self.card(c))

    def in_hand_order(self, cards: Sequence[Card]) -> list[Card]:
        """``cards`` in the order the hand shows them (``sort:`` in settings.yaml)."""
        return [c for _, suit in self.tb.hand_order.arrange(cards) for c in suit]

    def suit(self, s: int) -> str:
        return "CDHS"[s] if self.ascii else SUIT_SYMBOLS[s]

    def arrow(self, direction: Direction) -> str:
        """Where the pass goes on the drawn table: West is on the left, North at the top."""
        return ARROWS[direction.value][self.ascii]

    def names(self, values: list[int]) -> str:
        # you first, then round the table: the order the seats sit in from your place
        return self.sep().join(scored([(self.tb.name(s), values[s]) for s in self.tb.round_the_table()]))

    def sep(self) -> str:
        return " | " if self.ascii else " · "

    def passing(self, direction: Direction, seat: int) -> str:
        if direction is Direction.NONE:
            return self.say("no_pass_round")
        to = direction.receiver(seat, self.tb.players)
        return self.say(f"passing_{direction.value}", name=self.tb.name(to))

    def plays(self, seats: Sequence[int], cards: Sequence[Card]) -> str:
        """Who played each card of a trick, the leader first: "You led 2♣, West 5♣, North K♣"."""
        named = [(self.tb.name(s), self.card(c)) for s, c in zip(seats, cards, strict=True)]
        return trick_plays(named, self.lang, self.ascii)

    def trick_said(self, mid: str, number: int, seats: Sequence[int], cards: Sequence[Card],
                   winner: int | None, points: int) -> str:
        """A completed trick in one sentence (``mid``): who played what, who took it, its points."""
        return self.say(mid, number=number, plays=self.plays(seats, cards), result=self.result(number, points, winner))

    def result(self, number: int, points: int, winner: int | None) -> str:
        """Who takes trick ``number`` and its points, as every place says it
        (:func:`~hearts_cli.text.catalog.trick_result`)."""
        name = self.tb.name(winner) if winner is not None else None
        return trick_result(number, points, name, winner == self.tb.me, self.lang, self.ascii)

    def voids(self, voids: Sequence[Sequence[int]]) -> str:
        """The other seats' shown voids, round the table: "West ♣ ♦ · North ♠" ("" for none)."""
        tb = self.tb
        return self.sep().join(f"{tb.name(s)} " + " ".join(self.suit(x) for x in voids[s])
                               for s in tb.round_the_table() if s != tb.me and voids[s])

    def count_status(self) -> str:
        """The toolbar's line of the count (a setting turns it on): how many cards are still
        out in each suit, and the voids shown, from the person's seat only."""
        from ..play.counting import count

        tb = self.tb
        counted = count(tb.view())
        suits = " ".join(f"{self.suit(s)}{len(cards)}" for s, cards in enumerate(counted.out))
        shown = self.voids([sorted(int(x) for x in v) for v in counted.voids])
        if shown:
            return self.say("count_toolbar_voids", suits=suits, voids=shown)
        return self.say("count_toolbar", suits=suits)

    def _text(self, text: str, style: str = "") -> list[Line]:
        return [[(style, line)] for line in text.split("\n")]

    @property
    def columns(self) -> int:
        """The width the table is laid out for: the terminal's (from 40 columns up), 80 at most."""
        return max(MIN_WIDTH, min(self.width or WIDTH, WIDTH))

    @property
    def fit(self) -> int:
        """The most a line of a list may hold: the terminal's width itself, even below 40."""
        return min(self.columns, self.width) if self.width else self.columns

