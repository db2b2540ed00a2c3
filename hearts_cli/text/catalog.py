"""The message catalog: every sentence a person reads, in English and Spanish.

Code never builds user-facing text itself; it names a message and its
parameters, and :func:`t` renders it in the chosen language. Cards passed as
parameters are shown with their suit symbols (``Q♠``) unless ``ascii`` is set,
in which case the canonical form is used (``QS``). A whole number can also
choose a word: ``{points} {points:pt|pts}`` gives ``1 pt`` and ``2 pts``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeGuard

from ..base.untrusted import escaped, shown

LANGUAGES = ("en", "es")


class _Catalog(Mapping[str, dict[str, str]]):
    """Each language's messages by id (the module ``text/<lang>.py``, with the presets' names
    and lines), imported the first time the language is asked for: a run in English never
    reads the Spanish sentences, half a millisecond of every command's start-up."""

    def __init__(self) -> None:
        self._loaded: dict[str, dict[str, str]] = {}

    def __getitem__(self, lang: str) -> dict[str, str]:
        messages = self._loaded.get(lang)
        if messages is None:
            messages = self._loaded[lang] = _messages(lang) | _preset_messages(lang)
        return messages

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


CATALOG: Mapping[str, dict[str, str]] = _Catalog()


# Each preset's name and one-line description in each language (help pages, the table's
# header, `hearts rules`). The English name is the preset's id; a Spanish name is read too.
_PRESET_TEXT: dict[str, tuple[str, str, str]] = {
    # id: (Spanish name, English line, Spanish line)
    "quick": ("rápida", "the default: 4 players to 50, ties share first place",
              "la de siempre: 4 jugadores a 50, los empates comparten el primer puesto"),
    "standard": ("estándar", "as quick, to 100", "como rápida, a 100"),
    "classic": ("clásica", "the rules card: to 100, a tie plays one more round",
                "la ficha de reglas: a 100, un empate juega una ronda más"),
    "reference": ("referencia", "3 to 6 players, to 100, sudden death on a tie",
                  "de 3 a 6 jugadores, a 100, muerte súbita si hay empate"),
    "online": ("en-línea", "3 to 5 players, to 100, deal on until one is lowest",
               "de 3 a 5 jugadores, a 100, se reparte hasta que uno quede abajo"),
    "cutthroat": ("a-degüello", "no passing", "sin pases"),
    "omnibus": ("ómnibus", "the J♦ is worth -10", "la J♦ vale -10"),
    "spot": ("por-valor", "each heart scores its face value", "cada corazón puntúa su valor"),
    "black-maria": ("maría-negra", "3 players; Q♠ 13, K♠ 10, A♠ 7",
                    "3 jugadores; Q♠ 13, K♠ 10, A♠ 7"),
    "british": ("británica", "3 players; the Q♠ is no penalty",
                "3 jugadores; la Q♠ no penaliza"),
    "kitty": ("reserva", "3 players with a kitty for the first trick",
              "3 jugadores con una reserva para la primera baza"),
    "no-breaking": ("sin-rotura", "hearts may be led at any time",
                    "se puede salir de corazones en cualquier momento"),
    "no-moon": ("sin-luna", "no moon: taking all the points scores them",
                "sin luna: quien se lleva todos los puntos los suma"),
    "old-lead": ("salida-antigua", "the player left of the dealer leads any card",
                 "sale con cualquier carta quien está a la izquierda del que reparte"),
    "queen-breaks": ("dama-rompe", "the Q♠ breaks hearts too", "la Q♠ también rompe corazones"),
    "shooter-choice": ("elige-tirador", "the moon's shooter chooses: -26 or +26 to the others",
                       "quien tira a la luna elige: -26 o +26 a los demás"),
    "shooter-minus": ("tirador-resta", "a moon subtracts 26 from the shooter",
                      "la luna resta 26 a quien la tira"),
    "first-trick-points": ("puntos-primera-baza", "points allowed on the first trick",
                           "se permiten puntos en la primera baza"),
    "always-left": ("siempre-izquierda", "always pass left", "siempre se pasa a la izquierda"),
    "cancellation": ("anulación", "two decks, 6 to 11 players; identical cards cancel",
                     "dos barajas, de 6 a 11 jugadores; las cartas idénticas se anulan"),
}


def _messages(lang: str) -> dict[str, str]:
    """A language's sentences, from its module (a KeyError for a language we do not speak)."""
    if lang == "en":
        from .en import MESSAGES  # one language loaded, the one asked for
    elif lang == "es":
        from .es import MESSAGES  # one language loaded, the one asked for
    else:
        raise KeyError(lang)
    return MESSAGES


