"""Cards, suits and their notations.

A card is an ``int`` from 0 to 51 (suit-major: clubs, diamonds, hearts, spades;
then rank 2 to ace), so sorting cards sorts them the canonical way and a set of
cards fits in one 52-bit mask. ``Card`` gives those ints a readable face.

Canonical notation is rank ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` then
suit ``C`` ``D`` ``H`` ``S``: ``QS``, ``TH``, ``2C``. Output always uses it;
input is forgiving (see :func:`parse_card`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import NamedTuple

from .errors import HeartsError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def mask(self) -> int:
        return SUIT_MASKS[self]


_SUITS: tuple[Suit, ...] = tuple(Suit)


class Card(int):
    """One of the 52 cards; ``Card("QS")`` and ``Card(50)`` are the same object."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if value.__class__ is cls:
            return value
        try:
            if value >= 0:  # (CARDS[-1] is a card: an index below 0 is none)
                return CARDS[value]
        except (IndexError, TypeError):
            pass
        raise CardParseError(str(value), ())

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @property
    def suit(self) -> Suit:
        return _SUITS[self // 13]  # a lookup: Suit(n) is two calls through the enum's machinery

    @property
    def rank(self) -> int:
        """2 for a two ... 14 for an ace."""
        return self % 13 + 2

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def symbol(self) -> str:
        """``Q♠``, ``10♥``: for the screen, where a ten is ``10`` as people say and type it
        (records and move logs keep the canonical ``TH``, see :meth:`__str__`)."""
        return _SYMBOLS[self]

    def face(self, ascii: bool = False) -> str:
        """The card as a screen shows it: :attr:`symbol` (``10♥``), or with ``ascii``
        (``--plain``, a terminal without ``♥``) the suit as a letter, the ten still
        ``10`` (``10H``, ``QS``): no wider than the symbol, and what people type."""
        return _LETTERS[self] if ascii else _SYMBOLS[self]

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(NAMES[self], spec)


NAMES: tuple[str, ...] = tuple(r + s for s in SUIT_CHARS for r in RANK_CHARS)
_SYMBOLS: tuple[str, ...] = tuple(("10" if r == "T" else r) + s for s in SUIT_SYMBOLS for r in RANK_CHARS)
_LETTERS: tuple[str, ...] = tuple(("10" if r == "T" else r) + s for s in SUIT_CHARS for r in RANK_CHARS)
CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
_CANONICAL: dict[str, Card] = dict(zip(NAMES, CARDS))  # "QS" -> the Q♠, exactly as written
DECK_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

TWO_OF_CLUBS = CARDS[0]
JACK_OF_DIAMONDS = CARDS[13 + 9]
ACE_OF_SPADES = CARDS[51]
KING_OF_SPADES = CARDS[50]
QUEEN_OF_SPADES = CARDS[49]
HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]

# cards of one suit's 13-bit chunk, by chunk value: makes mask -> cards cheap
class _SuitChunks(dict[int, tuple[Card, ...]]):
    """13-bit chunk of one suit -> its cards, filled as chunks turn up.

    A full table would cost ~13 ms to build; a game only ever meets a few
    hundred chunks, and a dict lookup is as fast as a tuple index.
    """

    def __init__(self, suit: int):
        super().__init__()
        self.base = 13 * suit

    def __missing__(self, chunk: int) -> tuple[Card, ...]:
        cards = tuple(CARDS[self.base + r] for r in range(13) if chunk >> r & 1)
        self[chunk] = cards
        return cards


_CHUNK_CARDS = tuple(_SuitChunks(s) for s in range(4))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    c, d, h, s = _CHUNK_CARDS
    return c[mask & 8191] + d[mask >> 13 & 8191] + h[mask >> 26 & 8191] + s[mask >> 39 & 8191]


