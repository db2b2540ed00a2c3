"""The move log: a compact, human-typable notation for the moves of a game.

A move log is the game code, the rules, then per round the passes (when the
round has any) and every card played, in order. Whitespace, commas and line
breaks are free; ``#`` starts a comment that runs to the end of the line::

    # hearts move log; the notation is described in docs/replay.md
    code DEM0GAMV
    rules quick target=20
    R1  2C KC 7D | JC 6S 7S | 3C 8D KS | 4H JS AS
        2C 5C 6C QC / AS TS 4S 5S / TD 7D 9D 8D / 4C KC JC 3C
        ...

- ``code CODE`` and ``rules PRESET key=value...`` are an optional header, each
  on a line of its own, before the first move.
- ``R1``, ``R2``... mark where a round starts (optional; checked when given).
- A pass is ``pass_count`` cards; the passes come in seat order (seat 0 first).
  ``|`` may separate them and must then stand right after a whole pass.
- Then the cards played, in play order. ``/`` may separate tricks and must then
  stand right after a whole trick.
- Under ``moon: shooter_choice``, a round whose shooter took every penalty card
  ends with the shooter's choice: ``moon=others`` (everybody else +26) or
  ``moon=minus`` (the shooter -26).
- A card is one word in any notation the program reads (``QS``, ``qs``,
  ``10h``, ``Q♠``); names of several words (``queen of spades``) are not
  accepted here.

:func:`parse` reads the text (no game needed); :func:`replay_log` plays it
through the engine, raising :class:`MoveLogError` at the first problem with its
line and column, round, trick and card; :func:`format_log` writes a game's log.
No printing here: the command line does that.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..base.untrusted import BOM, MAX_MOVE_LOG_BYTES, TooBig, read_text
from ..base.values import Plain
from ..model.cards import Card, CardParseError, parse_card
from ..model.codes import CodeError, normalize_code
from ..model.errors import HeartsError
from ..model.rules import Moon, Rules, RulesError
from ..play.dealt import IllegalMove, PassError, Phase
from ..play.game import Game, Move
from ..text.catalog import CATALOG, os_problem, preset_id, t
from .record_parts import PlaceError, default_seats

__all__ = ["LoggedGame", "MoveLogError", "ParsedLog", "Token", "format_log", "parse", "read_movelog", "replay_log"]

HEADER = "# hearts move log; the notation is described in docs/replay.md"

# the shooter's choice (``moon: shooter_choice``), written ``moon=others`` or ``moon=minus``
MOON_WORDS = {"others": "others", "minus": "shooter_minus", "shooter_minus": "shooter_minus"}


class MoveLogError(PlaceError):
    """The first problem in a move log: where it is in the game (see
    :class:`~hearts_cli.records.record_parts.PlaceError`) and in the text (``line`` and
    ``column``, 1-based)."""

    def __init__(self, message_id: str, *, column: int | None = None, line: int | None = None,
                 round: int | None = None, trick: int | None = None, position: int | None = None,
                 seat: int | None = None, reason: object = None, names: Sequence[str] | None = None,
                 **params: object):
        self.column = column
        super().__init__(message_id, line=line, round=round, trick=trick, position=position, seat=seat,
                         reason=reason, names=names, **params)

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        params = self._params(lang, ascii)
        if self.reason is not None:
            params["rule"] = rule_name(self.code, lang)
        text = t(self.message_id, lang, ascii=ascii, **params)
        where = []
        if self.round is not None:
            if self.trick:
                where.append(t("movelog_at_card", lang, round=self.round, trick=self.trick,
                               position=self.position))
            else:
                where.append(t("movelog_at_round", lang, round=self.round))
        if self.line is not None:
            where.append(t("movelog_at_line", lang, line=self.line, column=self.column or 1))
        return text + (" (" + "; ".join(where) + ")" if where else "")


# ParsedLog: a dataclass's equality and repr on the cheaper base of :mod:`hearts_cli.base.values`.


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a move log: ``kind`` is ``card``, ``bar`` (``|``), ``slash``
    (``/``) or ``round`` (``R2``); ``line`` and ``column`` are 1-based."""

    kind: str
    text: str
    line: int
    column: int
    card: Card | None = None
    number: int = 0