def _preset_messages(lang: str) -> dict[str, str]:
    """The presets' names and lines as messages of ``lang`` (``preset_name_quick``...)."""
    out = {}
    for pid, (name_es, line_en, line_es) in _PRESET_TEXT.items():
        out[f"preset_name_{pid}"] = name_es if lang == "es" else pid
        out[f"preset_line_{pid}"] = line_es if lang == "es" else line_en
    return out


def preset_name(preset: str, lang: str | None = None) -> str:
    """A preset as ``lang`` names it (``quick`` is ``rápida`` in Spanish); an unknown one as it is."""
    lang = lang if lang in LANGUAGES else default_language()
    return CATALOG[lang].get(f"preset_name_{preset}", preset)


def preset_line(preset: str, lang: str | None = None) -> str:
    """The one-line description of a preset, or "" for one the catalog does not know."""
    lang = lang if lang in LANGUAGES else default_language()
    return CATALOG[lang].get(f"preset_line_{preset}", "")


def preset_id(text: str) -> str:
    """The preset a name stands for in either language (``rápida`` -> ``quick``); any other
    text as it is, for the rules to refuse by name."""
    import unicodedata  # only for text that is not plain ASCII: start-up

    folded = "".join(ch for ch in unicodedata.normalize("NFKD", text.strip().lower())
                     if not unicodedata.combining(ch))
    for pid, (es, _, _) in _PRESET_TEXT.items():
        if folded in (pid, "".join(ch for ch in unicodedata.normalize("NFKD", es)
                                   if not unicodedata.combining(ch))):
            return pid
    return text


def default_language(saved: Callable[[], str | None] | None = None) -> str:
    """``HEARTS_LANG``, else the player's ``saved`` choice (settings.yaml's ``lang:``, asked only
    then), else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    chosen = os.environ.get("HEARTS_LANG", "").lower()
    if chosen in LANGUAGES:
        return chosen
    chosen = (saved() or "") if saved is not None else ""
    if chosen in LANGUAGES:
        return chosen
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            lang = value.split("_")[0].split(".")[0].lower()
            return lang if lang in LANGUAGES else "en"
    return "en"


class _Count(int):
    """A whole number in a message: ``{points:pt|pts}`` writes the word for one, or for any other
    count; ``{limit:size}`` a number of bytes as a person reads it (``1 MiB``, ``64 KiB``)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, other = spec.split("|", 1)
            return one if self == 1 else other
        if spec == "size":
            return size_words(self)
        return int.__format__(self, spec)


def size_words(count: int) -> str:
    """A number of bytes in the largest unit that leaves it at least 1 (``1 MiB``, ``64 KiB``,
    ``1.5 KiB``, ``100 bytes``): the units are the same words in every language."""
    for unit, size in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if count >= size:
            value = count / size
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{count} {'byte' if count == 1 else 'bytes'}"


if TYPE_CHECKING:  # types only: nothing to build at start-up
    class _Faced(Protocol):
        """A card as the catalog sees it (``model.cards.Card``: the catalog sits below the cards)."""

        def face(self, ascii: bool = False) -> str: ...


def _is_card(value: object) -> TypeGuard[_Faced]:
    """A card is any value with a face (``model.cards.Card``): the catalog sits below the cards."""
    return isinstance(value, int) and hasattr(type(value), "face")


def _show(value: object, lang: str, ascii: bool) -> object:
    if _is_card(value):
        return value.face(ascii)
    if type(value) is int:
        return _Count(value)
    if isinstance(value, (list, tuple)) and value and all(_is_card(v) for v in value):
        return ", ".join(v.face(ascii) for v in value if _is_card(v))
    return value


def _symbols_as_letters(text: str) -> str:
    """``Q♠`` -> ``QS``: the ASCII fallback for cards written into a template."""
    return text.translate(_SUIT_LETTERS)


_SUIT_LETTERS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})


def cancel_pairs(cards: Sequence[object], lang: str | None = None, ascii: bool = False) -> str:
    """The pairs that cancel, as a sentence lists them: "the two 9♠ and the two 10♠"
    (a comma alone read as a list cut short)."""
    pairs = [t("cancel_pair", lang, ascii=ascii, card=c) for c in cards]
    if len(pairs) < 2:
        return "".join(pairs)
    return t("names_and", lang, first=", ".join(pairs[:-1]), last=pairs[-1])