def iter_bits(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


class HandOrder(NamedTuple):
    """How a hand is shown (``sort:`` in settings.yaml): the suits in ``suits`` order, each
    from its lowest card, or its highest with ``high``."""

    suits: tuple[int, ...] = (0, 1, 2, 3)
    high: bool = False

    def arrange(self, cards: Iterable[int]) -> list[tuple[int, list[Card]]]:
        """The cards by suit, in this order (suits held only)."""
        out = []
        for s in self.suits:
            mine = sorted((CARDS[c] for c in cards if c // 13 == s), reverse=self.high)
            if mine:
                out.append((s, mine))
        return out


ALTERNATE: tuple[int, ...] = (0, 2, 3, 1)  # ♣ ♥ ♠ ♦: black, red, black, red


def hand_order(text: object) -> HandOrder | None:
    """``sort:`` read: ``alternate`` (colours alternate: ♣ ♥ ♠ ♦) or the four suit letters in
    the order wanted (``SHDC``), then ``high`` or ``low`` (the default) for each suit's cards;
    None when the text is not one of those."""
    if not isinstance(text, str):
        return None
    words = text.lower().split()
    if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1] not in ("high", "low")):
        return None
    first = words[0]
    if first == "alternate":
        suits = ALTERNATE
    elif len(first) == 4 and set(first) == set("cdhs"):
        suits = tuple("cdhs".index(x) for x in first)
    else:
        return None
    return HandOrder(suits, len(words) == 2 and words[1] == "high")


def sort_cards(cards: Iterable[int]) -> list[Card]:
    return [CARDS[c] for c in sorted(cards)]


# ---------------------------------------------------------------- parsing


class CardParseError(HeartsError):
    """Text that names no card; ``suggestions`` holds the closest cards."""

    def __init__(self, text: str, suggestions: tuple[Card, ...]):
        self.text = text
        self.suggestions = suggestions
        super().__init__("bad_card_hint" if suggestions else "bad_card", text=text, cards=list(suggestions))


def fold(text: str) -> str:
    """Lower case, no accents, single spaces: what input is compared as."""
    import unicodedata  # imported once it is needed: keeps start-up light

    text = unicodedata.normalize("NFKD", text.strip().lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.split())


_RANK_WORDS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        "2 two deuce dos",
        "3 three tres",
        "4 four cuatro",
        "5 five cinco",
        "6 six seis",
        "7 seven siete",
        "8 eight ocho",
        "9 nine nueve",
        "10 t ten diez",
        "j jack knave jota sota",
        "q queen dama reina",
        "k king rey",
        "a ace as",
    ]
):
    for _w in _names.split():
        _RANK_WORDS[_w] = _i

_SUIT_WORDS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        # the Spanish deck's suits name the French ones too: bastos, oros, copas, espadas
        "c ♣ ♧ club clubs trebol treboles basto bastos",
        "d ♦ ♢ diamond diamonds diamante diamantes oro oros",
        "h ♥ ♡ heart hearts corazon corazones copa copas",
        "s ♠ ♤ spade spades pica picas espada espadas",
    ]
):
    for _w in _names.split():
        _SUIT_WORDS[_w] = _i

_RANK_LETTERS = {ch.lower(): i for i, ch in enumerate(RANK_CHARS)} | {"10": 8}


def _compact(folded: str) -> Card | None:
    """``QS``, ``10h``, ``q♠``, ``♠Q``: rank and suit with no words."""
    s = folded.replace(" ", "")
    for rank_text, suit_text in ((s[:-1], s[-1:]), (s[1:], s[:1])):
        r = _RANK_LETTERS.get(rank_text)
        su = _SUIT_WORDS.get(suit_text) if len(suit_text) == 1 else None
        if r is not None and su is not None:
            return CARDS[su * 13 + r]
    return None


def _words(folded: str) -> Card | None:
    """``queen of spades``, ``dama de picas``, ``10 of hearts``."""
    parts = [p for p in folded.split() if p not in ("of", "de")]
    if len(parts) != 2:
        return None
    r = _RANK_WORDS.get(parts[0])
    su = _SUIT_WORDS.get(parts[1])
    if r is None or su is None:
        return None
    return CARDS[su * 13 + r]


def parse_card(text: str) -> Card:
    """Read a card in any notation we accept, in English or Spanish.

    Accepts ``QS``, ``qs``, ``10h``, ``Th``, ``Q♠``, ``queen of spades``,
    ``dama de picas``, ``reina de picas``, ``diez de corazones``,
    ``as de tréboles``, and the Spanish deck's suit names (``as de oros`` is
    the A♦; bastos, oros, copas, espadas are clubs, diamonds, hearts, spades);
    case and accents never matter.
    """
    if text.__class__ is not str and not isinstance(text, str):  # (a card's index: Card(n))
        raise CardParseError(str(text), ())
    card = _CANONICAL.get(text)  # the common case: what we write ourselves
    if card is not None:
        return card
    folded = fold(text)
    card = _compact(folded)
    if card is None:
        card = _words(folded)
    if card is None:
        raise CardParseError(text, closest_cards(text))
    return card


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