class ParsedLog(Plain):
    """The text read, not yet played: the header (when given) and the tokens."""

    __match_args__ = ("code", "rules", "code_at", "rules_at", "tokens")

    def __init__(self, code: str | None = None, rules: Rules | None = None,
                 code_at: tuple[int, int] = (0, 0), rules_at: tuple[int, int] = (0, 0),
                 tokens: list[Token] | None = None):
        self.code = code
        self.rules = rules
        self.code_at = code_at
        self.rules_at = rules_at
        self.tokens: list[Token] = [] if tokens is None else tokens


class LoggedGame(Plain):
    """A log played through the engine: the game, its moves (as a record has them)
    and where each move starts in the text."""

    __match_args__ = ("game", "moves", "places")

    def __init__(self, game: Game, moves: list[Move], places: list[tuple[int, int]]):
        self.game = game
        self.moves = moves
        self.places = places  # (line, column) of each move's first card


_WORD = re.compile(r"[|/]|[^\s,|/]+")
_ROUND = re.compile(r"[Rr](\d+)")
_SETTING_SPLIT = re.compile(r"\s+(?=[A-Za-z_]+\s*=)")


def parse(text: str) -> ParsedLog:
    """Read the words of a log (no game needed): :class:`MoveLogError` for a word that is
    not a card, a separator, a round marker or a header line."""
    if len(text) > MAX_MOVE_LOG_BYTES:  # however it came (a file, stdin, --moves)
        raise MoveLogError("movelog_too_big", limit=MAX_MOVE_LOG_BYTES)
    text = text.removeprefix(BOM)  # a file saved by Notepad, however it came: not a word of the log
    out = ParsedLog()
    rules_spec: dict[str, object] = {}
    for ln, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        stripped = body.strip()
        if not stripped:
            continue
        head = stripped.split(None, 1)[0].lower()
        if head in ("code", "rules"):
            col = body.index(stripped) + 1
            if out.tokens:
                raise MoveLogError("movelog_header_late", line=ln, column=col, word=head)
            rest = stripped[len(head):].strip()
            if head == "code":
                out.code = _header_code(rest, ln, col)
                out.code_at = (ln, col)
            else:  # several `rules` lines add up (a narrow screen breaks a long one)
                rules_spec = _header_rules(rest, ln, col, rules_spec if out.rules is not None else None)
                out.rules = _rules_of(rules_spec, ln, col)
                if out.rules_at == (0, 0):
                    out.rules_at = (ln, col)
            continue
        for m in _WORD.finditer(body):
            word = m.group(0)
            col = m.start() + 1
            if word == "|":
                out.tokens.append(Token("bar", word, ln, col))
                continue
            if word == "/":
                out.tokens.append(Token("slash", word, ln, col))
                continue
            if word.lower().startswith("moon="):  # the shooter's choice
                out.tokens.append(Token("moon", word, ln, col))
                continue
            rm = _ROUND.fullmatch(word)
            if rm:
                out.tokens.append(Token("round", word, ln, col, number=int(rm.group(1))))
                continue
            try:
                card = parse_card(word)
            except CardParseError as e:
                hint = _Msg("movelog_hint", {"cards": list(e.suggestions)}) if e.suggestions else ""
                raise MoveLogError("movelog_bad_token", line=ln, column=col, text=word, hint=hint) from None
            out.tokens.append(Token("card", word, ln, col, card=card))
    return out


def rule_name(code: str | None, lang: str | None) -> str:
    """The name of the rule a reason code stands for (``follow suit``...)."""

    for mid in (f"rule_{code}", f"movelog_rule_{code}"):
        if mid in CATALOG["en"]:
            return t(mid, lang)
    return str(code)


class _Msg:
    def __init__(self, message_id: str, params: dict[str, object]):
        self.message_id = message_id
        self.params = params

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        return " " + t(self.message_id, lang, ascii=ascii, **self.params)


def _header_code(rest: str, ln: int, col: int) -> str:
    try:
        return normalize_code(rest)
    except CodeError as e:
        raise MoveLogError("movelog_bad_header", line=ln, column=col, problem=e) from None


