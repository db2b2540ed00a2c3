"""PBN-style game records (``hearts-pbn/1``): a game in the notation bridge programs share.

Bridge's Portable Bridge Notation holds one deal in tag pairs (``[Deal "N:..."]``) and
its play as rows, one trick a row and one seat a column. We keep that shape for Hearts
so that another program's reader needs little more than it has: one section a round,
one tag a fact, the hands in PBN's own notation (spades first, high to low), the play
in seat columns. The grammar is ``docs/pbn.md``.

Written canonically (the same game gives the same bytes), read back strictly: every
pass and card is played again through the engine, and every tag that can be derived
(the deal, the dealer, the pass, the scores, the totals, the winners) must agree with
that play. A record written out and read back is the same record
(``read_pbn(write_pbn(r)).to_text() == r.to_text()``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from ..base.untrusted import MAX_RECORD_BYTES
from ..base.version import __version__
from ..model.cards import CARDS, RANK_CHARS, SUIT_CHARS, Card
from ..model.codes import CodeError, normalize_code
from ..model.errors import HeartsError
from ..model.rules import Moon, Rules, read_rules_text, rules_text
from ..play.dealt import IllegalMove, PassError, Phase, cards_of_pair
from ..play.game import Game, RoundMoves
from ..play.round import Round
from .record import GameRecord
from .record_parts import (
    GLYPHS,
    SEAT_KINDS,
    Annotation,
    MoveAddress,
    RecordError,
    Seat,
    _problem,
    default_seats,
)
from .record_reader import iso_day

__all__ = ["FORMAT", "is_pbn", "read_pbn", "read_pbn_games", "write_pbn"]

FORMAT = "hearts-pbn/1"
HEADER = f"% {FORMAT}: a game of Hearts in PBN style, one section a round (docs/pbn.md)"
UNKNOWN_DATE = "????.??.??"  # PBN's date when it is not known (a record that says no day)
_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})\Z")  # PBN's Date: YYYY.MM.DD
SEAT_COLUMNS = "Seat;Name;Kind;Level"
NOTE_COLUMNS = "Position;Glyph;Comment"
_PBN_SUITS = (3, 2, 1, 0)  # PBN lists a hand spades, hearts, diamonds, clubs
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]{0,31})\s+("(?:[^"\\]|\\.)*")\s*\]\Z')
# a row's words: a quoted string, a bare word, or PBN's comments ({...}, ; to the line's end), dropped
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\{[^}]*\}?|;.*|[^\s";{]+')
_INT = re.compile(r"-?[0-9]{1,7}\Z")
_PLAY_CARD = {SUIT_CHARS[c // 13] + RANK_CHARS[c % 13]: CARDS[c] for c in range(52)}


# ---------------------------------------------------------------- writing


def _quoted(value: object) -> str:
    """A tag's value or a table's string: JSON's quoting, of which PBN's ``\\"`` and ``\\\\``
    are a part, so a name with a quote or a line break stays on its line."""
    return json.dumps(str(value), ensure_ascii=False)


_BARE = re.compile(r"[A-Za-z0-9_.:/+=,@-]+\Z")  # a table's word written as it is; any other, quoted


def _word(value: str) -> str:
    """A table's field: bare when it is one plain word (``easy``), quoted when it needs it (an
    ``exec:`` command with spaces or quotes), so that every row reads back as written."""
    return value if _BARE.match(value) and value != "-" and not value.startswith('"') else _quoted(value)


def _tag(name: str, value: object) -> str:
    return f"[{name} {_quoted(value)}]"


def hand_text(cards: Iterable[int]) -> str:
    """A hand in PBN's notation: ``AK4.QJ.T9.32`` (spades, hearts, diamonds, clubs; high first)."""
    held = sorted(cards, reverse=True)
    return ".".join("".join(RANK_CHARS[c % 13] for c in held if c // 13 == suit) for suit in _PBN_SUITS)


def _hands_text(hands: Sequence[Iterable[int]]) -> str:
    return "0:" + " ".join(hand_text(h) for h in hands)


def _numbers(values: Iterable[int]) -> str:
    return " ".join(str(v) for v in values)


def _play_card(card: int) -> str:
    """A card as PBN's play section writes it: the suit, then the rank (``SQ``, ``HT``)."""
    return SUIT_CHARS[card // 13] + RANK_CHARS[card % 13]


def write_pbn(record: GameRecord, *, event: str = "hearts", site: str = "", date: str | None = None) -> str:
    """The game of ``record`` as PBN-style text: one section a round dealt, blank lines
    between them. The first section also carries the seats; the last the totals, the
    result once the game is over, and the annotations. ``date`` (PBN's ``YYYY.MM.DD``) is
    the record's own by default, PBN's unknown date when it has none."""
    if date is None:
        date = record.date.replace("-", ".") if record.date else UNKNOWN_DATE
    game = record.replay()
    rules = game.rules
    written_rules = rules_text(rules)  # the preset and its overrides, as a position writes them
    out = [HEADER]
    last = len(game.rounds)
    for r, rnd in enumerate(game.rounds, 1):
        if r > 1:
            out.append("")
        out += [_tag("Event", event), _tag("Site", site), _tag("Date", date), _tag("Program", record.program),
                _tag("Code", game.code), _tag("Rules", written_rules), _tag("Round", r)]
        if r == 1:
            out.append(_tag("SeatTable", SEAT_COLUMNS))
            for i, seat in enumerate(record.seats):
                level = "-" if seat.level is None else _word(seat.level)
                out.append(f"{i} {_quoted(seat.name)} {_word(seat.kind)} {level}")
        out += _round_lines(game, r, rnd, game.round_moves(r))
        if r == last:
            out += _end_lines(game, record)
    return "\n".join(out) + "\n"


def _round_lines(game: Game, r: int, rnd: Round, moves: RoundMoves) -> list[str]:
    """Round ``r``'s tags: its passes and play from the move stack (``moves``); the round gives
    what is not a move: the deal, whether its play goes on, the score."""
    n = game.rules.players
    out = [_tag("Dealer", rnd.dealer), _tag("Pass", rnd.direction.value),
           _tag("Deal", _hands_text([cards_of_pair(m, rnd.dealt_twice[s]) for s, m in enumerate(rnd.dealt)]))]
    if rnd.kitty_mask:
        out.append(_tag("Kitty", hand_text(cards_of_pair(rnd.kitty_mask, rnd.kitty_twice))))
    if moves.passed:
        out.append(_tag("Passes", "0:" + " ".join("-" if p is None else hand_text(p) for p in moves.passes)))
    if moves.tricks:
        first = moves.tricks[0][0].seat
        out.append(_tag("Play", first))
        for trick in moves.tricks:
            by_seat = {m.seat: m.card for m in trick}
            out.append(" ".join(_play_card(by_seat[s]) if s in by_seat else "-"
                                for s in ((first + j) % n for j in range(n))))
        if rnd.phase is Phase.PLAY:
            out.append("*")  # PBN: the rest of the play is not recorded (the round goes on)
    if r <= len(game.results):
        result = game.results[r - 1]
        out.append(_tag("Score", _numbers(result.scores)))
        if result.shooter is not None:
            out.append(_tag("Moon", result.shooter))
            if game.rules.moon is Moon.SHOOTER_CHOICE:
                out.append(_tag("MoonChoice", result.moon))
    return out


def _end_lines(game: Game, record: GameRecord) -> list[str]:
    out = [_tag("Totals", _numbers(game.totals))]
    if game.over:
        out.append(_tag("Result", _numbers(game.winners)))
    if record.undos:
        out.append(_tag("Undos", record.undos))
    if record.annotations:
        out.append(_tag("NoteTable", NOTE_COLUMNS))
        for pos in sorted(record.annotations, key=MoveAddress.sort_key):
            note = record.annotations[pos]
            out.append(f"{pos} {_quoted(note.glyph)} {_quoted(note.comment)}")
    return out


# ---------------------------------------------------------------- reading


def is_pbn(text: str) -> bool:
    """Whether ``text`` reads as PBN: its first line that is not blank is a ``%`` line or a tag."""
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if stripped:
            return stripped.startswith(("%", "["))
    return False


class _Line:
    __slots__ = ("number", "tokens")

    def __init__(self, number: int, tokens: list[str]):
        self.number = number
        self.tokens = tokens


class _Section:
    """One section's tags (name -> value and line) and the rows under each table or play tag."""

    def __init__(self) -> None:
        self.tags: dict[str, tuple[str, int]] = {}
        self.rows: dict[str, list[_Line]] = {}


def _sections(text: str, path: str | None) -> list[_Section]:
    out: list[_Section] = []
    current: _Section | None = None
    under: str | None = None
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if line.startswith("%"):
            continue
        if not line:
            current, under = None, None
            continue
        found = _TAG.match(line)
        if found is not None:
            if current is None:
                current = _Section()
                out.append(current)
            name = found.group(1)
            if name in current.tags:
                raise RecordError("pbn_twice", path=path, line=number, tag=name)
            current.tags[name] = (_unquote(found.group(2), path, number), number)
            under = name if name == "Play" or name.endswith("Table") else None
            continue
        words: list[str] = _TOKEN.findall(line)  # (the pattern has no group: each match whole)
        tokens = [w for w in words if not w.startswith(("{", ";"))]
        if not tokens:
            continue
        if current is None or under is None:
            raise RecordError("pbn_bad_line", path=path, line=number, text=line)
        current.rows.setdefault(under, []).append(_Line(number, tokens))
    return out


def _unquote(token: str, path: str | None, line: int) -> str:
    try:
        value: object = json.loads(token)
    except ValueError:  # PBN's own escapes are \" and \\ only: a lone backslash stays
        value = token[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if not isinstance(value, str):
        raise RecordError("pbn_bad_line", path=path, line=line, text=token)
    return value


class _Reader:
    """Plays a PBN game's sections through the engine, checking each derived tag."""

    def __init__(self, sections: list[_Section], path: str | None):
        self.sections = sections
        self.path = path
        first = sections[0]
        self.code = self._code(first)
        self.rules = self._rules(first)
        self.game = Game(self.rules, self.code)
        self.seats = self._seats(first)

    # -- tags

    def _value(self, section: _Section, name: str, required: bool = True) -> tuple[str, int] | None:
        found = section.tags.get(name)
        if found is None and required:
            line = min((ln for _, ln in section.tags.values()), default=None)
            raise RecordError("pbn_missing_tag", path=self.path, line=line, tag=name)
        return found

    def _bad(self, name: str, found: tuple[str, int]) -> RecordError:
        return RecordError("pbn_bad_tag", path=self.path, line=found[1], tag=name, value=found[0])

    def _code(self, section: _Section) -> str:
        found = self._value(section, "Code")
        assert found is not None
        try:
            return normalize_code(found[0])
        except CodeError as e:
            raise RecordError("record_bad_code", path=self.path, line=found[1], reason=e) from None

    def _rules(self, section: _Section) -> Rules:
        found = self._value(section, "Rules")
        assert found is not None
        try:
            return read_rules_text(found[0])
        except HeartsError as e:
            raise RecordError("record_bad_rules", path=self.path, line=found[1], reason=e) from None

    def _seats(self, section: _Section) -> tuple[Seat, ...]:
        n = self.rules.players
        rows = section.rows.get("SeatTable")
        if "SeatTable" not in section.tags:
            return default_seats(n)
        seats: list[Seat] = []
        for row in rows or []:
            words = row.tokens
            if len(words) != 4 or words[0] != str(len(seats)) or words[2] not in SEAT_KINDS:
                raise RecordError("pbn_bad_row", path=self.path, line=row.number, tag="SeatTable",
                                  columns=SEAT_COLUMNS)
            name = _unquote(words[1], self.path, row.number) if words[1].startswith('"') else words[1]
            level = _unquote(words[3], self.path, row.number) if words[3].startswith('"') else words[3]
            seats.append(Seat(name, words[2], None if words[3] == "-" else level))
        if len(seats) != n:
            raise RecordError("pbn_seat_count", path=self.path, line=section.tags["SeatTable"][1],
                              players=n, given=len(seats))
        return tuple(seats)

    def _same(self, section: _Section, name: str, expected: object, r: int) -> None:
        """A derived tag, when given, must say what the play says (PBN's ``#`` copies the first section's)."""
        found = section.tags.get(name)
        if found is None or found[0] == "#":
            return
        if _canonical(name, found[0]) != str(expected):
            raise RecordError("pbn_mismatch", path=self.path, line=found[1], round=r, tag=name, value=found[0],
                              actual=expected)

    # -- the game

    def read(self) -> GameRecord:
        for r, section in enumerate(self.sections, 1):
            self._round(section, r)
        last = self.sections[-1]
        game = self.game
        self._same(last, "Totals", _numbers(game.totals), len(game.rounds))
        if "Result" in last.tags:
            if not game.over:
                raise RecordError("record_result_early", path=self.path, line=last.tags["Result"][1])
            self._same(last, "Result", _numbers(game.winners), len(game.rounds))
        program = last.tags.get("Program", self.sections[0].tags.get("Program", ("", 0)))[0]
        return GameRecord(self.rules, self.code, self.seats, self.game.move_stack, self._notes(last),
                          program=program if program and program != "#" else f"hearts {__version__}",
                          undos=self._undos(last), date=self._date(self.sections[0]))

    def _date(self, section: _Section) -> str | None:
        """The day the Date tag says (``2026.12.01``), as a record keeps it; None when it is
        PBN's unknown date, or no date (the tag is not checked: other programs write it too)."""
        return iso_day(_DATE.match(section.tags.get("Date", ("", 0))[0]))

    def _round(self, section: _Section, r: int) -> None:
        game = self.game
        if game.over:
            raise RecordError("record_after_end", path=self.path, line=min(ln for _, ln in section.tags.values()),
                              round=r)
        if len(game.rounds) != r:
            raise RecordError("record_unfinished_round", path=self.path,
                              line=min(ln for _, ln in section.tags.values()), round=r, previous=r - 1)
        if r > 1:
            self._same(section, "Code", self.code, r)
            rules = section.tags.get("Rules")
            if rules is not None and rules[0] != "#" and rules[0] != self.sections[0].tags["Rules"][0]:
                raise RecordError("pbn_mismatch", path=self.path, line=rules[1], round=r, tag="Rules",
                                  value=rules[0], actual=self.sections[0].tags["Rules"][0])
        rnd = game.round
        self._same(section, "Round", r, r)
        self._same(section, "Dealer", rnd.dealer, r)
        self._same(section, "Pass", rnd.direction.value, r)
        self._same(section, "Deal", _hands_text([cards_of_pair(m, rnd.dealt_twice[s])
                                                 for s, m in enumerate(rnd.dealt)]), r)
        if rnd.kitty_mask:
            self._same(section, "Kitty", hand_text(cards_of_pair(rnd.kitty_mask, rnd.kitty_twice)), r)
        self._passes(section, r)
        self._plays(section, r)
        if len(game.results) >= r:
            result = game.results[r - 1]
            self._same(section, "Score", _numbers(result.scores), r)
            if "Moon" in section.tags:
                self._same(section, "Moon", "-" if result.shooter is None else result.shooter, r)
        elif "Score" in section.tags:
            raise RecordError("record_score_early", path=self.path, line=section.tags["Score"][1], round=r)

    def _passes(self, section: _Section, r: int) -> None:
        found = section.tags.get("Passes")
        if found is None:
            return
        n = self.rules.players
        hands = _hands(found[0], n)
        if hands is None:
            raise self._bad("Passes", found)
        for seat, cards in enumerate(hands):
            if cards is None:
                continue
            try:
                self.game.push_pass(cards, seat)
            except PassError as e:
                raise RecordError("record_bad_pass", path=self.path, line=found[1], round=r, seat=seat,
                                  reason=e) from None

    def _plays(self, section: _Section, r: int) -> None:
        game = self.game
        found = section.tags.get("Play")
        rows = section.rows.get("Play", [])
        if found is None:
            return
        n = self.rules.players
        if not _INT.match(found[0]) or int(found[0]) != game.round.turn:
            raise RecordError("pbn_mismatch", path=self.path, line=found[1], round=r, tag="Play", value=found[0],
                              actual=game.round.turn)
        first = int(found[0])
        for k, row in enumerate(rows, 1):
            if row.tokens == ["*"]:
                break
            if len(row.tokens) != n or len(game.rounds) != r:
                raise RecordError("pbn_bad_trick", path=self.path, line=row.number, round=r, trick=k, players=n)
            self._trick(row, first, r, k)
        if game.round.phase is Phase.MOON and len(game.rounds) == r:
            choice = section.tags.get("MoonChoice")
            if choice is not None:
                moon = Moon(choice[0])
                try:
                    game.push_moon(moon)
                except HeartsError as e:
                    raise RecordError("record_bad_field", path=self.path, line=choice[1], field="MoonChoice",
                                      problem=e) from None

    def _trick(self, row: _Line, first: int, r: int, k: int) -> None:
        game = self.game
        n = self.rules.players
        cards = {(first + j) % n: word for j, word in enumerate(row.tokens)}
        for _ in range(n):
            seat = game.round.turn
            if seat is None or len(game.rounds) != r:
                break
            word = cards[seat]
            if word == "-":
                break
            card = _PLAY_CARD.get(word.upper())
            if card is None:
                raise RecordError("pbn_bad_card", path=self.path, line=row.number, round=r, trick=k, text=word)
            index = len(game.round.trick) + 1
            try:
                game.push(card)
            except IllegalMove as e:
                raise RecordError("record_bad_move", path=self.path, line=row.number, round=r, trick=k,
                                  position=index, seat=seat, card=str(card), reason=e.reason) from None
        played = sum(1 for m in game.move_stack if m.round == r and m.trick == k)
        if played != sum(1 for w in row.tokens if w != "-"):
            raise RecordError("pbn_bad_trick", path=self.path, line=row.number, round=r, trick=k, players=n)

    def _notes(self, section: _Section) -> dict[MoveAddress, Annotation]:
        notes: dict[MoveAddress, Annotation] = {}
        positions = {MoveAddress.of(m) for m in self.game.move_stack}
        for row in section.rows.get("NoteTable", []):
            words = row.tokens
            if len(words) != 3 or not all(w.startswith('"') for w in words[1:]):
                raise RecordError("pbn_bad_row", path=self.path, line=row.number, tag="NoteTable",
                                  columns=NOTE_COLUMNS)
            try:
                pos = MoveAddress.parse(words[0])
            except ValueError:
                raise RecordError("record_bad_annotation", path=self.path, line=row.number, key=words[0],
                                  problem=_problem("record_ann_position")) from None
            glyph, comment = (_unquote(w, self.path, row.number) for w in words[1:])
            if glyph and glyph not in GLYPHS:
                raise RecordError("record_bad_annotation", path=self.path, line=row.number, key=words[0],
                                  problem=_problem("record_ann_glyph", glyphs=" ".join(GLYPHS)))
            if pos not in positions and pos != MoveAddress(pos.round):
                raise RecordError("record_bad_annotation", path=self.path, line=row.number, key=words[0],
                                  problem=_problem("record_ann_missing"))
            notes[pos] = Annotation(glyph, comment)
        return notes

    def _undos(self, section: _Section) -> int:
        found = section.tags.get("Undos")
        if found is None:
            return 0
        if not found[0].isdigit() or len(found[0]) > 7:
            raise self._bad("Undos", found)
        return int(found[0])


def _hands(text: str, n: int) -> list[tuple[Card, ...] | None] | None:
    """``0:hand hand ...`` in PBN's notation (``-`` for a seat without one), or None."""
    head, colon, body = text.partition(":")
    words = body.split()
    if not colon or head.strip() != "0" or len(words) != n:
        return None
    out: list[tuple[Card, ...] | None] = []
    for word in words:
        if word == "-":
            out.append(None)
            continue
        cards = _hand(word)
        if cards is None:
            return None
        out.append(cards)
    return out


def _hand(word: str) -> tuple[Card, ...] | None:
    suits = word.upper().split(".")
    if len(suits) != 4:
        return None
    cards: list[Card] = []
    for suit, ranks in zip(_PBN_SUITS, suits, strict=True):
        for ch in ranks:
            rank = RANK_CHARS.find(ch)
            if rank < 0:
                return None
            cards.append(CARDS[suit * 13 + rank])
    return tuple(sorted(cards))


def _canonical(name: str, value: str) -> str:
    """A derived tag's value as the writer spells it, so that case and spacing do not matter."""
    if name in ("Deal", "Passes"):
        head, _, body = value.partition(":")
        words = body.split()
        hands = [None if w == "-" else _hand(w) for w in words]
        if head.strip() != "0" or any(h is None for h, w in zip(hands, words, strict=True) if w != "-"):
            return value
        return "0:" + " ".join("-" if h is None else hand_text(h) for h in hands)
    if name == "Kitty":
        hand = _hand(value.strip())
        return value if hand is None else hand_text(hand)
    if name == "Code":
        try:
            return normalize_code(value)
        except CodeError:
            return value
    return " ".join(value.split()).lower() if name == "Pass" else " ".join(value.split())


def read_pbn(text: str, path: str | None = None, game: int | None = None) -> GameRecord:
    """The game in PBN-style ``text`` (as :func:`write_pbn` writes it, spelled freely:
    any case, any spacing, PBN's comments), played through the engine. A file of several
    games (``hearts sim --export``) needs ``game``, counted from 1. A problem raises
    :class:`~hearts_cli.records.record_parts.RecordError` naming the line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES:
        raise RecordError("record_too_big", path=path, limit=MAX_RECORD_BYTES)
    games = _games(_sections(text, path))
    if not games:
        raise RecordError("pbn_empty", path=path)
    if game is None and len(games) > 1:
        raise RecordError("pbn_which_game", path=path, games=len(games))
    if game is not None and not 1 <= game <= len(games):
        raise RecordError("pbn_no_such_game", path=path, game=game, games=len(games))
    return _Reader(games[(game or 1) - 1], path).read()


def read_pbn_games(text: str, path: str | None = None, limit: int = 64 * MAX_RECORD_BYTES) -> list[GameRecord]:
    """Every game of a PBN-style file of several (``hearts sim --export pbn:FILE``), each read
    as :func:`read_pbn` reads one."""
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        raise RecordError("record_too_big", path=path, limit=limit)
    return [_Reader(sections, path).read() for sections in _games(_sections(text, path))]


def _games(sections: list[_Section]) -> list[list[_Section]]:
    """Sections grouped by game: a game begins at a section of round 1."""
    out: list[list[_Section]] = []
    for section in sections:
        if not out or section.tags.get("Round", ("", 0))[0].strip() == "1":
            out.append([])
        out[-1].append(section)
    return out