_JOINING_WORDS = ("of", "de")


def parse_card_list(text: str) -> list[Card]:
    """One card or several in one line: ``dama de picas``, ``QS AS KS``, ``QS, as de oros``.

    Cards written in words take two or three words each. When the text names
    no cards, :class:`CardParseError` quotes the part a person would call "the
    card": the single word in a list of short cards (``QS XX KS`` -> ``XX``),
    the whole phrase when it is written in words (``as de bolas``), never a
    lone ``de`` or ``of``.
    """
    try:
        return [parse_card(text)]
    except CardParseError:
        pass
    words = text.replace(",", " ").split()
    out: list[Card] = []
    i = 0
    while i < len(words):
        for size in (3, 2, 1):
            if size > len(words) - i:
                continue
            try:
                out.append(parse_card(" ".join(words[i:i + size])))
            except CardParseError:
                continue
            i += size
            break
        else:
            raise _phrase_error(text, words, i)
    return out


def _phrase_error(text: str, words: list[str], i: int) -> CardParseError:
    """The error for ``words[i]``, the first word that starts no card."""
    folded = [fold(w) for w in words]
    in_words = any(w in _JOINING_WORDS or (len(w) > 2 and (w in _RANK_WORDS or w in _SUIT_WORDS))
                   for w in folded)
    if in_words:  # a card written in words: the phrase is what was meant as a card
        phrase = text.strip()
        return CardParseError(phrase, closest_cards(phrase))
    return CardParseError(words[i], closest_cards(words[i]))


_VOCABULARY: dict[str, Card] = {}
_RANK_NAMES_EN = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                  "jack", "queen", "king", "ace"]
_RANK_NAMES_ES = ["dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
                  "jota", "dama", "rey", "as"]
_SUIT_NAMES_EN = ["clubs", "diamonds", "hearts", "spades"]
_SUIT_NAMES_ES = ["treboles", "diamantes", "corazones", "picas"]
_SUIT_NAMES_DECK = ["bastos", "oros", "copas", "espadas"]
for _c in CARDS:
    _r, _s = _c % 13, _c // 13
    for _name in (
        NAMES[_c].lower(),
        f"{_RANK_NAMES_EN[_r]} of {_SUIT_NAMES_EN[_s]}",
        f"{_RANK_NAMES_ES[_r]} de {_SUIT_NAMES_ES[_s]}",
        f"{_RANK_NAMES_ES[_r]} de {_SUIT_NAMES_DECK[_s]}",
    ):
        _VOCABULARY[_name] = _c
    if _r == 10:
        _VOCABULARY[f"reina de {_SUIT_NAMES_ES[_s]}"] = _c


def card_phrases(card: int) -> tuple[str, ...]:
    """Every way to write ``card`` that completion offers, folded: ``qs``, ``q♠``,
    ``queen of spades``, ``dama de picas``, ``reina de picas``... (and ``10s`` for a ten)."""
    c = CARDS[card]
    forms = [name for name, v in _VOCABULARY.items() if v == c]
    forms.append(fold(c.symbol))
    if c % 13 == 8:
        forms += ["10" + SUIT_CHARS[c // 13].lower(), "10" + SUIT_SYMBOLS[c // 13]]
    return tuple(dict.fromkeys(forms))


def closest_cards(text: str, limit: int = 4) -> tuple[Card, ...]:
    """The cards whose names look most like ``text`` (for "did you mean")."""

    folded = fold(text)
    found: list[Card] = []
    for name in difflib.get_close_matches(folded, _VOCABULARY, n=limit * 4, cutoff=0.6):
        if _VOCABULARY[name] not in found:
            found.append(_VOCABULARY[name])
    # a readable rank keeps to that rank; with no readable suit, offer all four
    head = folded.split(" ")[0] if " " in folded else folded[:-1]
    rank = _RANK_WORDS.get(head, _RANK_LETTERS.get(head))
    if rank is None:  # a rank alone, which no name is near enough to: `10`, `ten`, `dama`
        rank = _RANK_WORDS.get(folded)
    if rank is not None:
        found = [c for c in found if c % 13 == rank] or [CARDS[s * 13 + rank] for s in range(4)]
    return tuple(found[:limit])