def _header_rules(rest: str, ln: int, col: int, before: dict[str, object] | None = None) -> dict[str, object]:
    """``rules PRESET key=value...``: the preset, then each setting as ``--set`` reads it,
    added to the settings of the ``rules`` lines ``before`` it (only the first names the
    preset: a narrow screen breaks a long line in several)."""
    from ..model.overrides import parse_set  # only when asked for: start-up of the commands that do not

    parts = _SETTING_SPLIT.split(rest) if rest else []
    spec: dict[str, object] = dict(before or {})
    if parts and "=" not in parts[0]:
        if before is not None:
            raise MoveLogError("movelog_bad_setting", line=ln, column=col, text=parts[0])
        spec["preset"] = preset_id(parts.pop(0).strip())  # a Spanish name too (`rápida`)
    for part in parts:
        if "=" not in part:
            raise MoveLogError("movelog_bad_setting", line=ln, column=col, text=part)
    try:
        return spec | parse_set(parts)
    except RulesError as e:
        raise MoveLogError("movelog_bad_header", line=ln, column=col, problem=e) from None


def _rules_of(spec: dict[str, object], ln: int, col: int) -> Rules:
    try:
        return Rules.from_spec(spec)
    except RulesError as e:
        raise MoveLogError("movelog_bad_header", line=ln, column=col, problem=e) from None


def _same_rules(a: Rules, b: Rules) -> bool:
    return a == b


def replay_log(text: str | ParsedLog, code: str | None = None, rules: Rules | None = None) -> LoggedGame:
    """Play a log through the engine. ``code`` and ``rules`` (from the command line)
    must agree with the log's header when both are given; the header fills in
    what is not given (the default preset when nothing names the rules).

    A log may stop anywhere except inside a pass: the game is left at that point.
    An error names the seats by place (``South``, ``West``...), as the story does.
    """
    try:
        return _replay_log(text, code, rules)
    except MoveLogError as e:
        if e.names is None and e.seat is not None:
            players = (rules or (text.rules if isinstance(text, ParsedLog) else None))
            n = players.players if players is not None else _players_of(text)

            e.names = tuple(s.name for s in default_seats(n))
            e.args = (e.message(),)  # str(e) names them so too
        raise


def read_movelog(source: str | os.PathLike[str], code: str | None = None, rules: Rules | None = None) -> Game:
    """The game of a move log, every move made: ``source`` is the log's text or its path (a
    ``Path``, or a one-line ``str`` naming a file). ``code`` and ``rules`` as in
    :func:`replay_log` (a log without a ``code`` line needs ``code``). A log that breaks
    the rules raises :class:`MoveLogError` at its first problem."""
    return replay_log(_log_text(source), code, rules).game


def _log_text(source: str | os.PathLike[str]) -> str:
    """The text of a move log given as text or as a path; a file is size-checked before reading."""
    if isinstance(source, str) and ("\n" in source or not os.path.isfile(source)):
        return source

    path = os.fspath(source)
    try:
        return read_text(path, MAX_MOVE_LOG_BYTES)
    except TooBig:
        raise MoveLogError("movelog_too_big", limit=MAX_MOVE_LOG_BYTES) from None
    except OSError as e:
        raise HeartsError("cli_bad_file", path=path, problem=os_problem(e)) from None
    except UnicodeDecodeError:
        raise HeartsError("cli_bad_file", path=path, problem=t("record_not_utf8")) from None


def _players_of(text: str | ParsedLog) -> int:
    try:
        parsed = parse(text) if isinstance(text, str) else text
    except MoveLogError:
        return 4
    return parsed.rules.players if parsed.rules is not None else Rules.from_spec(None).players


def _replay_log(text: str | ParsedLog, code: str | None = None, rules: Rules | None = None) -> LoggedGame:
    """:func:`replay_log` without the seats' names in its errors."""
    parsed = parse(text) if isinstance(text, str) else text
    code, rules = _header_agrees(parsed, code, rules)
    player = _LogPlayer(Game(rules, code))
    for tok in parsed.tokens:
        player.step(tok)
    player.finish()
    return LoggedGame(player.game, list(player.game.move_stack), player.places)


def _header_agrees(parsed: ParsedLog, code: str | None, rules: Rules | None) -> tuple[str, Rules]:
    """The code and rules to play the log with: the command line's and the header's must
    agree when both are given; either fills in the other (the default preset when
    nothing names the rules); a code there must be."""
    if code is not None and parsed.code is not None and code != parsed.code:
        ln, col = parsed.code_at
        raise MoveLogError("movelog_other_code", line=ln, column=col, log=parsed.code, code=code)
    if rules is not None and parsed.rules is not None and not _same_rules(rules, parsed.rules):
        ln, col = parsed.rules_at
        raise MoveLogError("movelog_other_rules", line=ln, column=col,
                           log=_spec_text(parsed.rules), rules=_spec_text(rules))
    code = code or parsed.code
    if code is None:
        raise MoveLogError("movelog_no_code")
    return code, rules or parsed.rules or Rules.from_spec(None)


