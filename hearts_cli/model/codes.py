"""Game codes, and the deal and seeds that derive from them.

A code is 8 characters of Crockford's base 32 (``0-9`` and ``A-Z`` without
``I L O U``): seven random ones and a check character (Luhn mod 32), so that a
mistyped code is refused instead of dealing another game. Input is
case-insensitive, ignores spaces and hyphens, and reads ``O`` as ``0`` and
``I``/``L`` as ``1``.

Everything random in a game comes from :class:`Stream`, a SHA-256 counter
stream keyed by the code and a purpose, so a deal never depends on Python's
``random`` module, the machine, or what was played before. The algorithm is
written down in ``docs/deal.md`` and pinned by ``fixtures/deals.yaml``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from .cards import CARDS, Card
from .errors import HeartsError

if TYPE_CHECKING:  # types only: nothing to build at start-up
    class _Digest(Protocol):
        def digest(self) -> bytes: ...

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)} | {"O": 0, "I": 1, "L": 1}
CODE_LENGTH = 8


class GameCode(str):
    """A code in its canonical form, as :func:`normalize_code` returns it: checked once, and
    not again where it is handed on (a new game's code, from the command line to the deal)."""

    __slots__ = ()


class CodeError(HeartsError):
    """Text that is not a game code; the code as given is quoted back shortened."""

    echoed = ("code", "char")


def _check_char(payload: str) -> str:
    """Luhn mod 32: catches every single wrong character and most swaps."""
    total = 0
    factor = 2
    for ch in reversed(payload):
        addend = factor * _VALUE[ch]
        total += addend // 32 + addend % 32
        factor = 3 - factor
    return ALPHABET[(32 - total % 32) % 32]


def code_from_number(number: int) -> str:
    """The code whose seven random characters spell the low 35 bits of ``number``
    (five bits a character, lowest first), with its check character."""
    payload = "".join(ALPHABET[(number >> (5 * i)) & 31] for i in range(CODE_LENGTH - 1))
    return payload + _check_char(payload)


def new_code() -> str:
    """A fresh code from the operating system's randomness: "another game". (``os.urandom``
    itself, as ``secrets`` reads it: importing ``secrets`` costs ``hashlib`` and ``hmac``,
    5 ms of every ``hearts new``.)"""

    bits = 5 * (CODE_LENGTH - 1)
    return code_from_number(int.from_bytes(os.urandom((bits + 7) // 8), "big") >> (-bits % 8))


def normalize_code(text: str) -> GameCode:
    """The canonical form of a typed code, or :class:`CodeError` saying what is wrong."""
    if not isinstance(text, str):
        raise CodeError("proto_bad_code", code=str(text))
    cleaned = "".join(ch for ch in text.upper() if ch not in " -_")
    if len(cleaned) != CODE_LENGTH:
        raise CodeError("code_length", code=text, length=len(cleaned))
    for ch in cleaned:
        if ch not in _VALUE:
            raise CodeError("code_char", char=ch)
    canonical = "".join(ALPHABET[_VALUE[ch]] for ch in cleaned)
    if _check_char(canonical[:-1]) != canonical[-1]:
        raise CodeError("code_check", code=text)
    return GameCode(canonical)


def canonical_code(code: str) -> GameCode:
    """``code`` written canonically: checked by :func:`normalize_code` unless it was already."""
    return code if isinstance(code, GameCode) else normalize_code(code)


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is written as a code is, right or not: eight of its characters (spaces
    and hyphens aside), and nothing else ("W3EXPH38", whose check character is wrong, but not
    "game.yaml")."""
    cleaned = "".join(ch for ch in text.upper() if ch not in " -_")
    return len(cleaned) == CODE_LENGTH and all(ch in _VALUE for ch in cleaned)


def is_code(text: str) -> bool:
    try:
        normalize_code(text)
    except CodeError:
        return False
    return True


@functools.cache
def _sha256_type() -> Callable[[bytes], _Digest]:
    """SHA-256 from CPython's own module when it has one: ``hashlib`` would load OpenSSL
    (a few milliseconds of start-up) for the same digest."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]  # CPython 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # CPython 3.12 and later
        except ImportError:
            from hashlib import sha256  # the fallback: hashlib costs start-up
    made: Callable[[bytes], _Digest] = sha256
    return made


def _sha256(data: bytes) -> bytes:
    return _sha256_type()(data).digest()


class Stream:
    """Deterministic random integers: SHA-256 of ``key|counter``, 4 bytes at a time."""

    __slots__ = ("_buffer", "_counter", "_key", "_pos")

    def __init__(self, *labels: object):
        self._key = "|".join(str(x) for x in labels).encode("utf-8")
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _word(self) -> int:
        if self._pos + 4 > len(self._buffer):
            self._buffer = _sha256(self._key + b"|" + str(self._counter).encode())
            self._counter += 1
            self._pos = 0
        word = int.from_bytes(self._buffer[self._pos:self._pos + 4], "big")
        self._pos += 4
        return word

    def below(self, n: int) -> int:
        """Uniform in ``range(n)``, by rejection (no modulo bias); ``n`` up to 2**32."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def seed(self) -> int:
        """A 64-bit seed for a bot's own generator."""
        return self._word() << 32 | self._word()


def seed_for(code: str, *purpose: object) -> int:
    """A 64-bit seed for anything random in game ``code`` (a CPU seat's choices, ...)."""
    return Stream("hearts/seed/v1", code, *purpose).seed()


def first_dealer(code: str, players: int) -> int:
    return Stream("hearts/dealer/v1", code, players).below(players)


def shuffled(code: str, round_index: int, deck: list[int]) -> list[int]:
    """Fisher-Yates from the last position down, driven by the code's stream."""
    deck = list(deck)
    stream = Stream("hearts/deal/v1", code, len(deck), round_index)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(code: str, in_play: list[int], players: int, hand_size: int, round_index: int,
         ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], int]:
    """Hands (sorted), kitty (sorted) and dealer for round ``round_index`` (0-based).

    The dealer rotates clockwise from a first dealer drawn from the code; cards
    go one at a time clockwise starting left of the dealer; what is left over
    after every hand has ``hand_size`` cards is the kitty.
    """
    dealer = (first_dealer(code, players) + round_index) % players
    order = shuffled(code, round_index, sorted(in_play))
    hands: list[list[int]] = [[] for _ in range(players)]
    dealt = players * hand_size
    for k, card in enumerate(order[:dealt]):
        hands[(dealer + 1 + k) % players].append(card)
    return (
        tuple(tuple(CARDS[c] for c in sorted(h)) for h in hands),
        tuple(CARDS[c] for c in sorted(order[dealt:])),
        dealer,
    )