def trick_plays(plays: Sequence[tuple[str, object]], lang: str | None = None, ascii: bool = False,
                led: bool = True) -> str:
    """Who played each card of a trick, the leader first ("West led 8♣, North Q♣"; ``led``
    False: no word for the lead). Where a name ends in a number ("Right 2", from nine seats) a
    colon parts every name from its card alike ("Right 2: 10♠", never "Right 2 10♠")."""
    numbered = "_numbered" if any(name[-1:].isdigit() for name, _ in plays) else ""
    return ", ".join(t(("trick_lead" if k == 0 and led else "trick_follow") + numbered, lang, ascii=ascii,
                       name=name, card=card) for k, (name, card) in enumerate(plays))


def trick_result(number: int, points: int, winner: str | None, you: bool = False,
                 lang: str | None = None, ascii: bool = False) -> str:
    """Who takes a trick, in the one form every place says it (the table's lines, `tricks`,
    `last`, the screen reader, hearts replay): "North takes trick 1, with no points.", "You
    take trick 6, with 1 point."; a trick set aside (two decks, ``winner`` None) alike."""
    if winner is None:
        mid = "trick_aside_points" if points else "trick_aside"
    elif you:
        mid = "trick_you_points" if points else "trick_you"
    else:
        mid = "trick_other_points" if points else "trick_other"
    return t(mid, lang, ascii=ascii, name=winner or "", number=number, points=points)


def ordinal(n: int, lang: str | None = None) -> str:
    """``3rd`` in English, ``3.ª`` in Spanish (the feminine of *victoria* and *derrota*)."""
    lang = lang if lang in LANGUAGES else default_language()
    if lang == "es":
        return f"{n}.ª"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def t(message_id: str, lang: str | None = None, /, ascii: bool = False, **params: object) -> str:
    """Render ``message_id`` in ``lang`` (default: :func:`default_language`)."""
    lang = lang if lang in LANGUAGES else default_language()
    template = CATALOG[lang].get(message_id) or CATALOG["en"][message_id]
    if ascii:  # a card written into the sentence itself
        template = _symbols_as_letters(template)
    shown = {k: _safe(k, _show(v, lang, ascii)) for k, v in params.items()}
    presets, players, suit = params.get("presets"), params.get("players"), params.get("suit")
    if isinstance(presets, (list, tuple)):  # preset ids, named in the sentence's language
        shown["presets"] = ", ".join(escaped(preset_name(str(p), lang)) for p in presets)
    if isinstance(players, int) and "last" not in params:  # the seats are 0 to {last}
        shown["last"] = _Count(players - 1)
    if "suit" in shown and isinstance(suit, int):
        shown["suit"] = CATALOG[lang][f"suit_{int(suit)}"]
    return template.format(**shown)


# Parameters that quote what a person or a file gave (a word, a value, a name): shortened
# to a few dozen characters as well as escaped. Every other text parameter is escaped only
# (a path, a sentence already made); nothing from outside reaches the terminal as it is.
QUOTED_PARAMS = frozenset({"text", "value", "key", "char", "cmd", "field", "word", "level", "code",
                           "name", "preset", "recorded", "actual", "format", "log", "option"})


def _safe(name: str, value: object) -> object:
    if name in QUOTED_PARAMS and not isinstance(value, (int, _Count)):
        return shown(value)
    if isinstance(value, str):
        return escaped(value)
    return value


_OS_PROBLEMS = {"ENOENT": "os_no_such_file", "EACCES": "os_permission", "EPERM": "os_permission",
                "EISDIR": "os_is_directory", "ENOTDIR": "os_not_directory", "ENOSPC": "os_disk_full",
                "EDQUOT": "os_disk_full", "EROFS": "os_read_only", "EEXIST": "os_exists",
                "EADDRINUSE": "os_address_in_use", "ECONNREFUSED": "net_problem_refused",
                "EHOSTUNREACH": "net_problem_unreachable", "ENETUNREACH": "net_problem_unreachable"}


def os_problem_id(error: OSError) -> tuple[str, dict[str, object]]:
    """The message id (and its parameters) that says what went wrong in ``error``, in words."""

    name = errno.errorcode.get(error.errno or 0, "")
    if name in _OS_PROBLEMS:
        return _OS_PROBLEMS[name], {}
    if isinstance(error, IsADirectoryError):
        return "os_is_directory", {}
    if isinstance(error, FileNotFoundError):
        return "os_no_such_file", {}
    if isinstance(error, PermissionError):
        return "os_permission", {}
    return "os_other", {"number": error.errno if error.errno is not None else "?", "name": name or type(error).__name__}


def os_problem(error: OSError, lang: str | None = None) -> str:
    """What went wrong in ``error`` (a file that cannot be opened...), in ``lang``.

    The English words are the usual system ones (``No such file or directory``);
    the point is that Spanish gets Spanish, whatever the system's locale.
    """
    message_id, params = os_problem_id(error)
    return t(message_id, lang, ascii=False, **params)