class _LogPlayer:
    """A log's words played one by one: the moves made so far, where each starts in the
    text, and the pass being read (a pass is made once its last card is read)."""

    def __init__(self, game: Game):
        self.game = game
        self.rules = game.rules
        self.places: list[tuple[int, int]] = []  # (line, column) of each move's first card
        self.pending: list[Token] = []  # the pass being read

    def made(self, tok: Token) -> None:
        """The move just made (the top of the game's stack) starts at ``tok``."""
        self.places.append((tok.line, tok.column))

    def step(self, tok: Token) -> None:
        """One word: a round marker, a separator, the shooter's choice, or a card."""
        game = self.game
        rd, r = game.round, len(game.rounds)
        if tok.kind == "round":
            self.round_marker(tok)
        elif game.over:
            raise MoveLogError("movelog_after_end", line=tok.line, column=tok.column, text=tok.text)
        elif tok.kind == "bar":
            self.bar(tok)
        elif tok.kind == "moon":
            self.moon(tok)
        elif rd.phase is Phase.MOON:
            raise MoveLogError("movelog_moon_needed", line=tok.line, column=tok.column, round=r,
                               text=tok.text)
        elif tok.kind == "slash":
            self.slash(tok)
        elif rd.phase is Phase.PASS:
            self.pass_card(tok)
        else:
            self.play(tok)

    def round_marker(self, tok: Token) -> None:
        """``R2``: must stand where round 2 starts, before any of its moves."""
        game = self.game
        rd = game.round
        fresh = (not rd.tricks and not rd.trick and all(p is None for p in rd.passes)
                 and not self.pending)
        if game.over or not fresh or tok.number != len(game.rounds):
            raise MoveLogError("movelog_round_marker", line=tok.line, column=tok.column,
                               text=tok.text, actual=_where_now(game))

    def bar(self, tok: Token) -> None:
        """``|``: only between whole passes."""
        rd, r = self.game.round, len(self.game.rounds)
        if rd.phase is not Phase.PASS:
            raise MoveLogError("movelog_bar_in_play", line=tok.line, column=tok.column, round=r)
        if self.pending:
            self.short_pass()

    def slash(self, tok: Token) -> None:
        """``/``: only between whole tricks."""
        rd, r = self.game.round, len(self.game.rounds)
        if rd.phase is Phase.PASS:
            raise MoveLogError("movelog_slash_in_pass", line=tok.line, column=tok.column, round=r)
        if rd.trick:
            raise MoveLogError("movelog_trick_size", line=tok.line, column=tok.column, round=r,
                               trick=len(rd.tricks) + 1, position=len(rd.trick),
                               given=len(rd.trick), players=self.rules.players)

    def moon(self, tok: Token) -> None:
        """``moon=others`` or ``moon=minus``: the shooter's choice, when the round waits for it."""
        rd, r = self.game.round, len(self.game.rounds)
        choice = MOON_WORDS.get(tok.text.lower().partition("=")[2])
        if choice is None:
            raise MoveLogError("movelog_bad_moon", line=tok.line, column=tok.column, text=tok.text)
        if rd.phase is not Phase.MOON:
            raise MoveLogError("movelog_moon_not_now", line=tok.line, column=tok.column, round=r,
                               text=tok.text)
        self.game.push_moon(choice)
        self.made(tok)

    def pass_card(self, tok: Token) -> None:
        """A card of a pass: the pass is made with its last card, by the first seat yet to pass."""
        self.pending.append(tok)
        if len(self.pending) < self.rules.pass_count:
            return
        game, pending = self.game, self.pending
        rd = game.round
        seat = rd.passes.index(None)
        cards = [_card(p) for p in pending]
        try:
            game.push_pass(cards, seat)
        except PassError as e:
            bad = _bad_pass_token(e, pending)
            raise MoveLogError("movelog_bad_pass", line=bad.line, column=bad.column,
                               round=len(game.rounds), seat=seat, reason=e) from None
        self.made(pending[0])
        self.pending = []

    def play(self, tok: Token) -> None:
        """A card played by the seat to move."""
        card = _card(tok)
        game = self.game
        rd = game.round
        try:
            game.push(card)
        except IllegalMove as e:
            raise MoveLogError("movelog_bad_play", line=tok.line, column=tok.column, round=len(game.rounds),
                               trick=len(rd.tricks) + 1, position=len(rd.trick) + 1,
                               seat=-1 if rd.turn is None else rd.turn, card=card, reason=e.reason) from None
        self.made(tok)

    def short_pass(self) -> None:
        """A pass cut short (by ``|`` or the end of the log): too few cards."""
        pending = self.pending
        raise MoveLogError("movelog_pass_size", line=pending[0].line, column=pending[0].column,
                           round=len(self.game.rounds), seat=self.game.round.passes.index(None),
                           given=len(pending), count=self.rules.pass_count)

    def finish(self) -> None:
        """The end of the log: anywhere but inside a pass."""
        if self.pending:
            self.short_pass()


def _card(tok: Token) -> Card:
    """The card a ``card`` word stands for."""
    assert tok.card is not None
    return tok.card


def _bad_pass_token(e: PassError, pending: list[Token]) -> Token:
    card = e.params.get("card")
    for tok in pending:
        if card is not None and tok.card == card:
            return tok
    return pending[0]


def _where_now(game: Game) -> str:
    return str(len(game.rounds))


def _spec_text(rules: Rules) -> str:
    """``PRESET key=value...``, the settings written as ``--set`` takes them."""
    from ..model.overrides import format_set  # only when asked for: start-up of the commands that do not

    return " ".join([str(rules.spec()["preset"])] + format_set(rules))


# ---------------------------------------------------------------- writing


def format_log(game: Game, *, hide_round_in_progress: bool = False, per_line: int = 4) -> list[str]:
    """The log of ``game`` so far, as lines (without line ends).

    With ``hide_round_in_progress``, an unfinished round with passes is left out
    (its passes are secret until the round ends) and a comment says so. The moves are the
    stack's; a round gives whether it is over, its pass direction and how its moon scored.
    """
    lines = [HEADER, f"code {game.code}", f"rules {_spec_text(game.rules)}"]
    for r, rnd in enumerate(game.rounds, 1):
        moves = game.round_moves(r)
        if not (moves.passed or moves.tricks):
            continue
        if (hide_round_in_progress and not rnd.over
                and rnd.direction.value != "none"):
            lines.append(f"# R{r} is under way: its moves are shown once it ends")
            break
        label = f"R{r}"
        pad = " " * (len(label) + 2)
        if moves.passed:
            groups = [" ".join(str(c) for c in p) for p in moves.passes if p is not None]
            lines.append(f"{label}  " + " | ".join(groups) + f"   # pass {rnd.direction.value}")
            first = False
        else:
            first = True
        tricks = [" ".join(str(c) for c in cards) for cards in moves.cards]
        for j in range(0, len(tricks), per_line):
            chunk = " / ".join(tricks[j:j + per_line])
            lines.append((f"{label}  " if first else pad) + chunk)
            first = False
        res = rnd.result
        if res is not None and res.shooter is not None and rnd.rules.moon is Moon.SHOOTER_CHOICE:
            lines[-1] += "  moon=" + ("others" if res.moon is Moon.OTHERS else "minus")
        if first:  # a round with nothing but its marker
            lines.append(label)
    return lines



def fit_lines(lines: list[str], width: int) -> list[str]:
    """``lines`` of a log (:func:`format_log`) broken to at most ``width`` columns, each
    still a line of the notation: a comment goes on as more ``#`` lines, moves go on
    indented, and a long ``rules`` line becomes several (their settings add up).
    Only a single word (or setting) longer than ``width`` leaves a line longer."""
    width = max(width, 20)
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        body, hash_, comment = line.partition("#")
        words = body.split()
        if words:
            if words[0] == "rules":
                lead = later = "rules "
                words = _SETTING_SPLIT.split(body.strip()[len("rules"):].strip())
            elif _ROUND.fullmatch(words[0]):
                lead = words[0] + "  "
                later = " " * len(lead)
                words = words[1:]
            else:
                lead = later = body[: len(body) - len(body.lstrip())]
            cur, fresh = lead, True
            for word in words:
                if not fresh and len(cur) + 1 + len(word) > width:
                    out.append(cur.rstrip())
                    cur, fresh = later, True
                cur += ("" if fresh else " ") + word
                fresh = False
            out.append(cur.rstrip())
        if hash_:
            cur = "#"
            for word in comment.split():
                if cur != "#" and len(cur) + 1 + len(word) > width:
                    out.append(cur)
                    cur = "#"
                cur += " " + word
            out.append(cur)
    return out
